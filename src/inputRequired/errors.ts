import { ErrorCode } from '../errors/codes.js';
import { abortedError, LocalError, McpError, RpcError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';

/**
 * Data of {@link InputRequiredRoundsError}.
 * - `method`: the request that was being retried, e.g. `"tools/call"`.
 * - `rounds`: how many retries were sent (equals the `maxRounds` in force).
 * - `lastResult`: the last `input_required` result, exactly as received.
 */
export interface InputRequiredRoundsErrorData {
  method: string;
  rounds: number;
  lastResult: JsonObject;
}

/**
 * The server kept answering `resultType: "input_required"`: after `rounds` retries (the
 * driver's `maxRounds`, default 10) the result was still not complete, so mcp-live stopped
 * instead of looping (spec: basic/patterns/mrtr, Server Requirements 8: servers may ask again
 * on every attempt; the client bounds it). Local code -33006; `data` is
 * `{ method: string; rounds: number; lastResult: JsonObject }`: the request being retried, the
 * retries sent, and the last `input_required` result as received.
 */
export class InputRequiredRoundsError extends LocalError {
  override name = 'InputRequiredRoundsError';
  declare readonly data: InputRequiredRoundsErrorData;

  constructor(data: InputRequiredRoundsErrorData) {
    super(ErrorCode.InputRequiredRoundsExceeded, `${data.method}: still input_required after ${data.rounds} retries`, {
      data,
    });
  }

  /** The number of retries sent before giving up. */
  get rounds(): number {
    return this.data.rounds;
  }

  /** The last `input_required` result, as received. */
  get lastResult(): JsonObject {
    return this.data.lastResult;
  }
}

/**
 * Why an input request could not be answered:
 * - `unsupported`: no handler is registered for it, or it needs a capability the client did not
 *   declare (an elicitation mode without a handler; sampling `tools` without `sampling.tools`).
 *   The handler was not called.
 * - `handler_error`: the handler threw or rejected; the error is the `cause`.
 * - `invalid_result`: the handler (or a custom fulfil hook) returned something that is not a valid
 *   result for the request (e.g. `undefined`, an unknown elicitation `action`, a root that is not
 *   a `file://` URI, or no answer for a key).
 */
export type InputRequestFailureReason = 'unsupported' | 'handler_error' | 'invalid_result';

/**
 * Data of {@link InputRequestFailedError}.
 * - `requestMethod`: the request being retried, e.g. `"tools/call"`.
 * - `key`: the server-assigned key of the failing entry in `inputRequests`.
 * - `method`: that entry's method, e.g. `"sampling/createMessage"`.
 * - `reason`: see {@link InputRequestFailureReason}.
 */
export interface InputRequestFailedErrorData {
  requestMethod: string;
  key: string;
  method: string;
  reason: InputRequestFailureReason;
}

/**
 * One entry of an `input_required` result's `inputRequests` could not be answered, so the call
 * fails without a retry. MRTR has no way to send an error for a single input request, and the
 * spec says a client that fails to sample or list roots "does not need to replay the initial
 * call with an error message, as the server is not waiting for a response" (spec:
 * client/sampling and client/roots, Error Handling); mcp-live applies the same rule to
 * elicitation. Local code -33007; `data` is
 * `{ requestMethod: string; key: string; method: string; reason: 'unsupported' | 'handler_error' | 'invalid_result' }`:
 * the request being retried, the key and method of the failing entry of `inputRequests`, and why;
 * `cause` is the handler's error for `reason: "handler_error"`.
 */
export class InputRequestFailedError extends LocalError {
  override name = 'InputRequestFailedError';
  declare readonly data: InputRequestFailedErrorData;

  constructor(data: InputRequestFailedErrorData, detail: string, cause?: unknown) {
    super(
      ErrorCode.InputRequestFailed,
      `${data.requestMethod}: cannot answer inputRequests[${JSON.stringify(data.key)}] (${data.method}): ${detail}`,
      { data, cause },
    );
  }
}

/**
 * The error a call fails with when its signal aborted: the reason itself when it is an mcp-live
 * error (the caller's deadline aborts with a `TimeoutError`), otherwise `CancelledError` (-32800)
 * with the reason as `cause`.
 */
export function abortError(method: string, signal: AbortSignal): McpError {
  const reason: unknown = signal.reason;
  return McpError.is(reason) ? reason : abortedError(method, reason);
}

/** One URL-mode elicitation a 2025-11-25 server needs completed (spec 2025-11-25: `ElicitRequestURLParams`). */
export interface UrlElicitation {
  mode: 'url';
  /** Why the user should open the URL; shown to the user. */
  message: string;
  /** The URL to open, outside the client. */
  url: string;
  /** The id the server's `notifications/elicitation/complete` names when the user is done. */
  elicitationId: string;
}

/**
 * A 2025-11-25 server's `URLElicitationRequiredError` (-32042): it cannot answer the request
 * until the user has completed one or more URL-mode elicitations, listed in
 * `data.elicitations` (spec 2025-11-25: client/elicitation, "URL Elicitation Required Error").
 * `code`, `message` and `data` are as sent. With a URL elicitation handler
 * (`handlers.elicitation.url`) the client shows each URL through it and sends the request again
 * once the server says each is complete; this error reaches you when no handler is registered,
 * in manual mode, when the user did not accept one, when `data.elicitations` holds an entry
 * that is not a URL elicitation with an `elicitationId` (nothing was shown), or after
 * `maxInputRounds` such errors in a row. {@link elicitations} lists the URLs.
 */
export class UrlElicitationRequiredError extends RpcError {
  override name = 'UrlElicitationRequiredError';

  /** The well-formed entries of `data.elicitations` (`mode: "url"`, string `message`, `url` and `elicitationId`), in order. */
  get elicitations(): UrlElicitation[] {
    return readElicitations(this.data).filter((entry): entry is UrlElicitation => entry !== undefined);
  }

  /** True when `data.elicitations` is a non-empty list of URL elicitations only: what the client can show and wait for. */
  get wellFormed(): boolean {
    const entries = readElicitations(this.data);
    return entries.length > 0 && entries.every((entry) => entry !== undefined);
  }
}

/** Each entry of `data.elicitations` as a {@link UrlElicitation}, or undefined where it is not one. */
function readElicitations(data: unknown): (UrlElicitation | undefined)[] {
  const list = isObject(data) ? data['elicitations'] : undefined;
  if (!Array.isArray(list)) return [];
  return list.map((entry: unknown) =>
    isObject(entry) &&
    entry['mode'] === 'url' &&
    typeof entry['message'] === 'string' &&
    typeof entry['url'] === 'string' &&
    typeof entry['elicitationId'] === 'string'
      ? { mode: 'url', message: entry['message'], url: entry['url'], elicitationId: entry['elicitationId'] }
      : undefined,
  );
}

/** True for an `RpcError` with code -32042 whose `data.elicitations` is a list (2025-11-25's URLElicitationRequiredError). */
export function isUrlElicitationRequired(error: unknown): error is RpcError {
  return (
    error instanceof RpcError &&
    error.code === ErrorCode.UrlElicitationRequired &&
    isObject(error.data) &&
    Array.isArray(error.data['elicitations'])
  );
}
