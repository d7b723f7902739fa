/**
 * A request that failed before any response arrived, and whether it failed before a byte of it
 * left (then it is safe to send again, whatever the method: see connectFailure.ts). Shared by
 * the HTTP transports. Runtime-neutral.
 */
import { ConnectionClosedError } from '../../errors/errors.js';
import type { RequestId } from '../../wire/messages.js';
import { StreamBrokenError } from '../transportErrors.js';
import { connectFailureOf, fetchErrorCode, unreachableError, type ConnectFailure } from './connectFailure.js';

/** A fetch (or `node:http` request) that failed before any response arrived; `cause` is the failure. */
export class NetworkFailure extends Error {
  override name = 'NetworkFailure';
  /** The system error code behind the failure (`ECONNREFUSED`...), when there is one. */
  readonly code: string | undefined;
  /** Set when the connection could not be made: nothing reached the server (refused, DNS, TLS...). */
  readonly connect: { readonly failure: ConnectFailure; readonly code: string | undefined } | undefined;

  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.connect = connectFailureOf(cause);
    this.code = this.connect?.code ?? fetchErrorCode(cause);
  }

  /**
   * The error this failure becomes for a message of `method` to `serverIdentity`: when the
   * connection could not be made, a ConnectionClosedError (-32000) naming why (see
   * `unreachableError`); else for a notification or response (`id` undefined) a
   * ConnectionClosedError (-32000, "cannot reach"), and for a request a StreamBrokenError
   * (phase `before-response`, outcome `unknown`) whose reason is "the connection failed
   * before `before`". `cause` is the failure's cause.
   */
  toError(
    method: string,
    serverIdentity: string,
    id: RequestId | undefined,
    before: string,
  ): ConnectionClosedError | StreamBrokenError {
    if (this.connect !== undefined) return unreachableError(method, serverIdentity, this.connect, this.cause);
    const code = this.code === undefined ? '' : ` (${this.code})`;
    if (id === undefined) {
      const reason = `cannot reach ${serverIdentity}${code}`;
      return new ConnectionClosedError(`${method}: ${reason}`, { reason }, this.cause);
    }
    return new StreamBrokenError(
      {
        method,
        requestId: id,
        phase: 'before-response',
        reason: `the connection failed before ${before}${code}`,
        eventsReceived: 0,
        outcome: 'unknown',
      },
      this.cause,
    );
  }
}
