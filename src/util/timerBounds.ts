/**
 * Delays that `setTimeout` can hold. Node (and browsers) fire a timer whose delay exceeds
 * 2^31 - 1 ms after 1 ms, so a server's `Retry-After` of a year, a token lifetime or a user's
 * `ttlMs` of `Number.MAX_SAFE_INTEGER` would become a busy loop. {@link boundedTimers} wraps a
 * {@link Timers} so that every delay is waited in full: a longer one is armed in steps of the
 * limit, `Infinity` never fires, and a negative or NaN delay fires at once.
 */
import { systemTimers, type TimerHandle, type Timers } from './clock.js';

/** Longest delay one `setTimeout` honours, in ms (2^31 - 1, about 24.8 days). */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * `ms` as one `setTimeout` can take it: NaN and negatives become 0, anything above
 * {@link MAX_TIMER_DELAY_MS} (including `Infinity`) becomes that limit.
 */
export function clampTimerDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return ms > MAX_TIMER_DELAY_MS ? MAX_TIMER_DELAY_MS : ms;
}

/** A timer longer than one `setTimeout`: the step armed now, re-armed until the delay is spent. */
class LongTimer {
  inner: TimerHandle;
  private unrefd = false;
  constructor(
    readonly timers: Timers,
    private readonly callback: () => void,
    private left: number,
  ) {
    // Infinity: nothing is ever due.
    if (left !== Infinity) this.step();
  }

  private step(): void {
    const delay = Math.min(this.left, MAX_TIMER_DELAY_MS);
    this.left -= delay;
    this.inner = this.timers.setTimeout(() => {
      this.inner = undefined;
      if (this.left > 0) this.step();
      else this.callback();
    }, delay);
    if (this.unrefd) unrefHandle(this.inner);
  }

  /** Like a Node timer's `unref()`: the steps to come do not keep the process alive either. */
  unref(): void {
    this.unrefd = true;
    unrefHandle(this.inner);
  }

  clear(): void {
    if (this.inner !== undefined) this.timers.clearTimeout(this.inner);
    this.inner = undefined;
  }
}

function unrefHandle(handle: TimerHandle): void {
  (handle as { unref?: () => void } | undefined)?.unref?.();
}

const BOUNDED = Symbol('mcp-live.boundedTimers');

/** Timers made by {@link boundedTimers}, recognised so that wrapping twice is a no-op. */
interface BoundedTimers extends Timers {
  readonly [BOUNDED]: true;
}

const boundedSystem = wrap(systemTimers);

/**
 * `timers` with every delay waited in full (see the file's opening comment). A delay within
 * the limit goes to `timers` unchanged, so the handle is `timers`' own and fake timers see the
 * same calls; a longer one returns a handle that only the returned object's `clearTimeout`
 * understands. Idempotent; `undefined` gives the bounded global timers.
 */
export function boundedTimers(timers?: Timers): Timers {
  if (timers === undefined || timers === systemTimers) return boundedSystem;
  if ((timers as Partial<BoundedTimers>)[BOUNDED] === true) return timers;
  return wrap(timers);
}

function wrap(timers: Timers): BoundedTimers {
  return {
    [BOUNDED]: true,
    setTimeout(callback, ms) {
      if (ms > MAX_TIMER_DELAY_MS) return new LongTimer(timers, callback, ms);
      return timers.setTimeout(callback, clampTimerDelay(ms));
    },
    clearTimeout(handle) {
      if (handle instanceof LongTimer && handle.timers === timers) handle.clear();
      else timers.clearTimeout(handle);
    },
  };
}
