/**
 * The one backoff of mcp-live: the options every retrying loop shares (HTTP retries, task poll
 * retries, the legacy GET stream, reconnects, listen reopens, live-list refreshes) and the one
 * formula over them. Each loop's options extend {@link BackoffOptions} and name their own
 * defaults. Pure.
 */

/**
 * How the wait grows between the attempts of a loop. Every field is optional; times are in ms.
 * Wait number `n` (1-based) is `minDelayMs * factor^(n-1)`, times a random factor in [0.5, 1)
 * with `jitter`, then capped at `maxDelayMs`: the cap applies after the jitter, so once the
 * backoff has grown past `maxDelayMs / 0.5` every wait is `maxDelayMs`. The loops on the retry
 * loop of `resilience/retry.ts` (HTTP retries, task poll retries, the legacy GET stream) have
 * `p-retry` compute and sleep these waits on the global timers.
 */
export interface BackoffOptions {
  /** Wait before the first retry, in ms (before jitter). @default the loop's own (500 to 1000) */
  minDelayMs?: number | undefined;
  /** Longest wait, in ms; applied after the jitter. @default the loop's own (5000 to 60000) */
  maxDelayMs?: number | undefined;
  /** Growth of the wait from one consecutive failure to the next (at least 1). @default 2 */
  factor?: number | undefined;
  /**
   * Multiply each wait by a random factor in [0.5, 1) (from `Math.random`) to spread retries
   * out, before the `maxDelayMs` cap. @default true
   */
  jitter?: boolean | undefined;
}

/** {@link BackoffOptions} with every field filled in: what the backoff delay is computed from. */
export type Backoff = { readonly [K in keyof BackoffOptions]-?: NonNullable<BackoffOptions[K]> };

/**
 * The backoff before retry number `retry` (1-based), in ms: `minDelayMs * factor^(retry-1)`,
 * times a factor in [0.5, 1) with jitter (`0.5 + random() / 2`), rounded, then capped at
 * `maxDelayMs`: the waits p-retry computes for the same options. For the loops that name their
 * own waits (the failure budgets, live lists).
 */
export function backoffDelay(policy: Backoff, retry: number, random: () => number = Math.random): number {
  const base = policy.minDelayMs * policy.factor ** Math.max(0, retry - 1);
  return Math.min(policy.maxDelayMs, Math.round(policy.jitter ? base * (0.5 + random() / 2) : base));
}
