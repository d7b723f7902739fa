/**
 * Failures where the request never reached the server: the connection could not be made
 * (refused, no such host, unreachable, TLS handshake refused, a port `fetch` blocks), or the
 * credential was refused or could not be obtained. Such a failure is not "outcome unknown" (the
 * server ran nothing) and says nothing about the protocol era the server speaks: `connect()`
 * does not fall back to another era on it. This is the one place that decides. Runtime-neutral.
 */
import { ErrorCode } from '../../errors/codes.js';
import { ConnectionClosedError, McpError, type ConnectionClosedErrorData } from '../../errors/errors.js';
import { TransportErrorCode } from '../transportErrors.js';

/**
 * Why a connection could not be made:
 * - `refused`: nothing listens there (ECONNREFUSED);
 * - `dns`: the host name does not resolve (ENOTFOUND, EAI_AGAIN);
 * - `unreachable`: no route to the host or network (EHOSTUNREACH, ENETUNREACH);
 * - `timeout`: the connection was not established in time (connect timeout);
 * - `tls`: the TLS handshake failed: an untrusted or invalid certificate (self-signed,
 *   expired, wrong host name), or TLS spoken to a plain-HTTP port;
 * - `blocked`: the runtime refused to connect at all (a port `fetch` never uses, such as 9).
 */
export type ConnectFailure = Exclude<NonNullable<ConnectionClosedErrorData['connectFailure']>, 'spawn'>;

const IN_WORDS: Readonly<Record<ConnectFailure, string>> = Object.freeze({
  refused: 'connection refused',
  dns: 'host name not found',
  unreachable: 'host unreachable',
  timeout: 'connection timed out',
  tls: 'TLS handshake failed (untrusted certificate, or TLS spoken to a plain-HTTP port)',
  blocked: 'the runtime does not connect to this port',
});

/** Whether a new try may get through: a refused or unreachable server may be back; a certificate will not change. */
export function isRetriableConnectFailure(failure: ConnectFailure): boolean {
  return failure !== 'tls' && failure !== 'blocked';
}

/**
 * The error of a request that never reached `serverIdentity`: a {@link ConnectionClosedError}
 * (-32000) whose `data` says why (`connectFailure`, `errorCode`).
 */
export function unreachableError(
  method: string,
  serverIdentity: string,
  connect: { failure: ConnectFailure; code: string | undefined },
  cause: unknown,
): ConnectionClosedError {
  const reason = `cannot reach ${serverIdentity}: ${IN_WORDS[connect.failure]}${connect.code === undefined ? '' : ` (${connect.code})`}`;
  return new ConnectionClosedError(
    `${method}: ${reason}`,
    { reason, connectFailure: connect.failure, ...(connect.code !== undefined && { errorCode: connect.code }) },
    cause,
  );
}

const BY_CODE: Readonly<Record<string, ConnectFailure>> = Object.freeze({
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  EPROTO: 'tls',
});

/** OpenSSL's certificate verification codes (`DEPTH_ZERO_SELF_SIGNED_CERT`, `CERT_HAS_EXPIRED`...). */
const CERTIFICATE_CODE = /^(?:[A-Z_]*CERT[A-Z_]*|UNABLE_TO_[A-Z_]+|HOSTNAME_MISMATCH|INVALID_PURPOSE|INVALID_CA)$/;

/** The Node/undici error code behind a fetch failure (`error.cause.code`, or an AggregateError's), e.g. `"ECONNREFUSED"`. */
export function fetchErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      for (const inner of errors) {
        const innerCode = (inner as { code?: unknown } | null)?.code;
        if (typeof innerCode === 'string') return innerCode;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The connect failure behind an error a `fetch` or `node:http` request rejected with, or
 * `undefined` when the request may have reached the server (a reset, a socket closed mid-way).
 * `code` is the Node/undici/OpenSSL code found, when there is one.
 */
export function connectFailureOf(error: unknown): { failure: ConnectFailure; code: string | undefined } | undefined {
  const code = fetchErrorCode(error);
  if (code !== undefined) {
    const failure =
      BY_CODE[code] ??
      (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || CERTIFICATE_CODE.test(code) ? 'tls' : undefined);
    return failure === undefined ? undefined : { failure, code };
  }
  // undici's fetch refuses "bad ports" (RFC: the Fetch standard's port blocking) without a code.
  if (causeMessages(error).some((message) => message === 'bad port')) return { failure: 'blocked', code: undefined };
  return undefined;
}

function causeMessages(error: unknown): string[] {
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    messages.push(current.message);
    current = current.cause;
  }
  return messages;
}

/** Local codes of failures where the request never reached the server, or the credential was refused. */
const NOT_DELIVERED_CODES: ReadonlySet<number> = new Set([
  TransportErrorCode.HttpAuth,
  ErrorCode.AuthorizationFailed,
  ErrorCode.InsufficientScope,
  ErrorCode.AuthorizationRequired,
]);

/**
 * True when `error` says the request was not delivered to the server for processing: the
 * connection could not be made (a `ConnectionClosedError` with `data.connectFailure`), or the
 * authorization failed (`HttpAuthError`, `OAuthError`, `InsufficientScopeError`,
 * `AuthorizationRequiredError`). Such a failure is never "outcome unknown" and never a reason to
 * try another protocol era: `connect()` rejects with it unchanged.
 */
export function isNotDelivered(error: unknown): boolean {
  if (!McpError.is(error) || !error.local) return false;
  if (NOT_DELIVERED_CODES.has(error.code)) return true;
  return (
    error.code === ErrorCode.ConnectionClosed &&
    typeof (error.data as { connectFailure?: unknown } | undefined)?.connectFailure === 'string'
  );
}
