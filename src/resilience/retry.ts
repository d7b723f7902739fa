/**
 * The one retry module of mcp-live, on `p-retry`: a loop of attempts ({@link retry}) in which
 * p-retry sleeps the exponential backoff and the loop sleeps the waits p-retry cannot compute
 * (a server's `Retry-After`, a failure budget's decision), every one on the global timers and cut
 * short by the caller's signal; and the retry policy of the network transports on top of it
 * ({@link withRetry}: bounded attempts, exponential backoff with jitter, `Retry-After`
 * honoured). Listen reopens and reconnects layer their budgets on {@link retry}. Runtime-neutral.
 */
import pRetry from 'p-retry';
import { InvalidArgumentError } from '../errors/errors.js';
import { boundedTimers, MAX_TIMER_DELAY_MS } from '../util/timerBounds.js';
import { abortableDelay } from '../util/signals.js';
import type { Backoff, BackoffOptions } from './backoff.js';

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
