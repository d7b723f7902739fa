import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimeoutSet } from '../../src/util/timeoutSet.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TimeoutSet', () => {
  it('runs each step after its delay, and clear() drops every step not run yet', () => {
    const timeouts = new TimeoutSet();
    const ran: string[] = [];
    timeouts.after(100, () => ran.push('a'));
    timeouts.after(200, () => ran.push('b'), true);
    vi.advanceTimersByTime(100);
    expect(ran).toEqual(['a']);
    expect(vi.getTimerCount()).toBe(1);
    timeouts.clear();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(ran).toEqual(['a']);
  });

  it('clamps a delay beyond what setTimeout can wait instead of firing at once', () => {
    const timeouts = new TimeoutSet();
    const ran: string[] = [];
    timeouts.after(2 ** 40, () => ran.push('late'));
    vi.advanceTimersByTime(1000);
    expect(ran).toEqual([]);
    timeouts.clear();
  });
});
