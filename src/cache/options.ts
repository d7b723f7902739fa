/** The options of a {@link ResponseCache}, and their check. */
import { InvalidArgumentError } from '../errors/errors.js';
import type { Clock, WallClock } from '../util/clock.js';
import type { AuthContextSource } from './authContext.js';
import type { CacheStore } from './cacheStore.js';
import type { CredentialSource } from './partitionResolver.js';
import type { CacheEvent } from './types.js';

/** Options of {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /** The server as the client knows it (`transport.serverIdentity`); never its self-reported name. */
  serverIdentity: string;
  /** Where entries live. @default a new {@link MemoryCacheStore} (5000 entries, 50 MiB) owned by this cache */
  store?: CacheStore | undefined;
  /**
   * Whether the store may hold entries of other clients (other principals). When true and no
   * auth context is declared, private results are never cached (B14).
   * @default true when `store` is given, false for the default store
   */
  sharedStore?: boolean | undefined;
  /**
   * The auth context requests are made in (see {@link AuthContextSource}); read at the start of
   * each request when it is a function. Private entries are partitioned by its SHA-256 digest.
   * When it is not given (or the function returns `undefined`), the partition is that of the
   * credential the request will be sent with (see `credentials`); without either, private
   * results are kept in an `anonymous` partition of the cache's own store, or not at all with a
   * shared store.
   */
  authContext?: AuthContextSource | undefined;
  /**
   * Resolves, before each lookup, the credential the request would be sent with (`McpClient`
   * passes its transport's `credentialFor`). The request's private entries are looked up and
   * stored in that credential's partition, and the loader gets the credential to send the
   * request with (its second argument). A result whose request ended up sent with another
   * credential (refused, then replaced) is not stored. Unused while `authContext` yields one.
   */
  credentials?: CredentialSource | undefined;
  /** Monotonic clock for freshness. @default systemClock (performance.now) */
  clock?: Clock | undefined;
  /**
   * Wall clock, read once per written entry to stamp its absolute expiry (`expiresAt`) for
   * stores that keep entries outside the process; never used for freshness here. @default Date.now
   */
  wallClock?: WallClock | undefined;
  /** Cap on any result's TTL, in ms. Positive. @default 86400000 (24 h) */
  maxTtlMs?: number | undefined;
  /**
   * Opt-in stale-while-revalidate window, in ms after an entry goes stale: in mode `default` such
   * an entry is returned at once and refreshed by one background request. @default 0 (off)
   */
  staleWhileRevalidateMs?: number | undefined;
  /**
   * Opt-in stale-if-error window, in ms after an entry goes stale: in mode `default`, when the
   * request fails, such an entry is returned with `source: 'stale'` and the error in `error`.
   * Applies to local failures (connection closed, timeout, not the caller's own abort), to
   * server `-32603` internal errors, and to non-mcp-live errors; not to other server errors.
   * `Infinity` allows any stale entry. @default 0 (off)
   */
  staleIfErrorMs?: number | undefined;
  /** Receives every {@link CacheEvent}, synchronously. A throwing listener is reported to `onError`. */
  onEvent?: ((event: CacheEvent) => void) | undefined;
  /** Receives non-fatal problems: store failures, failed background refreshes, scope mismatches. @default ignore */
  onError?: ((error: Error) => void) | undefined;
}

/**
 * `options` checked, with the duration windows defaulted to 0.
 * @throws InvalidArgumentError (-32602) when `serverIdentity` is not a string or a duration
 *   option is negative, zero (`maxTtlMs`) or not a number.
 */
export function resolveResponseCacheOptions(options: ResponseCacheOptions): ResponseCacheOptions {
  if (typeof options?.serverIdentity !== 'string')
    throw new InvalidArgumentError('serverIdentity', options?.serverIdentity, 'expected a string');
  const maxTtlMs = duration('maxTtlMs', options.maxTtlMs, undefined);
  if (maxTtlMs === 0) throw new InvalidArgumentError('maxTtlMs', 0, 'expected a positive number of milliseconds');
  return {
    ...options,
    maxTtlMs,
    staleWhileRevalidateMs: duration('staleWhileRevalidateMs', options.staleWhileRevalidateMs, 0),
    staleIfErrorMs: duration('staleIfErrorMs', options.staleIfErrorMs, 0),
  };
}

function duration<F extends number | undefined>(name: string, value: number | undefined, fallback: F): number | F {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0)
    throw new InvalidArgumentError(name, value, 'expected a number of milliseconds >= 0');
  return value;
}
