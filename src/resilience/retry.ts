/**
 * The one retry module of mcp-live, on `p-retry`: a loop of attempts ({@link retry}) whose waits
 * a hook names and injected timers run, cut short by the caller's signal; and the retry policy of the network transports on top of them
 * ({@link withRetry}: bounded attempts, exponential backoff with jitter, `Retry-After`
 * honoured). Listen reopens layer their budget on {@link retry} the same way. Runtime-neutral.
 */
import pRetry from 'p-retry';
import { InvalidArgumentError } from '../errors/errors.js';
import { type Timers } from '../util/clock.js';
import { boundedTimers } from '../util/timerBounds.js';
import { abortableDelay } from '../util/signals.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';

/**
 * How transient failures are retried. Every field is optional. The backoff defaults:
 * `minDelayMs` 500, `maxDelayMs` 5000, `factor` 2, `jitter` true.
 */
export interface RetryPolicy extends BackoffOptions {
  /** Retries after the first attempt (so `retries + 1` attempts at most). @default 2 */
  retries?: number | undefined;
  /**
   * Longest server-requested wait (`Retry-After`) that is honoured, in ms. A longer request
   * ends the retries at once with the last error (which carries `retryAfterMs`). @default 30000
   */
  maxRetryAfterMs?: number | undefined;
}

/** {@link RetryPolicy} with every default filled in. */
export type ResolvedRetryPolicy = { readonly [K in keyof RetryPolicy]-?: NonNullable<RetryPolicy[K]> };

/** The defaults of {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: ResolvedRetryPolicy = Object.freeze({
  retries: 2,
  minDelayMs: 500,
  maxDelayMs: 5000,
  factor: 2,
  jitter: true,
  maxRetryAfterMs: 30_000,
});

/** A policy that never retries. */
export const NO_RETRY_POLICY: ResolvedRetryPolicy = Object.freeze({ ...DEFAULT_RETRY_POLICY, retries: 0 });

/**
 * Fills the defaults of `policy` and checks it; `false` means {@link NO_RETRY_POLICY}.
 * @throws InvalidArgumentError (code -32602) for a negative, non-integer or non-finite value.
 */
export function resolveRetryPolicy(policy: RetryPolicy | false | undefined): ResolvedRetryPolicy {
  if (policy === false) return NO_RETRY_POLICY;
  const resolved = { ...DEFAULT_RETRY_POLICY, ...definedOnly(policy ?? {}) };
  if (!Number.isInteger(resolved.retries) || resolved.retries < 0)
    throw new InvalidArgumentError('retry.retries', resolved.retries, 'expected an integer >= 0');
  for (const key of ['minDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    const value = resolved[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new InvalidArgumentError(`retry.${key}`, value, 'expected a finite number of ms >= 0');
  }
  if (typeof resolved.factor !== 'number' || !Number.isFinite(resolved.factor) || resolved.factor < 1) {
    throw new InvalidArgumentError('retry.factor', resolved.factor, 'expected a finite number >= 1');
  }
  return Object.freeze(resolved);
}

function definedOnly(policy: RetryPolicy): Partial<ResolvedRetryPolicy> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(policy)) if (value !== undefined) out[key] = value;
  return out;
}

/** What to do after a failed attempt. */
export interface RetryDecision {
  /** Whether this failure may be retried at all. */
  retry: boolean;
  /** The wait the server asked for (`Retry-After`), in ms; overrides the computed backoff. */
  delayMs?: number | undefined;
}

/** Options of {@link withRetry}. */
export interface WithRetryOptions {
  policy: ResolvedRetryPolicy;
  /** Decides, per failure, whether to retry and how long the server asked to wait. */
  classify: (error: unknown, attempt: number) => RetryDecision;
  /** Aborting it stops waiting and retrying; `withRetry` then rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
  /** Timers for the waits. @default the globals (fake-timer friendly) */
  timers?: Timers | undefined;
  /** Random source in [0, 1) for the jitter. @default Math.random */
  random?: (() => number) | undefined;
  /** Called before each wait, with the failure and the wait in ms. */
  onRetry?: ((info: { error: unknown; attempt: number; delayMs: number }) => void) | undefined;
}

