/**
 * How a subscription reopens a listen stream that ended without the host asking: the policy
 * (jittered exponential backoff, a budget for streams that die young, a budget per time window,
 * a long cool-down once either is spent), its defaults and its check. The budget that applies
 * it, and its retry loop, are in `reopenBudget.ts`: only an open subscription loads them.
 */
import type { BackoffOptions } from './backoff.js';
import { mergeBudgetOptions } from './failureBudget.js';

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
