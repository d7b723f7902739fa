/**
 * Cases from ../shared/cases/CASES.md that belong to subscriptions and live lists (B05, B06,
 * B09). Each test is named after its case id and asserts the case's "Right" values.
 *
 * B09 (a) needs a 2025-11-25 server and lives in test/cases/legacy.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RpcError, TimeoutError } from '../../src/errors/errors.js';
import { ToolOutputValidationError } from '../../src/client/outputValidation.js';
import { UnmatchedNotificationError } from '../../src/subscriptions/errors.js';
import type { LiveListEvent, SubscriptionEvent } from '../../src/subscriptions/types.js';
import type { Tool } from '../../src/wire/protocol.js';
import type { Reply } from '../fakes/scriptedServer.js';
import { change, deferred, fakeClock, flush, record, subscriptionPair, types } from '../subscriptions/fixtures.js';

afterEach(() => {
  vi.useRealTimers();
});

const T1 = { name: 'T1', inputSchema: { type: 'object' } };
const T2 = {
  name: 'T2',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
};
const T3 = {
  name: 'T3',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
};
const names = (items: readonly Tool[]) => items.map((t) => t.name);
const listPage = (tools: unknown[], nextCursor?: string, ttlMs = 60_000) => ({
  result: {
    resultType: 'complete',
    tools,
    ttlMs,
    cacheScope: 'public',
    ...(nextCursor !== undefined && { nextCursor }),
  },
});
const fake = { clock: fakeClock, subscriptions: { reopen: { jitter: false }, liveRetry: { jitter: false } } };

/** Makes the next request id 7: discovery took id 0, six pings take 1..6. */
async function burnIdsUpTo7(
  client: { request(method: string): Promise<unknown> },
  server: { on(method: string, handler: () => Reply): unknown },
): Promise<void> {
  server.on('ping', () => ({ result: {} }));
  for (let i = 1; i < 7; i++) await client.request('ping');
}

describe('B05: list_changed — the refresh must walk every page', () => {
  it('B05: the refresh issues both pages, the cache holds {T1,T2,T3}, the change listener fires once with the full list', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(fake);
    let refreshed = false;
    server.on('tools/list', (request) => {
      if (request['params']['cursor'] === undefined) return listPage([T1], 'p2');
      return listPage(refreshed ? [T2, T3] : [T2]);
    });
    // (initial) both pages, cached.
    expect(names((await client.listAllTools()).items)).toEqual(['T1', 'T2']);
    // (listen) a live list. The list cached before its listen was acknowledged may have changed
    // unannounced: the acknowledgment drops it, and the live list walks both pages again.
    const live = await client.live('tools');
    expect(server.requests('tools/list')).toHaveLength(4);
    const updates: Array<LiveListEvent<Tool>> = [];
    live.on((event) => updates.push(event));
    const subEvents = record(live.subscription!);
    refreshed = true;
    await server.send(change('notifications/tools/list_changed', live.subscription!.subscriptionId));
    await vi.advanceTimersByTimeAsync(50);
    await flush();
    // (refresh) page 1 and page 2 again, with the cursor verbatim.
    const lists = server.requests('tools/list');
    expect(lists).toHaveLength(6);
    expect(lists[4]!['params']).not.toHaveProperty('cursor');
    expect(lists[5]!['params']['cursor']).toBe('p2');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ type: 'updated', changed: true, version: 2 });
    expect(names(live.items)).toEqual(['T1', 'T2', 'T3']);
    expect(live.items.find((t) => t.name === 'T2')?.outputSchema).toEqual(T2.outputSchema);
    expect(types(subEvents)).toEqual(['toolsListChanged']);
    // The cache holds the whole new list: served with nothing sent.
    const cached = await client.listAllTools({ cacheMode: 'only-if-cached' });
    expect(names(cached.items)).toEqual(['T1', 'T2', 'T3']);
    expect(server.requests('tools/list')).toHaveLength(6);
    // Per-tool output validators exist for the tools of page 2, T2 and the new T3.
    server.on('tools/call', (request) => {
      const name = request['params']['name'];
      const structuredContent = name === 'T2' ? { n: 'not a number' } : name === 'T3' ? { ok: true } : undefined;
      return {
        result: { resultType: 'complete', content: [], ...(structuredContent !== undefined && { structuredContent }) },
      };
    });
    const flagged = await client.callTool('T2').catch((e: unknown) => e);
    expect(flagged).toBeInstanceOf(ToolOutputValidationError);
    expect((flagged as ToolOutputValidationError).code).toBe(-33016);
    expect((flagged as ToolOutputValidationError).data).toMatchObject({
      tool: 'T2',
      result: { structuredContent: { n: 'not a number' } },
    });
    await expect(client.callTool('T3')).resolves.toMatchObject({ structuredContent: { ok: true } });
    await expect(client.callTool('T1')).resolves.toMatchObject({ content: [] });
    await client.close();
  });
});

