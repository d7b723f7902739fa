import { ErrorCode, type JsonRpcErrorObject } from './codes.js';

const BRAND = Symbol.for('mcp-live.error');

/**
 * Base class of every error mcp-live throws. `code` is a JSON-RPC error code (see
 * {@link ErrorCode}); `data` is the structured detail documented on each subclass.
 * Use the `is*` guards rather than `instanceof` when two copies of the package may be loaded.
 */
export class McpError extends Error {
  override name = 'McpError';
  readonly code: number;
  readonly data: unknown;
  /** True for errors produced by mcp-live itself; false for errors the server sent. */
  readonly local: boolean;

  constructor(code: number, message: string, options: { data?: unknown; cause?: unknown; local: boolean }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options.data;
    this.local = options.local;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True when `value` is an mcp-live error, whichever copy of the package made it. */
  static is(value: unknown): value is McpError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/**
 * An error response the server sent. `code`, `message` and `data` are exactly what the wire
 * carried (JSON-RPC 2.0 §5.1); `method` is the request it answered.
 */
export class RpcError extends McpError {
  override name = 'RpcError';
  /** The request method this error answered, e.g. `"tools/call"`. */
  readonly method: string;
  /**
   * The HTTP status of the response that carried the error (Streamable HTTP: 400 for -32022,
   * 404 for a modern server's -32601...); `undefined` on transports without one (stdio,
   * WebSocket). Era detection reads it: -32601 with 404 is a 2026-07-28 server.
   */
  readonly httpStatus: number | undefined;

  constructor(error: JsonRpcErrorObject, method: string, httpStatus?: number) {
    super(error.code, error.message, { data: error.data, local: false });
    this.method = method;
    this.httpStatus = httpStatus;
  }
}

/**
 * `resources/read` found no such resource: code -32602 with `data.uri` (2026-07-28) or the
 * legacy -32002 (2025-11-25). `code` keeps what the server sent; `uri` is the uri asked for.
 */
export class ResourceNotFoundError extends RpcError {
  override name = 'ResourceNotFoundError';
  readonly uri: string;

  constructor(error: JsonRpcErrorObject, uri: string, httpStatus?: number) {
    super(error, 'resources/read', httpStatus);
    this.uri = uri;
  }
}

/**
 * The server rejected our protocol version (-32022). `data` is
 * `{ supported: string[]; requested: string }` as the server sent it.
 */
export class UnsupportedProtocolVersionError extends RpcError {
  override name = 'UnsupportedProtocolVersionError';
}

/**
 * The server needs a client capability the request did not declare (-32021,
 * `MissingRequiredClientCapability`; spec 2026-07-28 basic/index): for example a tool that can
 * only run as a task (`extensions["io.modelcontextprotocol/tasks"]`), or input the client has no
 * handler for. `code`, `message` and `data` are as sent; {@link requiredCapabilities} reads
 * `data.requiredCapabilities` when it is an object.
 */
export class MissingClientCapabilityError extends RpcError {
  override name = 'MissingClientCapabilityError';

  /** `data.requiredCapabilities` as sent (e.g. `{ extensions: { "io.modelcontextprotocol/tasks": {} } }`), or `{}`. */
  get requiredCapabilities(): Record<string, unknown> {
    const data = this.data;
    const required =
      typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['requiredCapabilities'] : undefined;
    return typeof required === 'object' && required !== null && !Array.isArray(required)
      ? (required as Record<string, unknown>)
      : {};
  }
}

/** Local errors: never sent by a server. */
export class LocalError extends McpError {
  override name = 'LocalError';
  constructor(code: number, message: string, options: { data?: unknown; cause?: unknown } = {}) {
    super(code, message, { ...options, local: true });
  }
}

/** `data` of {@link TimeoutError}. */
export interface TimeoutErrorData {
  /** The request's method. */
  method: string;
  /** The deadline that ran out, in ms; absent for `kind: "signal"` (the signal's own deadline is not known). */
  timeoutMs?: number | undefined;
  /**
   * `idle`: no response or progress within `timeoutMs`; `total`: `maxTotalTimeoutMs` ran out;
   * `signal`: the caller's signal aborted with a `TimeoutError` (`AbortSignal.timeout()`), kept as `cause`.
   */
  kind: 'idle' | 'total' | 'signal';
}

/** `data` of {@link ConnectionClosedError}: why the transport closed. */
export interface ConnectionClosedErrorData {
  /** A short reason, e.g. `closed by client`, `process exited`. */
  reason: string;
  /** stdio: the server process's exit code, when it exited. */
  exitCode?: number | null | undefined;
  /** stdio: the signal that ended the server process, when one did. */
  signal?: string | null | undefined;
  /** stdio: the last lines the server wrote to stderr (bounded). */
  stderrTail?: string | undefined;
  /**
   * The connection could not be made, so the server received nothing (never "outcome
   * unknown", never a reason to try another era). HTTP: `refused`, `dns`, `unreachable`,
   * `timeout`, `tls` (an untrusted certificate, or TLS spoken to a plain-HTTP port) or
   * `blocked`. stdio: `spawn`, the command could not be started (`errorCode` says why; `ENOENT`
   * and `EACCES` are never retried by a reconnect).
   */
  connectFailure?: 'refused' | 'dns' | 'unreachable' | 'timeout' | 'tls' | 'blocked' | 'spawn' | undefined;
  /**
   * The Node, undici or OpenSSL code behind {@link connectFailure} (e.g. `ECONNREFUSED`,
   * `DEPTH_ZERO_SELF_SIGNED_CERT`; stdio: `ENOENT` for a missing command or cwd, `EACCES`).
   */
  errorCode?: string | undefined;
  /**
   * Whether the request reached the server: `unknown` for one in flight, or whose write failed,
   * when the connection dropped (the server may have acted on it; a `tools/call` is never sent
   * again, even when the client reconnects), `not-sent` for one refused before anything was
   * sent. Absent on errors that are not about one request.
   */
  outcome?: 'unknown' | 'not-sent' | undefined;
}

/** `data` of {@link ProtocolError}. */
export interface ProtocolErrorData {
  /** The request's method, when the violation belongs to one. */
  method?: string | undefined;
  /** What is wrong, in words. */
  reason: string;
  /** The offending value as received. */
  value: unknown;
}

/**
 * The request outlived its deadline (code -32001). `data` is
 * `{ method: string; timeoutMs: number; kind: 'idle' | 'total' }`: `idle` when no response or
 * progress came within `timeoutMs`, `total` when `maxTotalTimeoutMs` ran out.
 */
export class TimeoutError extends LocalError {
  override name = 'TimeoutError';
  declare readonly data: TimeoutErrorData;
  /** @param cause what timed out, e.g. the `TimeoutError` DOMException of `AbortSignal.timeout()` */
  constructor(data: TimeoutErrorData, cause?: unknown) {
    super(
      ErrorCode.RequestTimeout,
      data.timeoutMs === undefined
        ? `${data.method} timed out (its signal's deadline passed)`
        : `${data.method} timed out after ${data.timeoutMs} ms`,
      { data, cause },
    );
  }
}

/**
 * The caller's AbortSignal cancelled the request (code -32800). `cause` is `signal.reason`;
 * `data` is `{ method: string }`. Never used for timeouts: see {@link TimeoutError}.
 */
export class CancelledError extends LocalError {
  override name = 'CancelledError';
  declare readonly data: { method: string };
  constructor(method: string, reason: unknown) {
    super(ErrorCode.RequestCancelled, `${method} was cancelled`, { data: { method }, cause: reason });
  }
}

/**
 * The error for `method` when the caller's signal aborted with `reason`: a {@link TimeoutError}
 * (code -32001, `kind: "signal"`, `reason` as `cause`) when `reason` is a `TimeoutError`
 * DOMException, as `AbortSignal.timeout(ms)` gives; else a {@link CancelledError} (-32800).
 */
export function abortedError(method: string, reason: unknown): CancelledError | TimeoutError {
  if (isTimeoutReason(reason)) return new TimeoutError({ method, kind: 'signal' }, reason);
  return new CancelledError(method, reason);
}

/** True for the reason `AbortSignal.timeout()` aborts with (a DOMException named `TimeoutError`). */
export function isTimeoutReason(reason: unknown): boolean {
  return (
    typeof reason === 'object' &&
    reason !== null &&
    !McpError.is(reason) &&
    (reason as { name?: unknown }).name === 'TimeoutError'
  );
}

/**
 * The connection closed, or was never open, while a request was pending (code -32000).
 * `data` is the transport's close info: `{ reason, exitCode?, signal?, stderrTail?, outcome? }` ({@link ConnectionClosedErrorData}).
 */
export class ConnectionClosedError extends LocalError {
  override name = 'ConnectionClosedError';
  declare readonly data: ConnectionClosedErrorData;
  constructor(message: string, data: ConnectionClosedErrorData, cause?: unknown) {
    super(ErrorCode.ConnectionClosed, message, { data, cause });
  }
}

/**
 * The server sent something that breaks the protocol: a result without the fields the method
 * needs, an unknown `resultType`, a message that is not JSON-RPC (code -32600 or -32700).
 * `data` is `{ method?: string; reason: string; value: unknown }` with the offending value.
 */
export class ProtocolError extends LocalError {
  override name = 'ProtocolError';
  declare readonly data: ProtocolErrorData;
  constructor(
    reason: string,
    data: { method?: string | undefined; value: unknown },
    code: number = ErrorCode.InvalidRequest,
  ) {
    super(code, data.method === undefined ? reason : `${data.method}: ${reason}`, { data: { ...data, reason } });
  }
}

/**
 * Version negotiation failed: the server supports none of the versions this client speaks.
 * Code -32022; `data` is `{ clientSupported: string[]; serverSupported: string[] }`.
 */
export class VersionNegotiationError extends LocalError {
  override name = 'VersionNegotiationError';
  declare readonly data: { clientSupported: string[]; serverSupported: string[] };
  constructor(data: { clientSupported: string[]; serverSupported: string[] }, cause?: unknown) {
    super(
      ErrorCode.UnsupportedProtocolVersion,
      `no common protocol version: client supports ${data.clientSupported.join(', ')}; server supports ${data.serverSupported.join(', ') || '(none listed)'}`,
      { data, cause },
    );
  }
}

/**
 * The caller passed a value mcp-live cannot send (code -32602). `data` is
 * `{ name: string; value: unknown }`: the parameter name and the offending value.
 */
export class InvalidArgumentError extends LocalError {
  override name = 'InvalidArgumentError';
  declare readonly data: { name: string; value: unknown };
  /** `detail` adds fields of a subclass's `data` (e.g. `UriTemplateError`'s `template`). */
  constructor(name: string, value: unknown, reason: string, detail?: Record<string, unknown>) {
    super(ErrorCode.InvalidParams, `invalid ${name}: ${reason}`, { data: { ...detail, name, value } });
  }
}

/** True for an error the server sent (as opposed to one made locally). */
export function isRpcError(value: unknown): value is RpcError {
  return McpError.is(value) && !value.local;
}

/** True when a request failed because of the caller's AbortSignal. */
export function isCancelledError(value: unknown): value is CancelledError {
  return McpError.is(value) && value.local && value.code === ErrorCode.RequestCancelled;
}

/** True when a request failed because its deadline passed. */
export function isTimeoutError(value: unknown): value is TimeoutError {
  return McpError.is(value) && value.local && value.code === ErrorCode.RequestTimeout;
}

/**
 * The server answered with `resultType: "input_required"` and mcp-live did not (or could not)
 * answer it itself (spec: basic/patterns/mrtr). Code -32021 is not used here: the server
 * asked for input, it did not refuse. Local code -33003 (`ErrorCode.InputRequired`); `data` is
 * `{ method: string; result: InputRequiredResult }` with the result as received.
 */
export class InputRequiredError extends LocalError {
  override name = 'InputRequiredError';
  /** `result` is the `input_required` result exactly as received. */
  declare readonly data: { method: string; result: unknown };
  constructor(method: string, result: unknown) {
    super(ErrorCode.InputRequired, `${method}: the server needs input the client did not provide`, {
      data: { method, result },
    });
  }
}
