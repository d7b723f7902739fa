/**
 * Fake timers for the retry waits of tests that talk to a real server. The waits between
 * retries run on the global `setTimeout` (p-retry's backoff, a `Retry-After`, a budget's wait):
 * {@link fakeRetryTimers} fakes only `setTimeout`, `clearTimeout` and `Date`, so sockets and
 * `setImmediate` keep real time, and {@link realTimers} (captured before any faking) serves
 * what must keep real time too (a client's own timeouts, a transport's legacy waits).
 */
import { vi } from 'vitest';
import type { TimerHandle, Timers } from '../../src/util/clock.js';

const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realSetImmediate = globalThis.setImmediate;

/** The real global timers, whatever is faked later. */
export const realTimers: Timers = {
  setTimeout: (callback: () => void, ms: number): TimerHandle => realSetTimeout(callback, ms),
  clearTimeout: (handle: TimerHandle): void => realClearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What {@link fakeRetryTimers} returns. */
export interface RetryTimers {
  /** The delay of each wait fired, in ms, in order. */
  readonly delays: number[];
  /** Drives the fake timers (see {@link fakeRetryTimers}) until `work` settles; settles as it does. */
  settle<T>(work: Promise<T>): Promise<T>;
  /** Drives the fake timers until `done()` holds. */
  until(done: () => boolean): Promise<void>;
  /** Waits, in real time, until `done()` holds, without moving the fake time. */
  waitFor(done: () => boolean): Promise<void>;
  /** The ms left of each fake timer pending that keeps the process alive (unref'd ones are left out). */
  pending(): number[];
}

interface Armed {
  readonly dueAt: number;
  readonly delay: number;
  readonly handle: { hasRef?: () => boolean };
}

/**
 * Fakes the global `setTimeout`, `clearTimeout` and `Date` (undo with `vi.useRealTimers()`).
 * `settle` and `until` let real I/O run a turn at a time and, whenever a timer that keeps the
 * process alive is pending, move the fake time to the first one and fire it, recording its
 * delay in `delays`. Unref'd timers (a fetch implementation's bookkeeping) only fire on the way,
 * so every ref'd fake timer of the test must be a wait meant to pass: give the client and
 * anything else that arms timeouts {@link realTimers}. They give up after `boundMs` of real time.
 */
export function fakeRetryTimers(boundMs = 10_000): RetryTimers {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const fakeSetTimeout = globalThis.setTimeout;
  const fakeClearTimeout = globalThis.clearTimeout;
  const armed = new Set<Armed>();
  const byHandle = new Map<unknown, Armed>();
  const recordingSetTimeout = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]): unknown => {
    const delay = Math.max(0, Number(ms) || 0);
    let entry: Armed | undefined;
    const handle = fakeSetTimeout(() => {
      if (entry !== undefined) armed.delete(entry);
      callback(...args);
    }, ms);
    entry = { dueAt: Date.now() + delay, delay, handle };
    armed.add(entry);
    byHandle.set(handle, entry);
    return handle;
  };
  const recordingClearTimeout = (handle: Parameters<typeof clearTimeout>[0]): void => {
    const entry = byHandle.get(handle);
    if (entry !== undefined) armed.delete(entry);
    byHandle.delete(handle);
    fakeClearTimeout(handle);
  };
  // vi.useRealTimers() puts back the real globals (it reads the marks the fakes carry).
  globalThis.setTimeout = Object.assign(recordingSetTimeout, fakeSetTimeout);
  globalThis.clearTimeout = Object.assign(recordingClearTimeout, fakeClearTimeout);

  const delays: number[] = [];
  const refd = (entry: Armed): boolean => entry.handle.hasRef?.() !== false;
  const until = async (done: () => boolean): Promise<void> => {
    const deadline = performance.now() + boundMs;
    while (!done()) {
      if (performance.now() > deadline) throw new Error(`fakeRetryTimers: not done within ${boundMs} ms`);
      await new Promise<void>((resolve) => realSetImmediate(resolve));
      if (done()) return;
      let next: Armed | undefined;
      for (const entry of armed) if (refd(entry) && (next === undefined || entry.dueAt < next.dueAt)) next = entry;
      if (next === undefined) continue;
      await vi.advanceTimersByTimeAsync(Math.max(0, next.dueAt - Date.now()));
      if (armed.has(next)) armed.delete(next);
      else delays.push(next.delay);
    }
  };
  return {
    delays,
    until,
    pending: () => [...armed].filter(refd).map((entry) => entry.dueAt - Date.now()),
    async waitFor(done: () => boolean): Promise<void> {
      const deadline = performance.now() + boundMs;
      while (!done()) {
        if (performance.now() > deadline) throw new Error(`fakeRetryTimers: not done within ${boundMs} ms`);
        await new Promise<void>((resolve) => realSetImmediate(resolve));
      }
    },
    async settle<T>(work: Promise<T>): Promise<T> {
      let settled = false;
      const mark = (): void => {
        settled = true;
      };
      work.then(mark, mark);
      await until(() => settled);
      return work;
    },
  };
}
