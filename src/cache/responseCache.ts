/**
 * The response cache of one client (spec: server/utilities/caching): what may be served, what
 * may be stored, for whom, and for how long. Storage is a {@link CacheStore}; keys come from
 * `cacheKey.ts`, freshness from `freshness.ts`, entries from `entries.ts`, loads in flight from
 * `inFlight.ts`, invalidations from `invalidations.ts`, list walks from `listWalk.ts`. Over 500
 * lines because the read and load paths are the cache's one idea and a split would put a stop
 * between a lookup and its decision.
 */
import { abortedError, InvalidArgumentError, isCancelledError, McpError, ProtocolError } from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import { isObject } from '../wire/messages.js';
import type { JsonObject } from '../wire/messages.js';
import { systemClock, systemWallClock, type Clock, type WallClock } from '../util/clock.js';
import { isPromise, type MaybePromise } from '../util/maybePromise.js';
import { ANONYMOUS_PRIVATE_TAG, type AuthPartition } from './authContext.js';
import { CacheKeyBuilder, PUBLIC_PARTITION, keyParam, keyPrefix, parseCacheKey, quoteJson } from './cacheKey.js';
import { MemoryCacheStore, type CacheStore } from './cacheStore.js';
import { resolveResponseCacheOptions, type ResponseCacheOptions } from './options.js';

import { CacheEntries } from './entries.js';
import { PartitionResolver, type RequestAuth } from './partitionResolver.js';
import { CacheMissError } from './errors.js';
import type { FlightTicket } from './fleet.js';
import { DEFAULT_MAX_TTL_MS, ageMs, isFresh, isWithinStaleWindow, normalizeScope, normalizeTtl } from './freshness.js';
import { HitIndex } from './hitIndex.js';
import { InFlightLoads, type InFlight } from './inFlight.js';
import { Invalidations, isUnder } from './invalidations.js';
import {
  PolicyListWalk,
  missData,
  outcomeOf,
  type Ctx,
  type Found,
  type ListWalk,
  type ListWalkRequest,
  type Settled,
  type WalkDeps,
} from './listWalk.js';
import { CacheReporter } from './reporter.js';
import {
  LIST_METHODS,
  isCacheableMethod,
  isListMethod,
  type CacheOutcome,
  type CacheRequest,
  type CacheStats,
  type ListMethod,
  type LoadOutcome,
  type Loader,
  type SkipReason,
} from './types.js';
import type { CacheMode } from '../wire/callOptions.js';

const noop = (): void => {};

/**
 * Response cache of one client (one server), implementing spec section server/utilities/caching.
 *
 * - **Keys**: method + `uri`/cursor + server identity + protocol version + partition
 *   (`cacheKey.ts`). Cacheable methods: `server/discover`, the four list methods and
 *   `resources/read`.
 * - **Freshness**: `now < receivedAt + ttlMs` on the injected monotonic clock; `ttlMs` missing,
 *   non-numeric, `NaN` or negative is 0; capped at `maxTtlMs`. No timers: freshness is checked
 *   when a result is needed.
 * - **Scope**: `public` entries are shared by every auth context; `private` ones (and unknown
 *   scopes) only within the auth context that received them. Without a declared auth context,
 *   private entries go to an `anonymous` partition of this cache's own store; with a shared
 *   store (`store` given) they are not cached at all.
 * - **Never stored**: `input_required` results, results of MRTR retries (`storable: false`),
 *   results whose key was invalidated while in flight, and anything in mode `no-store`.
 * - **Sharing**: identical requests (same key and auth context) in flight together are sent once.
 * - **Values**: stored results are deeply frozen once, when stored, and every hit returns that
 *   same object (zero-copy); callers must not mutate results.
 *
 * @example
 * ```ts
 * const cache = new ResponseCache({ serverIdentity: transport.serverIdentity, authContext: () => session.userId });
 * const { result, source } = await cache.fetch(
 *   { method: 'tools/list', protocolVersion: '2026-07-28' },
 *   async (signal) => ({ result: await send('tools/list', {}, signal), storable: true }),
 * );
 * ```
 */
