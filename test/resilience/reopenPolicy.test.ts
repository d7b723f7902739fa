import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_REOPEN_POLICY,
  ReopenBudget,
  resolveReopenPolicy,
  type ResolvedReopenPolicy,
} from '../../src/resilience/reopenPolicy.js';
import { reopenWithRetry } from '../../src/resilience/reopenRetry.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { backoffDelay } from '../../src/resilience/backoff.js';
import { fakeClock } from '../subscriptions/fixtures.js';

const exact = resolveReopenPolicy({ jitter: false }) as ResolvedReopenPolicy;

describe('resolveReopenPolicy', () => {
  it('fills defaults, keeps false, rejects bad values', () => {
    expect(resolveReopenPolicy(undefined)).toEqual(DEFAULT_REOPEN_POLICY);
    expect(resolveReopenPolicy(false)).toBe(false);
    expect(resolveReopenPolicy({ minDelayMs: 10, maxQuickRetries: 1 })).toMatchObject({
      minDelayMs: 10,
      maxQuickRetries: 1,
      coolDownMs: 900_000,
    });
    expect(() => resolveReopenPolicy({ minDelayMs: -1 })).toThrow(InvalidArgumentError);
    expect(() => resolveReopenPolicy({ factor: 0.5 })).toThrow(InvalidArgumentError);
    expect(() => resolveReopenPolicy({ maxQuickRetries: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => resolveReopenPolicy({ coolDownMs: Number.POSITIVE_INFINITY })).toThrow(InvalidArgumentError);
  });
});

describe('backoffDelay over a reopen policy', () => {
  it('grows by factor from minDelayMs up to maxDelayMs; jitter scales into [0.5, 1)', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(exact, n, Math.random))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    const jittered = { ...exact, jitter: true };
    expect(backoffDelay(jittered, 1, () => 0)).toBe(500);
    expect(backoffDelay(jittered, 1, () => 0.999)).toBe(1000);
    expect(backoffDelay(jittered, 3, () => 0.5)).toBe(3000);
    // The cap applies after the jitter: 64000 x 0.75 = 48000 is capped at 30000.
    expect(backoffDelay(jittered, 7, () => 0.5)).toBe(30_000);
  });
});

describe('ReopenBudget', () => {
  it('retries quick deaths with backoff, then cools down; a long-lived stream resets the count', () => {
    const budget = new ReopenBudget(exact);
    // Four streams that each die 1 s after their ack (quick: < 10 s).
    const delays = [0, 1, 2, 3].map((i) => {
      const t = i * 100_000;
      budget.attemptStarted(t);
      return budget.streamEnded(t, t + 1000);
    });
    expect(delays).toEqual([
      { delayMs: 1000, coolDown: false },
      { delayMs: 2000, coolDown: false },
      { delayMs: 4000, coolDown: false },
      { delayMs: 900_000, coolDown: true },
    ]);
    // A stream that lived 20 s is not a quick failure: back to the first step.
    expect(budget.streamEnded(1_000_000, 1_020_000)).toEqual({ delayMs: 1000, coolDown: false });
    expect(budget.consecutiveQuickFailures).toBe(0);
  });

  it('allows maxReopensPerWindow attempts per window, then cools down until attempts age out', () => {
    const budget = new ReopenBudget(exact);
    // The first stream ends: nothing reopened yet.
    expect(budget.streamEnded(0, 60_000).coolDown).toBe(false);
    const decisions: boolean[] = [];
    let t = 60_000;
    for (let i = 0; i < 5; i++) {
      budget.attemptStarted(t); // reopen number i + 1
      t += 60_000; // each stream lives a minute (not quick)
      decisions.push(budget.streamEnded(t - 59_000, t).coolDown);
    }
    // Five reopens within the hour: the sixth waits the cool-down.
    expect(decisions).toEqual([false, false, false, false, true]);
    // Once the window has passed, backoff again.
    expect(budget.streamEnded(t + 3_600_000, t + 3_700_000)).toEqual({ delayMs: 1000, coolDown: false });
  });

  it('a failed attempt counts as a quick failure; cool-down jitter adds up to 10 %', () => {
    const budget = new ReopenBudget({ ...exact, jitter: true, maxQuickRetries: 0 }, () => 0.5);
    expect(budget.attemptFailed(0)).toEqual({ delayMs: 945_000, coolDown: true });
  });
});

describe('reopenWithRetry (p-retry; the budget names each wait, slept on the global timers)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits what the budget decides between attempts, on fake timers, until one succeeds', async () => {
    vi.useFakeTimers();
    const budget = new ReopenBudget(exact);
    const attempts: number[] = [];
    const retries: number[] = [];
    const run = reopenWithRetry(
      async () => {
        attempts.push(Date.now());
        if (attempts.length < 3) throw new Error('not yet');
        return 'open';
      },
      {
        budget,
        clock: fakeClock,
        signal: new AbortController().signal,
        retryable: () => true,
        onRetry: (_e, d) => retries.push(d.delayMs),
      },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000);
    await expect(run).resolves.toBe('open');
    expect(retries).toEqual([1000, 2000]);
    expect(attempts.map((t) => t - attempts[0]!)).toEqual([0, 1000, 3000]);
  });

  it('stops at an error that is not retryable, and when the signal aborts mid-wait', async () => {
    vi.useFakeTimers();
    const fatal = new Error('fatal');
    await expect(
      reopenWithRetry(() => Promise.reject(fatal), {
        budget: new ReopenBudget(exact),
        clock: fakeClock,
        signal: new AbortController().signal,
        retryable: () => false,
      }),
    ).rejects.toBe(fatal);

    const controller = new AbortController();
    let calls = 0;
    const run = reopenWithRetry(
      () => {
        calls++;
        return Promise.reject(new Error('down'));
      },
      {
        budget: new ReopenBudget(exact),
        clock: fakeClock,
        signal: controller.signal,
        retryable: () => true,
      },
    );
    const settled = run.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(500);
    controller.abort(new Error('closed'));
    expect(await settled).toMatchObject({ message: 'closed' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(1);
  });
});
