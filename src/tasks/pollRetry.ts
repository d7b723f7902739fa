/**
 * How a task poll that failed transiently is tried again (`TasksOptions.pollRetry`): the
 * options and their defaults. They are checked with the other task options (`options.ts`);
 * which failures count as transient is the task machinery's (`pollFailure.ts`).
 */
import type { Backoff, BackoffOptions } from '../resilience/backoff.js';

/**
 * How failed polls are retried: up to `retries` in a row (a poll that succeeds starts the count
 * again), waiting the `Retry-After` of a 429/503 when it is at most `maxDelayMs`, else the
 * backoff (`minDelayMs`·`factor`^(n-1) for the `n`th backoff wait of the run, times [0.5, 1)
 * with jitter, on by default, then capped at `maxDelayMs`), computed and slept by p-retry on the
 * global timers.
 */
export interface TaskPollRetry extends BackoffOptions {
  /** Failed polls in a row that are retried; one more and the call gives up (`TaskAbandonedError`). @default 8 */
  retries?: number | undefined;
}

/** {@link TaskPollRetry} with every default filled in. */
export type ResolvedTaskPollRetry = Backoff & { readonly retries: number };

/** The defaults of {@link TaskPollRetry}: 8 retries, 500 ms doubling to 30 s, jitter (about 2 min in all). */
export const DEFAULT_TASK_POLL_RETRY: ResolvedTaskPollRetry = Object.freeze({
  retries: 8,
  minDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: true,
});