export class ResponseCache {
  /** The server identity every key of this cache carries. */
  readonly serverIdentity: string;
  /** The store in use. */
  readonly store: CacheStore;
  private readonly keys: CacheKeyBuilder;
  private readonly clock: Clock;
  private readonly wallClock: WallClock;
  private readonly partitions: PartitionResolver;
  private readonly maxTtlMs: number;
  private readonly swrMs: number;
  private readonly sieMs: number;
  /** Counters, events and error reports. */
  private readonly reporter: CacheReporter;
  /** The entries in the store: lookups, the hit index's fast path, writes, deletions. */
  private readonly entries: CacheEntries;
  /** Loads in flight, shared by callers with the same key and auth context. */
  private readonly loads = new InFlightLoads();
  /** Generations, marks on loads in flight, the fleet store told, entries deleted. */
  private readonly invalidations: Invalidations;
  private readonly unsubscribeEvict: () => void;
  private readonly unsubscribeFleet: () => void;
  /** Where fresh hits find their key without building it: only on a {@link MemoryCacheStore}. */
  private readonly index: HitIndex | undefined;

  /**
   * @throws InvalidArgumentError (-32602) when `serverIdentity` is not a string or a duration
   *   option is negative or not a number.
   */
  constructor(options: ResponseCacheOptions) {
    const resolved = resolveResponseCacheOptions(options);
    this.serverIdentity = resolved.serverIdentity;
    this.store = resolved.store ?? new MemoryCacheStore();
    this.keys = new CacheKeyBuilder(resolved.serverIdentity);
    this.index =
      this.store instanceof MemoryCacheStore ? new HitIndex(this.keys.tag, this.store.maxEntries) : undefined;
    this.clock = resolved.clock ?? systemClock;
    this.wallClock = resolved.wallClock ?? systemWallClock;
    this.partitions = new PartitionResolver({
      authContext: resolved.authContext,
      credentials: resolved.credentials,
      sharedStore: resolved.sharedStore ?? resolved.store !== undefined,
    });
    this.maxTtlMs = resolved.maxTtlMs ?? DEFAULT_MAX_TTL_MS;
    this.swrMs = resolved.staleWhileRevalidateMs ?? 0;
    this.sieMs = resolved.staleIfErrorMs ?? 0;
    this.reporter = new CacheReporter(resolved.onEvent, resolved.onError ?? noop);
    this.entries = new CacheEntries(
      this.store,
      this.keys,
      this.index,
      resolved.store === undefined,
      this.clock,
      this.wallClock,
      this.reporter,
    );
    this.invalidations = new Invalidations({
      store: this.store,
      serverTag: this.keys.tag,
      loads: this.loads,
      entries: this.entries,
      reporter: this.reporter,
    });
    const prefix = this.keys.prefix;
    this.unsubscribeEvict =
      this.store.onEvict?.((key) => {
        if (!key.startsWith(prefix)) return;
        this.index?.removeKey(key);
        this.reporter.counters.evictions++;
        if (this.reporter.onEvent !== undefined) this.reporter.emit({ type: 'evict', key });
      }) ?? noop;
    this.unsubscribeFleet = this.store.onInvalidation?.((notice) => this.invalidations.fromFleet(notice)) ?? noop;
  }

  /**
   * The `serverTag` element of this cache's keys (`cacheKey.ts`): 16 hex digits of a digest of
   * its server identity. Every key of this cache starts with `keyPrefix(serverTag)`.
   */
  get serverTag(): string {
    return this.keys.tag;
  }

  /** A snapshot of the counters (a new plain object each call). */
  stats(): CacheStats {
    return { ...this.reporter.counters };
  }

  /**
   * Answers one request from the cache or by calling `load`, according to `request.mode`
   * (see {@link CacheMode}), and stores what may be stored.
   *
   * A fresh hit resolves without any other asynchronous work when the store is synchronous.
   *
   * @returns the result with its source (see {@link CacheOutcome}; cached values are frozen and shared).
   * @throws CancelledError (-32800) when `request.signal` is already aborted or aborts while
   *   waiting; `cause` is `signal.reason`.
   * @throws CacheMissError (-33005) in mode `only-if-cached` when there is no entry.
   * @throws InvalidArgumentError (-32602) when the auth context function returns an invalid value.
   * @throws whatever `load` throws (shared by every caller of a shared load), unless
   *   stale-if-error answers instead; whatever the `credentials` source throws.
   */
  fetch(request: CacheRequest, load: Loader): Promise<CacheOutcome> {
    const { method, signal } = request;
    if (signal?.aborted) return Promise.reject(abortedError(method, signal.reason));
    const mode = request.mode ?? 'default';
    if (!isCacheableMethod(method) || mode === 'no-store') {
      return this.loadDirect(
        method,
        keyParam(method, request),
        load,
        signal,
        isCacheableMethod(method) ? 'no-store' : 'not-cacheable',
      );
    }
    // The partition of the credential this request will be sent with, resolved before the lookup.
    let resolved: MaybePromise<RequestAuth>;
    try {
      resolved = this.partitions.resolve(signal);
    } catch (error) {
      return Promise.reject(error);
    }
    if (isPromise(resolved)) return resolved.then((auth) => this.fetchAs(request, mode, auth, load));
    return this.fetchAs(request, mode, resolved, load);
  }

