/**
 * `resource_link` items: pointers to resources in tool results and prompt messages (spec:
 * server/tools, Resource Links), which the client reads when it needs their contents.
 */
import { ProtocolError } from '../errors/errors.js';
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
