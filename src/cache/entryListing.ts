/**
 * Reading what one response cache holds, for a view (the devtools): its keys listed from the
 * store with `keys(prefix)`, each entry read with the store's `peek` when it has one (an LRU
 * order left as it is), else `get`. Never on the hit path: only when a listing is asked for. A
 * function of the cache's public parts, opted into by import: a client that never lists carries
 * none of it.
 */
import { abortedError, InvalidArgumentError } from '../errors/errors.js';
import { systemClock, systemWallClock, type Clock, type WallClock } from '../util/clock.js';
import { isPromise } from '../util/maybePromise.js';
import { keyPrefix, parseCacheKey } from './cacheKey.js';
import type { ResponseCache } from './responseCache.js';
import type { CacheEntry, CacheEntryInfo } from './types.js';

/** The most entries one listing returns by default. */
export const DEFAULT_LIST_LIMIT = 500;

/** Options of {@link listCacheEntries}. */
export interface ListEntriesOptions {
  /** The most entries returned (the first ones the store lists); an integer ≥ 1. @default 500 */
  limit?: number | undefined;
  /** Aborts the listing between store reads (`CancelledError` -32800). */
  signal?: AbortSignal | undefined;
  /** The wall clock `fresh` is judged on (`now < expiresAt`). @default Date.now() */
  wallClock?: WallClock | undefined;
  /**
   * The cache's monotonic clock, for an entry without `expiresAt` (a store that keeps only
   * `receivedAt`). @default performance.now(), the cache's own default
   */
  clock?: Clock | undefined;
}

/**
 * What `cache` holds now, read from its store: every entry of its server (any auth context,
 * fresh or stale), the first `limit` the store lists, oldest stored first. Each carries its
 * value: a view that shows several users' entries must not show a private value (`scope:
 * 'private'`) to anyone else.
 *
 * ```ts
 * for (const entry of await listCacheEntries(client.cache!))
 *   console.log(entry.method, entry.param, entry.scope, entry.fresh);
 * ```
 * @throws InvalidArgumentError (-32602) for a `limit` that is not an integer ≥ 1;
 *   CancelledError (-32800) when `signal` aborts; what the store's `keys` throws (a failed
 *   read of one entry leaves that entry out).
 */
export async function listCacheEntries(
  cache: ResponseCache,
  options: ListEntriesOptions = {},
): Promise<CacheEntryInfo[]> {
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new InvalidArgumentError('limit', limit, 'expected an integer of at least 1');
  const signal = options.signal;
  if (signal?.aborted) throw abortedError('listEntries', signal.reason);
  const store = cache.store;
  const tag = cache.serverTag;
  const prefix = keyPrefix(tag);
  const wallClock = options.wallClock ?? systemWallClock;
  const clock = options.clock ?? systemClock;
  const listed = store.keys(prefix);
  const keys = isPromise(listed) ? await listed : listed;
  const out: CacheEntryInfo[] = [];
  for (const key of keys) {
    if (out.length >= limit) break;
    if (!key.startsWith(prefix)) continue;
    const parts = parseCacheKey(key);
    if (parts === undefined || parts.serverTag !== tag) continue;
    let entry: CacheEntry | undefined;
    try {
      const read = store.peek !== undefined ? store.peek(key) : store.get(key);
      entry = isPromise(read) ? await read : read;
    } catch {
      continue; // gone or unreadable: a listing shows what it can read
    }
    if (signal?.aborted) throw abortedError('listEntries', signal.reason);
    if (entry === undefined) continue;
    const wallNow = wallClock.now();
    const expiresAt = entry.expiresAt ?? wallNow + (entry.receivedAt + entry.ttlMs - clock.now());
    out.push({
      key,
      method: parts.method,
      param: parts.param,
      protocolVersion: parts.protocolVersion,
      partition: parts.partition,
      scope: entry.scope,
      ttlMs: entry.ttlMs,
      bytes: entry.bytes,
      storedAt: expiresAt - entry.ttlMs,
      expiresAt,
      fresh: wallNow < expiresAt,
      value: entry.value,
    });
  }
  return out.sort((a, b) => a.storedAt - b.storedAt);
}
