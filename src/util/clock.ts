/**
 * Time as mcp-live sees it. Every collaborator that reads time or sets a timer takes these
 * through the client options, so tests can drive them (or use `vi.useFakeTimers()`, which
 * the defaults honour because they look the globals up on each call).
 */
export interface Clock {
  /** Monotonic milliseconds. Only differences are meaningful. @default performance.now() */
  now(): number;
}

/**
 * Wall-clock time, for what must mean the same in several processes: the absolute expiry of a
 * cache entry kept outside the process (a Redis store). Never used for timeouts or for the
 * freshness of entries kept in the process; those use the monotonic {@link Clock}.
 */
export interface WallClock {
  /** Milliseconds since the Unix epoch (UTC). May step (NTP, an operator). @default Date.now() */
  now(): number;
}

/** Opaque timer handle returned by {@link Timers.setTimeout}. */
export type TimerHandle = unknown;

/**
 * Timer functions the client schedules timeouts, intervals and debounces with (the waits between
 * retries run on the globals, in `resilience/retry.ts`). The default wraps the globals, looked
 * up at each call, so `vi.useFakeTimers()` works.
 */
export interface Timers {
  /** Runs `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  /** Cancels a timer; a handle that already fired or was cleared is ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/** The default monotonic clock (`performance.now()`), looked up lazily. */
export const systemClock: Clock = { now: () => performance.now() };

/** The default wall clock (`Date.now()`), looked up lazily so fake timers apply. */
export const systemWallClock: WallClock = { now: () => Date.now() };

/**
 * The default timers: the global `setTimeout` / `clearTimeout`, looked up at each call so fake
 * timers installed after construction still apply. Handles are not unref'd: every timer
 * mcp-live sets belongs to work a caller is waiting for (a timeout, a retry backoff, a
 * debounce), so the process must not exit under it; each is cleared when that work ends.
 */
export const systemTimers: Timers = {
  setTimeout(callback, ms) {
    return globalThis.setTimeout(callback, ms);
  },
  clearTimeout(handle) {
    globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]);
  },
};
