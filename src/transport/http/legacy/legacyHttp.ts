/**
 * The legacy shape of Streamable HTTP (MCP 2025-03-26 through 2025-11-25, basic/transports
 * "Streamable HTTP"), as the `StreamableHttpTransport` speaks it after the client falls back to
 * `initialize`: its options, and the error of an expired session. What runs the legacy session
 * (`legacyWire.lazy.ts`, `legacyChannel.ts`, `sessionSetup.ts`) loads when the client enters the
 * legacy wire. Runtime-neutral.
 */
import { ErrorCode } from '../../../errors/codes.js';
import { InvalidArgumentError, LocalError, McpError } from '../../../errors/errors.js';

/** Options of the legacy wire (`StreamableHttpTransportOptions.legacy`). Every field is optional. */
export interface LegacyHttpOptions {
  /**
   * Open the optional standalone GET stream after the handshake, for server messages that
   * belong to no request (change notifications, server requests). @default true
   */
  standaloneStream?: boolean | undefined;
  /**
   * GET attempts in a row that may fail (400, 404, a network error, a stream that ends with no
   * event) before the standalone stream is given up; 405 gives it up at once. @default 3
   */
  standaloneMaxAttempts?: number | undefined;
  /**
   * Wait before the first GET retry, in ms; doubles for each further one, with jitter: a wait in
   * [0.5, 1) times that (computed and slept by p-retry on the global timers). @default 1000
   */
  standaloneRetryDelayMs?: number | undefined;
  /** Resumptions (GET with `Last-Event-ID`) of one request's broken response stream. @default 3 */
  maxResumptions?: number | undefined;
  /** Wait before a reconnect when the server sent no SSE `retry` field, in ms. @default 1000 */
  defaultRetryMs?: number | undefined;
  /** Send `DELETE` with the session id when the transport closes. @default true */
  deleteSessionOnClose?: boolean | undefined;
  /** Longest wait for that `DELETE`, in ms. @default 2000 */
  deleteTimeoutMs?: number | undefined;
}

/** {@link LegacyHttpOptions} with every default filled in. */
export type ResolvedLegacyHttpOptions = {
  readonly [K in keyof LegacyHttpOptions]-?: NonNullable<LegacyHttpOptions[K]>;
};

/**
 * Fills the defaults of `options` and checks them.
 * @throws InvalidArgumentError (-32602) for a count that is not an integer >= 0 (>= 1 for
 *   `standaloneMaxAttempts`) or a delay that is not a finite number >= 0.
 */
export function resolveLegacyHttpOptions(options: LegacyHttpOptions | undefined): ResolvedLegacyHttpOptions {
  const resolved = {
    standaloneStream: options?.standaloneStream ?? true,
    standaloneMaxAttempts: options?.standaloneMaxAttempts ?? 3,
    standaloneRetryDelayMs: options?.standaloneRetryDelayMs ?? 1000,
    maxResumptions: options?.maxResumptions ?? 3,
    defaultRetryMs: options?.defaultRetryMs ?? 1000,
    deleteSessionOnClose: options?.deleteSessionOnClose ?? true,
    deleteTimeoutMs: options?.deleteTimeoutMs ?? 2000,
  };
  for (const key of ['standaloneMaxAttempts', 'maxResumptions'] as const) {
    const value = resolved[key];
    const min = key === 'standaloneMaxAttempts' ? 1 : 0;
    if (!Number.isInteger(value) || value < min)
      throw new InvalidArgumentError(`legacy.${key}`, value, `expected an integer >= ${min}`);
  }
  for (const key of ['standaloneRetryDelayMs', 'defaultRetryMs', 'deleteTimeoutMs'] as const) {
    const value = resolved[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new InvalidArgumentError(`legacy.${key}`, value, 'expected a finite number of ms >= 0');
  }
  return Object.freeze(resolved);
}

/** `data` of a {@link SessionExpiredError}. */
export interface SessionExpiredErrorData {
  /** The JSON-RPC method of the request the server refused. */
  method: string;
  /** Always 404. */
  status: number;
}

/**
 * The server answered HTTP 404 to a request that carried `Mcp-Session-Id`: the legacy session
 * is gone (spec 2025-11-25: basic/transports, Session Management). The transport has already
 * dropped the session id; the client starts one new session (`initialize` without the header)
 * and sends the request once more under a new id. It rejects with this error (code -33014)
 * when that fails again. Messages sent between the 404 and the new session's `initialize`
 * result wait in the transport and then carry the new id. `data` is
 * {@link SessionExpiredErrorData}; the session id itself is never put in an error.
 */
export class SessionExpiredError extends LocalError {
  override name = 'SessionExpiredError';
  declare readonly data: SessionExpiredErrorData;

  constructor(data: SessionExpiredErrorData) {
    super(ErrorCode.SessionExpired, `${data.method}: the server ended the session (HTTP ${data.status})`, { data });
  }
}

/** True for a {@link SessionExpiredError}, whichever package copy made it. */
export function isSessionExpiredError(value: unknown): value is SessionExpiredError {
  return McpError.is(value) && value.local && value.code === ErrorCode.SessionExpired;
}