  /** {@link fetch} once the request's partition is known. */
  private fetchAs(request: CacheRequest, mode: CacheMode, auth: RequestAuth, load: Loader): Promise<CacheOutcome> {
    const { method, signal } = request;
    if (signal?.aborted) return Promise.reject(abortedError(method, signal.reason));
    const partition = auth.partition;
    const param = keyParam(method, request);
    const version = request.protocolVersion;
    if (this.index !== undefined && (mode === 'default' || mode === 'force-cache' || mode === 'only-if-cached')) {
      const entry = this.entries.peek(method, param, version, partition);
      if (entry !== undefined) return Promise.resolve(outcomeOf(entry, 'cache'));
    }
    const keys = this.keys.requestKeys(method, param, version, partition.privateTag, partition.dedupeTag);
    const ctx: Ctx = { method, param, keys, partition, credential: auth.credential, mode };
    if (mode === 'reload' || mode === 'no-cache') return this.viaNetwork(ctx, undefined, 'mode', load, signal);
    const found = this.entries.lookup(ctx);
    if (isPromise(found)) return found.then((f) => this.decide(ctx, f, load, signal));
    return this.decide(ctx, found, load, signal);
  }

  /**
   * The fresh cached result of a request, synchronously, or `undefined` when this cannot be
   * told without asynchronous work or there is no fresh entry: then use {@link fetch}, which
   * also knows what to do with stale entries, misses and loads.
   *
   * Only a {@link MemoryCacheStore} (synchronous) can answer here; with any other store this
   * always returns `undefined`. A result returned here is a hit exactly as {@link fetch} in
   * mode `default` would have served it: the same entry (scope and auth-context partition
   * chosen the same way, freshness `now < receivedAt + ttlMs`), counted in `hits`, with the
   * same `hit` event. It allocates nothing (unless an `onEvent` listener is set).
   *
   * @param param the `uri` of `resources/read`, the cursor of a list page (`null` for the
   *   first page), `null` for `server/discover`.
   * @returns the stored result (frozen and shared: do not mutate it), or `undefined`.
   */
  peekFresh(method: string, param: string | null, protocolVersion: string): JsonObject | undefined {
    if (this.index === undefined) return undefined;
    let auth: RequestAuth | undefined;
    try {
      auth = this.partitions.resolveNow();
    } catch {
      return undefined; // fetch reports it
    }
    if (auth === undefined) return undefined;
    return this.entries.peek(method, param, protocolVersion, auth.partition)?.value;
  }

  /**
   * The private partition (`"private:<32 hex>"`, a digest) of the auth context declared for a
   * request starting now, for keys outside the cache that must keep principals apart (an event
   * subscription's cursor). `undefined` when none is declared (anonymous), or when the partition
   * is only known per request from the credential it is sent with (an `authProvider`).
   * @throws InvalidArgumentError (-32602) when the declared auth context is not valid.
   */
  privatePartitionNow(): string | undefined {
    const tag = this.partitions.resolveNow()?.partition.privateTag;
    return tag === undefined || tag === ANONYMOUS_PRIVATE_TAG ? undefined : tag;
  }

