/**
 * Poll delivery against a scripted server, on fake time: the conformance scenario
 * events-client-poll step by step (drain on hasMore, nextPollMs, the floor, the fresh cursor
 * after truncated, a null cursor never replayed, an absent cursor tolerated, a re-list after
 * list_changed), plus the cursor store, a poll that never answers, and typed refusals.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURSORLESS, REPLAY, eventsPair, occurrence } from './eventsFakes.js';
import { MemoryCursorStore, EventNotFoundError, EventsUnsupportedError } from '../../src/index.js';
import type { CursorStore, EventLease, EventMessage } from '../../src/index.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('poll delivery', () => {
  it('drains on hasMore, honours nextPollMs and the 1 s floor, carries the fresh cursor after truncated', async () => {
    const { client, server } = await eventsPair(['poll']);
    const times: number[] = [];
    const cursors: unknown[] = [];
    const steps = [
      { events: [occurrence('tick-1', 'tick-1')], cursor: 'tick-1', hasMore: true, nextPollMs: 3000 },
      { events: [occurrence('tick-2', 'tick-2')], cursor: 'tick-2', hasMore: false, nextPollMs: 2000 },
      { events: [], cursor: 'tick-3', hasMore: false, nextPollMs: 0 },
      { events: [], cursor: 'tick-fresh', truncated: true, hasMore: false, nextPollMs: 0 },
      { events: [], cursor: 'tick-5', hasMore: false, nextPollMs: 1000 },
    ];
    server.on('events/poll', (request) => {
      times.push(Date.now());
      cursors.push(request['params']['cursor']);
      return { result: { resultType: 'complete', ...(steps[times.length - 1] ?? steps[4]!) } };
    });
    const subscription = await client.events.subscribe(REPLAY);
    expect(subscription.mode).toBe('poll');
    const messages: EventMessage[] = [];
    subscription.on((event) => {
      if (event.type === 'occurrence' || event.type === 'truncated') messages.push(event);
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(times.length).toBeGreaterThanOrEqual(5);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    expect(gaps[0]).toBeLessThan(10); // hasMore: at once, nextPollMs ignored
    expect(gaps[1]).toBe(2000); // nextPollMs honoured
    expect(gaps[2]).toBe(1000); // nextPollMs 0: the floor
    expect(cursors.slice(0, 5)).toEqual([null, 'tick-1', 'tick-2', 'tick-3', 'tick-fresh']);
    expect(subscription.truncated).toBe(true);
    // A listener added after subscribe() resolved still hears the first batch (held until heard).
    expect(messages.map((m) => (m.type === 'occurrence' ? m.occurrence.eventId : `truncated:${m.cursor}`))).toEqual([
      'tick-1',
      'tick-2',
      'truncated:tick-fresh',
    ]);
    await subscription.close();
    await client.close();
  });

  it('never replays a null cursor, and keeps polling when the cursor field is absent', async () => {
    const { client, server } = await eventsPair(['poll']);
    let n = 0;
    server.on('events/poll', () => {
      n++;
      const result: Record<string, unknown> = {
        resultType: 'complete',
        events: n === 1 ? [occurrence('c-1', null, CURSORLESS)] : [],
        hasMore: false,
        nextPollMs: 1000,
      };
      if (n === 1) result['cursor'] = null;
      return { result };
    });
    const subscription = await client.events.subscribe(CURSORLESS);
    await vi.advanceTimersByTimeAsync(3_500);
    const polls = server.requests('events/poll');
    expect(polls.length).toBeGreaterThanOrEqual(3);
    expect(polls.map((p) => p['params']['cursor'])).toEqual(polls.map(() => null));
    expect(subscription.cursor).toBeNull();
    await subscription.close();
    await client.close();
  });

  it('lists again after notifications/events/list_changed (on any channel)', async () => {
    const { client, server } = await eventsPair(['poll']);
    await client.events.list();
    expect(server.requests('events/list')).toHaveLength(1);
    await client.events.list();
    expect(server.requests('events/list')).toHaveLength(1); // cached
    await server.send({ jsonrpc: '2.0', method: 'notifications/events/list_changed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.requests('events/list')).toHaveLength(2);
    await client.close();
  });

  it('resumes from the stored cursor, written after each delivered batch', async () => {
    const { client, server } = await eventsPair(['poll']);
    const store = new MemoryCursorStore();
    let n = 0;
    server.on('events/poll', () => {
      n++;
      return {
        result: {
          resultType: 'complete',
          events: [occurrence(`e-${n}`, `c-${n}`)],
          cursor: `c-${n}`,
          hasMore: false,
          nextPollMs: 1000,
        },
      };
    });
    const first = await client.events.subscribe(REPLAY, {}, { cursorStore: store });
    await vi.advanceTimersByTimeAsync(1_000);
    await first.close();
    const stored = [...(store as unknown as { cursors: Map<string, string> }).cursors.values()];
    expect(stored).toEqual([first.cursor]);
    const second = await client.events.subscribe(REPLAY, {}, { cursorStore: store });
    const polls = server.requests('events/poll');
    expect(polls.at(-1)!['params']['cursor']).toBe(first.cursor);
    await second.close();
    await client.close();
  });

  it('gives up a poll that never answers at its timeout, reports it, and polls again', async () => {
    const { client, server } = await eventsPair(['poll']);
    let n = 0;
    server.on('events/poll', () => {
      n++;
      if (n === 2) return undefined; // never answered
      return { result: { resultType: 'complete', events: [], cursor: `c-${n}`, hasMore: false, nextPollMs: 1000 } };
    });
    const subscription = await client.events.subscribe(REPLAY, {}, { poll: { timeoutMs: 5_000 } });
    const errors: string[] = [];
    subscription.on((event) => {
      if (event.type === 'error') errors.push(event.error.name);
    });
    await vi.advanceTimersByTimeAsync(1_000 + 5_000 + 2_000);
    expect(errors).toEqual(['TimeoutError']);
    expect(n).toBeGreaterThanOrEqual(3);
    expect(subscription.state).toBe('active');
    await subscription.close();
    await client.close();
  });

  it('rejects subscribe with the typed -32011 and sends nothing without the extension', async () => {
    const { client, server } = await eventsPair(['poll']);
    server.on('events/poll', () => ({ error: { code: -32011, message: 'NotFound', data: { kind: 'event' } } }));
    const refused = await client.events.subscribe(REPLAY).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EventNotFoundError);
    expect((refused as EventNotFoundError).kind).toBe('event');
    await client.close();

    const bare = await eventsPair(['poll'], { declare: false });
    expect(bare.client.events.supported).toBe(false);
    await expect(bare.client.events.list()).rejects.toBeInstanceOf(EventsUnsupportedError);
    await expect(bare.client.events.subscribe(REPLAY)).rejects.toMatchObject({ code: -33080 });
    expect(bare.server.received.filter((m) => String(m['method']).startsWith('events/'))).toEqual([]);
    await bare.client.close();
  });
});

describe('poll delivery under a lease', () => {
  /** A lease in memory: `held` says whether another worker holds it. */
  function memoryLease(): { lease: EventLease; other: { held: boolean }; released: number[] } {
    const other = { held: true };
    const released: number[] = [];
    let ours = false;
    const lease: EventLease = {
      ttlMs: 900,
      acquire: () => Promise.resolve((ours = ours || !other.held)),
      renew: () => Promise.resolve((ours = ours && !other.held)),
      release: () => {
        released.push(Date.now());
        ours = false;
        return Promise.resolve();
      },
    };
    return { lease, other, released };
  }

  it('stands by while another worker holds the lease, then resumes from the stored cursor; ends when it is lost', async () => {
    const { client, server } = await eventsPair(['poll']);
    const cursors: unknown[] = [];
    server.on('events/poll', (request) => {
      cursors.push(request['params']['cursor']);
      const n = cursors.length;
      return {
        result: {
          resultType: 'complete',
          events: [occurrence(`t-${n}`, `t-${n}`)],
          cursor: `t-${n}`,
          nextPollMs: 1000,
        },
      };
    });
    const memory = new MemoryCursorStore();
    const keys: string[] = [];
    const store: CursorStore = {
      get: (key) => (keys.push(key), memory.get(key)),
      set: (key, cursor) => memory.set(key, cursor),
      delete: (key) => memory.delete(key),
    };
    const { lease, other, released } = memoryLease();
    const subscription = await client.events.subscribe(REPLAY, {}, { cursorStore: store, lease });
    expect(subscription.state).toBe('standby');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(cursors).toEqual([]); // nothing is consumed without the lease
    // The holder wrote its cursor to the shared store, then died: the lease frees up.
    void memory.set(keys[0]!, 'held-by-the-other');
    other.held = false;
    await vi.advanceTimersByTimeAsync(400);
    expect(subscription.state).toBe('active');
    expect(cursors[0]).toBe('held-by-the-other');
    // Another worker takes the lease: the next renewal finds it and the subscription ends.
    other.held = true;
    await vi.advanceTimersByTimeAsync(400);
    const closed = await subscription.closed;
    expect(closed.reason).toBe('ended');
    expect(closed.error?.data.reason).toBe('lease-lost');
    expect(released.length).toBe(1);
    await client.close();
  });
});
