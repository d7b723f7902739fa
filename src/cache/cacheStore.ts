/**
 * Storage for cached results: a dumb key/value store. Policy (freshness, scope, modes,
 * invalidation) lives in `ResponseCache`; a store only keeps entries and evicts them when full.
 */
import { LRUCache } from 'lru-cache';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { CacheScope } from '../types/protocol.js';
import { InvalidArgumentError } from '../errors/errors.js';

import type { MaybePromise } from '../util/maybePromise.js';

/** Stores may answer synchronously (memory) or not (Redis, IndexedDB). */
export type { MaybePromise };

/**
 * One cached result, as `ResponseCache` writes it (spec: server/utilities/caching).
 *
 * `receivedAt` is a reading of the writer's monotonic `Clock.now()`: a store shared between
 * several caches must only be shared by caches on the same clock (the default clock,
 * `performance.now()`, is shared by everything in one process). Entries are not meant to
 * outlive the process.
 */
export interface CacheEntry {
  /** The result, deeply frozen. Returned to callers as is (zero-copy). */
  readonly value: Readonly<JsonObject>;
  /** `Clock.now()` when the response was received, in ms (monotonic). */
  readonly receivedAt: number;
  /** Normalized TTL in ms (missing/invalid → 0, capped at the cache's `maxTtlMs`). */
  readonly ttlMs: number;
  /** Normalized scope (anything but `"public"` is `"private"`). */
  readonly scope: CacheScope;
  /** Size used for the store's byte bound: the caller's byte count or an estimate. */
  readonly bytes: number;
}

/**
 * Where `ResponseCache` keeps entries. Any method may return a promise. Keys are opaque
 * strings (see `cacheKey.ts`); a store shared by several clients or servers holds all of
 * their keys side by side.
 */
export interface CacheStore {
  /** The entry under `key`, or `undefined`. Must not judge freshness: stale entries are returned too. */
  get(key: string): MaybePromise<CacheEntry | undefined>;
  /**
   * Stores `entry` under `key`, replacing any entry there. Return `false` when the store
   * refuses the entry (for example, larger than its byte bound); anything else means stored.
   */
  set(key: string, entry: CacheEntry): MaybePromise<boolean | void>;
  /** Removes the entry under `key`, if any. */
  delete(key: string): MaybePromise<unknown>;
  /** Removes every entry, of every client sharing the store. `ResponseCache` never calls it. */
  clear(): MaybePromise<void>;
  /**
   * Every key that starts with `prefix` (invalidation enumerates keys with it). The result
   * may be a snapshot; `ResponseCache` deletes keys only after reading them all.
   */
  keys(prefix: string): MaybePromise<Iterable<string>>;
  /**
   * Optional: calls `listener` with each key the store drops on its own to stay within its
   * bounds (not for `delete`, `clear` or overwrites). Returns an unsubscribe function.
   * `ResponseCache` uses it for its `evict` events and `evictions` counter.
   */
  onEvict?(listener: (key: string) => void): () => void;
}

/** Options of {@link MemoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /** Most entries kept; least recently used go first. Positive integer. @default 5000 */
  maxEntries?: number | undefined;
  /**
   * Most bytes kept, summed over `entry.bytes`; least recently used go first. An entry larger
   * than this is refused (`set` returns `false`). Positive integer. @default 52428800 (50 MiB)
   */
  maxBytes?: number | undefined;
}

/** Default {@link MemoryCacheStoreOptions.maxEntries}. */
export const DEFAULT_MAX_ENTRIES = 5000;
/** Default {@link MemoryCacheStoreOptions.maxBytes}: 50 MiB. */
export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

/**
 * In-memory {@link CacheStore} on `lru-cache`, bounded by entry count and by bytes. It does not
 * use lru-cache's TTL (freshness is `ResponseCache` policy; stale entries stay until evicted, so
 * `force-cache`, stale-if-error and stale-while-revalidate can use them). All methods are
 * synchronous.
 *
 * @throws InvalidArgumentError (-32602) when `maxEntries` or `maxBytes` is not a positive integer.
 */
export class MemoryCacheStore implements CacheStore {
  private readonly lru: LRUCache<string, CacheEntry>;
  private readonly listeners = new Set<(key: string) => void>();
  /** The byte bound, in bytes. */
  readonly maxBytes: number;
  /** The entry bound. */
  readonly maxEntries: number;

  constructor(options: MemoryCacheStoreOptions = {}) {
    this.maxEntries = positiveInteger('maxEntries', options.maxEntries, DEFAULT_MAX_ENTRIES);
    this.maxBytes = positiveInteger('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES);
    this.lru = new LRUCache<string, CacheEntry>({
      max: this.maxEntries,
      maxSize: this.maxBytes,
      sizeCalculation: (entry) => (entry.bytes >= 1 ? Math.ceil(entry.bytes) : 1),
      dispose: (_entry, key, reason) => {
        if (reason !== 'evict') return;
        for (const listener of this.listeners) listener(key);
      },
    });
  }

  /** Number of entries held. */
  get size(): number {
    return this.lru.size;
  }

  /** Sum of `bytes` of the entries held. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get(key: string): CacheEntry | undefined {
    return this.lru.get(key);
  }

  set(key: string, entry: CacheEntry): boolean {
    if (entry.bytes > this.maxBytes) {
      this.lru.delete(key);
      return false;
    }
    this.lru.set(key, entry);
    return true;
  }

  delete(key: string): boolean {
    return this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }

  keys(prefix: string): string[] {
    const out: string[] = [];
    for (const key of this.lru.keys()) if (key.startsWith(prefix)) out.push(key);
    return out;
  }

  onEvict(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new InvalidArgumentError(name, value, 'expected a positive integer');
  return value;
}
