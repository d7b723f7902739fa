/**
 * When a subscription reopens a listen stream that ended without the host asking, and how long
 * it waits first: jittered exponential backoff, a budget for streams that die young, a budget
 * per time window, and a long cool-down once either is spent. The budget is pure (time comes
 * in as arguments); `reopenWithRetry` (reopenRetry.ts) layers it on the one retry loop
 * (`resilience/retry.ts`, on p-retry), which sleeps the budget's waits on the global timers, so
 * fake timers drive it. This file holds no loop: the root entry exports its defaults, and the
 * loop loads with the subscriptions that reopen streams.
 */
import type { BackoffOptions } from './backoff.js';
import { FailureBudget, mergeBudgetOptions, type BudgetDecision } from './failureBudget.js';

/**
 * How a subscription reopens its stream. Every field is optional; times are in ms. The backoff
 * defaults: `minDelayMs` 1000 (the wait before the first reopen after a stream ends),
 * `maxDelayMs` 30000, `factor` 2, `jitter` true (cool-downs: add up to 10 %).
 */
export interface ReopenPolicy extends BackoffOptions {
  /** A stream that ends within this long of its acknowledgment, or a reopen that fails before one, counts as a quick failure, in ms. @default 10000 */
  quickFailureMs?: number | undefined;
  /** Consecutive quick failures that are retried with backoff; the next one waits `coolDownMs`. @default 3 */
  maxQuickRetries?: number | undefined;
  /** Reopen attempts allowed per `windowMs`; beyond that, each attempt waits `coolDownMs`. @default 5 */
  maxReopensPerWindow?: number | undefined;
  /** The window of `maxReopensPerWindow`, in ms. @default 3600000 (1 h) */
  windowMs?: number | undefined;
  /** The wait once a budget is spent, in ms. @default 900000 (15 min) */
  coolDownMs?: number | undefined;
}

/** {@link ReopenPolicy} with every default filled in. */
export type ResolvedReopenPolicy = { readonly [K in keyof ReopenPolicy]-?: NonNullable<ReopenPolicy[K]> };

/** The defaults of {@link ReopenPolicy}. */
export const DEFAULT_REOPEN_POLICY: ResolvedReopenPolicy = Object.freeze({
  minDelayMs: 1000,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: true,
  quickFailureMs: 10_000,
  maxQuickRetries: 3,
  maxReopensPerWindow: 5,
  windowMs: 3_600_000,
  coolDownMs: 900_000,
});

/**
 * Fills the defaults of `policy` and checks it; `false` (never reopen) stays `false`.
 * @throws InvalidArgumentError (-32602) for a negative or non-finite time, a `factor` below 1,
 *   or a count that is not an integer ≥ 0.
 */
export function resolveReopenPolicy(
  policy: ReopenPolicy | false | undefined,
  base: ResolvedReopenPolicy = DEFAULT_REOPEN_POLICY,
): ResolvedReopenPolicy | false {
  if (policy === false) return false;
  const resolved = mergeBudgetOptions(
    'reopen',
    policy,
    base,
    ['maxReopensPerWindow'],
    'expected a ReopenPolicy object or false',
  );
  return Object.freeze({ ...resolved });
}

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
      { ...policy, maxStartsPerWindow: policy.maxReopensPerWindow, maxCoolDowns: Number.POSITIVE_INFINITY },
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
