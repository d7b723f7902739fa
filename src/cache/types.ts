/**
 * Shapes shared by the response cache and its callers (spec: server/utilities/caching).
 */
import type { JsonObject } from '../wire/messages.js';
import type { CacheScope } from '../wire/protocol.js';
import type { RequestCredential } from '../transport/transport.js';
import type { CacheMode } from '../wire/callOptions.js';

/**
 * The methods whose results carry caching hints and may be cached (spec: server/utilities/caching;
 * the Skills extension's three, SEP-2640, carry the same `ttlMs` and `cacheScope`).
 */
export const CACHEABLE_METHODS = [
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'skills/list',
  'skills/get',
  'resources/directory/read',
] as const;
/** One of {@link CACHEABLE_METHODS}. */
export type CacheableMethod = (typeof CACHEABLE_METHODS)[number];
/** The paginated cacheable methods. */
export const LIST_METHODS = [
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'skills/list',
] as const;
/** One of {@link LIST_METHODS}. */
export type ListMethod = (typeof LIST_METHODS)[number];

const cacheable: ReadonlySet<string> = new Set(CACHEABLE_METHODS);
const lists: ReadonlySet<string> = new Set(LIST_METHODS);

/** True for a method whose results may be cached. */
export function isCacheableMethod(method: string): method is CacheableMethod {
  return cacheable.has(method);
}

/** True for a paginated cacheable method. */
export function isListMethod(method: string): method is ListMethod {
  return lists.has(method);
}

/** One request, as {@link ResponseCache.fetch} sees it. */
export interface CacheRequest {
  /** The request method. Methods outside {@link CACHEABLE_METHODS} are passed straight to `load`. */
  method: string;
  /** The `uri` of `resources/read`. */
  uri?: string | undefined;
  /** The page cursor of a list request; omit for the first page. `""` is a cursor, distinct from omitted. */
  cursor?: string | undefined;
  /** The protocol version the request is sent with; part of the key. */
  protocolVersion: string;
  /** @default 'default' */
  mode?: CacheMode | undefined;
  /**
   * Aborts this caller's wait only: the call rejects with `CancelledError` (-32800, `cause` =
   * `signal.reason`). A request shared with other callers is cancelled on the wire only once
   * every caller waiting for it has aborted.
   */
  signal?: AbortSignal | undefined;
}

/** What a load (one trip to the server, including any `input_required` rounds) produced. */
export interface LoadOutcome {
  /** The complete result. It is deeply frozen if it gets stored. */
  result: JsonObject;
  /**
   * `false` when the result must not be cached: it answered a request that carried
   * `inputResponses` or `requestState` (an MRTR retry, spec: basic/patterns/mrtr), whose
   * result depends on inputs outside the cache key. Only `true` allows storing.
   */
  storable: boolean;
  /** The result's size in bytes if the caller knows it (e.g. the frame length); else estimated. */
  bytes?: number | undefined;
}

/**
 * Sends the request. `signal` is the signal to send it with: for shared loads it aborts only
 * when every waiting caller has aborted (or the cache is disposed); for `no-store` and
 * non-cacheable requests it is the caller's own signal. `credential`, when present, is the
 * credential the cache resolved the request's partition from: the request must be sent with it
 * (`TransportSendOptions.credential`).
 */
export type Loader = (signal: AbortSignal | undefined, credential?: RequestCredential) => Promise<LoadOutcome>;

/** Where a result came from. */
export type CacheSource = 'network' | 'cache' | 'stale';

/** What {@link ResponseCache.fetch} returns. */
export interface CacheOutcome {
  /**
   * The result. When it came from the cache, or came from the network and was stored, it is the
   * stored object itself, deeply frozen and shared with every other caller (zero-copy): do not
   * mutate it (in strict mode a write throws `TypeError`). Copy it (`structuredClone`) to edit.
   */
  result: JsonObject;
  /** `network`: sent now (or shared with a request in flight); `cache`: a fresh entry; `stale`: a stale entry. */
  source: CacheSource;
  /** With `source: 'stale'` after a failed request (stale-if-error): the request's error. */
  error?: unknown;
  /** The result's normalized scope. */
  scope: CacheScope;
  /** The result's normalized TTL in ms. */
  ttlMs: number;
  /** `Clock.now()` when the result was received, in ms. */
  receivedAt: number;
}

/** Why a result was not stored (`skip` event). */
export type SkipReason =
  /** The method is not cacheable. */
  | 'not-cacheable'
  /** Cache mode `no-store`. */
  | 'no-store'
  /** The load said so: the result came from an MRTR retry (`inputResponses`/`requestState`). */
  | 'not-storable'
  /** The result is `resultType: "input_required"`: interim results are never cached. */
  | 'input-required'
  /** A private result, a shared store and no auth context declared (B14). */
  | 'private-without-auth-context'
  /**
   * The request was sent again with another credential than the one its partition was resolved
   * from (the server refused the first one): the result belongs to that other credential.
   */
  | 'credential-changed'
  /**
   * The key was invalidated while the request was in flight (generation guard), in this
   * process or, with a fleet store, in another one.
   */
  | 'invalidated'
  /** The store refused the entry (larger than its byte bound). */
  | 'too-large'
  /** The store threw; the error went to `onError`. */
  | 'store-error'
  /** The store cannot be reached (a fleet store that degraded to no cache; it reports that itself). */
  | 'store-unavailable';

