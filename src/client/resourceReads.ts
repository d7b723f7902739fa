/**
 * `resources/read` as the client serves it: a fresh cache entry answered synchronously (no
 * request object, no loader, no async frame), else through the cache's fetch; a server's
 * "not found" classified as `ResourceNotFoundError` and the URI dropped from the cache.
 */
import { InvalidArgumentError, ResourceNotFoundError, RpcError } from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import type { ReadResourceResult } from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { CacheSource } from '../cache/types.js';
import { checkRead } from './reads.js';
import type { ClientParts } from './assembly.js';

/** `McpClient.readResource` (see its doc comment for what it resolves with and throws). */
export function readResource(
  parts: ClientParts,
  uri: string,
  options: CallOptions | undefined,
): Promise<ReadResourceResult> {
  // 'default' is the unset mode, and 'force-cache' serves a fresh entry as it does; the other modes skip it.
  if (
    parts.connection.state === 'open' &&
    (options === undefined ||
      (options.signal === undefined &&
        (options.cacheMode === undefined || options.cacheMode === 'default' || options.cacheMode === 'force-cache')))
  ) {
    const cache = parts.responseCache;
    if (cache !== undefined && typeof uri === 'string' && uri !== '') {
      const hit = cache.peekFresh('resources/read', uri, parts.caller.cacheVersion(options));
      if (hit !== undefined) {
        if (parts.observer !== undefined)
          parts.observer.start('resources/read', { uri }, parts.caller.protocolVersion).servedFromCache(hit);
        return Promise.resolve(hit as ReadResourceResult);
      }
    }
  }
  return fromServer(parts, uri, options ?? {});
}

/** Through the cache's fetch: one reaction for a failure, none added to a result (no async frame). */
function fromServer(parts: ClientParts, uri: string, options: CallOptions): Promise<ReadResourceResult> {
  if (typeof uri !== 'string' || uri === '')
    return Promise.reject(new InvalidArgumentError('uri', uri, 'expected a non-empty URI string (RFC 3986)'));
  const read = parts.reads.cached(
    'resources/read',
    { uri },
    { uri },
    options,
    checkRead,
  ) as Promise<ReadResourceResult>;
  return read.catch((error: unknown) => {
    const mapped = asNotFound(error, uri);
    if (!(mapped instanceof ResourceNotFoundError)) throw mapped;
    return Promise.resolve(parts.responseCache?.invalidateUri(uri)).then(() => {
      throw mapped;
    });
  });
}

/** A read through the cache that says where its result came from (for the Skills extension's verified reads). */
export async function readWithSource(
  parts: ClientParts,
  uri: string,
  options: CallOptions,
): Promise<{ result: ReadResourceResult; source: CacheSource }> {
  try {
    const outcome = await parts.reads.cachedOutcome('resources/read', { uri }, { uri }, options, checkRead);
    return { result: outcome.result as ReadResourceResult, source: outcome.source };
  } catch (error) {
    throw asNotFound(error, uri);
  }
}

/** Classifies a resources/read failure as not-found when the server said so (B10). */
function asNotFound(error: unknown, uri: string): unknown {
  if (!(error instanceof RpcError) || error instanceof ResourceNotFoundError) return error;
  const data = error.data as { uri?: unknown } | undefined;
  const notFound =
    error.code === ErrorCode.ResourceNotFoundLegacy ||
    (error.code === ErrorCode.InvalidParams && (typeof data?.uri === 'string' || /not found/i.test(error.message)));
  return notFound
    ? new ResourceNotFoundError({ code: error.code, message: error.message, data: error.data }, uri)
    : error;
}
