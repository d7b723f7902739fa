/**
 * `resource_link` items: pointers to resources in tool results and prompt messages (spec:
 * server/tools, Resource Links), which the client reads when it needs their contents.
 */
import { abortedError, InvalidArgumentError, ProtocolError } from '../errors/errors.js';
import { isObject } from '../wire/messages.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { ContentBlock, PromptMessage, ReadResourceResult, ResourceLink } from '../wire/protocol.js';

/** Where links can be found: a `tools/call` or `prompts/get` result, or content blocks. */
export type ResourceLinkSource =
  { readonly content: readonly unknown[] } | { readonly messages: readonly PromptMessage[] } | readonly ContentBlock[];

/** Options of `client.readResourceLinks()`: the reads' own {@link CallOptions}, plus which links and how many at once. */
export interface ReadResourceLinksOptions extends CallOptions {
  /** Keep only the links this returns true for (`index` is the link's place among all links). @default every link */
  filter?: ((link: ResourceLink, index: number) => boolean) | undefined;
  /** The most reads in flight at once. @default 8 */
  concurrency?: number | undefined;
}

/**
 * One link and what reading it gave: `result`, or `error` for that link alone
 * (`ResourceNotFoundError` when the server has no such resource; also `RpcError`,
 * `TimeoutError`, `ProtocolError`...).
 */
export type ResourceLinkRead =
  | { link: ResourceLink; result: ReadResourceResult; error?: undefined }
  | { link: ResourceLink; result?: undefined; error: Error };

/**
 * The `resource_link` items of a result, in order: `content` of a tool result, the `content`
 * of each prompt message, or an array of content blocks. A link without a non-empty `uri`
 * string or a `name` string is left out and reported to `onError` (`ProtocolError`).
 */
export function resourceLinksOf(source: ResourceLinkSource, onError?: (error: Error) => void): ResourceLink[] {
  const blocks: unknown[] = Array.isArray(source)
    ? source
    : 'content' in source && Array.isArray(source.content)
      ? source.content
      : 'messages' in source && Array.isArray(source.messages)
        ? source.messages.map((m: unknown) => (isObject(m) ? m['content'] : undefined))
        : [];
  const links: ResourceLink[] = [];
  for (const block of blocks) {
    if (!isObject(block) || block['type'] !== 'resource_link') continue;
    if (typeof block['uri'] !== 'string' || block['uri'] === '' || typeof block['name'] !== 'string') {
      onError?.(new ProtocolError('resource_link without a uri or name; ignored', { value: block }));
      continue;
    }
    links.push(block as unknown as ResourceLink);
  }
  return links;
}

/**
 * Reads the links of `source` (those `options.filter` keeps) with `read` — the client's
 * `readResource`, so through its cache and sharing identical reads in flight — at most
 * `options.concurrency` at a time. Resolves in link order, one entry per link, each with its
 * result or its own error.
 * @throws CancelledError (-32800) when `options.signal` aborts; InvalidArgumentError (-32602)
 *   for an invalid `concurrency`.
 */
export async function readResourceLinks(
  read: (uri: string, options: CallOptions) => Promise<ReadResourceResult>,
  source: ResourceLinkSource,
  options: ReadResourceLinksOptions = {},
  onError?: (error: Error) => void,
): Promise<ResourceLinkRead[]> {
  const { filter, concurrency = 8, ...callOptions } = options;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new InvalidArgumentError('concurrency', concurrency, 'expected a positive integer');
  const links = resourceLinksOf(source, onError).filter((link, index) => filter?.(link, index) ?? true);
  const reads: ResourceLinkRead[] = new Array<ResourceLinkRead>(links.length);
  const { signal } = callOptions;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < links.length) {
      if (signal?.aborted) throw abortedError('resources/read', signal.reason);
      const index = next++;
      const link = links[index] as ResourceLink;
      try {
        reads[index] = { link, result: await read(link.uri, callOptions) };
      } catch (error) {
        if (signal?.aborted) throw abortedError('resources/read', signal.reason);
        reads[index] = { link, error: error instanceof Error ? error : new Error(String(error), { cause: error }) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, links.length) }, worker));
  return reads;
}
