/**
 * A request that failed before any response arrived, and whether it failed before a byte of it
 * left (then it is safe to send again, whatever the method: see connectFailure.ts). Shared by
 * the HTTP transports. Runtime-neutral.
 */
import { connectFailureOf, fetchErrorCode, type ConnectFailure } from './connectFailure.js';

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
}