  /**
   * Starts a walk over the pages of one list, for a paginator that wants the whole list
   * (spec: server/utilities/caching, "Interaction with Pagination"). Pages are read from and
   * loaded through the cache one by one with {@link ListWalk.page}, but network pages are
   * only written by {@link ListWalk.commit}, once the walk knows the whole list:
   *
   * - if the pages disagree on `cacheScope`, the list is private as a whole: every page is
   *   stored private (their public entries are deleted) and the mismatch is reported once;
   * - every page is stored to expire with the earliest-expiring page, so the list is fresh
   *   exactly as long as its shortest-lived page and a later walk reloads it from page one.
   *
   * The walk's partition (its auth context, else the credential its pages are sent with) is
   * resolved once, here; every page is sent with that credential. An invalidation of the
   * method (or of its pages for this auth context) during the walk makes `commit` store
   * nothing. A walk that is never committed stores nothing. Single pages fetched with
   * {@link fetch} are stored at once with their own hints instead.
   *
   * @throws InvalidArgumentError (-32602) when `request.method` is not a list method, or the
   *   auth context function returns an invalid value.
   */
  walkList(request: ListWalkRequest): ListWalk {
    if (!isListMethod(request.method))
      throw new InvalidArgumentError('method', request.method, `expected one of ${LIST_METHODS.join(', ')}`);
    const auth = this.partitions.resolve(undefined);
    if (isPromise(auth)) auth.catch(noop); // a walk that never asks for a page reports nothing
    return new PolicyListWalk(this.walkHooks, request.method, request.protocolVersion, request.mode ?? 'default', auth);
  }

  /**
   * Removes every entry of `method` for this server (all auth contexts, all protocol versions)
   * and keeps results of such requests now in flight from being stored. For list methods this
   * drops every page (use on `notifications/<kind>/list_changed`).
   * @returns the number of entries removed.
   */
  invalidateMethod(method: string): Promise<number> {
    return this.invalidations.run({ kind: 'method', method }, keyPrefix(this.keys.tag, method), () => true, undefined);
  }

  /**
   * Removes the cached `resources/read` of `uri` and of every uri under it (starting with
   * `uri + "/"`), for every auth context; reads of them now in flight are not stored. For
   * `notifications/resources/updated`.
   * @returns the number of entries removed.
   */
  invalidateUri(uri: string): Promise<number> {
    const quoted = quoteJson(uri);
    return this.invalidations.run(
      { kind: 'uri', uri },
      keyPrefix(this.keys.tag, 'resources/read') + quoted.slice(0, -1),
      (parts) => isUnder(parts.param, uri),
      undefined,
    );
  }

  /**
   * Removes every cached page of a list. With `authContext: 'current'` only the pages this auth
   * context can see are removed (its private pages and the public ones); with `'all'` (the
   * default) the pages of every auth context, like {@link invalidateMethod}. Walks of that list
   * in progress (of that auth context, with `'current'`) will not store their pages. Use it
   * when a cursor turned out invalid: the spec says to drop every cached page and start again.
   * @returns the number of entries removed.
   * @throws InvalidArgumentError (-32602) when `method` is not a list method.
   */
  invalidateList(method: ListMethod, options: { authContext?: 'all' | 'current' | undefined } = {}): Promise<number> {
    if (!isListMethod(method))
      return Promise.reject(new InvalidArgumentError('method', method, `expected one of ${LIST_METHODS.join(', ')}`));
    const which = options.authContext ?? 'all';
    if (which === 'all')
      return this.invalidations.run(
        { kind: 'list', method, authContext: 'all' },
        keyPrefix(this.keys.tag, method),
        () => true,
        undefined,
      );
    let resolved: MaybePromise<RequestAuth>;
    try {
      resolved = this.partitions.resolve(undefined);
    } catch (error) {
      return Promise.reject(error);
    }
    if (isPromise(resolved)) return resolved.then((auth) => this.invalidateListOf(method, auth.partition));
    return this.invalidateListOf(method, resolved.partition);
  }

  /** {@link invalidateList} for one partition's pages and the public ones. */
  private invalidateListOf(method: ListMethod, partition: AuthPartition): Promise<number> {
    const tag = partition.privateTag;
    return this.invalidations.run(
      { kind: 'list', method, authContext: 'current' },
      keyPrefix(this.keys.tag, method),
      (parts) => parts.partition === PUBLIC_PARTITION || parts.partition === tag,
      partition.dedupeTag,
    );
  }

  /**
   * Removes every entry of this server (every method, auth context and protocol version);
   * nothing in flight will be stored. Other servers' entries in a shared store are untouched.
   * @returns the number of entries removed.
   */
  invalidateAll(): Promise<number> {
    return this.invalidations.run({ kind: 'all' }, this.keys.prefix, () => true, undefined);
  }

