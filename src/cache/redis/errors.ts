/**
 * The error a fleet cache store reports (through its `onError`; never thrown from a call), and
 * the one an outage is reported with.
 */
import { ErrorCode } from '../../errors/codes.js';
import { LocalError } from '../../errors/errors.js';
import { RedisFailure, RedisTimeout } from './redisLink.js';

/** `data` of {@link CacheStoreError}. */
export interface CacheStoreErrorData {
  /** The Redis operation that failed, e.g. `"GET"`, `"EVALSHA"`, `"SCAN"`, `"connect"`. */
  operation: string;
  /**
   * `unreachable`: Redis refused or dropped the connection, or answered with an error;
   * `timeout`: no answer within the store's `timeoutMs`; `malformed-entry`: a key of this
   * store held something that is not a usable entry (text that is not an mcp-live entry, a
   * result failing the checks the client runs on a server's, a value of another Redis type):
   * served as a miss and removed, the store staying up.
   */
  reason: 'unreachable' | 'timeout' | 'malformed-entry';
  /** With `malformed-entry`: the Redis key (it holds digests only, never a credential). */
  key?: string | undefined;
}

/**
 * A fleet cache store could not do its work (local code -33030, `ErrorCode.CacheStoreFailed`).
 * For `unreachable` and `timeout` it is reported once per outage: from then on the store
 * answers every lookup as a miss and keeps nothing, without waiting on Redis, until Redis
 * answers again. `cause` is the client library's error, when there is one.
 */
export class CacheStoreError extends LocalError {
  override name = 'CacheStoreError';
  declare readonly data: CacheStoreErrorData;

  constructor(message: string, data: CacheStoreErrorData, cause?: unknown) {
    super(ErrorCode.CacheStoreFailed, message, { data, cause });
  }
}

/** The error an outage that began with `error` is reported with (`unreachable` or `timeout`). */
export function outageError(error: unknown): CacheStoreError {
  if (error instanceof CacheStoreError) return error;
  if (error instanceof RedisTimeout)
    return new CacheStoreError(
      `Redis ${error.operation}: no answer within ${error.timeoutMs} ms; caching without Redis until it answers again`,
      { operation: error.operation, reason: 'timeout' },
      error,
    );
  const operation = error instanceof RedisFailure ? error.operation : 'command';
  const cause = error instanceof RedisFailure ? error.cause : error;
  const why = cause instanceof Error ? cause.message : String(cause);
  return new CacheStoreError(
    `Redis ${operation} failed (${why}); caching without Redis until it answers again`,
    { operation, reason: 'unreachable' },
    cause,
  );
}
