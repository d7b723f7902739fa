/**
 * The reopen loop of a listen stream: a subscription's {@link ReopenBudget} (reopenPolicy.ts)
 * layered on the one retry loop (`resilience/retry.ts`, on p-retry), which sleeps the budget's
 * waits on the global timers, so fake timers drive it. Runtime-neutral.
 */
import type { Clock } from '../util/clock.js';
import type { ReopenBudget, ReopenDecision } from './reopenPolicy.js';
import { retry } from './retry.js';

/** Options of {@link reopenWithRetry}. */
export interface ReopenRetryOptions {
  budget: ReopenBudget;
  clock: Clock;
  /** Stops waiting and retrying; the run then rejects with `signal.reason`. */
  signal: AbortSignal;
  /** Whether a failed attempt may be retried; a `false` ends the run with that error. */
  retryable(error: unknown): boolean;
  /** Called after each retryable failure, before its wait. */
  onRetry?(error: unknown, decision: ReopenDecision): void;
}

/**
 * Runs `attempt` until it succeeds, fails with an error that is not `retryable`, or `signal`
 * aborts; the budget names each wait (its backoff or its cool-down: a wait the listener is told
 * of before it starts, so the budget computes it, not p-retry), slept on the global timers
 * by the retry loop of `resilience/retry.ts` (p-retry). Each attempt is recorded in the budget's
 * window. Rejects with the last error (or `signal.reason`).
 */
export function reopenWithRetry<T>(attempt: () => Promise<T>, options: ReopenRetryOptions): Promise<T> {
  const { budget, clock, signal } = options;
  return retry(
    () => {
      budget.attemptStarted(clock.now());
      return attempt();
    },
    {
      retries: Number.POSITIVE_INFINITY,
      signal,
      next: (error) => {
        if (!options.retryable(error)) return undefined;
        const decision = budget.attemptFailed(clock.now());
        options.onRetry?.(error, decision);
        return decision.delayMs;
      },
    },
  );
}
