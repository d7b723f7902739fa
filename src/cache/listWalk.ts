/**
 * Walks over the pages of one list through the response cache (spec: server/utilities/caching,
 * "Interaction with Pagination"): pages are read and loaded one by one, and stored together
 * once the walk knows the whole list's scope and expiry.
 */
import { abortedError } from '../errors/errors.js';
import type { JsonObject } from '../wire/messages.js';
import type { CacheScope } from '../wire/protocol.js';
import type { AuthPartition } from './authContext.js';
import type { RequestAuth } from './partitionResolver.js';
import type { RequestCredential } from '../transport/transport.js';
import type { CacheKeyBuilder, RequestKeys } from './cacheKey.js';
import type { CacheEntry } from './types.js';
import { isPromise, type MaybePromise } from '../util/maybePromise.js';
import { CacheMissError } from './errors.js';
import { combinePages, isFresh } from './freshness.js';
import {
  isListMethod,
  type CacheOutcome,
  type CacheSource,
  type ListMethod,
  type Loader,
  type SkipReason,
} from './types.js';
import type { CacheMode } from '../wire/callOptions.js';

/** What {@link ListWalk.commit} returns: the hints of the whole list. */
export interface ListWalkSummary {
  /** The list's scope: `private` as soon as one page is private or the pages disagree. */
  scope: CacheScope;
  /** True when pages disagreed on `cacheScope` (reported once, as a `scope-mismatch` event and to `onError`). */
  scopeMismatch: boolean;
  /** The list is fresh while `clock.now() < freshUntil` (ms): the earliest expiry of its pages. */
  freshUntil: number;
  /** Remaining freshness of the list at commit time, in ms (`>= 0`). */
  ttlMs: number;
  /** Pages walked. */
  pages: number;
  /** Pages written to the store by this commit. */
  stored: number;
}

/** Options of {@link ResponseCache.walkList}. */
export interface ListWalkRequest {
  /** The list method. */
  method: ListMethod;
  /** The protocol version of the requests. */
  protocolVersion: string;
  /** Cache mode of every page. @default 'default' */
  mode?: CacheMode | undefined;
}

/** @internal Per-request state shared by the read and load paths. */
export interface Ctx {
  readonly method: string;
  readonly param: string | null;
  /** The request's keys (see CacheKeyBuilder.requestKeys). */
  readonly keys: RequestKeys;
  readonly partition: AuthPartition;
  /** The credential the request is sent with, when the partition was resolved from it. */
  readonly credential: RequestCredential | undefined;
  readonly mode: CacheMode;
}

/** @internal A store hit. */
export interface Found {
  readonly key: string;
  readonly entry: CacheEntry;
}

/** @internal A load's result with what the cache decided about storing it. */
export interface Settled {
  readonly outcome: CacheOutcome;
  /** Why it may not be stored, if so (decided before any walk commit). */
  readonly unstorable: SkipReason | undefined;
  /** Bytes the loader reported. */
  readonly bytes: number | undefined;
}

/** @internal What {@link ListWalk} needs from its cache. */
export interface WalkDeps {
  keys(): CacheKeyBuilder;
  now(): number;
  generation(method: string, dedupeTag: string): number;
  /** The store's write fence for a walk of `method` starting now (fleet stores; else undefined). */
  fence(method: string): unknown;
  lookup(ctx: Ctx): MaybePromise<Found | undefined>;
  hit(ctx: Ctx, found: Found, now: number): void;
  serveStale(ctx: Ctx, found: Found, now: number, reason: 'error' | 'mode'): CacheOutcome;
  miss(ctx: Ctx, reason: 'absent' | 'stale' | 'mode', joined: boolean): void;
  load(ctx: Ctx, load: Loader, signal: AbortSignal | undefined, reason: 'absent' | 'stale' | 'mode'): Promise<Settled>;
  staleIfError(ctx: Ctx, found: Found | undefined, error: unknown): CacheOutcome | undefined;
  write(
    ctx: Ctx,
    entry: { value: JsonObject; receivedAt: number; ttlMs: number; scope: CacheScope; bytes: number | undefined },
    fromNetwork: boolean,
    invalidated: () => boolean,
    fence: unknown,
  ): Promise<boolean>;
  deleteKey(key: string): Promise<void>;
  skip(method: string, param: string | null, reason: SkipReason): void;
  mismatch(method: string, publicPages: number, privatePages: number): void;
  invalidateList(method: string): Promise<number>;
}