/** What an invalidation removed. */
export type InvalidateTarget =
  | { kind: 'method'; method: string }
  | { kind: 'uri'; uri: string }
  | { kind: 'list'; method: string; authContext: 'all' | 'current' }
  | { kind: 'all' };

/**
 * Cache events, a discriminated union on `type`. `param` is the request's `uri`, its cursor
 * (`null` for the first page or for `server/discover`). `key` is the store key (it holds a
 * digest of the auth context, never the context itself). Times are ms.
 */
export type CacheEvent =
  | { type: 'hit'; method: string; param: string | null; key: string; ageMs: number }
  | { type: 'miss'; method: string; param: string | null; reason: 'absent' | 'stale' | 'mode'; joined: boolean }
  | {
      type: 'stale';
      method: string;
      param: string | null;
      key: string;
      ageMs: number;
      reason: 'revalidate' | 'error' | 'mode';
    }
  | {
      type: 'store';
      method: string;
      param: string | null;
      key: string;
      scope: CacheScope;
      ttlMs: number;
      bytes: number;
    }
  | { type: 'evict'; key: string }
  | { type: 'invalidate'; target: InvalidateTarget; removed: number }
  | { type: 'skip'; method: string; param: string | null; reason: SkipReason }
  | { type: 'scope-mismatch'; method: string; publicPages: number; privatePages: number };

/**
 * Counters since construction. Each cacheable request (other than `no-store`) counts once as a
 * hit, a stale serve or a miss; a stale-if-error fallback counts as a miss and a stale serve.
 */
export interface CacheStats {
  /** Answered from a fresh entry. */
  hits: number;
  /** Answered by the server (absent or unusable entry, or modes `reload`/`no-cache`), or `only-if-cached` with no entry. */
  misses: number;
  /** Answered from a stale entry (stale-while-revalidate, stale-if-error, `force-cache`, `only-if-cached`). */
  staleServes: number;
  /** Entries of this server the store dropped to stay within its bounds. */
  evictions: number;
  /** Entries written. */
  stores: number;
  /** Invalidation calls (`invalidate*` and `ListWalk.restart`). */
  invalidations: number;
}

/**
 * One cached result, as `ResponseCache` writes it (spec: server/utilities/caching).
 *
 * `receivedAt` is a reading of the monotonic `Clock.now()` of the process that reads the entry.
 * A store kept in the process returns what was written (share it only between caches on the
 * same clock; the default, `performance.now()`, is shared by everything in one process). A
 * store kept outside the process (Redis) must not keep `receivedAt`: it keeps `expiresAt` and
 * converts back to the reader's clock on `get`, so that no clock of another process is read
 * as one of this process.
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
  /**
   * When the entry stops being fresh, in wall-clock ms since the epoch (`WallClock.now()`):
   * what a store shared by several processes keeps instead of `receivedAt`. `ResponseCache`
   * sets it on every entry it writes. Never used to judge freshness in the process.
   */
  readonly expiresAt?: number | undefined;
}

/**
 * One entry of a response cache as `listCacheEntries` reads it from the store:
 * what it answers, for whom (its partition: a digest, never the auth context), until when.
 */
export interface CacheEntryInfo {
  /** The store key (its partition element is a digest of the auth context, never the context). */
  readonly key: string;
  /** The request method, e.g. `resources/read`. */
  readonly method: string;
  /** The `uri` of `resources/read` and `skills/get`, a list page's cursor (`null` for the first page), `null` for `server/discover`. */
  readonly param: string | null;
  /** The protocol version the request was sent with (and its language preference, if any). */
  readonly protocolVersion: string;
  /** `"public"`, `"private:<32 hex>"` (a SHA-256 digest of the auth context) or `"private:anonymous"`. */
  readonly partition: string;
  /** The entry's normalized scope. */
  readonly scope: CacheScope;
  /** Its normalized TTL, in ms. */
  readonly ttlMs: number;
  /** What it counts toward the store's byte bound, in bytes. */
  readonly bytes: number;
  /** When it was stored, in wall-clock ms since the epoch. */
  readonly storedAt: number;
  /** When it stops being fresh, in wall-clock ms since the epoch (`storedAt + ttlMs`). */
  readonly expiresAt: number;
  /** Whether it is fresh now, on the wall clock (`now < expiresAt`). */
  readonly fresh: boolean;
  /** The stored result, deeply frozen and shared with the cache (do not mutate it). */
  readonly value: Readonly<JsonObject>;
}
