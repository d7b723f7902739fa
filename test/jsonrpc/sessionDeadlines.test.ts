/**
 * The session's request deadlines: one timer for the whole session, armed for the earliest
 * deadline; progress only moves a deadline; idle and total timeouts told apart; nothing left
 * armed once no request is timed. Fake timers (and the fake `performance.now()` they bring).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimeoutError } from '../../src/errors/errors.js';
import type { JsonObject } from '../../src/wire/messages.js';
import { JsonRpcSession } from '../../src/jsonrpc/session.js';
import type { SessionRequestOptions } from '../../src/jsonrpc/sessionOptions.js';
import { InMemoryTransport } from '../../src/transport/memory.js';
import { systemTimers, type Clock, type Timers } from '../../src/util/clock.js';

/** A session over an in-memory pair; the server end only records what it receives. */
async function open(extra: { clock?: Clock; timers?: Timers } = {}) {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const received: JsonObject[] = [];
  await serverEnd.start({ onMessage: (m) => received.push(m as JsonObject), onError: () => {}, onClose: () => {} });
  const errors: Error[] = [];
  const session = new JsonRpcSession({
    transport: clientEnd,
    timers: extra.timers ?? systemTimers,
    ...(extra.clock && { clock: extra.clock }),
    onNotification: () => {},
    onError: (e) => errors.push(e),
  });
  await session.start();
  const progress = (token: number, n: number) =>
    serverEnd.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: n } });
  const respond = (id: number) => serverEnd.send({ jsonrpc: '2.0', id, result: { ok: id } });
  return { session, received, errors, progress, respond };
}

/** The request's outcome, without an unhandled rejection while the test advances time. */
function track(promise: Promise<JsonObject>) {
  const state: { value?: JsonObject; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { value, settled: true }),
    (error: unknown) => Object.assign(state, { error, settled: true }),
  );
  return state;
}

