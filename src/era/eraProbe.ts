/**
 * Reading the answer to the `server/discover` probe (spec 2026-07-28: basic/versioning,
 * Backward Compatibility; basic/transports/stdio and streamable-http, Backward Compatibility).
 * Pure.
 */
import { ErrorCode } from '../errors/codes.js';
import { McpError, RpcError } from '../errors/errors.js';
import { TransportErrorCode } from '../transport/transportErrors.js';
import type { EraStepFailure } from './errors.js';
import { isNotDelivered } from '../transport/http/connectFailure.js';

/**
 * What a failed probe says about the server.
 * - `modern`: a recognised 2026-07-28 error: -32020, -32021, -32022 (on any transport, in any
 *   status), or -32601 that came with HTTP 404 (a modern server's unknown method).
 * - `legacy`: any other error response (whatever its code: -32601 on stdio, -32602, -32600,
 *   -32000...), a non-JSON-RPC HTTP refusal (`HttpError`: 400 text, 404 HTML, 405...), no
 *   answer in time (`TimeoutError`), a response stream that broke before the answer, a result
 *   that is not a DiscoverResult (`ProtocolError`: some legacy servers answer any unknown
 *   method with `{}`). Never keyed to one code.
 * - `fatal`: nothing to fall back from: a request that never reached the server
 *   ({@link isNotDelivered}: an authorization failure at any step, `HttpAuthError`,
 *   `OAuthError`, `InsufficientScopeError`, `AuthorizationRequiredError`; a connection refused,
 *   unresolvable, unreachable or refused by TLS), a closed connection, the caller's abort, a bad
 *   argument, a non-mcp-live error.
 */
export type ProbeVerdict = 'modern' | 'legacy' | 'fatal';

/** Modern JSON-RPC error codes that only a 2026-07-28 server sends. */
const MODERN_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/**
 * Local errors that end the connect attempt instead of leading to a fallback (besides those
 * {@link isNotDelivered} names: authorization failures and connections that could not be made).
 */
const FATAL_LOCAL_CODES: ReadonlySet<number> = new Set([
  ErrorCode.ConnectionClosed,
  ErrorCode.RequestCancelled,
  ErrorCode.InvalidParams,
]);

/**
 * The JSON-RPC error an HTTP refusal carried, as an `RpcError` (with `httpStatus`), when it
 * carried one the transport could not hand up as the response (a JSON body under another
 * content type); otherwise `error` itself.
 */
export function probeError(error: unknown, method: string): unknown {
  if (!McpError.is(error) || !error.local || error.code !== TransportErrorCode.Http) return error;
  const data = error.data as
    { status?: unknown; rpcError?: { code: number; message: string; data?: unknown } } | undefined;
  if (data?.rpcError === undefined || !MODERN_CODES.has(data.rpcError.code)) return error;
  return new RpcError(data.rpcError, method, typeof data.status === 'number' ? data.status : undefined);
}

/** Classifies the failure of a `server/discover` probe (see {@link ProbeVerdict}). A result is always modern. */
export function classifyProbeFailure(error: unknown): ProbeVerdict {
  if (!McpError.is(error) || isNotDelivered(error)) return 'fatal';
  if (!error.local) {
    if (MODERN_CODES.has(error.code)) return 'modern';
    const status = (error as RpcError).httpStatus;
    if (error.code === ErrorCode.MethodNotFound && status === 404) return 'modern';
    return 'legacy';
  }
  return FATAL_LOCAL_CODES.has(error.code) ? 'fatal' : 'legacy';
}

/**
 * True when a failed Streamable HTTP `initialize` calls for the last fallback, the deprecated
 * HTTP+SSE transport (spec 2026-07-28: basic/transports/streamable-http, Backward
 * Compatibility): HTTP 400, 404 or 405, and no recognised modern JSON-RPC error in the body
 * (-32020, -32021, -32022, or -32601 with 404, which only a 2026-07-28 server sends).
 */
export function isSseFallbackCue(error: unknown): boolean {
  const status = httpStatusOf(error);
  if (status !== 400 && status !== 404 && status !== 405) return false;
  return classifyProbeFailure(probeError(error, 'initialize')) === 'legacy';
}

/** The HTTP status an error came with: `RpcError.httpStatus`, or `data.status` of a local HTTP error. */
function httpStatusOf(error: unknown): number | undefined {
  if (!McpError.is(error)) return undefined;
  if (!error.local) return (error as RpcError).httpStatus;
  const status = (error.data as { status?: unknown } | undefined)?.status;
  return error.code === TransportErrorCode.Http && typeof status === 'number' ? status : undefined;
}

/** True for errors that end a connect attempt at once, whatever step they come from. */
export function isFatalConnectError(error: unknown): boolean {
  return classifyProbeFailure(error) === 'fatal';
}

/**
 * A short, serializable account of a failed step. `method` is the JSON-RPC method sent, or
 * `GET` when the HTTP+SSE step failed opening its stream (the error's `data.method` says so).
 */
export function stepFailure(method: string, error: unknown): EraStepFailure {
  const mcp = McpError.is(error) ? error : undefined;
  const data = mcp?.data as { status?: unknown; method?: unknown } | undefined;
  const rpcStatus = mcp !== undefined && !mcp.local ? (mcp as RpcError).httpStatus : undefined;
  const status = rpcStatus ?? (mcp?.local === true && typeof data?.status === 'number' ? data.status : undefined);
  return {
    method: mcp?.local === true && data?.method === 'GET' ? 'GET' : method,
    error: error instanceof Error ? error.name : typeof error,
    code: mcp?.code,
    status,
    message: error instanceof Error ? error.message : String(error),
  };
}

/** True for an answer that is not a DiscoverResult: a malformed result or body (`ProtocolError`, -32600 / -32700). */
export function isMalformedAnswer(error: unknown): boolean {
  return (
    McpError.is(error) &&
    error.local &&
    (error.code === ErrorCode.InvalidRequest || error.code === ErrorCode.ParseError)
  );
}
