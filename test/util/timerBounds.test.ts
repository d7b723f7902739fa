/**
 * boundedTimers: a delay beyond 2^31 - 1 ms is waited in full (armed in steps of the limit),
 * never fired after 1 ms as a bare setTimeout does; Infinity never fires; within the limit the
 * wrapped timers see the same call. And the places that sleep on a server's number (retry
 * waits, Retry-After) go through it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { retry } from '../../src/resilience/retry.js';
import type { Timers } from '../../src/util/clock.js';
import { abortableDelay } from '../../src/util/signals.js';
import { MAX_TIMER_DELAY_MS, boundedTimers, clampTimerDelay } from '../../src/util/timerBounds.js';

/** Timers that record what is armed and fire on demand. */
function recordingTimers() {
  const armed: Array<{ ms: number; fire: () => void; cleared: boolean }> = [];
  const timers: Timers = {
    setTimeout(callback, ms) {
      const entry = { ms, fire: callback, cleared: false };
      armed.push(entry);
      return entry;
    },
    clearTimeout(handle) {
      (handle as { cleared: boolean }).cleared = true;
    },
  };
  return { timers, armed };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('clampTimerDelay', () => {
  it('keeps delays within one setTimeout', () => {
    expect(clampTimerDelay(2 ** 31)).toBe(MAX_TIMER_DELAY_MS);
    expect(clampTimerDelay(Infinity)).toBe(MAX_TIMER_DELAY_MS);
    expect(clampTimerDelay(-5)).toBe(0);
    expect(clampTimerDelay(Number.NaN)).toBe(0);
    expect(clampTimerDelay(1500)).toBe(1500);
  });
});

describe('boundedTimers', () => {
  it('passes a delay within the limit through unchanged', () => {
    const { timers, armed } = recordingTimers();
    const bounded = boundedTimers(timers);
    const handle = bounded.setTimeout(() => {}, 1234);
    expect(armed).toHaveLength(1);
    expect(handle).toBe(armed[0]);
    bounded.clearTimeout(handle);
    expect(armed[0]!.cleared).toBe(true);
  });

  it('arms a longer delay in steps and fires once the whole delay has passed', () => {
    const { timers, armed } = recordingTimers();
    const fired = vi.fn();
    const bounded = boundedTimers(timers);
    bounded.setTimeout(fired, 2 * MAX_TIMER_DELAY_MS + 10);
    expect(armed.map((a) => a.ms)).toEqual([MAX_TIMER_DELAY_MS]);
    armed[0]!.fire();
    expect(armed.map((a) => a.ms)).toEqual([MAX_TIMER_DELAY_MS, MAX_TIMER_DELAY_MS]);
    armed[1]!.fire();
    expect(fired).not.toHaveBeenCalled();
    expect(armed.at(-1)!.ms).toBe(10);
    armed[2]!.fire();
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('clears the step under way; Infinity arms nothing; wrapping twice is a no-op', () => {
    const { timers, armed } = recordingTimers();
    const bounded = boundedTimers(timers);
    expect(boundedTimers(bounded)).toBe(bounded);
    const handle = bounded.setTimeout(() => {}, 2 ** 40);
    bounded.clearTimeout(handle);
    expect(armed[0]!.cleared).toBe(true);
    bounded.setTimeout(() => {}, Infinity);
    expect(armed).toHaveLength(1);
  });

  it('a real 2^31 ms delay does not fire after 1 ms (a bare setTimeout does)', async () => {
    const controller = new AbortController();
    const waited = abortableDelay(2 ** 31, boundedTimers(), controller.signal);
    let settled = false;
    waited.then(
      () => (settled = true),
      () => {},
    );
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(settled).toBe(false);
    controller.abort(new Error('done'));
    await expect(waited).rejects.toThrow('done');
  });

  it('a retry wait a server asked for (2^32 ms) is not a busy loop', async () => {
    const controller = new AbortController();
    let attempts = 0;
    const run = retry(
      () => {
        attempts++;
        return Promise.reject(new Error('503'));
      },
      { retries: Infinity, next: () => 2 ** 32, signal: controller.signal },
    );
    run.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(attempts).toBe(1);
    controller.abort(new Error('stop'));
    await expect(run).rejects.toThrow('stop');
  });
});