describe('B06: list_changed — a failed refetch must not replace a good list with an empty one', () => {
  it('B06: -32603 on the refetch: [search, fetch] stays, marked stale; "refresh failed" is emitted; no listener sees []; a backoff timer refetches', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(fake);
    const replies: Reply[] = [
      listPage([
        { name: 'search', inputSchema: { type: 'object' } },
        { name: 'fetch', inputSchema: { type: 'object' } },
      ]),
      { error: { code: -32603, message: 'Internal error' } },
    ];
    server.on('tools/list', () => replies.shift() ?? listPage([]));
    const live = await client.live('tools');
    const events: Array<LiveListEvent<Tool>> = record(live);
    await server.send(change('notifications/tools/list_changed', live.subscription!.subscriptionId));
    await vi.advanceTimersByTimeAsync(50);
    await flush();
    expect(names(live.items)).toEqual(['search', 'fetch']);
    expect(live.stale).toBe(true);
    expect(live.lastError).toBeInstanceOf(RpcError);
    expect(live.lastError).toMatchObject({ code: -32603 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'refreshFailed', retryInMs: 1000 });
    expect(names((events[0] as { items: readonly Tool[] }).items)).toEqual(['search', 'fetch']);
    // Contrast: the refetch on the backoff timer succeeds with {"tools":[]}: that is authoritative.
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(live.items).toEqual([]);
    expect(live.stale).toBe(false);
    expect(types(events)).toEqual(['refreshFailed', 'updated']);
    expect(events[1]).toMatchObject({ type: 'updated', changed: true, items: [] });
    await client.close();
  });

  it('B06 (variant: no reply until the request timeout): the same, with a TimeoutError', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(fake);
    let first = true;
    server.on('tools/list', () => {
      if (!first) return undefined; // never answers
      first = false;
      return listPage([
        { name: 'search', inputSchema: { type: 'object' } },
        { name: 'fetch', inputSchema: { type: 'object' } },
      ]);
    });
    const live = await client.live('tools', { timeoutMs: 5000 });
    const events: Array<LiveListEvent<Tool>> = record(live);
    await server.send(change('notifications/tools/list_changed', live.subscription!.subscriptionId));
    await vi.advanceTimersByTimeAsync(50 + 4999);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(events).toMatchObject([{ type: 'refreshFailed' }]);
    expect((events[0] as { error: Error }).error).toBeInstanceOf(TimeoutError);
    expect(names(live.items)).toEqual(['search', 'fetch']);
    expect(live.stale).toBe(true);
    await client.close();
  });

  it('B06: the next listTools() goes back to the server (the notification dropped the cached pages)', async () => {
    const { client, server } = await subscriptionPair();
    let fail = false;
    server.on('tools/list', () =>
      fail
        ? { error: { code: -32603, message: 'Internal error' } }
        : listPage([{ name: 'search', inputSchema: { type: 'object' } }]),
    );
    const sub = await client.subscribe({ toolsListChanged: true });
    await client.listTools();
    await client.listTools();
    expect(server.requests('tools/list')).toHaveLength(1);
    fail = true;
    await server.send(change('notifications/tools/list_changed', sub.subscriptionId));
    await flush();
    await expect(client.listTools()).rejects.toMatchObject({ code: -32603 });
    expect(server.requests('tools/list')).toHaveLength(2);
    await client.close();
  });
});

