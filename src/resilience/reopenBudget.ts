/**
 * The reopen budget of one subscription, and the retry loop that applies it. The budget is pure
 * (time comes in as arguments); {@link reopenWithRetry} layers it on the one retry loop
 * (`retry.ts`, on p-retry), which sleeps the budget's waits on the global timers, so fake
 * timers drive it. The policy it reads is in `reopenPolicy.ts`.
 */
import { FailureBudget, type BudgetDecision } from './failureBudget.js';
import type { ResolvedReopenPolicy } from './reopenPolicy.js';
import { retry } from './retry.js';
import type { Clock } from '../util/clock.js';

/** What {@link ReopenBudget} decided: wait `delayMs` before the next attempt. */
export type ReopenDecision = BudgetDecision;

/**
 * The reopen budget of one subscription. Pure: every method takes the time (`now`, monotonic
 * ms) as an argument.
 *
 * - Each consecutive failure doubles the backoff (by `factor`): a stream that ends, and every
 *   reopen attempt that fails before its acknowledgment. A stream that lived `quickFailureMs`
 *   starts the count again at one.
 * - A stream that ends within `quickFailureMs` of its acknowledgment, and a reopen attempt that
 *   fails before one, are quick failures. Up to `maxQuickRetries` consecutive ones are retried
 *   with backoff; past that, each attempt waits `coolDownMs`. A stream that lived longer resets
 *   the count.
 * - At most `maxReopensPerWindow` attempts start within any `windowMs`; past that, each attempt
 *   waits `coolDownMs`.
 */
export class ReopenBudget {
  private readonly budget: FailureBudget;

  constructor(policy: ResolvedReopenPolicy, random: () => number = Math.random) {
    // A stream is never given up on: the cool-downs go on for as long as the subscription does.
    this.budget = new FailureBudget(
      {
        ...policy,
        maxStartsPerWindow: policy.maxReopensPerWindow,
        maxCoolDowns: Number.POSITIVE_INFINITY,
        quickPhaseMs: 0,
      },
      random,
    );
  }

  /** Consecutive quick failures so far. */
  get consecutiveQuickFailures(): number {
    return this.budget.consecutiveQuickFailures;
  }

  /** A stream acknowledged at `openedAt` ended at `now`: the wait before reopening it. */
  streamEnded(openedAt: number, now: number): ReopenDecision {
    return this.budget.ended(openedAt, now) as ReopenDecision;
  }

  /** A reopen attempt failed at `now` before it was acknowledged: the wait before the next one. */
  attemptFailed(now: number): ReopenDecision {
    return this.budget.attemptFailed(now) as ReopenDecision;
  }

  /** Records that a reopen attempt starts at `now` (counted in the window budget). */
  attemptStarted(now: number): void {
    this.budget.attemptStarted(now);
  }
}

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
