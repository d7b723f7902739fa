/**
 * Which failures of one `tasks/get` say nothing about the task (the server's -32603, a timeout,
 * a dropped connection, HTTP 5xx or 429), so that the poll is tried again under
 * `TasksOptions.pollRetry` while the task lives, and the wait such a failure asked for. Part of
 * the task machinery, loaded once a task exists. Pure.
 */
import { ErrorCode } from '../errors/codes.js';
import { McpError } from '../errors/errors.js';

/** Codes of local errors that mean "this poll did not get through", not "the task is gone". */
const TRANSIENT_LOCAL: ReadonlySet<number> = new Set([
  ErrorCode.ConnectionClosed,
  ErrorCode.RequestTimeout,
  ErrorCode.StreamBroken,
  ErrorCode.WebSocketClosed,
]);

/**
 * Whether a failed `tasks/get` may be retried: the server's -32603 (Internal error), an HTTP
 * 5xx or 429 (as an `HttpError`, or a JSON-RPC error carried by one), a request timeout, a
 * dropped connection, a broken stream or a closed WebSocket. Not: -32602 (the server does not
 * know the task), a malformed answer, a cancellation, anything else. Checked by code and
 * `data`, so it holds for errors of any copy of the package.
 */
export function isTransientPollError(error: unknown): boolean {
  if (!McpError.is(error)) return false;
  if (!error.local) {
    if (error.code === ErrorCode.InternalError) return true;
    const status = (error as { httpStatus?: unknown }).httpStatus;
    return typeof status === 'number' && isTransientStatus(status);
  }
  if (error.code === ErrorCode.Http) return isTransientStatus(httpStatusOf(error));
  return TRANSIENT_LOCAL.has(error.code);
}

/** The wait a failed poll asked for (`Retry-After` of a 429/503), in ms, when it gave one. */
export function retryAfterOf(error: unknown): number | undefined {
  if (!McpError.is(error) || typeof error.data !== 'object' || error.data === null) return undefined;
  const value = (error.data as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function httpStatusOf(error: McpError): number {
  const status =
    typeof error.data === 'object' && error.data !== null ? (error.data as { status?: unknown }).status : 0;
  return typeof status === 'number' ? status : 0;
}

function isTransientStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}
