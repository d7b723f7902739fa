/**
 * The one timer of a JSON-RPC session: armed for the earliest deadline of its pending requests
 * (or later: it only moves earlier when a request needs it to). When it fires, the session
 * times out what is due and names the next deadline. Waits beyond what `setTimeout` can
 * (2^31 - 1 ms) fire at that limit and look again.
 */
import type { Clock, TimerHandle, Timers } from '../util/clock.js';

/** Longest delay given to one `setTimeout` (2^31 - 1 ms): a later deadline is re-armed when it fires. */
const MAX_TIMER_MS = 2_147_483_647;

/** See the file's opening comment. */
export class SessionTimer {
  private handle: TimerHandle;
  /** The clock time the timer fires at. */
  private at = 0;

  /**
   * @param onFire called when the timer fires with the clock time (never earlier than the time
   *   it was armed for); returns the next deadline to arm for, or `Infinity` for none
   */
  constructor(
    private readonly timers: Timers,
    private readonly clock: Clock,
    private readonly onFire: (now: number) => number,
  ) {}

  /**
   * Makes sure the timer fires by clock time `at` (ms): arms it, or moves it earlier. A timer
   * already due earlier stays: when it fires, it re-arms for what is left.
   */
  arm(at: number, now: number): void {
    // No deadline (timeouts of Infinity): nothing to wait for.
    if (at === Infinity) return;
    if (this.handle !== undefined) {
      if (this.at <= at) return;
      this.timers.clearTimeout(this.handle);
    }
    let delay = at - now;
    if (!(delay > 0)) {
      // Due already (or not a number of ms: then it times out at once, as setTimeout would).
      delay = 0;
      at = now;
    } else if (delay > MAX_TIMER_MS) {
      // Beyond what setTimeout can wait: fire at the limit and look again then.
      delay = MAX_TIMER_MS;
      at = now + delay;
    }
    this.at = at;
    this.handle = this.timers.setTimeout(this.fire, delay);
  }

  /** Clears the timer (no deadline counts any more). */
  clear(): void {
    if (this.handle === undefined) return;
    this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }

  private readonly fire = (): void => {
    this.handle = undefined;
    const now = Math.max(this.clock.now(), this.at);
    const next = this.onFire(now);
    if (next !== Infinity) this.arm(next, now);
  };
}
