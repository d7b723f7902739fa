/**
 * Time as mcp-live sees it. Every collaborator that reads time or sets a timer takes these
 * through the client options, so tests can drive them (or use `vi.useFakeTimers()`, which
 * the defaults honour because they look the globals up on each call).
 */
export interface Clock {
  /** Monotonic milliseconds. Only differences are meaningful. @default performance.now() */
  now(): number;
}

/** Opaque timer handle returned by {@link Timers.setTimeout}. */
export type TimerHandle = unknown;

export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The default monotonic clock (`performance.now()`), looked up lazily. */
export const systemClock: Clock = { now: () => performance.now() };

/**
 * The default timers: the global `setTimeout` / `clearTimeout`, looked up at each call so fake
 * timers installed after construction still apply. Handles are unref'd in Node so a pending
 * timeout never keeps the process alive on its own.
 */
export const systemTimers: Timers = {
  setTimeout(callback, ms) {
    const handle = globalThis.setTimeout(callback, ms) as unknown as { unref?: () => void };
    handle.unref?.();
    return handle;
  },
  clearTimeout(handle) {
    globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]);
  },
};
