/**
 * How a client reconnects after its connection dropped, and when it stops: jittered
 * exponential backoff, a budget against crash loops (a few quick retries for a connection that
 * dies young (a count and a span of time), a bounded number of reconnects per window, a long cool-down once either is
 * spent), and giving up after a few cool-downs that did not help. The budget is pure: time comes
 * in as arguments. The loop that runs it is `reconnect/loop.ts`, on the one retry loop of
 * `resilience/retry.ts`.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { BackoffOptions } from '../resilience/backoff.js';
import { FailureBudget, mergeBudgetOptions, type BudgetDecision } from '../resilience/failureBudget.js';

/**
 * How an `McpClient` reconnects (`ClientOptions.reconnect`). Every field is optional; times are
 * in ms. The backoff defaults: `minDelayMs` 500 (the wait before the first attempt after a
 * drop), `maxDelayMs` 30000, `factor` 2, `jitter` true (cool-downs: add up to 10 %).
 */
export interface ReconnectOptions extends BackoffOptions {
  /**
   * A connection that drops within this long of opening (being negotiated), and an attempt that
   * fails, count as quick failures, in ms. A connection that lived longer starts the count over.
   * @default 10000
   */
  quickFailureMs?: number | undefined;
  /**
   * Consecutive quick failures that are retried with backoff; the next one waits `coolDownMs`
   * (once `quickPhaseMs` has passed too). @default 5
   */
  maxQuickRetries?: number | undefined;
  /**
   * The quick phase as a span of time, in ms: for this long after the connection dropped (or the
   * first attempt failed), failed attempts are retried with backoff however many there were, so
   * an outage of seconds never costs a `coolDownMs`: the server is back within one backoff wait
   * of its return. The cool-down comes only once both `maxQuickRetries` and this span are spent.
   * `0`: the count alone decides. @default 60000 (1 min)
   */
  quickPhaseMs?: number | undefined;
  /** Reconnect attempts allowed per `windowMs`; beyond that, each attempt waits `coolDownMs`. @default 10 */
  maxReconnectsPerWindow?: number | undefined;
  /** The window of `maxReconnectsPerWindow`, in ms. @default 3600000 (1 h) */
  windowMs?: number | undefined;
  /** The wait once the quick retries or the window budget are spent, in ms. @default 300000 (5 min) */
  coolDownMs?: number | undefined;
  /**
   * Cool-downs after quick failures, in a row, before the client gives up (`gaveUp`, then
   * `closed`); a connection that lives `quickFailureMs` starts the count over. `Infinity`
   * never gives up. Cool-downs of the window budget do not count. @default 3
   */
  maxCoolDowns?: number | undefined;
  /**
   * Also retry a first `connect()` that failed at the connection level (the command could not
   * be spawned, the process exited, the socket was refused, HTTP 5xx; never an authorization
   * failure or a version mismatch). `connect()` still rejects with that failure, but the client
   * goes on `reconnecting` instead of `closed`, under the same budget. For hosts that keep a
   * server they could not start (McpHost sets it). @default false
   */
  retryFirstConnect?: boolean | undefined;
  /** Random source in [0, 1) for the jitter. @default Math.random */
  random?: (() => number) | undefined;
}

/** {@link ReconnectOptions} with every default filled in. */
export type ResolvedReconnectPolicy = { readonly [K in keyof ReconnectOptions]-?: NonNullable<ReconnectOptions[K]> };

/** The defaults of {@link ReconnectOptions}. */
export const DEFAULT_RECONNECT_POLICY: ResolvedReconnectPolicy = Object.freeze({
  minDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: true,
  quickFailureMs: 10_000,
  maxQuickRetries: 5,
  quickPhaseMs: 60_000,
  maxReconnectsPerWindow: 10,
  windowMs: 3_600_000,
  coolDownMs: 300_000,
  maxCoolDowns: 3,
  retryFirstConnect: false,
  random: Math.random,
});

/**
 * Fills the defaults of `options` and checks them; `false` (never reconnect) stays `false`.
 * @throws InvalidArgumentError (-32602) for a negative or non-finite time, a `factor` below 1, a
 *   count that is not an integer ≥ 0 (`maxCoolDowns` may be `Infinity`), or a bad `random`.
 */
export function resolveReconnectOptions(
  options: ReconnectOptions | false | undefined,
): ResolvedReconnectPolicy | false {
  if (options === false) return false;
  const resolved = mergeBudgetOptions(
    'reconnect',
    options,
    DEFAULT_RECONNECT_POLICY,
    ['maxReconnectsPerWindow'],
    'expected ReconnectOptions or false',
  );
  const cooldowns = resolved.maxCoolDowns;
  if (!(Number.isInteger(cooldowns) || cooldowns === Number.POSITIVE_INFINITY) || cooldowns < 0)
    throw new InvalidArgumentError('reconnect.maxCoolDowns', cooldowns, 'expected an integer >= 0 or Infinity');
  if (typeof resolved.retryFirstConnect !== 'boolean')
    throw new InvalidArgumentError('reconnect.retryFirstConnect', resolved.retryFirstConnect, 'expected a boolean');
  if (typeof resolved.random !== 'function')
    throw new InvalidArgumentError('reconnect.random', resolved.random, 'expected a function returning [0, 1)');
  return Object.freeze({ ...resolved });
}

/** What {@link ReconnectBudget} decided: wait `delayMs` before the next attempt. */
export type ReconnectDecision = BudgetDecision;

/**
 * The reconnect budget of one client. Pure: every method takes the time (`now`, monotonic ms).
 * `undefined` from a method means: give up.
 *
 * - Each consecutive failure multiplies the backoff by `factor`: a connection that drops within
 *   `quickFailureMs` of opening, and every attempt that fails. A connection that lived
 *   `quickFailureMs` starts the count at one (and the cool-down count at zero).
 * - Consecutive quick failures are retried with backoff while there are at most
 *   `maxQuickRetries`, or while the run of failures is younger than `quickPhaseMs`; past both,
 *   each attempt waits `coolDownMs`, and after `maxCoolDowns` such cool-downs the budget gives up.
 * - At most `maxReconnectsPerWindow` attempts start within any `windowMs`; past that, each
 *   attempt waits `coolDownMs` (never a reason to give up: the server does come back).
 */
export class ReconnectBudget {
  private readonly budget: FailureBudget;

  constructor(policy: ResolvedReconnectPolicy) {
    this.budget = new FailureBudget({ ...policy, maxStartsPerWindow: policy.maxReconnectsPerWindow }, policy.random);
  }

  /** Consecutive quick failures so far. */
  get consecutiveQuickFailures(): number {
    return this.budget.consecutiveQuickFailures;
  }

  /** A connection opened at `openedAt` dropped at `now`: the wait before the first attempt. */
  dropped(openedAt: number, now: number): ReconnectDecision | undefined {
    return this.budget.ended(openedAt, now);
  }

  /** An attempt failed at `now`: the wait before the next one. */
  attemptFailed(now: number): ReconnectDecision | undefined {
    return this.budget.attemptFailed(now);
  }

  /** Records that an attempt starts at `now` (counted in the window budget). */
  attemptStarted(now: number): void {
    this.budget.attemptStarted(now);
  }
}
