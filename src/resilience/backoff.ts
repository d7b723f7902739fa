/**
 * The one backoff of mcp-live: the options every retrying loop shares (HTTP retries, the legacy
 * GET stream, reconnects, listen reopens, live-list refreshes) and the one formula over them.
 * Each loop's options extend {@link BackoffOptions} and name their own defaults. Pure.
 */

/** How the wait grows between the attempts of a loop. Every field is optional; times are in ms. */
export interface BackoffOptions {
  /** Wait before the first retry, in ms (before jitter). @default the loop's own (500 to 1000) */
  minDelayMs?: number | undefined;
  /** Longest computed wait, in ms (before jitter). @default the loop's own (5000 to 60000) */
  maxDelayMs?: number | undefined;
  /** Growth of the wait from one consecutive failure to the next (at least 1). @default 2 */
  factor?: number | undefined;
  /** Multiply each computed wait by a random factor in [0.5, 1) to spread retries out. @default true */
  jitter?: boolean | undefined;
}

/** {@link BackoffOptions} with every field filled in: what the backoff delay is computed from. */
export type Backoff = { readonly [K in keyof BackoffOptions]-?: NonNullable<BackoffOptions[K]> };

/**
 * The backoff before retry number `retry` (1-based), in ms: `minDelayMs * factor^(retry-1)`,
 * capped at `maxDelayMs`, times a factor in [0.5, 1) with jitter.
 */
export function backoffDelay(policy: Backoff, retry: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxDelayMs, policy.minDelayMs * policy.factor ** Math.max(0, retry - 1));
  return Math.round(policy.jitter ? base * (0.5 + random() / 2) : base);
}
