/**
 * The entries of one response cache in its store: which key a request's entry is under (the
 * public one or the auth context's private one, probed in the order its method was last stored
 * in), reading them without letting a store failure escape, the hit index's synchronous fast
 * path, writing one entry (frozen, measured, stamped with its wall-clock expiry, under the
 * store's fence), and deleting what an invalidation matches. Which entries may be served or
 * stored is the cache's decision, not this file's.
 */
import type { JsonObject } from '../wire/messages.js';
import type { CacheScope } from '../wire/protocol.js';
import type { Clock, WallClock } from '../util/clock.js';
import { isPromise, type MaybePromise } from '../util/maybePromise.js';
import type { AuthPartition } from './authContext.js';
import { PUBLIC_PARTITION, parseCacheKey, type CacheKeyBuilder, type CacheKeyParts } from './cacheKey.js';
import type { CacheStore } from './cacheStore.js';
import type { CacheEntry } from './types.js';
import { deepFreezeAndMeasure } from './freeze.js';
import { ageMs } from './freshness.js';
import type { HitIndex } from './hitIndex.js';
import type { Ctx, Found } from './listWalk.js';
import type { CacheReporter } from './reporter.js';

/** One cache's entries in its store (see the file's opening comment). */
export class CacheEntries {
  /** Scope of the last entry stored per method: which partition to look in first. */
  private readonly scopeHint = new Map<string, CacheScope>();

  /**
   * @param index where fresh hits find their key without building it (only on a `MemoryCacheStore`)
   * @param exactIndex true when the store is the cache's own: then the index knows every key
   * @param wallClock read once per written entry for its `expiresAt`; never for freshness
   */
  constructor(
    readonly store: CacheStore,
    private readonly keys: CacheKeyBuilder,
    private readonly index: HitIndex | undefined,
    private readonly exactIndex: boolean,
    private readonly clock: Clock,
    private readonly wallClock: WallClock,
    private readonly reporter: CacheReporter,
  ) {}

  /** The entry of a request, probing the partition its method was last stored in first. */
  lookup(ctx: Pick<Ctx, 'method' | 'param' | 'keys'>): MaybePromise<Found | undefined> {
    const found = this.probe(ctx);
    if (this.index !== undefined && found !== undefined && !isPromise(found)) {
      // Found in the store but maybe not in the index (written by another cache on the store).
      const keys = ctx.keys;
      const partition = found.key === keys.publicKey ? PUBLIC_PARTITION : keys.privateTag;
      if (partition !== undefined) this.index.add(ctx.method, keys.protocolVersion, partition, ctx.param, found.key);
    }
    return found;
  }

  private probe(ctx: Pick<Ctx, 'method' | 'keys'>): MaybePromise<Found | undefined> {
    const { publicKey, privateKey } = ctx.keys;
    if (privateKey === undefined) return this.read(publicKey);
    const publicFirst = this.scopeHint.get(ctx.method) === 'public';
    const first = publicFirst ? publicKey : privateKey;
    const second = publicFirst ? privateKey : publicKey;
    const found = this.read(first);
    if (isPromise(found)) return found.then((f) => f ?? this.readSecond(ctx.method, second));
    return found ?? this.readSecond(ctx.method, second);
  }

  /** The second probe of a lookup; a hit there flips the method's scope hint. */
  private readSecond(method: string, key: string): MaybePromise<Found | undefined> {
    const remember = (found: Found | undefined): Found | undefined => {
      if (found !== undefined) this.scopeHint.set(method, found.entry.scope);
      return found;
    };
    const found = this.read(key);
    return isPromise(found) ? found.then(remember) : remember(found);
  }

  private read(key: string): MaybePromise<Found | undefined> {
    let entry: MaybePromise<CacheEntry | undefined>;
    try {
      entry = this.store.get(key);
    } catch (error) {
      this.reporter.report(error);
      return undefined;
    }
    if (isPromise(entry)) {
      return entry.then(
        (e) => (e === undefined ? undefined : { key, entry: e }),
        (error: unknown) => {
          this.reporter.report(error);
          return undefined;
        },
      );
    }
    return entry === undefined ? undefined : { key, entry };
  }

  /**
   * The fresh entry of a request found through the hit index, counted as a hit; `undefined`
   * when the index cannot answer for sure (then the full lookup decides). Mirrors
   * {@link lookup} and the cache's freshness decision: the first probe (by scope hint) that has an entry decides.
   */
  peek(
    method: string,
    param: string | null,
    protocolVersion: string,
    partition: AuthPartition,
  ): CacheEntry | undefined {
    const index = this.index as HitIndex;
    const privateTag = partition.privateTag;
    let key: string | undefined;
    let second: string | undefined;
    if (privateTag === undefined) {
      key = index.get(method, protocolVersion, PUBLIC_PARTITION, param);
    } else {
      const publicFirst = this.scopeHint.get(method) === 'public';
      key = index.get(method, protocolVersion, publicFirst ? PUBLIC_PARTITION : privateTag, param);
      if (key === undefined) {
        // Only an exact index proves the first probe empty; otherwise the full lookup decides.
        if (!this.exactIndex) return undefined;
        second = index.get(method, protocolVersion, publicFirst ? privateTag : PUBLIC_PARTITION, param);
        if (second === undefined) return undefined;
        key = second;
      }
    }
    if (key === undefined) return undefined;
    let entry: MaybePromise<CacheEntry | undefined>;
    try {
      entry = this.store.get(key);
    } catch {
      return undefined; // fetch reports it
    }
    if (entry === undefined || isPromise(entry)) {
      if (entry === undefined) index.removeKey(key); // deleted behind this cache's back
      return undefined;
    }
    if (second !== undefined && this.scopeHint.get(method) !== entry.scope) this.scopeHint.set(method, entry.scope);
    const now = this.clock.now();
    if (!(now < entry.receivedAt + entry.ttlMs)) return undefined;
    this.reporter.counters.hits++;
    if (this.reporter.onEvent !== undefined)
      this.reporter.emit({ type: 'hit', method, param, key, ageMs: ageMs(entry, now) });
    return entry;
  }

