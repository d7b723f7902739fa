import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError, VersionNegotiationError } from '../../src/errors/errors.js';
import { reconnectLoop, type ReconnectLoopOptions } from '../../src/reconnect/loop.js';
import { ReconnectBudget, resolveReconnectOptions, type ResolvedReconnectPolicy } from '../../src/reconnect/policy.js';
import type { ReconnectCause } from '../../src/reconnect/types.js';

const exact = resolveReconnectOptions({ jitter: false }) as ResolvedReconnectPolicy;
const clock = { now: () => Date.now() };
const exited = (code: number) =>
  new ConnectionClosedError(`process exited with code ${code}`, {
    reason: `process exited with code ${code}`,
    exitCode: code,
    signal: null,
    stderrTail: 'fatal: boom\n',
  });

function loop(overrides: Partial<ReconnectLoopOptions> & Pick<ReconnectLoopOptions, 'attempt'>) {
  const heard: Array<{ attempt: number; delayMs: number; coolDown: boolean; cause: ReconnectCause }> = [];
  const controller = new AbortController();
  const run = reconnectLoop({
    budget: new ReconnectBudget(exact),
    clock,
    signal: controller.signal,
    first: { delayMs: 500, cause: { reason: 'process-exit', exitCode: 1 } },
    onReconnecting: (attempt, delayMs, coolDown, cause) => heard.push({ attempt, delayMs, coolDown, cause }),
    ...overrides,
  });
  return { run, heard, controller };
}

describe('reconnectLoop (p-retry; the budget names each wait, slept on the global timers)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the first delay, then what the budget names after each failure, until an attempt succeeds', async () => {
    vi.useFakeTimers();
    const at: number[] = [];
    const start = Date.now();
    const { run, heard } = loop({
      attempt: async () => {
        at.push(Date.now() - start);
        if (at.length < 3) throw exited(1);
      },
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(at).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(at).toEqual([500]);
    await vi.advanceTimersByTimeAsync(3000);
    await expect(run).resolves.toEqual({ reconnected: true, attempts: 3 });
    // Backoff 500 ms (first), then 500 and 1000 ms after the failed attempts.
    expect(at).toEqual([500, 1000, 2000]);
    expect(heard.map(({ attempt, delayMs }) => [attempt, delayMs])).toEqual([
      [1, 500],
      [2, 500],
      [3, 1000],
    ]);
    expect(heard[1]?.cause).toMatchObject({ reason: 'process-exit', exitCode: 1, stderrTail: 'fatal: boom\n' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a crash loop: the budget is spent, the last cause reported, and no attempt runs hot', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const { run, heard } = loop({
      budget: new ReconnectBudget({
        ...exact,
        maxQuickRetries: 2,
        maxCoolDowns: 1,
        coolDownMs: 60_000,
        quickPhaseMs: 0,
      }),
      attempt: () => {
        attempts++;
        return Promise.reject(exited(7));
      },
    });
    await vi.advanceTimersByTimeAsync(10_000);
    // 500 ms, then 500 and 1000 ms between attempts; the third failure waits the cool-down.
    expect(attempts).toBe(3);
    await vi.advanceTimersByTimeAsync(60_000);
    const outcome = await run;
    expect(attempts).toBe(4);
    expect(outcome).toMatchObject({ reconnected: false, attempts: 4, cause: { reason: 'process-exit', exitCode: 7 } });
    expect(heard.map((h) => h.delayMs)).toEqual([500, 500, 1000, 60_000]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a failure no attempt can mend ends it at once', async () => {
    vi.useFakeTimers();
    const mismatch = new VersionNegotiationError({ clientSupported: ['2026-07-28'], serverSupported: ['2024-01-01'] });
    const { run, heard } = loop({ attempt: () => Promise.reject(mismatch) });
    await vi.advanceTimersByTimeAsync(500);
    await expect(run).resolves.toMatchObject({
      reconnected: false,
      attempts: 1,
      cause: { reason: 'connect-failed', error: mismatch },
    });
    expect(heard).toHaveLength(1);
  });

  it('an abort clears the wait at once and rejects with the reason', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const { run, controller } = loop({
      attempt: () => {
        attempts++;
        return Promise.reject(exited(1));
      },
    });
    await vi.advanceTimersByTimeAsync(600);
    expect(attempts).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error('client closed'));
    await expect(run).rejects.toThrow('client closed');
    expect(vi.getTimerCount()).toBe(0);
    expect(attempts).toBe(1);
  });
});
