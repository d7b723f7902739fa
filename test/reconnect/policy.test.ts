import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import {
  DEFAULT_RECONNECT_POLICY,
  ReconnectBudget,
  resolveReconnectOptions,
  type ResolvedReconnectPolicy,
} from '../../src/reconnect/policy.js';

const exact = resolveReconnectOptions({ jitter: false }) as ResolvedReconnectPolicy;

describe('resolveReconnectOptions', () => {
  it('fills the documented defaults, keeps false, rejects bad values', () => {
    expect(resolveReconnectOptions(undefined)).toEqual(DEFAULT_RECONNECT_POLICY);
    expect(DEFAULT_RECONNECT_POLICY).toMatchObject({
      minDelayMs: 500,
      maxDelayMs: 30_000,
      factor: 2,
      jitter: true,
      quickFailureMs: 10_000,
      maxQuickRetries: 5,
      quickPhaseMs: 60_000,
      maxReconnectsPerWindow: 10,
      windowMs: 3_600_000,
      coolDownMs: 300_000,
      maxCoolDowns: 3,
      retryFirstConnect: false,
    });
    expect(resolveReconnectOptions(false)).toBe(false);
    expect(resolveReconnectOptions({ minDelayMs: 10, maxCoolDowns: Infinity })).toMatchObject({
      minDelayMs: 10,
      maxCoolDowns: Infinity,
      coolDownMs: 300_000,
    });
    for (const bad of [
      { minDelayMs: -1 },
      { coolDownMs: Infinity },
      { factor: 0.5 },
      { maxQuickRetries: 1.5 },
      { quickPhaseMs: -5 },
      { maxCoolDowns: -1 },
      { jitter: 'yes' },
      { random: 4 },
    ])
      expect(() => resolveReconnectOptions(bad as never), JSON.stringify(bad)).toThrow(InvalidArgumentError);
    expect(() => resolveReconnectOptions('on' as never)).toThrow(InvalidArgumentError);
  });
});

describe('ReconnectBudget', () => {
  it('a server that crashes at every start: quick retries with backoff for quickPhaseMs, cool-downs, then gives up', () => {
    const budget = new ReconnectBudget(exact);
    let t = 3_600_000;
    // A connection that lived an hour drops: the first wait is the shortest.
    const waits = [budget.dropped(0, t)];
    // Then every attempt, made when the wait is over, fails at once.
    for (let i = 0; i < 10; i++) {
      t += waits.at(-1)!.delayMs;
      budget.attemptStarted(t);
      waits.push(budget.attemptFailed((t += 1)));
    }
    expect(waits).toEqual([
      { delayMs: 500, coolDown: false },
      { delayMs: 1000, coolDown: false },
      { delayMs: 2000, coolDown: false },
      { delayMs: 4000, coolDown: false },
      { delayMs: 8000, coolDown: false },
      { delayMs: 16_000, coolDown: false },
      // maxQuickRetries (5) spent, but 31.5 s is within quickPhaseMs (60 s): one more backoff.
      { delayMs: 30_000, coolDown: false },
      // Both spent: cool-downs, maxCoolDowns (3) of them, then it gives up.
      { delayMs: 300_000, coolDown: true },
      { delayMs: 300_000, coolDown: true },
      { delayMs: 300_000, coolDown: true },
      undefined,
    ]);
  });

  it('a connection that dies young counts; one that lives quickFailureMs starts the count over', () => {
    const budget = new ReconnectBudget({ ...exact, maxQuickRetries: 2, maxCoolDowns: 0, quickPhaseMs: 0 });
    // Each reconnect succeeds, and each connection dies 2 s after opening.
    expect(budget.dropped(0, 2000)).toEqual({ delayMs: 500, coolDown: false });
    expect(budget.dropped(10_000, 12_000)).toEqual({ delayMs: 1000, coolDown: false });
    expect(budget.consecutiveQuickFailures).toBe(2);
    // One that lived a minute: the count starts over.
    expect(budget.dropped(20_000, 80_000)).toEqual({ delayMs: 500, coolDown: false });
    expect(budget.consecutiveQuickFailures).toBe(0);
    expect(budget.dropped(90_000, 91_000)).toEqual({ delayMs: 1000, coolDown: false });
    expect(budget.dropped(92_000, 93_000)).toEqual({ delayMs: 2000, coolDown: false });
    // The third quick drop in a row: no cool-down allowed, so it gives up.
    expect(budget.dropped(94_000, 95_000)).toBeUndefined();
  });

  it('a server that works for minutes between crashes: maxReconnectsPerWindow, then cool-downs, never giving up', () => {
    const budget = new ReconnectBudget({ ...exact, maxCoolDowns: 0 });
    const decisions: boolean[] = [];
    let t = 0;
    for (let i = 0; i < 12; i++) {
      t += 120_000; // each connection lives two minutes
      const decision = budget.dropped(t - 120_000, t);
      decisions.push(decision?.coolDown ?? false);
      expect(decision).toBeDefined();
      budget.attemptStarted(t);
    }
    // Ten attempts within the hour; from the eleventh on, each waits the cool-down.
    expect(decisions).toEqual([false, false, false, false, false, false, false, false, false, false, true, true]);
    // An hour later the window is clear again.
    expect(budget.dropped(t, t + 3_700_000)).toEqual({ delayMs: 500, coolDown: false });
  });

  it('jitter: backoff in [0.5, 1) of the step, cool-downs plus up to 10 %', () => {
    const budget = new ReconnectBudget({
      ...exact,
      jitter: true,
      random: () => 0.5,
      maxQuickRetries: 1,
      quickPhaseMs: 0,
    });
    expect(budget.dropped(0, 60_000)).toEqual({ delayMs: 375, coolDown: false });
    expect(budget.attemptFailed(60_001)).toEqual({ delayMs: 750, coolDown: false });
    expect(budget.attemptFailed(60_002)).toEqual({ delayMs: 315_000, coolDown: true });
  });
});
