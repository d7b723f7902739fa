/**
 * Live lists against a scripted server, on fake timers: debounce and coalescing, changes during
 * a refresh, failed refreshes, manual refresh, close, resync.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RpcError } from '../../src/errors/errors.js';
import { SubscriptionClosedError } from '../../src/subscriptions/errors.js';
import { MAX_DISCARDED_REFRESHES } from '../../src/subscriptions/liveList.js';
import type { LiveListEvent } from '../../src/subscriptions/types.js';
import type { Tool } from '../../src/wire/protocol.js';
import type { Reply } from '../fakes/scriptedServer.js';
import { cancels, change, deferred, fakeClock, flush, listens, record, subscriptionPair, types } from './fixtures.js';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
const page = (names: string[], nextCursor?: string) => ({
  result: {
    resultType: 'complete',
    tools: names.map(tool),
    ttlMs: 60_000,
    cacheScope: 'public',
    ...(nextCursor !== undefined && { nextCursor }),
  },
});
const names = (items: readonly Tool[]) => items.map((t) => t.name);
const options = { clock: fakeClock, subscriptions: { reopen: { jitter: false }, liveRetry: { jitter: false } } };

afterEach(() => {
  vi.useRealTimers();
});

describe('live lists', () => {
  it('loads every page once subscribed; the list is frozen, current and watched', async () => {
    const { client, server } = await subscriptionPair();
    server.on('tools/list', (request) => (request['params']['cursor'] === undefined ? page(['a'], 'p2') : page(['b'])));
    const live = await client.live('tools');
    expect(names(live.items)).toEqual(['a', 'b']);
    expect(Object.isFrozen(live.items)).toBe(true);
    expect(live).toMatchObject({
      kind: 'tools',
      method: 'tools/list',
      version: 1,
      stale: false,
      watching: true,
      lastError: undefined,
    });
    // Subscribed first, then listed: no change after the ack can be missed.
    const order = server.received.filter((m) => 'id' in m && m['method'] !== 'server/discover').map((m) => m['method']);
    expect(order).toEqual(['subscriptions/listen', 'tools/list', 'tools/list']);
    expect(listens(server)[0]!['params']['notifications']).toEqual({ toolsListChanged: true });
    await client.close();
  });

  it('a burst of changes within the debounce makes one refresh and one update', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(options);
    let current = ['a'];
    server.on('tools/list', () => page(current));
    const live = await client.live('tools', { debounceMs: 50 });
    const events = record(live);
    const id = live.subscription!.subscriptionId;
    current = ['a', 'b', 'c'];
    for (let i = 0; i < 3; i++) {
      await server.send(change('notifications/tools/list_changed', id));
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(server.requests('tools/list')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20); // 50 ms after the first change
    await flush();
    expect(server.requests('tools/list')).toHaveLength(2);
    expect(events).toEqual([{ type: 'updated', items: live.items, version: 2, changed: true }]);
    expect(names(live.items)).toEqual(['a', 'b', 'c']);
    await client.close();
  });

  it('a change during a refresh is never lost: that result is dropped and one more refresh follows', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(options);
    let current = ['v1'];
    let hold: ReturnType<typeof deferred<Reply>> | undefined;
    server.on('tools/list', () => {
      const snapshot = page(current);
      if (hold === undefined) return snapshot;
      const held = hold;
      hold = undefined;
      return held.promise.then(() => snapshot);
    });
    const live = await client.live('tools', { debounceMs: 50 });
    const events = record(live);
    const id = live.subscription!.subscriptionId;
    current = ['v2'];
    hold = deferred<Reply>();
    const release = hold;
    await server.send(change('notifications/tools/list_changed', id));
    await vi.advanceTimersByTimeAsync(50); // refresh 1 starts, server answers v2 later
    expect(server.requests('tools/list')).toHaveLength(2);
    current = ['v3'];
    await server.send(change('notifications/tools/list_changed', id)); // during the refresh
    release.resolve(undefined);
    await flush();
    expect(events).toEqual([]); // v2 is known to be outdated
    await vi.advanceTimersByTimeAsync(50);
    await flush();
    expect(server.requests('tools/list')).toHaveLength(3);
    expect(types(events)).toEqual(['updated']);
    expect(names(live.items)).toEqual(['v3']);
    await client.close();
  });

  it(`a list that changes faster than it can be walked still publishes after ${MAX_DISCARDED_REFRESHES} dropped results`, async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(options);
    let n = 0;
    let id: unknown;
    server.on('tools/list', async () => {
      n++;
      // Every walk after the first sees a change announced while it runs.
      if (n > 1) await server.send(change('notifications/tools/list_changed', id));
      return page([`v${n}`]);
    });
    const live = await client.live('tools', { debounceMs: 10 });
    id = live.subscription!.subscriptionId;
    const events = record(live);
    await server.send(change('notifications/tools/list_changed', id));
    await vi.advanceTimersByTimeAsync(10 * (MAX_DISCARDED_REFRESHES + 1));
    await flush();
    expect(types(events)).toEqual(['updated']);
    expect(names(live.items)).toEqual([`v${MAX_DISCARDED_REFRESHES + 2}`]);
    await live.close();
    await client.close();
  });

  it('a failed refresh keeps the last good list (stale, lastError, refreshFailed) and retries on a jittered backoff timer', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(options);
    const replies: Reply[] = [
      page(['search', 'fetch']),
      { error: { code: -32603, message: 'Internal error' } },
      { error: { code: -32603, message: 'Internal error' } },
      page(['search']),
    ];
    server.on('tools/list', () => replies.shift());
    const live = await client.live('tools', { debounceMs: 50 });
    const events: Array<LiveListEvent<Tool>> = record(live);
    await server.send(change('notifications/tools/list_changed', live.subscription!.subscriptionId));
    await vi.advanceTimersByTimeAsync(50);
    await flush();
    expect(names(live.items)).toEqual(['search', 'fetch']);
    expect(live.stale).toBe(true);
    expect(live.lastError).toBeInstanceOf(RpcError);
    expect(events).toMatchObject([{ type: 'refreshFailed', retryInMs: 1000 }]);
    expect(names((events[0] as { items: readonly Tool[] }).items)).toEqual(['search', 'fetch']);
    await vi.advanceTimersByTimeAsync(1000); // retry 1: fails again
    await flush();
    expect(events.map((e) => (e.type === 'refreshFailed' ? e.retryInMs : e.type))).toEqual([1000, 2000]);
    await vi.advanceTimersByTimeAsync(2000); // retry 2: succeeds
    await flush();
    expect(types(events)).toEqual(['refreshFailed', 'refreshFailed', 'updated']);
    expect(names(live.items)).toEqual(['search']);
    expect(live.stale).toBe(false);
    expect(live.lastError).toBeUndefined();
    expect(events.every((e) => e.type !== 'updated' || e.items.length > 0)).toBe(true);
    await client.close();
  });

  it('refresh() fetches now; an identical list is reported unchanged and keeps its array', async () => {
    const { client, server } = await subscriptionPair();
    server.on('tools/list', () => page(['a']));
    const live = await client.live('tools');
    const before = live.items;
    const events = record(live);
    const after = await live.refresh();
    expect(after).toBe(before);
    expect(events).toEqual([{ type: 'updated', items: before, version: 1, changed: false }]);
    await client.close();
  });

  it('close(): the subscription is cancelled, timers stop, refresh() rejects with SubscriptionClosedError', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(options);
    server.on('tools/list', () => page(['a']));
    const live = await client.live('tools', { debounceMs: 50 });
    await server.send(change('notifications/tools/list_changed', live.subscription!.subscriptionId));
    await flush();
    await live.close();
    await live.close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.requests('tools/list')).toHaveLength(1);
    expect(cancels(server)).toHaveLength(1);
    expect(await live.closed).toEqual({ reason: 'closed', reopens: 0 });
    await expect(live.refresh()).rejects.toBeInstanceOf(SubscriptionClosedError);
    await client.close();
  });

  it('a server that does not announce changes: the list loads, nothing is watched, no listen is sent', async () => {
    const { client, server } = await subscriptionPair({}, { tools: {} });
    server.on('tools/list', () => page(['a']));
    const live = await client.live('tools');
    expect(names(live.items)).toEqual(['a']);
    expect(live.watching).toBe(false);
    expect(live.stale).toBe(false);
    expect(listens(server)).toEqual([]);
    await client.close();
    expect((await live.closed).reason).toBe('client-closed');
  });

  it('after a reopen (resync) the list is fetched again', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(options);
    let current = ['a'];
    server.on('tools/list', () => page(current));
    const live = await client.live('tools', { debounceMs: 50 });
    const events = record(live);
    current = ['a', 'missed'];
    await vi.advanceTimersByTimeAsync(60_000);
    await server.send({ jsonrpc: '2.0', id: live.subscription!.subscriptionId, result: {} });
    await flush();
    expect(live.stale).toBe(true); // not watched while reopening
    await vi.advanceTimersByTimeAsync(1000); // reopen
    await flush();
    await vi.advanceTimersByTimeAsync(50); // debounce
    await flush();
    expect(types(events)).toEqual(['subscriptionLost', 'resync', 'updated']);
    expect(names(live.items)).toEqual(['a', 'missed']);
    expect(live.stale).toBe(false);
    await client.close();
  });

  it('a first load that fails rejects live() and leaves nothing open', async () => {
    const { client, server } = await subscriptionPair();
    server.on('prompts/list', () => ({ error: { code: -32603, message: 'down' } }));
    await expect(client.live('prompts')).rejects.toMatchObject({ code: -32603 });
    await flush();
    expect(cancels(server)).toHaveLength(1);
    await client.close();
  });
});
