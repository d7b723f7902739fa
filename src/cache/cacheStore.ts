/**
 * Storage for cached results: a dumb key/value store. Policy (freshness, scope, modes,
 * invalidation) lives in `ResponseCache`; a store only keeps entries and evicts them when full.
 */
import { LRUCache } from 'lru-cache';
import { InvalidArgumentError } from '../errors/errors.js';
import type { Closeable } from '../util/disposable.js';
import type { MaybePromise } from '../util/maybePromise.js';
import type { FleetInvalidation, FlightTicket, StoreRefusal } from './fleet.js';
import type { CacheEntry } from './types.js';

/** Stores may answer synchronously (memory) or not (Redis, IndexedDB). */
export type { MaybePromise };

/**
 * Where `ResponseCache` keeps entries. Any method may return a promise. Keys are opaque
 * strings (see `cacheKey.ts`); a store shared by several clients or servers holds all of
 * their keys side by side.
 */
export interface CacheStore {
  /** The entry under `key`, or `undefined`. Must not judge freshness: stale entries are returned too. */
  get(key: string): MaybePromise<CacheEntry | undefined>;
  /**
   * Optional: the entry under `key` without counting as a use (an LRU store leaves its order as
   * it is). `listCacheEntries` reads with it when the store has it, else with `get`.
   */
  peek?(key: string): MaybePromise<CacheEntry | undefined>;
  /**
   * Stores `entry` under `key`, replacing any entry there. Return `false` when the store
   * refuses the entry (for example, larger than its byte bound), or a {@link StoreRefusal}
   * that says why; anything else means stored. `fence` is what {@link fence} returned when the
   * load that produced the entry started (`undefined` for stores without `fence`).
   */
  set(key: string, entry: CacheEntry, fence?: unknown): MaybePromise<boolean | void | StoreRefusal>;
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

  // ---- stores shared by several processes (see fleet.ts) ----------------------------------

  /**
   * Optional: a token taken when a load of `method` on the server tagged `serverTag` starts,
   * handed back to {@link set} with the load's result. The store refuses (`'invalidated'`) the
   * write when that method was invalidated anywhere since, including in another process: the
   * generation guard across a fleet. It may return a promise (say, while it first reads the
   * fleet's generations): the cache sends the load only once it resolves, and passes its value.
   */
  fence?(serverTag: string, method: string): unknown;
  /**
   * Optional: told of each invalidation a cache on this store makes, before the cache deletes
   * the entries it covers (so writes fenced before it are refused). The store passes it on to
   * the other caches on it, here and in other processes (see {@link onInvalidation}). When it
   * calls `removeEntries` (the cache's deletion of the covered entries), it tells the other
   * processes only once that settles: a process told earlier could read an entry about to go
   * and keep it (say, in a local tier) with no later notice to drop it. Otherwise the cache
   * deletes them once the returned promise settles.
   */
  invalidated?(notice: FleetInvalidation, removeEntries?: () => Promise<unknown>): MaybePromise<void>;
  /**
   * Optional: calls `listener` with each invalidation made by another cache on the store, in
   * this process or another; the cache keeps loads it has in flight from being stored.
   * Returns an unsubscribe function.
   */
  onInvalidation?(listener: (notice: FleetInvalidation) => void): () => void;
  /**
   * Optional: single-flight across processes for a cold request whose public entry is `key`.
   * Resolves to the entry when another process stored it while this one waited, to a ticket
   * to lead the load, or to `undefined` (load without coordination). Never rejects.
   */
  flight?(key: string, signal: AbortSignal): Promise<FlightTicket | undefined>;
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
export class MemoryCacheStore implements CacheStore, Closeable {
  private readonly lru: LRUCache<string, CacheEntry>;
  /** What {@link get} passes to lru-cache (which writes `status` into it: kept per store). */
  private readonly getOptions: LRUCache.GetOptions<string, CacheEntry, unknown> = {};
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
      sizeCalculation: (entry) => sizeOf(entry),
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
    // One options object for every get: without it, lru-cache makes an empty one per call.
    return this.lru.get(key, this.getOptions);
  }

  /** The entry under `key`, leaving the LRU order as it is. */
  peek(key: string): CacheEntry | undefined {
    return this.lru.peek(key);
  }

  set(key: string, entry: CacheEntry): boolean {
    if (entry.bytes > this.maxBytes) {
      this.delete(key);
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

  /**
   * Empties the store and drops its eviction listeners (without telling them), so nothing it
   * holds outlives its owner. The store stays usable. Idempotent; never rejects.
   */
  close(): Promise<void> {
    this.listeners.clear();
    this.clear();
    return Promise.resolve();
  }

  /** The same as {@link close}, for `await using store = new MemoryCacheStore()`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** What an entry counts toward `maxBytes`: its `bytes`, at least 1. */
function sizeOf(entry: CacheEntry): number {
  return entry.bytes >= 1 ? Math.ceil(entry.bytes) : 1;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new InvalidArgumentError(name, value, 'expected a positive integer');
  return value;
}
