import { InvalidArgumentError, ProtocolError, TimeoutError, type McpError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import { resultKind } from '../wire/results.js';
import type { InputRequest, InputResponse } from '../wire/protocol.js';
import { systemClock, type Clock, type TimerHandle, type Timers } from '../util/clock.js';
import { boundedTimers } from '../util/timerBounds.js';
import { abortableDelay } from '../util/signals.js';
import { abortError, InputRequiredRoundsError } from './errors.js';
import { inputRetryFor, readInputRequired } from './retry.js';
import type { InputRetry } from '../wire/callOptions.js';

import { DEFAULT_MAX_ROUNDS } from './limits.js';

/**
 * How long to wait before re-sending a request whose `input_required` result carried only
 * `requestState` (no `inputRequests`), e.g. while a URL-mode elicitation completes out of band.
 * For the n-th such result in a row:
 * - n = 1: `initialMs`, or no wait when `immediateFirst` (spec: "the client MAY retry the
 *   original request immediately"; a server that keeps answering state only is then polled in
 *   a tight loop at first);
 * - after that: `initialMs`, `initialMs·factor`, `initialMs·factor²`, … capped at `maxMs`.
 * A result with `inputRequests` resets the count. All values in ms.
 */
export interface PausePolicy {
  /** Retry the first state-only result at once. @default false */
  immediateFirst: boolean;
  /** First non-zero wait, in ms. @default 100 */
  initialMs: number;
  /** Growth per further state-only result (≥ 1). @default 2 */
  factor: number;
  /** Longest wait, in ms. @default 2000 */
  maxMs: number;
}

/** The default {@link PausePolicy}: 100, 200, 400, 800, 1600, 2000, 2000… ms. */
export const DEFAULT_PAUSE: Readonly<PausePolicy> = Object.freeze({
  immediateFirst: false,
  initialMs: 100,
  factor: 2,
  maxMs: 2000,
});

/** What the `retry` hook gets besides the fields to add. */
export interface RetryContext {
  /** The call's signal: aborts on cancellation and when the total budget runs out. */
  signal: AbortSignal;
  /** 1 for the first retry, 2 for the second, … */
  round: number;
  /** Budget left for the whole call in ms, when a `deadline` was given; pass it on as the request's total timeout. */
  remainingMs: number | undefined;
}

/** What the `fulfil` hook gets besides the requests. */
export interface FulfilContext {
  /** The call's signal: aborts on cancellation and when the total budget runs out. */
  signal: AbortSignal;
  /** The retry these answers are for (1-based). */
  round: number;
}

/** Options of {@link driveInputRequired}. */
export interface DriveInputRequiredOptions {
  /** The request being driven: `"tools/call"`, `"prompts/get"` or `"resources/read"`. Used in errors. */
  method: string;
  /** The result of the first request (complete or `input_required`). */
  first: JsonObject;
  /**
   * Sends the original request again with `retry`'s fields added (see `withInputRetry`), under a
   * new JSON-RPC id, and resolves with its result. The hook owns ids, `_meta` and per-request
   * timeouts; the driver never touches a transport.
   */
  retry: (retry: InputRetry, context: RetryContext) => Promise<JsonObject>;
  /**
   * Answers every entry of `inputRequests`, resolving with one response per key (extra keys are
   * dropped; a missing key fails the call). Usually `fulfilInputRequests` over the host's handlers.
   */
  fulfil: (
    inputRequests: Record<string, InputRequest>,
    context: FulfilContext,
  ) => Promise<Record<string, InputResponse>>;
  /** The most retries to send; `0` means fail on the first `input_required`. @default 10 */
  maxRounds?: number | undefined;
  /** Cancels the whole call: every pause, handler and retry. */
  signal?: AbortSignal | undefined;
  /**
   * The call's total budget: `at` is a time on `clock` (ms) after which the call fails with
   * `TimeoutError` (`kind: "total"`, `timeoutMs: totalTimeoutMs`), whatever it is doing
   * (handler, pause or retry). Omit it when `signal` already fires at the deadline.
   */
  deadline?: { at: number; totalTimeoutMs: number } | undefined;
  /** Clock for `deadline`. @default performance.now */
  clock?: Clock | undefined;
  /** Timers for pauses and the deadline. @default the globals (fake-timer friendly) */
  timers?: Timers | undefined;
  /** Pause between state-only retries; unset fields take {@link DEFAULT_PAUSE}. */
  pause?: Partial<PausePolicy> | undefined;
  /** A `resultType: "task"` result ends the rounds too (returned as is): the request declared the Tasks extension. */
  acceptsTask?: boolean | undefined;
}

/**
 * Drives a multi round-trip request to completion (spec: basic/patterns/mrtr): while the result
 * is `input_required`, answer its `inputRequests` through `fulfil` (all entries at once, keys
 * kept), then `retry` with `inputResponses` (only when the server asked for input) and
 * `requestState` (only when this very result carried one, echoed unchanged). A result with only
 * `requestState` is retried after the {@link PausePolicy} wait. Resolves with the first complete
 * result (`resultType` `"complete"` or absent; or `"task"` with `acceptsTask`), which may be `first` itself.
 *
 * @throws ProtocolError (-32600) for an unknown `resultType`, a malformed `input_required`
 *   result (neither `inputRequests` nor `requestState`, wrong types) or a malformed input request.
 * @throws InputRequiredRoundsError (-33006) when the result of retry number `maxRounds` is
 *   still `input_required`; `data` holds `rounds` and `lastResult`.
 * @throws InputRequestFailedError (-33007) when an input request cannot be answered.
 * @throws CancelledError (-32800) when `signal` aborts, promptly, even if a hook ignores its
 *   signal; when the abort reason is an mcp-live error (say a `TimeoutError`) that error instead.
 * @throws TimeoutError (-32001, `kind: "total"`) when `deadline` passes, or when a pause would
 *   end after it.
 * @throws InvalidArgumentError (-32602) for a bad `maxRounds` or `pause`.
 * Errors from the hooks (e.g. `RpcError` from a retry) propagate unchanged. No timer survives
 * the returned promise.
 */
export async function driveInputRequired(options: DriveInputRequiredOptions): Promise<JsonObject> {
  const { method, retry, fulfil } = options;
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  if (!Number.isInteger(maxRounds) || maxRounds < 0)
    throw new InvalidArgumentError('maxRounds', maxRounds, 'expected a non-negative integer');
  const pause = resolvePause(options.pause);
  const clock = options.clock ?? systemClock;
  const timers = boundedTimers(options.timers);
  const call = linkCall(method, options.signal, options.deadline, clock, timers);
  const { signal } = call;
  const remaining = () => (options.deadline === undefined ? undefined : options.deadline.at - clock.now());

  try {
    let result = options.first;
    let rounds = 0;
    let stateOnly = 0;
    for (;;) {
      if (!isObject(result)) throw new ProtocolError('result must be an object', { method, value: result });
      if (resultKind(method, result, options.acceptsTask) !== 'input_required') return result;
      const parts = readInputRequired(method, result);
      if (rounds >= maxRounds) throw new InputRequiredRoundsError({ method, rounds, lastResult: result });
      if (signal.aborted) throw abortError(method, signal);

      let answers: Record<string, InputResponse> | undefined;
      if (parts.inputRequests !== undefined) {
        stateOnly = 0;
        const requests = parts.inputRequests;
        const round = rounds + 1;
        answers = await raceAbort(method, signal, () => fulfil(requests, { signal, round }));
      } else {
        stateOnly += 1;
        const waitMs = pauseBeforeRetry(stateOnly, pause);
        if (waitMs > 0) {
          const left = remaining();
          if (left !== undefined && waitMs >= left) throw call.timeoutError();
          await abortableDelay(waitMs, timers, signal).catch(() => {
            throw abortError(method, signal);
          });
        }
      }
      const fields = inputRetryFor(method, result, answers);
      rounds += 1;
      const context: RetryContext = { signal, round: rounds, remainingMs: remaining() };
      result = await raceAbort(method, signal, () => retry(fields, context));
    }
  } finally {
    call.dispose();
  }
}

/**
 * The wait in ms before the retry that answers the `n`-th `requestState`-only result in a row
 * (n ≥ 1) under `policy`. Pure.
 */
export function pauseBeforeRetry(n: number, policy: PausePolicy = DEFAULT_PAUSE): number {
  if (n <= 0) return 0;
  if (policy.immediateFirst && n === 1) return 0;
  const step = policy.immediateFirst ? n - 2 : n - 1;
  return Math.min(policy.maxMs, policy.initialMs * policy.factor ** step);
}

function resolvePause(pause: Partial<PausePolicy> | undefined): PausePolicy {
  const policy: PausePolicy = { ...DEFAULT_PAUSE };
  if (pause === undefined) return policy;
  if (!isObject(pause))
    throw new InvalidArgumentError('pause', pause, 'expected { immediateFirst?, initialMs?, factor?, maxMs? }');
  if (pause.immediateFirst !== undefined) policy.immediateFirst = pause.immediateFirst;
  const number = (name: 'initialMs' | 'factor' | 'maxMs', min: number) => {
    const value = pause[name];
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
      throw new InvalidArgumentError(`pause.${name}`, value, `expected a finite number ≥ ${min}`);
    policy[name] = value;
  };
  number('initialMs', 0);
  number('factor', 1);
  number('maxMs', 0);
  return policy;
}

/** The call's own signal: follows the caller's signal and fires at the deadline. */
export function linkCall(
  method: string,
  outer: AbortSignal | undefined,
  deadline: DriveInputRequiredOptions['deadline'],
  clock: Clock,
  timers: Timers,
) {
  const controller = new AbortController();
  const timeoutError = (): McpError =>
    new TimeoutError({ method, timeoutMs: deadline?.totalTimeoutMs ?? 0, kind: 'total' });
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  let handle: TimerHandle;
  if (deadline !== undefined && !controller.signal.aborted) {
    const left = deadline.at - clock.now();
    if (left <= 0) controller.abort(timeoutError());
    else handle = timers.setTimeout(() => controller.abort(timeoutError()), left);
  }
  return {
    signal: controller.signal,
    timeoutError,
    dispose() {
      outer?.removeEventListener('abort', onAbort);
      if (handle !== undefined) timers.clearTimeout(handle);
    },
  };
}

/** Runs a hook and settles with it, or rejects as soon as `signal` aborts (the hook keeps its signal). */
export function raceAbort<T>(method: string, signal: AbortSignal, hook: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(method, signal));
  let promise: Promise<T>;
  try {
    promise = Promise.resolve(hook());
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(method, signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
