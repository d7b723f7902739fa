import { ErrorCode } from '../errors/codes.js';
import { abortedError, LocalError, McpError } from '../errors/errors.js';
import type { JsonObject } from '../wire/messages.js';

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