  /**
   * Writes one entry under the key its scope selects. `fromNetwork` values are frozen (and
   * measured) here. Returns true when stored.
   */
  async write(
    ctx: Pick<Ctx, 'method' | 'param' | 'keys'>,
    entry: { value: JsonObject; receivedAt: number; ttlMs: number; scope: CacheScope; bytes: number | undefined },
    fromNetwork: boolean,
    invalidated: () => boolean,
    fence: unknown,
  ): Promise<boolean> {
    const { publicKey, privateKey } = ctx.keys;
    if (entry.scope === 'private' && privateKey === undefined)
      return this.reporter.skip(ctx.method, ctx.param, 'private-without-auth-context');
    if (invalidated()) return this.reporter.skip(ctx.method, ctx.param, 'invalidated');
    const measured = fromNetwork ? deepFreezeAndMeasure(entry.value) : 0;
    const bytes = entry.bytes ?? measured;
    const key = entry.scope === 'public' ? publicKey : (privateKey as string);
    const stored: CacheEntry = {
      value: entry.value,
      receivedAt: entry.receivedAt,
      ttlMs: entry.ttlMs,
      scope: entry.scope,
      bytes,
      // The same instant on the wall clock, for stores that keep entries outside the process.
      expiresAt: this.wallClock.now() + (entry.receivedAt + entry.ttlMs - this.clock.now()),
    };
    let accepted: Awaited<ReturnType<CacheStore['set']>>;
    try {
      const pending = this.store.set(key, stored, fence);
      accepted = isPromise(pending) ? await pending : pending;
    } catch (error) {
      this.reporter.report(error);
      return this.reporter.skip(ctx.method, ctx.param, 'store-error');
    }
    const index = this.index;
    const partition = entry.scope === 'public' ? PUBLIC_PARTITION : (ctx.keys.privateTag as string);
    if (accepted === false || typeof accepted === 'string') {
      index?.remove(ctx.method, ctx.keys.protocolVersion, partition, ctx.param);
      const reason =
        accepted === 'invalidated' ? 'invalidated' : accepted === 'unavailable' ? 'store-unavailable' : 'too-large';
      return this.reporter.skip(ctx.method, ctx.param, reason);
    }
    index?.add(ctx.method, ctx.keys.protocolVersion, partition, ctx.param, key);
    this.reporter.counters.stores++;
    if (this.scopeHint.get(ctx.method) !== entry.scope) this.scopeHint.set(ctx.method, entry.scope);
    if (this.reporter.onEvent !== undefined)
      this.reporter.emit({
        type: 'store',
        method: ctx.method,
        param: ctx.param,
        key,
        scope: entry.scope,
        ttlMs: entry.ttlMs,
        bytes,
      });
    if (entry.scope === 'public' && privateKey !== undefined) {
      // A newer public answer supersedes this auth context's older private one.
      index?.remove(ctx.method, ctx.keys.protocolVersion, ctx.keys.privateTag as string, ctx.param);
      await this.delete(privateKey);
    }
    return true;
  }

  /** Deletes one key from the store; a store failure is reported. */
  async delete(key: string): Promise<void> {
    try {
      const pending = this.store.delete(key);
      if (isPromise(pending)) await pending;
    } catch (error) {
      this.reporter.report(error);
    }
  }

  /**
   * Deletes every entry of this server under `prefix` that `matchKey` accepts (and its hit-index
   * slot), then resolves with `done(removed)`. With a synchronous store the entries are gone
   * before this returns. Store failures to delete a key are reported; a failure to list keys
   * rejects.
   */
  deleteMatching(
    prefix: string,
    matchKey: (parts: CacheKeyParts) => boolean,
    done: (removed: number) => number,
  ): Promise<number> {
    const remove = (listed: Iterable<string>): MaybePromise<number> => {
      const matched: string[] = [];
      for (const key of listed) {
        if (!key.startsWith(prefix)) continue;
        const parts = parseCacheKey(key);
        if (parts !== undefined && parts.serverTag === this.keys.tag && matchKey(parts)) {
          matched.push(key);
          this.index?.remove(parts.method, parts.protocolVersion, parts.partition, parts.param);
        }
      }
      const pending: Promise<unknown>[] = [];
      for (const key of matched) {
        try {
          const done = this.store.delete(key);
          if (isPromise(done)) pending.push(done.catch((error: unknown) => this.reporter.report(error)));
        } catch (error) {
          this.reporter.report(error);
        }
      }
      const finish = (): number => done(matched.length);
      return pending.length === 0 ? finish() : Promise.all(pending).then(finish);
    };
    try {
      const listed = this.store.keys(prefix);
      // With a synchronous store the entries are gone before this method returns.
      return Promise.resolve(isPromise(listed) ? listed.then(remove) : remove(listed));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
