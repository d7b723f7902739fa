/**
 * The lease a subscription can be consumed under (`EventSubscribeOptions.lease`), so that one
 * worker of a fleet consumes it at a time: {@link EventLease} is what a lease must offer
 * (`RedisLease` of `mcp-live/redis` is one), {@link runLeased} the wait, the renewals and the
 * hand-back around a delivery loop.
 */
import { abortableDelay } from '../util/signals.js';
import type { Timers } from '../util/clock.js';
import type { SubscriptionCore } from './subscription.js';

/**
 * A lease one worker holds at a time, lapsing after `ttlMs` without a renewal. `RedisLease`
 * (mcp-live/redis) implements it; any object of this shape will do (e.g. one on a database row).
 */
export interface EventLease {
  /** How long the lease lasts without a renewal (ms); it is tried and renewed every third of it. */
  readonly ttlMs: number;
  /** Takes the lease if it is free, or renews it if this worker holds it; true when this worker holds it. */
  acquire(): Promise<boolean>;
  /** Extends the lease when this worker still holds it; false when it lapsed (another may hold it). */
  renew(): Promise<boolean>;
  /** Gives the lease up, only if this worker still holds it. */
  release(): Promise<void>;
}

/**
 * Runs `start` (a delivery loop) only while `lease` is held: until then the subscription is in
 * state `standby`, trying again every third of `ttlMs`; once held, `resume` reloads the cursor
 * from the shared store before the loop starts, and the lease is renewed every third of `ttlMs`.
 * A renewal that fails or finds the lease taken ends the subscription (`lease-lost`: another
 * worker may be consuming it now). The lease is released when the loop ends. Never rejects.
 */
export async function runLeased(
  core: SubscriptionCore,
  lease: EventLease,
  timers: Timers,
  resume: () => Promise<void>,
  start: () => Promise<void>,
): Promise<void> {
  const every = Math.max(50, Math.floor(lease.ttlMs / 3));
  const signal = core.signal;
  try {
    while (!(await lease.acquire())) {
      core.setState('standby');
      await abortableDelay(every, timers, signal);
    }
  } catch (error) {
    if (!signal.aborted) core.end('lease-lost', error);
    return;
  }
  let timer: unknown;
  const renewLater = (): void => {
    timer = timers.setTimeout(() => {
      if (signal.aborted) return;
      lease.renew().then(
        (ours) => (ours ? renewLater() : core.end('lease-lost', new Error('the lease was taken or lapsed'))),
        (error: unknown) => core.end('lease-lost', error),
      );
    }, every);
  };
  try {
    if (signal.aborted) return;
    await resume();
    renewLater();
    await start();
  } catch (error) {
    if (!signal.aborted) core.end('lease-lost', error);
  } finally {
    timers.clearTimeout(timer);
    await lease.release().catch(() => undefined); // the lease checks the owner: never frees another's
  }
}
