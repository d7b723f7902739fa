/**
 * Poll delivery (design: Poll-Based Delivery): `events/poll` with the subscription inline, again
 * at once while `hasMore`, else after `nextPollMs` within the floor (default 1 s) and one hour.
 * A poll that fails is retried with backoff (a poll that never answers ends at its timeout);
 * an error no retry mends ends the subscription.
 */
import type { BackoffOptions } from '../resilience/backoff.js';
import { abortableDelay } from '../util/signals.js';
import type { JsonObject } from '../wire/messages.js';
import { EventsMethod } from '../wire/events.js';
import { checkPollResult, pollDelay } from './checks.js';
import { failed, retryWait, type EventLoopDeps } from './loopDeps.js';
import type { SubscriptionCore } from './subscription.js';

/** Poll options (all ms). */
export interface PollOptions {
  /** Shortest wait between polls, whatever `nextPollMs` says (design: at least 1000 by default). @default 1000 */
  floorMs?: number | undefined;
  /** The wait when a result has no `nextPollMs`. @default 10000 */
  defaultIntervalMs?: number | undefined;
  /** How long one poll may take before it is given up and retried. @default the client's `timeoutMs` */
  timeoutMs?: number | undefined;
  /** Immediate polls in a row on `hasMore` before the floor applies again (guards a server that always says more). @default 100 */
  maxDrains?: number | undefined;
  /** The waits after a failed poll. @default 1 s doubling to 60 s, with jitter */
  retry?: BackoffOptions | undefined;
}

/** What a poll sends besides the cursor. */
export interface PollRequest {
  maxAgeMs?: number | undefined;
  maxEvents?: number | undefined;
}

export const DEFAULT_POLL_FLOOR_MS = 1_000;
const DEFAULT_INTERVAL_MS = 10_000;
const DEFAULT_MAX_DRAINS = 100;

/** Runs the poll loop of `core` until it closes or ends. Never rejects. */
export async function runPollLoop(
  core: SubscriptionCore,
  deps: EventLoopDeps,
  request: PollRequest,
  options: PollOptions = {},
): Promise<void> {
  const floorMs = Math.max(0, options.floorMs ?? DEFAULT_POLL_FLOOR_MS);
  const fallbackMs = options.defaultIntervalMs ?? DEFAULT_INTERVAL_MS;
  const maxDrains = Math.max(0, options.maxDrains ?? DEFAULT_MAX_DRAINS);
  const signal = core.signal;
  let failures = 0;
  let drains = 0;
  while (!signal.aborted) {
    let wait: number;
    try {
      await deps.whenConnected(signal);
      const params: JsonObject = { name: core.name, arguments: core.arguments, cursor: core.cursor };
      if (request.maxAgeMs !== undefined) params['maxAgeMs'] = request.maxAgeMs;
      if (request.maxEvents !== undefined) params['maxEvents'] = request.maxEvents;
      const result = checkPollResult(
        await deps.request(EventsMethod.poll, params, { signal, timeoutMs: options.timeoutMs }),
      );
      if (signal.aborted) return;
      failures = 0;
      core.setState('active');
      await core.deliver(result.events, result.cursor, result.truncated ? 'poll' : undefined);
      const drain = result.hasMore && drains < maxDrains;
      drains = drain ? drains + 1 : 0;
      wait = drain ? 0 : pollDelay(result.nextPollMs, floorMs, fallbackMs);
    } catch (error) {
      if (signal.aborted || failed(core, deps, error) === undefined) return;
      failures++;
      wait = Math.max(floorMs, retryWait(failures, options.retry));
    }
    try {
      if (wait > 0) await abortableDelay(wait, deps.timers, signal);
    } catch {
      return;
    }
  }
}
