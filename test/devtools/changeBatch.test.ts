/**
 * ChangeBatch on fake timers: one batch per interval, a newer change of the same thing replacing
 * the older in its place, no timer while nothing waits, and `clear()` dropping what waits.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChangeBatch } from '../../src/devtools/changeBatch.js';
import type { DevtoolsChange, DevtoolsRequest } from '../../src/devtools/snapshot.js';
import { systemTimers } from '../../src/util/clock.js';

const request = (id: number, outcome: DevtoolsRequest['outcome']): DevtoolsChange => ({
  type: 'request',
  request: {
    id,
    server: 's',
    method: 'tools/call',
    target: 't',
    startedAt: 0,
    durationMs: outcome === 'pending' ? undefined : 1,
    outcome,
    error: undefined,
    bytes: undefined,
    attempts: [],
  },
});
const approvals = (n: number): DevtoolsChange => ({
  type: 'approvals',
  approvals: Array.from({ length: n }, (_, id) => ({
    id,
    server: 's',
    exposedName: 'x',
    name: 'x',
    arguments: {},
    since: 0,
    argumentsHash: '0',
    answerable: false,
  })),
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ChangeBatch', () => {
  it('hands over one batch per interval, newer values in the older ones places', async () => {
    const batches: DevtoolsChange[][] = [];
    const batch = new ChangeBatch(100, systemTimers, (changes) => batches.push(changes));
    batch.add(request(1, 'pending'));
    batch.add(approvals(1));
    batch.add(request(2, 'pending'));
    batch.add(request(1, 'ok'));
    batch.add(approvals(0));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([[request(1, 'ok'), approvals(0), request(2, 'pending')]]);
    expect(vi.getTimerCount()).toBe(0);
    batch.add(request(2, 'error'));
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toEqual([[request(1, 'ok'), approvals(0), request(2, 'pending')], [request(2, 'error')]]);
  });

  it('clear() drops what waits and its timer', async () => {
    const batches: DevtoolsChange[][] = [];
    const batch = new ChangeBatch(100, systemTimers, (changes) => batches.push(changes));
    batch.add(request(1, 'pending'));
    batch.clear();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(batches).toEqual([]);
  });
});