const idle = (timeoutMs: number, extra: Partial<SessionRequestOptions> = {}): SessionRequestOptions => ({
  timeoutMs,
  maxTotalTimeoutMs: 600_000,
  resetTimeoutOnProgress: true,
  ...extra,
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('session deadlines: one timer', () => {
  it('progress moves the idle deadline without a new timer; the timeout comes at last progress + timeoutMs', async () => {
    const { session, progress, received } = await open();
    const call = track(session.request('tools/call', { name: 'slow', _meta: {} }, idle(1000)));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(700);
    await progress(0, 1);
    await vi.advanceTimersByTimeAsync(700);
    await progress(0, 2);
    expect(vi.getTimerCount()).toBe(1);
    // Last progress at t=1400: still pending at t=2399, timed out at t=2400.
    await vi.advanceTimersByTimeAsync(999);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.error).toBeInstanceOf(TimeoutError);
    expect((call.error as TimeoutError).data).toEqual({ method: 'tools/call', timeoutMs: 1000, kind: 'idle' });
    expect(received.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 0, reason: 'Request timed out' },
    });
    expect(vi.getTimerCount()).toBe(0);
    await session.close();
  });

  it('the total timeout ends a request that progress keeps alive, as kind "total"', async () => {
    const { session, progress } = await open();
    const call = track(
      session.request('tools/call', { name: 'slow', _meta: {} }, idle(1000, { maxTotalTimeoutMs: 2500 })),
    );
    for (let i = 1; i <= 4; i++) {
      await vi.advanceTimersByTimeAsync(600);
      await progress(0, i);
    }
    // t=2400: the idle deadline is 3400, the total one 2500.
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect((call.error as TimeoutError).data).toEqual({ method: 'tools/call', timeoutMs: 2500, kind: 'total' });
    expect(vi.getTimerCount()).toBe(0);
    await session.close();
  });

  it('without progress resets, an idle and a total limit that coincide report "idle"', async () => {
    const { session } = await open();
    const call = track(
      session.request('tools/list', undefined, {
        timeoutMs: 500,
        maxTotalTimeoutMs: 500,
        resetTimeoutOnProgress: false,
      }),
    );
    await vi.advanceTimersByTimeAsync(500);
    expect((call.error as TimeoutError).data).toMatchObject({ kind: 'idle', timeoutMs: 500 });
    await session.close();
  });

  it('several requests share the timer: a shorter deadline moves it earlier, each times out at its own deadline', async () => {
    const { session, respond } = await open();
    const long = track(session.request('tools/call', { name: 'long' }, idle(5000)));
    await vi.advanceTimersByTimeAsync(100);
    const short = track(session.request('tools/call', { name: 'short' }, idle(1000)));
    const answered = track(session.request('tools/list', undefined, idle(300)));
    expect(vi.getTimerCount()).toBe(1);
    await respond(2);
    expect(answered.value).toEqual({ ok: 2 });
    // The short request started at t=100: it times out at t=1100, the long one at t=5000.
    await vi.advanceTimersByTimeAsync(999);
    expect(short.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((short.error as TimeoutError).data).toMatchObject({ timeoutMs: 1000 });
    expect(long.settled).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(3899);
    expect(long.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((long.error as TimeoutError).data).toMatchObject({ timeoutMs: 5000 });
    expect(vi.getTimerCount()).toBe(0);
    await session.close();
  });

  it('the timer is cleared as soon as no request is timed: after a response, and after disarmTimeouts', async () => {
    const { session, respond, progress } = await open();
    const first = track(session.request('tools/list', undefined, idle(1000)));
    expect(vi.getTimerCount()).toBe(1);
    await respond(0);
    expect(first.value).toEqual({ ok: 0 });
    expect(vi.getTimerCount()).toBe(0);

    const listen = track(session.request('subscriptions/listen', { _meta: {} }, idle(1000)));
    expect(session.disarmTimeouts(1)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    // Progress no longer arms anything, and no timeout comes.
    await progress(1, 1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(listen.settled).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    await respond(1);
    expect(listen.value).toEqual({ ok: 1 });
    await session.close();
  });

  it('closing the session clears the timer and rejects what is pending', async () => {
    const { session } = await open();
    const call = track(session.request('tools/call', { name: 'x' }, idle(1000)));
    expect(vi.getTimerCount()).toBe(1);
    await session.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(call.settled).toBe(true);
    expect(call.error).not.toBeInstanceOf(TimeoutError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a deadline beyond what setTimeout can wait (2^31 - 1 ms) neither fires early nor is lost', async () => {
    const { session } = await open();
    const call = track(
      session.request(
        'tools/call',
        { name: 'x' },
        { timeoutMs: 3_000_000_000, maxTotalTimeoutMs: 3_000_000_000, resetTimeoutOnProgress: false },
      ),
    );
    await vi.advanceTimersByTimeAsync(10);
    expect(call.settled).toBe(false);
    // At the clamped delay the timer re-arms for the rest instead of timing out.
    await vi.advanceTimersByTimeAsync(2_147_483_647);
    expect(call.settled).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(3_000_000_000 - 2_147_483_647 - 10 - 1);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((call.error as TimeoutError).data).toMatchObject({ kind: 'idle', timeoutMs: 3_000_000_000 });
    await session.close();
  });

  it('timeouts of Infinity arm no timer', async () => {
    const { session, respond } = await open();
    const call = track(
      session.request(
        'tools/call',
        { name: 'x' },
        { timeoutMs: Infinity, maxTotalTimeoutMs: Infinity, resetTimeoutOnProgress: false },
      ),
    );
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3_000_000_000);
    expect(call.settled).toBe(false);
    await respond(0);
    expect(call.value).toEqual({ ok: 0 });
    await session.close();
  });
});

describe('session deadlines: the clock option', () => {
  it('measures deadlines on the given clock, with the given timers', async () => {
    vi.useRealTimers();
    let now = 5_000;
    const armed: Array<{ callback: () => void; ms: number; cleared: boolean }> = [];
    const timers: Timers = {
      setTimeout: (callback, ms) => {
        const timer = { callback, ms, cleared: false };
        armed.push(timer);
        return timer;
      },
      clearTimeout: (handle) => void ((handle as { cleared: boolean }).cleared = true),
    };
    const { session, progress } = await open({ clock: { now: () => now }, timers });
    const call = track(session.request('tools/call', { name: 'slow', _meta: {} }, idle(1000)));
    expect(armed.map((t) => t.ms)).toEqual([1000]);
    now += 600;
    await progress(0, 1);
    // The timer fires at 6000: the clock says the idle deadline is now 6600, so it re-arms for 600.
    now = 6_000;
    armed[0]?.callback();
    expect(call.settled).toBe(false);
    expect(armed.map((t) => t.ms)).toEqual([1000, 600]);
    now = 6_600;
    armed[1]?.callback();
    await Promise.resolve();
    expect((call.error as TimeoutError).data).toMatchObject({ kind: 'idle', timeoutMs: 1000 });
    // Nothing is timed any more: no third timer.
    expect(armed).toHaveLength(2);
    await session.close();
  });

  it('a timer is never early by the session count: it fires for the deadline it was armed for even when the clock lags', async () => {
    vi.useRealTimers();
    const armed: Array<() => void> = [];
    const timers: Timers = { setTimeout: (callback) => armed.push(callback), clearTimeout: () => {} };
    const { session } = await open({ clock: { now: () => 0 }, timers });
    const call = track(
      session.request('tools/list', undefined, {
        timeoutMs: 250,
        maxTotalTimeoutMs: 250,
        resetTimeoutOnProgress: false,
      }),
    );
    armed[0]?.();
    await Promise.resolve();
    expect((call.error as TimeoutError).data).toMatchObject({ kind: 'idle', timeoutMs: 250 });
    expect(armed).toHaveLength(1);
    await session.close();
  });
});
