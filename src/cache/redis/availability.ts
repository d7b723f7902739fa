/**
 * Whether a fleet store may use Redis now. `up`: every operation goes to Redis. After one
 * failure or timeout it is `down`: operations answer at once without Redis (a miss, nothing
 * kept), the failure is reported once, and a probe runs every `retryMs` (and whenever the
 * client says it is ready again). The probe's work (a PING, then replaying what could not be
 * done while down) must succeed before the store is `up` again.
 *
 * One outage, one report: an outage runs from the first failure until a probe succeeds, and
 * a probe during which any failure was seen does not succeed (the store stays `down`, no new
 * report). A slow start is not an outage: until the client's first connection is ready the
 * store is `starting`, and a probe that fails while the client is still opening it is not
 * reported, for up to {@link START_GRACE_MS}. A failed connection attempt is reported, and so
 * is a PING that fails or times out on an open connection.
 */
import type { TimerHandle, Timers } from '../../util/clock.js';

/**
 * How long a first connection may take before a probe failing meanwhile counts as an outage,
 * in ms since the store was built (on its monotonic clock): ioredis's default `connectTimeout`.
 */
export const START_GRACE_MS = 10_000;

export type AvailabilityState = 'starting' | 'up' | 'down' | 'recovering';

export class Availability {
  private stateValue: AvailabilityState;
  /** True once this outage was reported (reset when the store is up again). */
  private reported = false;
  /** Failures seen so far: a probe that saw one while it ran does not declare Redis up. */
  private failures = 0;
  /** When the store was built (the start of {@link START_GRACE_MS}). */
  private readonly startedAt: number;
  private timer: TimerHandle;
  private waiters: Array<() => void> = [];
  private closed = false;

  /**
   * @param recover the probe: resolves when Redis answers and the store may be used again.
   * @param onDown called each time the store leaves `up` (drop what can no longer be trusted).
   * @param connecting true while the client is opening a connection (not an outage at start).
   * @param now the monotonic clock the start grace is measured on, in ms.
   */
  constructor(
    initiallyUp: boolean,
    private readonly timers: Timers,
    private readonly retryMs: number,
    private readonly recover: () => Promise<void>,
    private readonly report: (error: unknown) => void,
    private readonly onDown: () => void,
    private readonly connecting: () => boolean,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
    this.stateValue = initiallyUp ? 'up' : 'starting';
    if (!initiallyUp) this.schedule();
  }

  get state(): AvailabilityState {
    return this.stateValue;
  }

  get up(): boolean {
    return this.stateValue === 'up';
  }

  /** An operation failed: go `down` (reporting `error` once per outage) and probe. */
  failed(error: unknown): void {
    if (this.closed) return;
    this.failures++;
    if (!this.reported) {
      this.reported = true;
      this.report(error);
    }
    if (this.stateValue === 'up' || this.stateValue === 'starting') {
      this.stateValue = 'down';
      this.onDown();
      this.schedule();
    }
  }

  /** The client says it is connected again: probe now. */
  ready(): void {
    if (this.closed || this.stateValue === 'up' || this.stateValue === 'recovering') return;
    this.cancelTimer();
    void this.probe();
  }

  /** Resolves once the store is `up` (at once when it is). */
  whenUp(): Promise<void> {
    if (this.stateValue === 'up') return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.cancelTimer();
    this.stateValue = 'down';
  }

  private async probe(): Promise<void> {
    const from = this.stateValue;
    const failuresBefore = this.failures;
    this.stateValue = 'recovering';
    try {
      await this.recover();
    } catch (error) {
      if (this.closed) return;
      if (
        from === 'starting' &&
        this.failures === failuresBefore &&
        this.connecting() &&
        this.now() - this.startedAt < START_GRACE_MS
      ) {
        // The first connection is still being opened: a slow start, not an outage.
        this.stateValue = 'starting';
      } else {
        this.stateValue = 'down';
        if (!this.reported) {
          this.reported = true;
          this.report(error);
        }
      }
      this.schedule();
      return;
    }
    if (this.closed) return;
    if (this.failures !== failuresBefore) {
      // Something failed while the probe ran (reported then): this outage is not over.
      this.stateValue = 'down';
      this.schedule();
      return;
    }
    this.stateValue = 'up';
    this.reported = false;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private schedule(): void {
    if (this.closed || this.timer !== undefined) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      if (this.stateValue === 'down' || this.stateValue === 'starting') void this.probe();
    }, this.retryMs);
    // A probe must not keep the host process alive.
    (this.timer as { unref?: () => void } | undefined)?.unref?.();
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
