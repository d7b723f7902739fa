/**
 * What a task poll survives: the failures of one `tasks/get` that say nothing about the task
 * (the server's -32603, a timeout, a dropped connection, HTTP 5xx or 429), retried with the
 * project's backoff while the task lives; and the range every interval a server suggests is
 * held to. Pure.
 */
import { ErrorCode } from '../errors/codes.js';
import { InvalidArgumentError, McpError } from '../errors/errors.js';
import type { Backoff, BackoffOptions } from '../resilience/backoff.js';

/**
 * How failed polls are retried: up to `retries` in a row (a poll that succeeds starts the count
 * again), waiting the `Retry-After` of a 429/503 when it is at most `maxDelayMs`, else the
 * backoff (`minDelayMs`·`factor`^(n-1) for the `n`th backoff wait of the run, times [0.5, 1)
 * with jitter, on by default, then capped at `maxDelayMs`), computed and slept by p-retry on the
 * global timers.
 */
export interface TaskPollRetry extends BackoffOptions {
  /** Failed polls in a row that are retried; one more and the call gives up (`TaskAbandonedError`). @default 8 */
  retries?: number | undefined;
}

/** {@link TaskPollRetry} with every default filled in. */
export type ResolvedTaskPollRetry = Backoff & { readonly retries: number };

/** The defaults of {@link TaskPollRetry}: 8 retries, 500 ms doubling to 30 s, jitter (about 2 min in all). */
export const DEFAULT_TASK_POLL_RETRY: ResolvedTaskPollRetry = Object.freeze({
  retries: 8,
  minDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: true,
});

/**
 * Checks a partial {@link TaskPollRetry} and fills the defaults; `false` retries nothing.
 * @throws InvalidArgumentError (-32602) naming the first bad field.
 */
export function resolveTaskPollRetry(value: TaskPollRetry | false | undefined): ResolvedTaskPollRetry {
  if (value === false) return { ...DEFAULT_TASK_POLL_RETRY, retries: 0 };
  if (value === undefined) return DEFAULT_TASK_POLL_RETRY;
  if (typeof value !== 'object' || value === null)
    throw new InvalidArgumentError('tasks.pollRetry', value, 'expected false or { retries?, minDelayMs?, … }');
  const out = { ...DEFAULT_TASK_POLL_RETRY };
  const retries = value.retries ?? out.retries;
  if (!Number.isInteger(retries) || retries < 0)
    throw new InvalidArgumentError('tasks.pollRetry.retries', retries, 'expected an integer ≥ 0');
  out.retries = retries;
  for (const [name, min] of [
    ['minDelayMs', 0],
    ['maxDelayMs', 0],
    ['factor', 1],
  ] as const) {
    const field = value[name];
    if (field === undefined) continue;
    if (typeof field !== 'number' || !Number.isFinite(field) || field < min)
      throw new InvalidArgumentError(`tasks.pollRetry.${name}`, field, `expected a finite number ≥ ${min}`);
    out[name] = field;
  }
  if (value.jitter !== undefined) {
    if (typeof value.jitter !== 'boolean')
      throw new InvalidArgumentError('tasks.pollRetry.jitter', value.jitter, 'expected a boolean');
    out.jitter = value.jitter;
  }
  return Object.freeze(out);
}

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
