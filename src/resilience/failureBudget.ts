/**
 * The budget against failure loops that reconnecting a client (`reconnect/policy.ts`) and
 * reopening a listen stream (`subscriptions/reopenPolicy.ts`) share: backoff by consecutive
 * failures, quick retries for a connection that dies young (a count and a span of time), a cap on attempts per time
 * window, a long cool-down once either is spent, and optionally giving up after some cool-downs.
 * Pure: every method takes the time (`now`, monotonic ms) as an argument.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { backoffDelay, type Backoff } from './backoff.js';

/** The numbers a {@link FailureBudget} follows; times in ms. */
export interface FailureBudgetPolicy extends Backoff {
  /** A connection that ends within this long of opening counts as a quick failure. */
  readonly quickFailureMs: number;
  /** Consecutive quick failures retried with backoff; past that (and `quickPhaseMs`), each attempt waits `coolDownMs`. */
  readonly maxQuickRetries: number;
  /**
   * The quick phase as a span: for this long after a run of failures began, failures are
   * retried with backoff however many there were; `0`: the count alone decides.
   */
  readonly quickPhaseMs: number;
  /** Attempts allowed to start within any `windowMs`; past that, each attempt waits `coolDownMs`. */
  readonly maxStartsPerWindow: number;
  readonly windowMs: number;
  readonly coolDownMs: number;
  /** Cool-downs spent on quick failures before the budget gives up; `Infinity`: never. */
  readonly maxCoolDowns: number;
}

/** What a {@link FailureBudget} decided: wait `delayMs` before the next attempt. */
export interface BudgetDecision {
  delayMs: number;
  /** True when a budget was spent and this is the long cool-down. */
  coolDown: boolean;
}

/**
 * The budget of one connection (or stream). `undefined` from a method means: give up (only once
 * `maxCoolDowns` cool-downs did not help).
 *
 * - Each consecutive failure multiplies the backoff by `factor`: a connection that ends within
 *   `quickFailureMs` of opening, and every attempt that fails. One that lived `quickFailureMs`
 *   starts the count at one (and the cool-down count at zero).
 * - Consecutive quick failures are retried with backoff while there are at most
 *   `maxQuickRetries` of them, or while the run of failures began less than `quickPhaseMs` ago
 *   (so an outage of seconds is retried through, whatever the jitter); past both, each attempt
 *   waits `coolDownMs`, and after `maxCoolDowns` such cool-downs the budget gives up.
 * - At most `maxStartsPerWindow` attempts start within any `windowMs`; past that, each attempt
 *   waits `coolDownMs` (never a reason to give up).
 */
export class FailureBudget {
  /** Failures since the last connection that lived `quickFailureMs`: the backoff exponent. */
  private failures = 0;
  /** Quick ones among them: ends of young connections, and failed attempts. */
  private quickFailures = 0;
  /** Cool-downs spent on quick failures since then. */
  private coolDowns = 0;
  /** When the current run of failures began (the first failure after a success), monotonic ms. */
  private runStartedAt = 0;
  private readonly starts: number[] = [];

  constructor(
    private readonly policy: FailureBudgetPolicy,
    private readonly random: () => number,
  ) {}

  /** Consecutive quick failures so far. */
  get consecutiveQuickFailures(): number {
    return this.quickFailures;
  }

  /** A connection opened at `openedAt` ended at `now`: the wait before the first attempt. */
  ended(openedAt: number, now: number): BudgetDecision | undefined {
    if (now - openedAt < this.policy.quickFailureMs) {
      if (this.failures === 0) this.runStartedAt = now;
      this.failures++;
      this.quickFailures++;
    } else {
      this.runStartedAt = now;
      this.failures = 1;
      this.quickFailures = 0;
      this.coolDowns = 0;
    }
    return this.decide(now);
  }

  /** An attempt failed at `now`: the wait before the next one. */
  attemptFailed(now: number): BudgetDecision | undefined {
    if (this.failures === 0) this.runStartedAt = now;
    this.failures++;
    this.quickFailures++;
    return this.decide(now);
  }

  /** Records that an attempt starts at `now` (counted in the window budget). */
  attemptStarted(now: number): void {
    this.prune(now);
    this.starts.push(now);
  }

  private decide(now: number): BudgetDecision | undefined {
    this.prune(now);
    const p = this.policy;
    if (this.quickFailures > p.maxQuickRetries && now - this.runStartedAt >= p.quickPhaseMs) {
      if (this.coolDowns >= p.maxCoolDowns) return undefined;
      this.coolDowns++;
      return this.coolDown();
    }
    if (this.starts.length >= p.maxStartsPerWindow) return this.coolDown();
    return { delayMs: backoffDelay(p, Math.max(1, this.failures), this.random), coolDown: false };
  }

  private coolDown(): BudgetDecision {
    const p = this.policy;
    return { delayMs: Math.round(p.jitter ? p.coolDownMs * (1 + this.random() / 10) : p.coolDownMs), coolDown: true };
  }

  private prune(now: number): void {
    const since = now - this.policy.windowMs;
    while (this.starts.length > 0 && (this.starts[0] as number) <= since) this.starts.shift();
  }
}

/**
 * Merges `options` over `defaults` (an `undefined` field keeps its default) and checks the fields
 * both policies share, naming each as `<option>.<field>` in errors.
 * @throws InvalidArgumentError (-32602) when `options` is not an object, for a negative or
 *   non-finite time, a `factor` below 1, a count that is not an integer ≥ 0, or a non-boolean
 *   `jitter`.
 */
export function mergeBudgetOptions<T extends object>(
  option: string,
  options: object | undefined,
  defaults: T,
  counts: readonly string[],
  expected: string,
): T {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new InvalidArgumentError(option, options, expected);
  const merged: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const [key, value] of Object.entries(options ?? {})) if (value !== undefined) merged[key] = value;
  for (const key of ['minDelayMs', 'maxDelayMs', 'quickFailureMs', 'quickPhaseMs', 'windowMs', 'coolDownMs']) {
    if (!Object.hasOwn(defaults, key)) continue;
    const value = merged[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new InvalidArgumentError(`${option}.${key}`, value, 'expected a finite number of ms >= 0');
  }
  for (const key of ['maxQuickRetries', ...counts]) {
    const value = merged[key];
    if (!Number.isInteger(value) || (value as number) < 0)
      throw new InvalidArgumentError(`${option}.${key}`, value, 'expected an integer >= 0');
  }
  const factor = merged.factor;
  if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < 1)
    throw new InvalidArgumentError(`${option}.factor`, factor, 'expected a finite number >= 1');
  if (typeof merged.jitter !== 'boolean')
    throw new InvalidArgumentError(`${option}.jitter`, merged.jitter, 'expected a boolean');
  return merged as T;
}
