import { InvalidArgumentError } from '../errors/errors.js';
import type { Backoff } from '../resilience/backoff.js';
import { resolveReopenPolicy, type ResolvedReopenPolicy } from '../resilience/reopenPolicy.js';
import type { SubscriptionClientOptions } from './types.js';
import type { PollSettings } from './liveList.js';

/** {@link SubscriptionClientOptions} with every default filled in. */
export interface ResolvedSubscriptionOptions {
  reopen: ResolvedReopenPolicy | false;
  liveDebounceMs: number;
  liveRetry: Backoff;
  random: () => number;
  poll: PollSettings;
}

/** The default polling of a live list whose changes are not pushed, in ms. */
export const DEFAULT_POLL: PollSettings = Object.freeze({
  minIntervalMs: 5_000,
  maxIntervalMs: 300_000,
  defaultIntervalMs: 60_000,
});

/** The default backoff of live-list retries after a failed refresh. */
export const DEFAULT_LIVE_RETRY: Backoff = Object.freeze({
  minDelayMs: 1000,
  maxDelayMs: 60_000,
  factor: 2,
  jitter: true,
});

/** The default `liveDebounceMs`, in ms. */
export const DEFAULT_LIVE_DEBOUNCE_MS = 50;

/** Events a subscription holds for its first listener or iterator (see `SubscribeOptions.onEvent`). */
export const HELD_EVENTS = 64;

/**
 * Fills the defaults of `options` and checks them.
 * @throws InvalidArgumentError (-32602) for a bad reopen policy, a negative or non-finite
 *   `liveDebounceMs`, a bad `liveRetry`, a `poll` interval that is not a positive number (or
 *   a floor above the ceiling), or a `random` that is not a function.
 */
export function resolveSubscriptionOptions(
  options: SubscriptionClientOptions | undefined,
): ResolvedSubscriptionOptions {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new InvalidArgumentError('subscriptions', options, 'expected an object');
  const reopen = resolveReopenPolicy(options?.reopen);
  const liveDebounceMs = options?.liveDebounceMs ?? DEFAULT_LIVE_DEBOUNCE_MS;
  if (typeof liveDebounceMs !== 'number' || !Number.isFinite(liveDebounceMs) || liveDebounceMs < 0) {
    throw new InvalidArgumentError(
      'subscriptions.liveDebounceMs',
      liveDebounceMs,
      'expected a finite number of ms >= 0',
    );
  }
  const retry = resolveReopenPolicy({
    ...DEFAULT_LIVE_RETRY,
    ...definedOnly(options?.liveRetry ?? {}),
  }) as ResolvedReopenPolicy;
  const poll = { ...DEFAULT_POLL, ...definedOnly(options?.poll ?? {}) };
  for (const [key, value] of Object.entries(poll))
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new InvalidArgumentError(`subscriptions.poll.${key}`, value, 'expected a positive number of ms');
  if (poll.minIntervalMs > poll.maxIntervalMs)
    throw new InvalidArgumentError('subscriptions.poll', poll, 'expected minIntervalMs <= maxIntervalMs');
  const random = options?.random ?? Math.random;
  if (typeof random !== 'function')
    throw new InvalidArgumentError('subscriptions.random', random, 'expected a function returning [0, 1)');
  return {
    reopen,
    liveDebounceMs,
    liveRetry: Object.freeze({
      minDelayMs: retry.minDelayMs,
      maxDelayMs: retry.maxDelayMs,
      factor: retry.factor,
      jitter: retry.jitter,
    }),
    random,
    poll: Object.freeze(poll),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = field;
  return out as Partial<T>;
}
