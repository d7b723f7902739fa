/**
 * Reading the `resource_link` items of a result (`McpClient.readResourceLinks`), loaded on its
 * first call.
 */
import { abortedError, InvalidArgumentError } from '../errors/errors.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { ReadResourceResult, ResourceLink } from '../wire/protocol.js';
import {
  resourceLinksOf,
  type ReadResourceLinksOptions,
  type ResourceLinkRead,
  type ResourceLinkSource,
} from './links.js';

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
