/**
 * A small in-process tier in front of a fleet store: recently read or written entries, kept
 * only while they are fresh, so that a hot key does not cross the network on every hit. It is
 * bounded by entries and bytes (lru-cache) and answers synchronously.
 *
 * It can only be as current as the invalidations it hears: its owner clears it whenever the
 * invalidation channel or Redis is lost, and drops the entries an invalidation covers when it
 * hears of one.
 */
import { LRUCache } from 'lru-cache';
import type { Clock, WallClock } from '../../util/clock.js';
import type { CacheEntry } from '../types.js';
import { parseCacheKey } from '../cacheKey.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import { serverTagOf } from './redisKeys.js';

/** Options of the in-process tier of a `RedisCacheStore`. */
export interface LocalTierOptions {
  /** Most entries kept. Positive integer. @default 1000 */
  maxEntries?: number | undefined;
  /** Most bytes kept (summed over `entry.bytes`). Positive integer. @default 8388608 (8 MiB) */
  maxBytes?: number | undefined;
}

export class LocalTier {
  private readonly lru: LRUCache<string, CacheEntry>;

  /** @throws InvalidArgumentError (-32602) when a bound is not a positive integer. */
  constructor(
    options: LocalTierOptions,
    private readonly clock: Clock,
    private readonly wallClock: WallClock,
  ) {
    const maxEntries = positive('localTier.maxEntries', options.maxEntries, 1000);
    const maxBytes = positive('localTier.maxBytes', options.maxBytes, 8 * 1024 * 1024);
    this.lru = new LRUCache<string, CacheEntry>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (entry) => (entry.bytes >= 1 ? Math.ceil(entry.bytes) : 1),
    });
  }

  get size(): number {
    return this.lru.size;
  }

  /**
   * The entry under `key` while it is fresh by both clocks (the monotonic one and the wall
   * clock's `expiresAt`: a step of either only shortens its life); otherwise it is dropped.
   */
  get(key: string): CacheEntry | undefined {
    const entry = this.lru.get(key);
    if (entry === undefined) return undefined;
    if (this.fresh(entry)) return entry;
    this.lru.delete(key);
    return undefined;
  }

  /** Keeps `entry` if it is fresh now; a stale one is never kept here. */
  set(key: string, entry: CacheEntry): void {
    if (this.fresh(entry)) this.lru.set(key, entry);
    else this.lru.delete(key);
  }

  delete(key: string): void {
    this.lru.delete(key);
  }

  /** Drops the entries of the server tagged `serverTag` (of `methods` only, when given). */
  dropServer(serverTag: string, methods: ReadonlySet<string> | undefined): void {
    for (const key of [...this.lru.keys()]) {
      if (serverTagOf(key) !== serverTag) continue;
      if (methods !== undefined && !methods.has(parseCacheKey(key)?.method ?? '')) continue;
      this.lru.delete(key);
    }
  }

  clear(): void {
    this.lru.clear();
  }

  private fresh(entry: CacheEntry): boolean {
    return (
      this.clock.now() < entry.receivedAt + entry.ttlMs &&
      (entry.expiresAt === undefined || this.wallClock.now() < entry.expiresAt)
    );
  }
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new InvalidArgumentError(name, value, 'expected a positive integer');
  return value;
}