  /**
   * Removes the one entry stored under `key` (a key `listCacheEntries` returned) and keeps
   * results now in flight that it covers from being stored. A list page takes its list with it:
   * the pages of a list go together (spec: "Interaction with Pagination"), so for a list method
   * this is {@link invalidateList} with `authContext: 'all'`. Results in flight are kept from
   * being stored as by the invalidation of its uri (`resources/read`) or its method (the
   * others); the `invalidate` event names that target.
   * @returns the number of entries removed (0 when the entry was gone already).
   * @throws InvalidArgumentError (-32602) when `key` is not a key of this cache.
   */
  invalidateEntry(key: string): Promise<number> {
    const parts = typeof key === 'string' ? parseCacheKey(key) : undefined;
    if (parts === undefined || parts.serverTag !== this.keys.tag)
      return Promise.reject(new InvalidArgumentError('key', typeof key, 'not a key of this cache'));
    const { method, param } = parts;
    if (isListMethod(method)) return this.invalidateList(method);
    const same = (other: typeof parts): boolean =>
      other.method === method &&
      other.param === param &&
      other.protocolVersion === parts.protocolVersion &&
      other.partition === parts.partition;
    return this.invalidations.run(
      method === 'resources/read' && param !== null ? { kind: 'uri', uri: param } : { kind: 'method', method },
      key,
      same,
      undefined,
    );
  }

  /**
   * Stops background refreshes and detaches from the store's eviction notices. Entries stay in
   * the store. Requests already waited for complete normally. Idempotent.
   */
  dispose(): void {
    this.unsubscribeEvict();
    this.unsubscribeFleet();
    this.loads.abortPinned(new Error('response cache disposed'));
  }

  /** {@link dispose}, for `await using cache = new ResponseCache(…)`; never rejects. */
  [Symbol.asyncDispose](): Promise<void> {
    this.dispose();
    return Promise.resolve();
  }

  // ---- read path ----------------------------------------------------------------------------

  private decide(
    ctx: Ctx,
    found: Found | undefined,
    load: Loader,
    signal: AbortSignal | undefined,
  ): Promise<CacheOutcome> {
    const mode = ctx.mode;
    if (found !== undefined) {
      const entry = found.entry;
      const now = this.clock.now();
      if (isFresh(entry, now)) {
        this.countHit(ctx, found, now);
        return Promise.resolve(outcomeOf(entry, 'cache'));
      }
      if (mode === 'force-cache' || mode === 'only-if-cached')
        return Promise.resolve(this.serveStale(ctx, found, now, 'mode'));
      if (isWithinStaleWindow(entry, now, this.swrMs)) {
        const served = this.serveStale(ctx, found, now, 'revalidate');
        this.revalidate(ctx, load);
        return Promise.resolve(served);
      }
      return this.viaNetwork(ctx, found, 'stale', load, signal);
    }
    if (mode === 'only-if-cached') {
      this.countMiss(ctx, 'absent', false);
      return Promise.reject(new CacheMissError(missData(ctx.method, ctx.param)));
    }
    return this.viaNetwork(ctx, undefined, 'absent', load, signal);
  }

  private countHit(ctx: Ctx, found: Found, now: number): void {
    this.reporter.counters.hits++;
    if (this.reporter.onEvent !== undefined)
      this.reporter.emit({
        type: 'hit',
        method: ctx.method,
        param: ctx.param,
        key: found.key,
        ageMs: ageMs(found.entry, now),
      });
  }

  private countMiss(ctx: Ctx, reason: 'absent' | 'stale' | 'mode', joined: boolean): void {
    this.reporter.counters.misses++;
    if (this.reporter.onEvent !== undefined)
      this.reporter.emit({ type: 'miss', method: ctx.method, param: ctx.param, reason, joined });
  }

  /** Stale-if-error: `found` served in place of `error` when the mode, the error and its age allow. */
  private staleOnError(ctx: Ctx, found: Found | undefined, error: unknown): CacheOutcome | undefined {
    if (
      ctx.mode !== 'default' ||
      found === undefined ||
      !staleable(error) ||
      !isWithinStaleWindow(found.entry, this.clock.now(), this.sieMs)
    )
      return undefined;
    const outcome = this.serveStale(ctx, found, this.clock.now(), 'error');
    outcome.error = error;
    return outcome;
  }