/** Options of {@link retry}. */
export interface RetryLoopOptions {
  /** Retries after the first attempt at most; `Infinity` for a loop that `next` or the signal ends. */
  retries: number;
  /**
   * After failure number `attempt` (1-based) with `error`: the wait in ms before the next
   * attempt, or `undefined` to stop with that error. It may throw to stop with another error.
   * Not called once the retries are spent.
   */
  next: (error: unknown, attempt: number) => number | undefined;
  /** Aborting it stops waiting and retrying; the run then rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
  /** Timers for the waits. @default the globals, looked up per call (fake-timer friendly) */
  timers?: Timers | undefined;
}

/**
 * Runs `attempt` until it succeeds, `next` stops it, the retries are spent, or `signal` aborts;
 * rejects with the last failure (or `signal.reason`). The loop is p-retry's: attempt numbers,
 * the `retries` budget, the abort signal. The waits are not: p-retry 7 (the last major that runs
 * on Node 20) computes its delay and sleeps on the global `setTimeout` in one step, with
 * `Math.random` for its jitter, and neither can be injected, while every wait of mcp-live runs
 * on the `timers` a host or a test hands in, with a random source a test can fix. So p-retry's
 * own wait is 0, and `next` (on {@link backoffDelay}, `Retry-After`, or a budget of its own)
 * names each wait, slept here on `timers`. Every failure is `next`'s to judge: p-retry's rule of
 * never retrying a `TypeError` is kept out by carrying each failure in an envelope of our own.
 */
export function retry<T>(attempt: (attemptNumber: number) => Promise<T>, options: RetryLoopOptions): Promise<T> {
  const { next, signal } = options;
  const timers = boundedTimers(options.timers);
  const failures = new WeakMap<Error, unknown>();
  return pRetry(
    async (attemptNumber) => {
      try {
        return await attempt(attemptNumber);
      } catch (error) {
        // p-retry needs Error instances, and treats a TypeError as final: carry the original.
        const carried = new Error(error instanceof Error ? error.message : String(error));
        failures.set(carried, error);
        throw carried;
      }
    },
    {
      retries: options.retries,
      minTimeout: 0,
      maxTimeout: 0,
      signal,
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
        const original = failures.has(error) ? failures.get(error) : error;
        if (signal?.aborted) throw signal.reason;
        if (retriesLeft <= 0) throw original;
        const delayMs = next(original, attemptNumber);
        if (delayMs === undefined) throw original;
        await abortableDelay(Math.max(0, delayMs), timers, signal);
      },
    },
  );
}

/**
 * Runs `attempt` until it succeeds, `classify` says a failure is final, the retries run out, a
 * `Retry-After` exceeds `maxRetryAfterMs`, or `signal` aborts. Rejects with the last failure
 * (or `signal.reason`). Waits are the policy's backoff, or what the server asked for.
 */
export function withRetry<T>(attempt: (attemptNumber: number) => Promise<T>, options: WithRetryOptions): Promise<T> {
  const { policy, classify, onRetry } = options;
  const random = options.random ?? Math.random;
  return retry(attempt, {
    retries: policy.retries,
    signal: options.signal,
    timers: options.timers,
    next: (error, attemptNumber) => {
      const decision = classify(error, attemptNumber);
      if (!decision.retry) return undefined;
      let delayMs: number;
      if (decision.delayMs !== undefined) {
        if (decision.delayMs > policy.maxRetryAfterMs) return undefined;
        delayMs = Math.max(0, decision.delayMs);
      } else {
        delayMs = backoffDelay(policy, attemptNumber, random);
      }
      onRetry?.({ error, attempt: attemptNumber, delayMs });
      return delayMs;
    },
  });
}

/**
 * The wait a `Retry-After` value asks for, in ms: delay-seconds (`"120"`) or an HTTP-date
 * (`"Wed, 21 Oct 2026 07:28:00 GMT"`, compared with `nowMs`, wall-clock ms since the epoch).
 * A date in the past gives 0. `undefined` for an absent or unparsable value.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : undefined;
  }
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
