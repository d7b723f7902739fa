/**
 * The one retry module of mcp-live, on `p-retry`: a loop of attempts ({@link retry}) in which
 * p-retry sleeps the exponential backoff and the loop sleeps the waits p-retry cannot compute
 * (a server's `Retry-After`, a failure budget's decision), every one on the global timers and cut
 * short by the caller's signal; and the retry policy of the network transports on top of it
 * ({@link withRetry}: bounded attempts, exponential backoff with jitter, `Retry-After`
 * honoured; the policy's options and defaults are in retryPolicy.ts, re-exported here). Listen
 * reopens and reconnects layer their budgets on {@link retry}. Runtime-neutral.
 */
import pRetry from 'p-retry';
import { boundedTimers, MAX_TIMER_DELAY_MS } from '../util/timerBounds.js';
import { abortableDelay } from '../util/signals.js';
import type { Backoff } from './backoff.js';
import type { ResolvedRetryPolicy } from './retryPolicy.js';

/** What to do after a failed attempt. */
export interface RetryDecision {
  /** Whether this failure may be retried at all. */
  retry: boolean;
  /** The wait the server asked for (`Retry-After`), in ms; replaces the backoff for this retry. */
  delayMs?: number | undefined;
}

/** Options of {@link withRetry}. */
export interface WithRetryOptions {
  policy: ResolvedRetryPolicy;
  /** Decides, per failure, whether to retry and how long the server asked to wait. */
  classify: (error: unknown, attempt: number) => RetryDecision;
  /** Aborting it stops waiting and retrying; `withRetry` then rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
}

/**
 * How the loop goes on after a failure: `'backoff'` waits the loop's exponential backoff
 * (computed and slept by p-retry), a number waits that many ms (a wait p-retry cannot compute:
 * a server's `Retry-After`, a budget's cool-down), `undefined` stops with the failure.
 */
export type RetryStep = 'backoff' | number | undefined;

interface RetryLoopBase {
  /**
   * Retries after the first attempt at most, whatever their waits; `Infinity` for a loop that
   * `next` or the signal ends.
   */
  retries: number;
  /** Aborting it stops waiting and retrying; the run then rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
}

/** Options of {@link retry}: a loop with a backoff, whose `next` may name it. */
export interface BackoffRetryLoopOptions extends RetryLoopBase {
  /**
   * The backoff p-retry computes and sleeps for a `'backoff'` step: retry number `n` of those
   * waits (1-based; a wait `next` names in ms does not count) waits
   * `minDelayMs * factor^(n-1)`, times a random factor in [0.5, 1) with `jitter`, then capped at
   * `maxDelayMs` and at 2^31 - 1 ms.
   */
  backoff: Backoff;
  /**
   * After failure number `attempt` (1-based) with `error`: how to go on ({@link RetryStep}). It
   * may throw to stop with another error. Not called once the retries are spent.
   */
  next: (error: unknown, attempt: number) => RetryStep;
}

/** Options of {@link retry}: a loop without a backoff, whose `next` names every wait in ms. */
export interface NamedWaitRetryLoopOptions extends RetryLoopBase {
  backoff?: undefined;
  /**
   * After failure number `attempt` (1-based) with `error`: the wait in ms before the next
   * attempt, or `undefined` to stop with that error. It may throw to stop with another error.
   * Not called once the retries are spent.
   */
  next: (error: unknown, attempt: number) => number | undefined;
}

/** Options of {@link retry}. */
export type RetryLoopOptions = BackoffRetryLoopOptions | NamedWaitRetryLoopOptions;

/**
 * Runs `attempt` until it succeeds, `next` stops it, the retries are spent, or `signal` aborts;
 * rejects with the last failure (or `signal.reason`, or what `next` threw). The loop is
 * p-retry's: attempt numbers, the abort signal, and the backoff, which it computes from
 * `backoff` (its `factor`, `minTimeout`, `maxTimeout` and `randomize`) and sleeps on the global
 * `setTimeout`. A wait `next` names in ms is slept here, between p-retry's attempts (p-retry
 * awaits `onFailedAttempt`), on the global timers too (held to 2^31 - 1 ms per timer, so a long
 * wait is waited in full), and p-retry neither waits nor counts a retry for it
 * (`shouldConsumeRetry`): the `retries` budget is counted here, over every retry. Every wait is
 * cut short by `signal`, and fake timers that patch the globals drive the whole loop. Every
 * failure is `next`'s to judge: p-retry's rule of never retrying a `TypeError` is kept out by
 * carrying each failure in an envelope of our own.
 */
export function retry<T>(attempt: (attemptNumber: number) => Promise<T>, options: RetryLoopOptions): Promise<T> {
  const { retries, signal, next } = options;
  const failures = new WeakMap<Error, unknown>();
  // Whether p-retry sleeps its backoff after the current failure (else the wait was ours).
  let backoff = false;
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
      ...pRetryBackoff(options.backoff),
      retries,
      signal,
      onFailedAttempt: async ({ error, attemptNumber }) => {
        const original = failures.has(error) ? failures.get(error) : error;
        if (signal?.aborted) throw signal.reason;
        if (attemptNumber > retries) throw original;
        const step = next(original, attemptNumber);
        if (step === undefined) throw original;
        backoff = step === 'backoff';
        if (step !== 'backoff') await abortableDelay(Math.max(0, step), boundedTimers(), signal);
      },
      shouldConsumeRetry: () => backoff,
    },
  );
}

/**
 * `backoff` as p-retry's options. p-retry's wait for its retry `n` is
 * `round(r * minTimeout * factor^(n-1))`, `r` in [1, 2) with `randomize` (else 1), then capped
 * at `maxTimeout`: so with jitter `minTimeout` is half of `minDelayMs`, for waits in
 * [0.5, 1) * `minDelayMs * factor^(n-1)`. Without a backoff p-retry never waits (no retry is
 * consumed), so its own defaults do not matter.
 */
function pRetryBackoff(
  backoff: Backoff | undefined,
): { factor: number; minTimeout: number; maxTimeout: number; randomize: boolean } | undefined {
  if (backoff === undefined) return undefined;
  return {
    factor: backoff.factor,
    minTimeout: backoff.jitter ? backoff.minDelayMs / 2 : backoff.minDelayMs,
    maxTimeout: Math.min(backoff.maxDelayMs, MAX_TIMER_DELAY_MS),
    randomize: backoff.jitter,
  };
}

/**
 * Runs `attempt` until it succeeds, `classify` says a failure is final, the retries run out, a
 * `Retry-After` exceeds `maxRetryAfterMs`, or `signal` aborts. Rejects with the last failure
 * (or `signal.reason`). Waits are the policy's backoff (slept by p-retry; its exponent counts the
 * backoff waits only), or what the server asked for.
 */
export function withRetry<T>(attempt: (attemptNumber: number) => Promise<T>, options: WithRetryOptions): Promise<T> {
  const { policy, classify } = options;
  return retry(attempt, {
    retries: policy.retries,
    signal: options.signal,
    backoff: policy,
    next: (error, attemptNumber) => {
      const decision = classify(error, attemptNumber);
      if (!decision.retry) return undefined;
      if (decision.delayMs === undefined) return 'backoff';
      return decision.delayMs > policy.maxRetryAfterMs ? undefined : Math.max(0, decision.delayMs);
    },
  });
}