describe('B09: notifications with no matching subscription, or arriving before the first list', () => {
  it('B09 (b): only listen 7 open; list_changed for 99 is not delivered to 7, is logged as unmatched, invalidates anyway, and nothing is written back', async () => {
    const { client, server, errors } = await subscriptionPair();
    await burnIdsUpTo7(client, server);
    server.on('tools/list', () => listPage([T1]));
    const sub = await client.subscribe({ toolsListChanged: true });
    expect(sub.subscriptionId).toBe(7);
    const seen: SubscriptionEvent[] = record(sub);
    await client.listTools();
    const sentBefore = server.received.length;
    await server.send(change('notifications/tools/list_changed', 99));
    await flush();
    expect(seen).toEqual([]);
    const unmatched = errors.filter((e): e is UnmatchedNotificationError => e instanceof UnmatchedNotificationError);
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]!.data).toEqual({
      method: 'notifications/tools/list_changed',
      subscriptionId: 99,
      invalidated: ['list tools/list'],
    });
    expect(unmatched[0]!.code).toBe(-33009);
    expect(server.received.length).toBe(sentBefore);
    // Documented choice: the tools cache was invalidated anyway (conservative).
    await client.listTools();
    expect(server.requests('tools/list')).toHaveLength(2);
    await client.close();
  });

  it('B09 (c): resources/updated for b.json (cached, not subscribed) on subscription 7 drops only b.json', async () => {
    const { client, server, errors } = await subscriptionPair();
    await burnIdsUpTo7(client, server);
    server.on('resources/read', (request) => ({
      result: {
        resultType: 'complete',
        contents: [{ uri: request['params']['uri'], text: '{}' }],
        ttlMs: 60_000,
        cacheScope: 'public',
      },
    }));
    const sub = await client.subscribe({ resourceSubscriptions: ['file:///a.json'] });
    expect(sub.subscriptionId).toBe(7);
    await client.readResource('file:///a.json');
    await client.readResource('file:///b.json');
    const sentBefore = server.received.length;
    await server.send(change('notifications/resources/updated', 7, { uri: 'file:///b.json' }));
    await flush();
    expect(server.received.length).toBe(sentBefore);
    await expect(client.readResource('file:///a.json', { cacheMode: 'only-if-cached' })).resolves.toMatchObject({
      contents: [{ uri: 'file:///a.json' }],
    });
    await expect(client.readResource('file:///b.json', { cacheMode: 'only-if-cached' })).rejects.toMatchObject({
      code: -33005,
    });
    expect(server.requests('resources/read')).toHaveLength(2);
    expect(errors).toEqual([]);
    await client.close();
  });

  it('B09 (d): a list_changed while the first tools/list is in flight: that result is not cached, one more walk follows, the cache ends post-notification', async () => {
    const { client, server } = await subscriptionPair();
    const sub = await client.subscribe({ toolsListChanged: true });
    const gate = deferred<void>();
    let version = 'before';
    server.on('tools/list', async () => {
      const answer = listPage([{ name: version, inputSchema: { type: 'object' } }]);
      if (server.requests('tools/list').length === 1) await gate.promise;
      return answer;
    });
    const walk = client.listAllTools();
    await server.waitFor((m) => m['method'] === 'tools/list');
    version = 'after';
    await server.send(change('notifications/tools/list_changed', sub.subscriptionId));
    await flush();
    gate.resolve();
    // The caller still gets what it asked for ...
    expect((await walk).items.map((t) => t.name)).toEqual(['before']);
    // ... but the cache did not keep it: the next walk goes to the server and stores the new state.
    await expect(client.listAllTools({ cacheMode: 'only-if-cached' })).rejects.toMatchObject({ code: -33005 });
    expect((await client.listAllTools()).items.map((t) => t.name)).toEqual(['after']);
    expect((await client.listAllTools({ cacheMode: 'only-if-cached' })).items.map((t) => t.name)).toEqual(['after']);
    await client.close();
  });

  it('B09 (d), live list: the first load counts as possibly stale, so one more walk follows and the list and cache end post-notification', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair(fake);
    const gate = deferred<void>();
    let version = 'before';
    server.on('tools/list', async () => {
      const answer = listPage([{ name: version, inputSchema: { type: 'object' } }]);
      if (server.requests('tools/list').length === 1) await gate.promise;
      return answer;
    });
    const pending = client.live('tools');
    await server.waitFor((m) => m['method'] === 'tools/list');
    const listenId = server.requests('subscriptions/listen')[0]!['id'];
    version = 'after';
    await server.send(change('notifications/tools/list_changed', listenId));
    await flush();
    gate.resolve();
    await flush();
    await vi.advanceTimersByTimeAsync(50);
    const live = await pending;
    expect(server.requests('tools/list')).toHaveLength(2);
    expect(names(live.items)).toEqual(['after']);
    expect(live.version).toBe(1); // 'before' was never published
    expect(names((await client.listAllTools({ cacheMode: 'only-if-cached' })).items)).toEqual(['after']);
    await client.close();
  });
});