  private serveStale(ctx: Ctx, found: Found, now: number, reason: 'revalidate' | 'error' | 'mode'): CacheOutcome {
    this.reporter.counters.staleServes++;
    if (this.reporter.onEvent !== undefined)
      this.reporter.emit({
        type: 'stale',
        method: ctx.method,
        param: ctx.param,
        key: found.key,
        ageMs: ageMs(found.entry, now),
        reason,
      });
    return outcomeOf(found.entry, 'stale');
  }

  // ---- load path ----------------------------------------------------------------------------

  /**
   * Not cached at all: `no-store` or a method outside the cacheable set. One reaction on the
   * load (no async frame): the bypass is on the path of every uncached read.
   */
  private loadDirect(
    method: string,
    param: string | null,
    load: Loader,
    signal: AbortSignal | undefined,
    reason: SkipReason,
  ): Promise<CacheOutcome> {
    let loading: Promise<LoadOutcome>;
    try {
      loading = Promise.resolve(load(signal));
    } catch (error) {
      return Promise.reject(error);
    }
    return loading.then((loaded) => {
      const outcome = checkOutcome(loaded);
      if (this.reporter.onEvent !== undefined) this.reporter.emit({ type: 'skip', method, param, reason });
      return this.networkOutcome(outcome.result);
    });
  }

  /** What a result just received says of itself: its scope and ttl, received now. */
  private networkOutcome(result: LoadOutcome['result']): CacheOutcome {
    return {
      result,
      source: 'network',
      scope: normalizeScope(result['cacheScope']),
      ttlMs: normalizeTtl(result['ttlMs'], this.maxTtlMs),
      receivedAt: this.clock.now(),
    };
  }

  private viaNetwork(
    ctx: Ctx,
    found: Found | undefined,
    reason: 'absent' | 'stale' | 'mode',
    load: Loader,
    signal: AbortSignal | undefined,
  ): Promise<CacheOutcome> {
    const dedupeKey = ctx.keys.dedupeKey;
    let record = this.loads.get(dedupeKey);
    this.countMiss(ctx, reason, record !== undefined);
    record ??= this.startLoad(ctx, dedupeKey, load, false, false);
    const shared = record;
    const waited = this.loads.wait(shared, signal, ctx.method).then((settled) => settled.outcome);
    if (ctx.mode !== 'default' || found === undefined || this.sieMs <= 0) return waited;
    return waited.catch((error: unknown) => {
      const stale = shared.invalidated ? undefined : this.staleOnError(ctx, found, error);
      if (stale === undefined) throw error;
      return stale;
    });
  }

  /** Starts one shared load; registers it for dedupe and for invalidation marks. */
  private startLoad(ctx: Ctx, dedupeKey: string, load: Loader, pinned: boolean, deferStore: boolean): InFlight {
    const record = this.loads.start({
      dedupeKey,
      method: ctx.method,
      param: ctx.param,
      dedupeTag: ctx.partition.dedupeTag,
      pinned,
      deferStore,
      fence: this.fence(ctx.method),
    });
    record.promise = this.runLoad(record, ctx, load);
    record.promise.catch(noop); // waiters may all have gone; never an unhandled rejection
    return record;
  }

  private async runLoad(record: InFlight, ctx: Ctx, load: Loader): Promise<Settled> {
    let ticket: FlightTicket | undefined;
    try {
      if (
        this.store.flight !== undefined &&
        !record.deferStore &&
        (ctx.mode === 'default' || ctx.mode === 'force-cache')
      ) {
        ticket = await this.store.flight(ctx.keys.publicKey, record.controller.signal);
        // Another process stored the entry while this one waited: nothing to send, nothing to store.
        if (ticket !== undefined && 'entry' in ticket)
          return { outcome: outcomeOf(ticket.entry, 'cache'), unstorable: undefined, bytes: ticket.entry.bytes };
      }
      // A fence still being read must be known before the request goes out.
      if (isPromise(record.fence)) record.fence = await record.fence;
      const outcome = checkOutcome(await load(record.controller.signal, ctx.credential));
      return await this.settle(record, ctx, outcome);
    } finally {
      if (ticket !== undefined && 'release' in ticket) ticket.release();
      this.loads.finish(record);
    }
  }

  /** The store's write fence for a load of `method` starting now (fleet stores only). */
  private fence(method: string): unknown {
    if (this.store.fence === undefined) return undefined;
    try {
      return this.store.fence(this.keys.tag, method);
    } catch (error) {
      this.reporter.report(error);
      return undefined;
    }
  }

