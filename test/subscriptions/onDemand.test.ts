/**
 * What subscriptions load on first use, each from a fresh copy of the package (`vi.resetModules`:
 * nothing loaded yet): the first `subscribe()`, the first `live()`, a legacy subscription made
 * right after connect, a failed load; and the synchronous paths that never wait for a load.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpClient } from '../../src/client/client.js';
import type { JsonRpcNotification, RequestId } from '../../src/wire/messages.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';
import type { SubscriptionWireDeps } from '../../src/subscriptions/subscription.js';
import { LegacyFeed } from '../../src/subscriptions/legacyFeed.js';

type Fixtures = typeof import('./fixtures.js');

let client: McpClient | undefined;

beforeEach(() => {
  vi.resetModules();
});

afterEach(async () => {
  vi.doUnmock('../../src/subscriptions/openSubscription.lazy.js');
  await client?.close();
  client = undefined;
});

/** The fixtures, and through them the client, from a fresh module graph. */
const fresh = (): Promise<Fixtures> => import('./fixtures.js');

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

describe('subscriptions load on first use', () => {
  it('the first subscribe() of a fresh client opens its stream and hears its changes', async () => {
    const { subscriptionPair, listens, change, record } = await fresh();
    const pair = await subscriptionPair();
    client = pair.client;
    const sub = await client.subscribe({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] });
    expect(sub.state).toBe('open');
    expect(sub.honoured).toEqual({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] });
    expect(listens(pair.server)).toHaveLength(1);
    const events = record<SubscriptionEvent>(sub);
    await pair.server.send(change('notifications/tools/list_changed', sub.subscriptionId));
    await vi.waitFor(() => expect(events).toEqual([{ type: 'toolsListChanged' }]));
    expect(pair.errors).toEqual([]);
  });

  it('a malformed filter on a fresh client rejects with InvalidArgumentError (-32602), nothing sent', async () => {
    const { subscriptionPair, listens } = await fresh();
    const pair = await subscriptionPair();
    client = pair.client;
    await expect(client.subscribe({ toolsListChanged: 'yes' } as never)).rejects.toMatchObject({
      name: 'InvalidArgumentError',
      code: -32602,
    });
    expect(listens(pair.server)).toEqual([]);
  });

  it('the first live() of a fresh client subscribes, loads the list and follows its changes', async () => {
    const { subscriptionPair, listens, change } = await fresh();
    const pair = await subscriptionPair();
    client = pair.client;
    let names = ['a', 'b'];
    pair.server.on('tools/list', () => ({
      result: { resultType: 'complete', tools: names.map(tool), ttlMs: 60_000, cacheScope: 'public' },
    }));
    const live = await client.live('tools', { debounceMs: 0 });
    expect(live.items.map((t) => t.name)).toEqual(['a', 'b']);
    expect(live).toMatchObject({ version: 1, watching: true, stale: false });
    expect(listens(pair.server)[0]!['params']['notifications']).toEqual({ toolsListChanged: true });
    names = ['c'];
    await pair.server.send(change('notifications/tools/list_changed', live.subscription!.subscriptionId));
    await vi.waitFor(() => expect(live.items.map((t) => t.name)).toEqual(['c']));
    expect(pair.errors).toEqual([]);
  });

  it("a legacy server's list_changed reaches a legacy subscription made right after connect", async () => {
    const { record } = await fresh();
    const { connectedLegacyPair } = await import('../fakes/legacyScripted.js');
    const pair = await connectedLegacyPair();
    client = pair.client;
    const sub = await client.subscribe({ toolsListChanged: true });
    expect(sub.honoured).toEqual({ toolsListChanged: true });
    const events = record<SubscriptionEvent>(sub);
    await pair.server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await vi.waitFor(() => expect(events).toEqual([{ type: 'toolsListChanged' }]));
    expect(pair.server.requests('subscriptions/listen')).toEqual([]);
  });

  it.each(['openSubscription.lazy.js'])(
    'a load that fails (%s) rejects with ModuleLoadError (-33042), nothing sent; the next subscribe() loads again',
    async (file) => {
      const path = `../../src/subscriptions/${file}`;
      vi.doMock(path, () => {
        throw new Error('chunk unavailable');
      });
      const { subscriptionPair, listens } = await fresh();
      const pair = await subscriptionPair();
      client = pair.client;
      await expect(client.subscribe({ toolsListChanged: true })).rejects.toMatchObject({
        name: 'ModuleLoadError',
        code: -33042,
        data: { module: 'subscriptions' },
      });
      expect(listens(pair.server)).toEqual([]);
      vi.doUnmock(path);
      const sub = await client.subscribe({ toolsListChanged: true });
      expect(sub.state).toBe('open');
      expect(listens(pair.server)).toHaveLength(1);
    },
  );

  it('a change before the first subscribe() of a fresh client drops the cached list and is reported unmatched', async () => {
    const { subscriptionPair, listens, change, record } = await fresh();
    const pair = await subscriptionPair();
    client = pair.client;
    let served = 0;
    pair.server.on('tools/list', () => {
      served++;
      return { result: { resultType: 'complete', tools: [tool('a')], ttlMs: 60_000, cacheScope: 'public' } };
    });
    await client.listTools();
    await client.listTools();
    expect(served).toBe(1);
    await pair.server.send(change('notifications/tools/list_changed'));
    await vi.waitFor(() => expect(pair.errors).toHaveLength(1));
    expect(pair.errors[0]).toMatchObject({
      name: 'UnmatchedNotificationError',
      code: -33009,
      data: { method: 'notifications/tools/list_changed', subscriptionId: undefined, invalidated: ['list tools/list'] },
    });
    await client.listTools();
    expect(served).toBe(2);
    expect(listens(pair.server)).toEqual([]);
    // The first subscription after it opens, and hears the changes that name it.
    const sub = await client.subscribe({ toolsListChanged: true });
    const events = record<SubscriptionEvent>(sub);
    await pair.server.send(change('notifications/tools/list_changed', sub.subscriptionId));
    await vi.waitFor(() => expect(events).toEqual([{ type: 'toolsListChanged' }]));
    expect(pair.errors).toHaveLength(1);
  });
});

