/**
 * The one retry loop (resilience/retry.ts): p-retry runs the attempts and sleeps the backoff,
 * `next` judges every failure and may name a wait of its own, and every wait runs on the global
 * timers (driven here by fake timers).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveRetryPolicy } from '../../src/resilience/retryPolicy.js';
import { retry, withRetry } from '../../src/resilience/retry.js';
import { MAX_TIMER_DELAY_MS } from '../../src/util/timerBounds.js';

/** Records the fake time of each attempt (from the first), failing with `error` until `okAt`. */
function attempts(okAt = Number.POSITIVE_INFINITY, error: () => unknown = () => new Error('down')) {
  const at: number[] = [];
  let start: number | undefined;
  const attempt = async (): Promise<string> => {
    start ??= Date.now();
    at.push(Date.now() - start);
    if (at.length < okAt) throw error();
    return 'done';
  };
  return { at, attempt };
}

describe('retry(): the loop under every retry of mcp-live', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('waits what next() names, on the global timers, and stops when the retries are spent', async () => {
    vi.useFakeTimers();
    const judged: number[] = [];
    const failure = new Error('down');
    const { at, attempt } = attempts(Number.POSITIVE_INFINITY, () => failure);
    const run = retry(attempt, {
      retries: 2,
      next: (_error, n) => {
        judged.push(n);
        return n * 100;
      },
    });
    const settled = run.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(99);
    expect(at).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(at).toEqual([0, 100]);
    await vi.advanceTimersByTimeAsync(200);
    expect(await settled).toBe(failure);
    expect(at).toEqual([0, 100, 300]);
    // The last failure is not judged: nothing is left to wait for.
    expect(judged).toEqual([1, 2]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets next() judge every failure, a TypeError too, and stop with it', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const result = retry(
      async () => {
        calls++;
        if (calls < 3) throw new TypeError(`not yet ${calls}`);
        return 'done';
      },
      { retries: Number.POSITIVE_INFINITY, next: () => 0 },
    );
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe('done');
    expect(calls).toBe(3);

    const final = new TypeError('final');
    await expect(retry(() => Promise.reject(final), { retries: 5, next: () => undefined })).rejects.toBe(final);
  });

  it('p-retry sleeps the backoff: no retry before minDelayMs / 2 with jitter, nor before minDelayMs without', async () => {
    vi.useFakeTimers();
    // The shortest jittered wait (Math.random() = 0): half of minDelayMs.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const jittered = attempts(2);
    const backoff = { minDelayMs: 1000, maxDelayMs: 60_000, factor: 2, jitter: true };
    const run = retry(jittered.attempt, { retries: 3, backoff, next: () => 'backoff' });
    await vi.advanceTimersByTimeAsync(499);
    expect(jittered.at).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(run).resolves.toBe('done');
    expect(jittered.at).toEqual([0, 500]);
    expect(Math.random).toHaveBeenCalled();

    const exact = attempts(4);
    const run2 = retry(exact.attempt, { retries: 3, backoff: { ...backoff, jitter: false }, next: () => 'backoff' });
    await vi.advanceTimersByTimeAsync(999);
    expect(exact.at).toEqual([0]);
    await vi.advanceTimersByTimeAsync(6001);
    await expect(run2).resolves.toBe('done');
    expect(exact.at).toEqual([0, 1000, 3000, 7000]);
  });

  it('jitter keeps each backoff wait in [0.5, 1) x minDelayMs x factor^(n-1), and the cap applies after it', async () => {
    vi.useFakeTimers();
    const random = vi.spyOn(Math, 'random');
    const backoff = { minDelayMs: 1000, maxDelayMs: 60_000, factor: 3, jitter: true };
    for (const r of [0, 0.5, 0.999]) {
      random.mockReturnValue(r);
      const { at, attempt } = attempts(4);
      const run = retry(attempt, { retries: 3, backoff, next: () => 'backoff' });
      await vi.advanceTimersByTimeAsync(20_000);
      await expect(run).resolves.toBe('done');
      const waits = at.slice(1).map((t, i) => t - at[i]!);
      waits.forEach((wait, i) => {
        expect(wait).toBeGreaterThanOrEqual(0.5 * 1000 * 3 ** i);
        expect(wait).toBeLessThanOrEqual(1000 * 3 ** i);
      });
      expect(waits[0]).toBe(Math.round(500 * (1 + r)));
    }
    // 1000 x 0.75 = 750, then 3000 x 0.75 = 2250 capped at 1500: the cap follows the jitter.
    random.mockReturnValue(0.5);
    const { at, attempt } = attempts(3);
    const run = retry(attempt, { retries: 3, backoff: { ...backoff, maxDelayMs: 1500 }, next: () => 'backoff' });
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(run).resolves.toBe('done');
    expect(at).toEqual([0, 750, 2250]);
  });

  it('a named wait (Retry-After) is slept between backoffs: it counts against retries, not in the backoff', async () => {
    vi.useFakeTimers();
    const backoff = { minDelayMs: 1000, maxDelayMs: 60_000, factor: 2, jitter: false };
    const failure = new Error('down');
    const { at, attempt } = attempts(Number.POSITIVE_INFINITY, () => failure);
    const steps: Array<'backoff' | number> = ['backoff', 7000, 'backoff', 'backoff'];
    const run = retry(attempt, { retries: 3, backoff, next: (_e, n) => steps[n - 1] });
    const settled = run.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await settled).toBe(failure);
    // 1000 (backoff 1), 7000 (named), 2000 (backoff 2); then the 3 retries are spent.
    expect(at).toEqual([0, 1000, 8000, 10_000]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an abort stops p-retry’s wait and a named wait at once, rejecting with the reason', async () => {
    vi.useFakeTimers();
    const backoff = { minDelayMs: 10_000, maxDelayMs: 60_000, factor: 2, jitter: false };
    for (const step of ['backoff', 10_000] as const) {
      const controller = new AbortController();
      const { at, attempt } = attempts();
      const run = retry(attempt, { retries: 5, backoff, signal: controller.signal, next: () => step });
      const settled = run.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(5000);
      expect(vi.getTimerCount()).toBe(1);
      controller.abort('stop');
      expect(await settled).toBe('stop');
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(at).toEqual([0]);
    }
  });

  it('waits longer than one setTimeout holds are waited in full, named or backoff', async () => {
    vi.useFakeTimers();
    const named = attempts(2);
    const run = retry(named.attempt, { retries: 1, next: () => MAX_TIMER_DELAY_MS + 10 });
    await vi.advanceTimersByTimeAsync(MAX_TIMER_DELAY_MS + 9);
    expect(named.at).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(run).resolves.toBe('done');

    // An uncapped backoff past 2^31 - 1 ms waits that limit, not the 1 ms a timer would.
    const backoff = { minDelayMs: 2 ** 32, maxDelayMs: Number.POSITIVE_INFINITY, factor: 2, jitter: false };
    const long = attempts(2);
    const run2 = retry(long.attempt, { retries: 1, backoff, next: () => 'backoff' });
    await vi.advanceTimersByTimeAsync(MAX_TIMER_DELAY_MS - 1);
    expect(long.at).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(run2).resolves.toBe('done');
  });
});

describe('withRetry(): the HTTP policy on the loop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('honours a Retry-After up to maxRetryAfterMs and refuses a longer one at once', async () => {
    vi.useFakeTimers();
    const policy = resolveRetryPolicy({ retries: 3, jitter: false, maxRetryAfterMs: 5000 });
    const honoured = attempts(2);
    const run = withRetry(honoured.attempt, { policy, classify: () => ({ retry: true, delayMs: 5000 }) });
    await vi.advanceTimersByTimeAsync(4999);
    expect(honoured.at).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(run).resolves.toBe('done');

    const refused = attempts(2);
    const run2 = withRetry(refused.attempt, { policy, classify: () => ({ retry: true, delayMs: 5001 }) });
    await expect(run2).rejects.toThrow('down');
    expect(refused.at).toEqual([0]);
  });
});