  /** Decides whether a loaded result is stored, and stores it unless a walk will. */
  private async settle(record: InFlight, ctx: Ctx, loaded: LoadOutcome): Promise<Settled> {
    const result = loaded.result;
    const outcome = this.networkOutcome(result);
    const { receivedAt, ttlMs, scope } = outcome;
    const bytes = typeof loaded.bytes === 'number' && loaded.bytes >= 0 ? loaded.bytes : undefined;
    const unstorable: SkipReason | undefined =
      result['resultType'] === 'input_required'
        ? 'input-required'
        : loaded.storable !== true
          ? 'not-storable'
          : ctx.credential?.replaced === true
            ? 'credential-changed'
            : undefined;
    const settled: Settled = { outcome, unstorable, bytes };
    if (record.deferStore) return settled;
    if (unstorable !== undefined) {
      this.reporter.skip(ctx.method, ctx.param, unstorable);
      return settled;
    }
    await this.entries.write(
      ctx,
      { value: result, receivedAt, ttlMs, scope, bytes },
      true,
      () => record.invalidated,
      record.fence,
    );
    return settled;
  }

  /** Stale-while-revalidate: one background load per key and partition. */
  private revalidate(ctx: Ctx, load: Loader): void {
    const dedupeKey = ctx.keys.dedupeKey;
    if (this.loads.has(dedupeKey)) return;
    const record = this.startLoad(ctx, dedupeKey, load, true, false);
    record.promise.catch((error: unknown) => {
      if (!isCancelledError(error) && !record.controller.signal.aborted) this.reporter.report(error);
    });
  }

  // ---- walks --------------------------------------------------------------------------------

  /** What a {@link ListWalk} may call; closures so the walk never sees the cache's fields. */
  private readonly walkHooks: WalkDeps = {
    keys: () => this.keys,
    now: () => this.clock.now(),
    generation: (method, tag) => this.invalidations.generation(method, tag),
    fence: (method) => this.fence(method),
    lookup: (ctx) => this.entries.lookup(ctx),
    hit: (ctx, found, now) => this.countHit(ctx, found, now),
    serveStale: (ctx, found, now, reason) => this.serveStale(ctx, found, now, reason),
    miss: (ctx, reason, joined) => this.countMiss(ctx, reason, joined),
    load: (ctx, load, signal, reason) => {
      if (ctx.mode === 'no-store') {
        return load(signal, ctx.credential).then((loaded): Settled => ({
          outcome: this.networkOutcome(checkOutcome(loaded).result),
          unstorable: 'no-store',
          bytes: undefined,
        }));
      }
      // Walk loads are shared with other walks only: they are stored by commit, not by the load.
      const dedupeKey = `${ctx.keys.dedupeKey}#walk`;
      const existing = this.loads.get(dedupeKey);
      this.walkHooks.miss(ctx, reason, existing !== undefined);
      const record = existing ?? this.startLoad(ctx, dedupeKey, load, false, true);
      return this.loads.wait(record, signal, ctx.method);
    },
    staleIfError: (ctx, found, error) => this.staleOnError(ctx, found, error),
    write: (ctx, entry, fromNetwork, invalidated, fence) =>
      this.entries.write(ctx, entry, fromNetwork, invalidated, fence),
    deleteKey: (key) => {
      this.index?.removeKey(key);
      return this.entries.delete(key);
    },
    skip: (method, param, reason) => {
      this.reporter.skip(method, param, reason);
    },
    mismatch: (method, publicPages, privatePages) => {
      if (this.reporter.onEvent !== undefined)
        this.reporter.emit({ type: 'scope-mismatch', method, publicPages, privatePages });
      this.reporter.report(
        new ProtocolError('list pages disagree on cacheScope; the list is cached as private', {
          method,
          value: { publicPages, privatePages },
        }),
      );
    },
    invalidateList: (method) => this.invalidateList(method as ListMethod),
  };
}

/** Whether stale-if-error may answer this failure. */
function staleable(error: unknown): boolean {
  if (!McpError.is(error)) return true;
  if (error.local) return error.code !== ErrorCode.RequestCancelled;
  return error.code === ErrorCode.InternalError;
}

function checkOutcome(outcome: LoadOutcome): LoadOutcome {
  if (!isObject(outcome) || !isObject(outcome.result))
    throw new TypeError('ResponseCache: load must resolve to { result: object, storable: boolean }');
  return outcome;
}
