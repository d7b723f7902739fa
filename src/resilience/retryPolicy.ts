/**
 * The retry policy of the network transports, as given and resolved, and the wait a server's
 * `Retry-After` asks for: what a transport needs before anything failed. The loop that applies
 * the policy (`withRetry` in retry.ts, on p-retry) loads with the first failure it may retry.
 * Runtime-neutral.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { BackoffOptions } from './backoff.js';

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