/** One page a walk has seen. */
interface WalkPage {
  readonly ctx: Ctx;
  readonly value: JsonObject;
  readonly receivedAt: number;
  readonly ttlMs: number;
  readonly scope: CacheScope;
  readonly bytes: number | undefined;
  readonly fromNetwork: boolean;
  readonly unstorable: SkipReason | undefined;
}

/**
 * A walk over the pages of one list, made by {@link ResponseCache.walkList}. Call
 * {@link ListWalk.page} for each page in order, then {@link ListWalk.commit} once the walk is
 * over; call {@link ListWalk.restart} when a cursor turned out invalid.
 */
export interface ListWalk {
  /** The list method walked. */
  readonly method: ListMethod;
  /**
   * One page, from the cache or from `load`, following the walk's cache mode (as
   * {@link ResponseCache.fetch}, without stale-while-revalidate: a stale page is reloaded).
   * A loaded page is not stored yet: see {@link ListWalk.commit}.
   *
   * @param cursor the page's cursor; `undefined` for the first page.
   * @throws CancelledError (-32800) when `signal` aborts this wait (a load shared with another
   *   walk continues for the others).
   * @throws CacheMissError (-33005) in mode `only-if-cached` when the page is not cached.
   * @throws Error when the walk is already committed.
   * @throws whatever `load` throws, unless stale-if-error answers instead.
   */
  page(cursor: string | undefined, load: Loader, signal?: AbortSignal): Promise<CacheOutcome>;
  /**
   * Drops every cached page of the list (all auth contexts: the cursor was rejected, so
   * every cached cursor is suspect) and forgets the pages walked so far, so the walk can start
   * again from the first page. Counts as an invalidation.
   * @returns the number of entries removed.
   */
  restart(): Promise<number>;
  /**
   * Ends the walk: stores the pages it loaded, all under the list's one scope (`private` when
   * any page was private or the pages disagreed), unless the list was invalidated meanwhile.
   * Call it after the last page; a second call resolves with the same {@link ListWalkSummary}.
   */
  commit(): Promise<ListWalkSummary>;
}

/** A {@link ListWalk} over the cache policy's hooks. */
export class PolicyListWalk implements ListWalk {
  private readonly seen: WalkPage[] = [];
  private startGeneration = 0;
  private fence: unknown;
  private committed: Promise<ListWalkSummary> | undefined;
  /** The walk's partition and credential, once resolved (on the first page when it was asynchronous). */
  private auth: RequestAuth | undefined;

  /** @internal Made by the cache policy's `walkList`. */
  constructor(
    private readonly hooks: WalkDeps,
    /** The list method walked. */
    readonly method: ListMethod,
    private readonly protocolVersion: string,
    private readonly mode: CacheMode,
    private readonly pendingAuth: MaybePromise<RequestAuth>,
  ) {
    if (!isPromise(pendingAuth)) this.resolved(pendingAuth);
  }

  private resolved(auth: RequestAuth): RequestAuth {
    if (this.auth === undefined) {
      this.auth = auth;
      this.startGeneration = this.hooks.generation(this.method, auth.partition.dedupeTag);
      this.fence = this.hooks.fence(this.method);
    }
    return this.auth;
  }

  private async resolveAuth(): Promise<RequestAuth> {
    return this.auth ?? this.resolved(await this.pendingAuth);
  }

  /** {@link ListWalk.page}. */
  async page(cursor: string | undefined, load: Loader, signal?: AbortSignal): Promise<CacheOutcome> {
    if (this.committed !== undefined) throw new Error(`${this.method}: this list walk is already committed`);
    if (signal?.aborted) throw abortedError(this.method, signal.reason);
    const { partition, credential } = this.auth ?? (await this.resolveAuth());
    if (signal?.aborted) throw abortedError(this.method, signal.reason);
    // A fence still being read must be known before any page goes out.
    if (isPromise(this.fence)) this.fence = await this.fence;
    const keys = this.hooks.keys();
    const param = cursor ?? null;
    const requestKeys = keys.requestKeys(
      this.method,
      param,
      this.protocolVersion,
      partition.privateTag,
      partition.dedupeTag,
    );
    const ctx: Ctx = { method: this.method, param, keys: requestKeys, partition, credential, mode: this.mode };
    let found: Found | undefined;
    if (this.mode !== 'no-store' && this.mode !== 'reload' && this.mode !== 'no-cache') {
      found = await this.hooks.lookup(ctx);
      if (found !== undefined) {
        const now = this.hooks.now();
        if (isFresh(found.entry, now)) {
          this.hooks.hit(ctx, found, now);
          return this.remember(ctx, outcomeOf(found.entry, 'cache'), found.entry.bytes, false, undefined);
        }
        if (this.mode === 'force-cache' || this.mode === 'only-if-cached') {
          return this.remember(
            ctx,
            this.hooks.serveStale(ctx, found, now, 'mode'),
            found.entry.bytes,
            false,
            undefined,
          );
        }
      } else if (this.mode === 'only-if-cached') {
        this.hooks.miss(ctx, 'absent', false);
        throw new CacheMissError(missData(this.method, param));
      }
    }
    let settled: Settled;
    try {
      const reason =
        this.mode === 'reload' || this.mode === 'no-cache' ? 'mode' : found !== undefined ? 'stale' : 'absent';
      settled = await this.hooks.load(ctx, load, signal, reason);
    } catch (error) {
      const fallback = this.hooks.staleIfError(ctx, found, error);
      if (fallback === undefined || found === undefined) throw error;
      return this.remember(ctx, fallback, found.entry.bytes, false, undefined);
    }
    return this.remember(ctx, settled.outcome, settled.bytes, true, settled.unstorable);
  }

