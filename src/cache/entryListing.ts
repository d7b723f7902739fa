/**
 * Reading what one response cache holds, for a view (the devtools): its keys listed from the
 * store with `keys(prefix)`, each entry read with the store's `peek` when it has one (an LRU
 * order left as it is), else `get`. Never on the hit path: only when a listing is asked for.
 */
import { abortedError, InvalidArgumentError } from '../errors/errors.js';
import type { Clock, WallClock } from '../util/clock.js';
import { isPromise } from '../util/maybePromise.js';
import { parseCacheKey } from './cacheKey.js';
import type { CacheStore } from './cacheStore.js';
import type { CacheEntry, CacheEntryInfo } from './types.js';

/** The most entries one listing returns by default. */
export const DEFAULT_LIST_LIMIT = 500;

/** Options of `ResponseCache.listEntries`. */
export interface ListEntriesOptions {
  /** The most entries returned (the first ones the store lists); an integer ≥ 1. @default 500 */
  limit?: number | undefined;
  /** Aborts the listing between store reads (`CancelledError` -32800). */
  signal?: AbortSignal | undefined;
}

/** What a listing reads with. */
export interface EntryListingDeps {
  readonly store: CacheStore;
  /** Every key of this cache starts with it. */
  readonly prefix: string;
  /** The server tag of this cache's keys (a shared store holds other caches' keys under other tags). */
  readonly serverTag: string;
  readonly clock: Clock;
  readonly wallClock: WallClock;
}

/**
 * The entries of one cache, the first `limit` the store lists, oldest stored first.
 * @throws InvalidArgumentError (-32602) for a `limit` that is not an integer ≥ 1;
 *   CancelledError (-32800) when `signal` aborts; what the store's `keys` throws (a failed
 *   read of one entry leaves that entry out).
 */
export async function listEntries(deps: EntryListingDeps, options: ListEntriesOptions = {}): Promise<CacheEntryInfo[]> {
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new InvalidArgumentError('limit', limit, 'expected an integer of at least 1');
  const signal = options.signal;
  if (signal?.aborted) throw abortedError('listEntries', signal.reason);
  const store = deps.store;
  const listed = store.keys(deps.prefix);
  const keys = isPromise(listed) ? await listed : listed;
  const out: CacheEntryInfo[] = [];
  for (const key of keys) {
    if (out.length >= limit) break;
    if (!key.startsWith(deps.prefix)) continue;
    const parts = parseCacheKey(key);
    if (parts === undefined || parts.serverTag !== deps.serverTag) continue;
    let entry: CacheEntry | undefined;
    try {
      const read = store.peek !== undefined ? store.peek(key) : store.get(key);
      entry = isPromise(read) ? await read : read;
    } catch {
      continue; // gone or unreadable: a listing shows what it can read
    }
    if (signal?.aborted) throw abortedError('listEntries', signal.reason);
    if (entry === undefined) continue;
    const now = deps.clock.now();
    const expiresAt = entry.expiresAt ?? deps.wallClock.now() + (entry.receivedAt + entry.ttlMs - now);
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
      fresh: now < entry.receivedAt + entry.ttlMs,
      value: entry.value,
    });
  }
  return out.sort((a, b) => a.storedAt - b.storedAt);
}
