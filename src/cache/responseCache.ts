/**
 * The response cache of one client (spec: server/utilities/caching): its options, checked when
 * it is made, and its public methods. The policy behind them (`policy.ts`: keys, freshness,
 * scope, loads in flight, writes, invalidations, list walks) loads when the cache is made and
 * arrives with the first request; until then nothing is stored and a synchronous lookup misses.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { onDemand } from '../errors/moduleLoad.js';
import type { JsonObject } from '../wire/messages.js';
import { MemoryCacheStore, type CacheStore } from './cacheStore.js';
import type { ListWalk, ListWalkRequest, ListWalkSummary } from './listWalk.js';
import type { CachePolicy } from './policy.js';
import type { ResponseCacheOptions } from './options.js';

export type { ResponseCacheOptions } from './options.js';
import {
  LIST_METHODS,
  isListMethod,
  type CacheOutcome,
  type CacheRequest,
  type CacheStats,
  type ListMethod,
  type Loader,
} from './types.js';

/**
 * The cache policy, loaded when the first cache is made; later caches make theirs at once.
 * @internal Exported for the test setup, which loads it ahead.
 */
export const loadPolicy = onDemand('cache', () => import('./policy.js').then((module) => module.CachePolicy));

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
  private readonly options: ResponseCacheOptions;
  /** The policy, once loaded. */
  private policy: CachePolicy | undefined;
  private disposed = false;

  /**
   * @throws InvalidArgumentError (-32602) when `serverIdentity` is not a string or a duration
   *   option is negative or not a number.
   */
  constructor(options: ResponseCacheOptions) {
    if (typeof options?.serverIdentity !== 'string')
      throw new InvalidArgumentError('serverIdentity', options?.serverIdentity, 'expected a string');
    const maxTtlMs = duration('maxTtlMs', options.maxTtlMs, undefined);
    if (maxTtlMs === 0) throw new InvalidArgumentError('maxTtlMs', 0, 'expected a positive number of milliseconds');
    this.options = {
      ...options,
      maxTtlMs,
      staleWhileRevalidateMs: duration('staleWhileRevalidateMs', options.staleWhileRevalidateMs, 0),
      staleIfErrorMs: duration('staleIfErrorMs', options.staleIfErrorMs, 0),
    };
    this.serverIdentity = options.serverIdentity;
    this.store = options.store ?? new MemoryCacheStore();
    const Policy = loadPolicy.value;
    if (Policy !== undefined) this.policy = new Policy(this.options, this.store);
    // Else loaded now, so that it is there by the time the first request needs it; a failed
    // load is tried again, and reported, by the first call that needs it.
    else this.ready().catch(() => {});
  }

  /** The policy, loaded and made on first need. @throws ModuleLoadError (-33042) */
  private ready(): Promise<CachePolicy> {
    if (this.policy !== undefined) return Promise.resolve(this.policy);
    return loadPolicy().then((Policy) => {
      if (this.policy === undefined) {
        this.policy = new Policy(this.options, this.store);
        if (this.disposed) this.policy.dispose();
      }
      return this.policy;
    });
  }

  /** A snapshot of the counters (a new plain object each call). */
  stats(): CacheStats {
    return this.policy?.stats() ?? { hits: 0, misses: 0, staleServes: 0, evictions: 0, stores: 0, invalidations: 0 };
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
    const policy = this.policy;
    if (policy !== undefined) return policy.fetch(request, load);
    return this.ready().then((loaded) => loaded.fetch(request, load));
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
    return this.policy?.peekFresh(method, param, protocolVersion);
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
   * resolved once, here; every page is sent with that credential. An invalidation of the method (or of its
   * pages for this auth context) during the walk makes `commit` store nothing. A walk that is
   * never committed stores nothing. Single pages fetched with {@link fetch} are stored at once
   * with their own hints instead.
   *
   * @throws InvalidArgumentError (-32602) when `request.method` is not a list method, or the
   *   auth context function returns an invalid value.
   */
  walkList(request: ListWalkRequest): ListWalk {
    if (this.policy !== undefined) return this.policy.walkList(request);
    if (!isListMethod(request.method))
      throw new InvalidArgumentError('method', request.method, `expected one of ${LIST_METHODS.join(', ')}`);
    return deferredWalk(
      request.method,
      this.ready().then((policy) => policy.walkList(request)),
    );
  }

  /**
   * Removes every entry of `method` for this server (all auth contexts, all protocol versions)
   * and keeps results of such requests now in flight from being stored. For list methods this
   * drops every page (use on `notifications/<kind>/list_changed`).
   * @returns the number of entries removed.
   */
  invalidateMethod(method: string): Promise<number> {
    return this.policy?.invalidateMethod(method) ?? this.ready().then((policy) => policy.invalidateMethod(method));
  }

  /**
   * Removes the cached `resources/read` of `uri` and of every uri under it (starting with
   * `uri + "/"`), for every auth context; reads of them now in flight are not stored. For
   * `notifications/resources/updated`.
   * @returns the number of entries removed.
   */
  invalidateUri(uri: string): Promise<number> {
    return this.policy?.invalidateUri(uri) ?? this.ready().then((policy) => policy.invalidateUri(uri));
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
    if (this.policy !== undefined) return this.policy.invalidateList(method, options);
    if (!isListMethod(method))
      return Promise.reject(new InvalidArgumentError('method', method, `expected one of ${LIST_METHODS.join(', ')}`));
    return this.ready().then((policy) => policy.invalidateList(method, options));
  }

  /**
   * Removes every entry of this server (every method, auth context and protocol version);
   * nothing in flight will be stored. Other servers' entries in a shared store are untouched.
   * @returns the number of entries removed.
   */
  invalidateAll(): Promise<number> {
    return this.policy?.invalidateAll() ?? this.ready().then((policy) => policy.invalidateAll());
  }

  /**
   * Stops background refreshes and detaches from the store's eviction notices. Entries stay in
   * the store. Requests already waited for complete normally. Idempotent.
   */
  dispose(): void {
    this.disposed = true;
    this.policy?.dispose();
  }

  /** {@link dispose}, for `await using cache = new ResponseCache(…)`; never rejects. */
  [Symbol.asyncDispose](): Promise<void> {
    this.dispose();
    return Promise.resolve();
  }
}

/** A walk whose policy is still loading: each call waits for the walk it becomes. */
function deferredWalk(method: ListMethod, walk: Promise<ListWalk>): ListWalk {
  walk.catch(() => {}); // a walk that never asks for a page reports nothing
  return {
    method,
    page: (cursor, load, signal) => walk.then((w) => w.page(cursor, load, signal)),
    restart: () => walk.then((w) => w.restart()),
    commit: (): Promise<ListWalkSummary> => walk.then((w) => w.commit()),
  };
}

function duration<F extends number | undefined>(name: string, value: number | undefined, fallback: F): number | F {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0)
    throw new InvalidArgumentError(name, value, 'expected a number of milliseconds >= 0');
  return value;
}
