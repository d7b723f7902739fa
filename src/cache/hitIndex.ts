/**
 * The hit index of a {@link ResponseCache} on a synchronous store: which key holds the entry of
 * a request, by method, protocol version, partition and param. It lets a fresh hit find its
 * entry without building (allocating and hashing) the key text.
 *
 * It never outgrows the store: a key is added when this cache writes it (or finds it in the
 * store) and removed when this cache deletes it or the store evicts it. With a store of its
 * own the cache sees every change, so the index is exact; with a store shared with other
 * caches, keys those delete may linger until a lookup finds them gone, so the index is capped
 * at the store's entry bound and cleared when it goes over.
 */
import { parseCacheKey } from './cacheKey.js';

type Bucket = Map<string | null, string>;

export class HitIndex {
  /** method → protocol version → partition → param → key. */
  private readonly byMethod = new Map<string, Map<string, Map<string, Bucket>>>();
  private count = 0;
  /**
   * The bucket the last lookup found, with its method, protocol version and partition: a run of
   * hits on one list or one partition (the common case) makes one map lookup instead of four.
   * Forgotten whenever a bucket is dropped or the index cleared.
   */
  private lastMethod: string | undefined;
  private lastVersion: string | undefined;
  private lastPartition: string | undefined;
  private lastBucket: Bucket | undefined;

  /**
   * @param tag the cache's server tag: evicted keys of other servers are ignored.
   * @param limit most keys held before the index is cleared (the store's entry bound).
   */
  constructor(
    private readonly tag: string,
    private readonly limit: number,
  ) {}

  /** Number of keys held. */
  get size(): number {
    return this.count;
  }

  /** The key of a request's entry, if known. Allocates nothing. */
  get(method: string, protocolVersion: string, partition: string, param: string | null): string | undefined {
    if (method === this.lastMethod && protocolVersion === this.lastVersion && partition === this.lastPartition)
      return this.lastBucket!.get(param);
    const bucket = this.byMethod.get(method)?.get(protocolVersion)?.get(partition);
    if (bucket === undefined) return undefined;
    this.lastMethod = method;
    this.lastVersion = protocolVersion;
    this.lastPartition = partition;
    this.lastBucket = bucket;
    return bucket.get(param);
  }

  /** Forgets the last lookup's bucket ({@link get}). */
  private forgetLast(): void {
    this.lastMethod = this.lastVersion = this.lastPartition = undefined;
    this.lastBucket = undefined;
  }

  add(method: string, protocolVersion: string, partition: string, param: string | null, key: string): void {
    let byVersion = this.byMethod.get(method);
    if (byVersion === undefined) {
      byVersion = new Map();
      this.byMethod.set(method, byVersion);
    }
    let byPartition = byVersion.get(protocolVersion);
    if (byPartition === undefined) {
      byPartition = new Map();
      byVersion.set(protocolVersion, byPartition);
    }
    let bucket = byPartition.get(partition);
    if (bucket === undefined) {
      bucket = new Map();
      byPartition.set(partition, bucket);
    }
    const size = bucket.size;
    bucket.set(param, key);
    if (bucket.size === size) return;
    if (++this.count > this.limit) this.clear();
  }

  remove(method: string, protocolVersion: string, partition: string, param: string | null): void {
    const byVersion = this.byMethod.get(method);
    const byPartition = byVersion?.get(protocolVersion);
    const bucket = byPartition?.get(partition);
    if (bucket === undefined || !bucket.delete(param)) return;
    this.count--;
    if (bucket.size > 0) return;
    // Drop empty levels: auth contexts and protocol versions come and go.
    if (bucket === this.lastBucket) this.forgetLast();
    byPartition!.delete(partition);
    if (byPartition!.size > 0) return;
    byVersion!.delete(protocolVersion);
    if (byVersion!.size === 0) this.byMethod.delete(method);
  }

  /** Removes a key given as text (evictions, walk deletes); keys of other servers are ignored. */
  removeKey(key: string): void {
    if (this.count === 0) return;
    const parts = parseCacheKey(key);
    if (parts === undefined || parts.serverTag !== this.tag) return;
    this.remove(parts.method, parts.protocolVersion, parts.partition, parts.param);
  }

  clear(): void {
    this.forgetLast();
    this.byMethod.clear();
    this.count = 0;
  }
}