  /** {@link ListWalk.restart}. */
  async restart(): Promise<number> {
    if (this.committed !== undefined) throw new Error(`${this.method}: this list walk is already committed`);
    this.seen.length = 0;
    const auth = await this.resolveAuth();
    const removed = await this.hooks.invalidateList(this.method);
    this.startGeneration = this.hooks.generation(this.method, auth.partition.dedupeTag);
    this.fence = this.hooks.fence(this.method);
    return removed;
  }

  /** {@link ListWalk.commit}. */
  commit(): Promise<ListWalkSummary> {
    this.committed ??= this.store();
    return this.committed;
  }

  private remember(
    ctx: Ctx,
    outcome: CacheOutcome,
    bytes: number | undefined,
    fromNetwork: boolean,
    unstorable: SkipReason | undefined,
  ): CacheOutcome {
    this.seen.push({
      ctx,
      value: outcome.result,
      receivedAt: outcome.receivedAt,
      ttlMs: outcome.ttlMs,
      scope: outcome.scope,
      bytes,
      fromNetwork,
      unstorable,
    });
    return outcome;
  }

  private async store(): Promise<ListWalkSummary> {
    const pages = this.seen.slice();
    const combined = combinePages(pages);
    if (combined.scopeMismatch) {
      const publicPages = pages.filter((p) => p.scope === 'public').length;
      this.hooks.mismatch(this.method, publicPages, pages.length - publicPages);
    }
    const tag = this.auth?.partition.dedupeTag;
    const invalidated = (): boolean =>
      tag === undefined || this.hooks.generation(this.method, tag) !== this.startGeneration;
    let stored = 0;
    for (const page of pages) {
      if (page.unstorable !== undefined) {
        this.hooks.skip(page.ctx.method, page.ctx.param, page.unstorable);
        continue;
      }
      const until = combined.freshUntil - page.receivedAt;
      const ttlMs = until > 0 ? until : 0;
      if (!page.fromNetwork && page.scope === combined.scope && ttlMs === page.ttlMs) continue;
      const ok = await this.hooks.write(
        page.ctx,
        { value: page.value, receivedAt: page.receivedAt, ttlMs, scope: combined.scope, bytes: page.bytes },
        page.fromNetwork,
        invalidated,
        this.fence,
      );
      if (ok) stored++;
      // A list that is private as a whole leaves no public page behind, even if it could not be stored.
      if (combined.scope === 'private' && page.scope === 'public') await this.hooks.deleteKey(page.ctx.keys.publicKey);
    }
    const now = this.hooks.now();
    return {
      scope: combined.scope,
      scopeMismatch: combined.scopeMismatch,
      freshUntil: combined.freshUntil,
      ttlMs: combined.freshUntil > now ? combined.freshUntil - now : 0,
      pages: pages.length,
      stored,
    };
  }
}

/** @internal The outcome of serving `entry`. */
export function outcomeOf(entry: CacheEntry, source: CacheSource): CacheOutcome {
  return {
    result: entry.value,
    source,
    scope: entry.scope,
    ttlMs: entry.ttlMs,
    receivedAt: entry.receivedAt,
  };
}

/** @internal `data` of a CacheMissError for a request. */
export function missData(
  method: string,
  param: string | null,
): { method: string; uri?: string; cursor?: string | null } {
  if (method === 'resources/read') return param === null ? { method } : { method, uri: param };
  if (isListMethod(method)) return { method, cursor: param };
  return { method };
}
