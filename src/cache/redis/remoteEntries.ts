/**
 * Cache entries as a fleet store keeps them in Redis, on this process's clocks: the text and
 * `PX` written for an entry, and an entry read back (its remaining freshness the least of what
 * the server granted, the wall-clock expiry and Redis's own `PTTL` allow). A key that holds
 * something unusable is a miss, reported and removed. The text itself is entryCodec.ts's.
 */
import type { Clock, WallClock } from '../../util/clock.js';
import { recheckResult } from '../../wire/results.js';
import { parseCacheKey } from '../cacheKey.js';
import type { CacheEntry } from '../types.js';
import { decodeEntry, encodeEntry, type StoredEntry } from './entryCodec.js';
import { CacheStoreError } from './errors.js';
import type { LocalTier } from './localTier.js';
import type { RedisKeys } from './redisKeys.js';
import type { RedisLink } from './redisLink.js';

/** What one `GET` of an entry key brought back. */
export interface EntryRead {
  readonly text: string | null;
  readonly wrongType: boolean;
}

/** What {@link RemoteEntries} works with. */
export interface RemoteEntriesDeps {
  readonly link: RedisLink;
  readonly names: RedisKeys;
  readonly clock: Clock;
  readonly wallClock: WallClock;
  /** How long Redis keeps an entry after it goes stale, in ms. */
  readonly retainStaleMs: number;
  readonly local: LocalTier | undefined;
  /** Reports a problem to the store's `onError`. */
  report(error: unknown): void;
  /** An operation failed: the store goes without Redis until it answers again. */
  failed(error: unknown): void;
}

/** The entries of one store in Redis (see the file's opening comment). */
export class RemoteEntries {
  constructor(private readonly deps: RemoteEntriesDeps) {}

  /**
   * The text and `PX` (its remaining freshness plus `retainStaleMs`, in ms) to write for
   * `entry`; `undefined` when it is already stale and nothing is retained.
   */
  toWrite(entry: CacheEntry): { text: string; px: number } | undefined {
    const left = entry.receivedAt + entry.ttlMs - this.deps.clock.now();
    const px = Math.floor(left + this.deps.retainStaleMs);
    if (px < 1) return undefined;
    const text = encodeEntry({
      value: entry.value,
      expiresAt: entry.expiresAt ?? this.deps.wallClock.now() + left,
      ttlMs: entry.ttlMs,
      scope: entry.scope,
      bytes: entry.bytes,
    });
    return { text, px };
  }

  /**
   * What a `GET` of the entry under `key` brought back, as an entry; `undefined` for none. A
   * key of another Redis type, a text that is not an entry, or a result that fails the checks
   * the client runs on a server's (another writer's, a corrupted value) is a miss: reported as
   * `malformed-entry` and removed, so the next load replaces it.
   */
  readBack(read: EntryRead, pttl: number | undefined, key: string): CacheEntry | undefined {
    if (read.wrongType) return this.malformed(key, 'holds a value of another Redis type (WRONGTYPE)');
    if (read.text === null) return undefined;
    const method = parseCacheKey(key)?.method;
    let problem: string | undefined;
    const stored: StoredEntry | undefined = decodeEntry(read.text, (value) => {
      problem = method === undefined ? undefined : recheckResult(method, value);
      return problem === undefined;
    });
    if (stored === undefined)
      return this.malformed(
        key,
        problem === undefined ? 'is not an mcp-live cache entry' : `holds a result that fails its checks (${problem})`,
      );
    return this.entryOf(stored, pttl);
  }

  /** Reports the entry under `key` as malformed and removes it; a miss. */
  private malformed(key: string, why: string): undefined {
    const redisKey = this.deps.names.entry(key);
    this.deps.report(
      new CacheStoreError(`Redis key ${redisKey} of this store ${why}; served as a miss and removed`, {
        operation: 'GET',
        reason: 'malformed-entry',
        key: redisKey,
      }),
    );
    this.deps.local?.delete(key);
    this.deps.link.unlink([redisKey]).catch((error: unknown) => this.deps.failed(error));
    return undefined;
  }

  /**
   * An entry read from Redis, on this process's clock: its remaining freshness is the least of
   * the server's `ttlMs`, its wall-clock expiry and (with `retainStaleMs`) Redis's own `PTTL`.
   */
  private entryOf(stored: StoredEntry, pttl: number | undefined): CacheEntry {
    let left = Math.min(stored.ttlMs, stored.expiresAt - this.deps.wallClock.now());
    if (pttl !== undefined && pttl >= 0) left = Math.min(left, pttl - this.deps.retainStaleMs);
    return {
      value: stored.value,
      receivedAt: this.deps.clock.now() - (stored.ttlMs - left),
      ttlMs: stored.ttlMs,
      scope: stored.scope,
      bytes: stored.bytes,
      expiresAt: stored.expiresAt,
    };
  }
}