describe('what never waits for a load', () => {
  /** A manager from a fresh module graph, over a cache that records each invalidation as it starts. */
  async function freshManager(listen: SubscriptionWireDeps['listen'] = () => Promise.reject(new Error('not used'))) {
    const { SubscriptionManager } = await import('../../src/subscriptions/subscriptionManager.js');
    const { resolveReopenPolicy } = await import('../../src/resilience/reopenPolicy.js');
    const { systemTimers } = await import('../../src/util/clock.js');
    const started: string[] = [];
    const errors: Error[] = [];
    const record = (what: string) => {
      started.push(what);
      return Promise.resolve(1);
    };
    const manager = new SubscriptionManager({
      host: {
        listen,
        disarmTimeouts: () => {},
        abandon: () => {},
        capabilities: () => ({ tools: { listChanged: true } }),
        connected: () => true,
        reconnecting: () => false,
        whenOpen: () => Promise.resolve(),
      },
      cache: {
        invalidateList: (method) => record(`list ${method}`),
        invalidateMethod: (method) => record(`method ${method}`),
        invalidateUri: (uri) => record(`uri ${uri}`),
      },
      walk: () => Promise.resolve({ items: [] }),
      clock: { now: () => 0 },
      timers: systemTimers,
      random: () => 0.5,
      onError: (error) => errors.push(error),
      timeoutMs: 1000,
      reopen: resolveReopenPolicy({}),
      liveDebounceMs: 50,
      liveRetry: { minDelayMs: 1000, maxDelayMs: 60_000, factor: 2, jitter: false },
      poll: { minIntervalMs: 5000, maxIntervalMs: 300_000, defaultIntervalMs: 60_000 },
    });
    return { manager, started, errors };
  }

  const toolsChanged: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };

  it('a change notification before any subscription invalidates the cache in the same tick, and is reported unmatched', async () => {
    const { manager, started, errors } = await freshManager();
    expect(manager.handleNotification(toolsChanged)).toBe(true);
    // Nothing awaited: the invalidation started, and the report was made, as the notification arrived.
    expect(started).toEqual(['list tools/list']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: 'UnmatchedNotificationError', data: { invalidated: ['list tools/list'] } });
  });

  it('on the legacy wire, before its feed has loaded: a change only invalidates, in the same tick', async () => {
    const { manager, started, errors } = await freshManager();
    manager.useLegacyFeed(
      {
        capabilities: () => ({ tools: { listChanged: true } }),
        connected: () => true,
        subscribe: () => Promise.resolve({}),
        unsubscribe: () => Promise.resolve({}),
      },
      LegacyFeed,
    );
    expect(manager.legacyWatches('toolsListChanged')).toBe(false);
    expect(manager.handleNotification(toolsChanged)).toBe(true);
    expect(started).toEqual(['list tools/list']);
    expect(errors).toEqual([]);
    await expect(manager.resubscribeLegacy()).resolves.toBeUndefined();
  });

  it('before anything has loaded: no subscription, closing and reconnecting are no-ops, and subscription traffic is reported, not routed', async () => {
    // Any load would fail: these paths must not need one.
    vi.doMock('../../src/subscriptions/openSubscription.lazy.js', () => {
      throw new Error('must not load');
    });
    const { manager, started, errors } = await freshManager();
    expect(manager.size).toBe(0);
    manager.connectionDropped(new Error('dropped'));
    manager.closeAll('transport-closed', new Error('gone'));
    manager.closeAll('client-closed');
    await expect(manager.resubscribeLegacy()).resolves.toBeUndefined();
    const meta = { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } };
    expect(
      manager.handleNotification({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { toolsListChanged: true }, ...meta },
      }),
    ).toBe(true);
    expect(manager.handleNotification({ jsonrpc: '2.0', method: 'notifications/tasks', params: meta })).toBe(true);
    expect(
      manager.handleNotification({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }),
    ).toBe(false);
    expect(
      manager.handleNotification({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: meta }),
    ).toBe(true);
    expect(manager.handleNotification({ jsonrpc: '2.0', method: 'notifications/message', params: {} })).toBe(false);
    expect(started).toEqual([]);
    expect(errors.map((error) => [error.name, (error as { data?: { method?: string } }).data?.method])).toEqual([
      ['UnmatchedNotificationError', 'notifications/subscriptions/acknowledged'],
      ['UnmatchedNotificationError', 'notifications/tasks'],
      ['ProtocolError', 'notifications/resources/updated'],
    ]);
    expect(errors[0]).toMatchObject({ data: { subscriptionId: 7, invalidated: [] } });
    expect(manager.size).toBe(0);
  });

  it("the first subscribe() of a fresh manager routes its stream's changes, each behind its invalidation", async () => {
    const listens: RequestId[] = [];
    const { manager, started, errors } = await freshManager((_filter, { onRequestId }) => {
      onRequestId(7);
      listens.push(7);
      return new Promise<never>(() => {});
    });
    manager.handleNotification(toolsChanged);
    expect(errors).toHaveLength(1);
    const opening = manager.subscribe({ toolsListChanged: true });
    await vi.waitFor(() => expect(listens).toEqual([7]));
    const meta = { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } };
    manager.handleNotification({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, ...meta },
    });
    const sub = await opening;
    expect(manager.size).toBe(1);
    // The stale change before it, and what its opening dropped (everything its filter covers).
    expect(started).toEqual(['list tools/list', 'list tools/list']);
    const heard: string[] = [];
    sub.on((event) => heard.push(`${event.type} after ${started.length} invalidations`));
    expect(manager.handleNotification({ ...toolsChanged, params: meta })).toBe(true);
    // The invalidation started in the tick the change arrived; the delivery follows it.
    expect(started).toHaveLength(3);
    expect(heard).toEqual([]);
    await vi.waitFor(() => expect(heard).toEqual(['toolsListChanged after 3 invalidations']));
    expect(errors).toHaveLength(1);
    manager.closeAll('client-closed');
    expect((await sub.closed).reason).toBe('client-closed');
    expect(manager.size).toBe(0);
  });
});
