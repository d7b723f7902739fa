/**
 * Subscriptions through the client against a scripted server: the listen request, the ack,
 * routing, invalidation order, close, timeouts, and the reopen path (fake timers).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConnectionClosedError,
  InvalidArgumentError,
  ProtocolError,
  RpcError,
  TimeoutError,
  CancelledError,
} from '../../src/errors/errors.js';
import { SubscriptionClosedError, UnmatchedNotificationError } from '../../src/subscriptions/errors.js';
import type { CacheEvent } from '../../src/cache/types.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';
import { scriptedPair } from '../fakes/scriptedServer.js';
import {
  ALL_CHANGES,
  SUB_ID,
  ackFor,
  cancels,
  change,
  fakeClock,
  flush,
  listens,
  record,
  settle,
  subscriptionPair,
  types,
} from './fixtures.js';

const TOOLS_PAGE = {
  resultType: 'complete',
  tools: [{ name: 'search', inputSchema: { type: 'object' } }],
  ttlMs: 60_000,
  cacheScope: 'public',
};
const noJitter = { subscriptions: { reopen: { jitter: false }, random: () => 0.5 } };

afterEach(() => {
  vi.useRealTimers();
});

describe('subscribe: the listen request and its acknowledgment', () => {
  it('sends the filter with the protocol _meta, resolves at the ack with what was honoured', async () => {
    const { client, server } = await subscriptionPair();
    const sub = await client.subscribe({ toolsListChanged: true, resourceSubscriptions: ['file:///a.json'] });
    const [listen] = listens(server);
    expect(listen!['params']['notifications']).toEqual({
      toolsListChanged: true,
      resourceSubscriptions: ['file:///a.json'],
    });
    expect(listen!['params']['_meta']).toMatchObject({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'test-host', version: '1.0.0' },
    });
    expect(listen!['params']['_meta']).not.toHaveProperty('progressToken');
    expect(sub.subscriptionId).toBe(listen!['id']);
    expect(sub.state).toBe('open');
    expect(sub.honoured).toEqual({ toolsListChanged: true, resourceSubscriptions: ['file:///a.json'] });
    expect(sub.notHonoured).toEqual({});
    await client.close();
  });

  it('does not request what the capabilities cannot deliver, and reports it on the handle', async () => {
    const { client, server } = await subscriptionPair({}, { tools: { listChanged: true }, prompts: {}, resources: {} });
    const sub = await client.subscribe({
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ['file:///a.json'],
    });
    expect(listens(server)[0]!['params']['notifications']).toEqual({ toolsListChanged: true });
    expect(sub.requested).toEqual({ toolsListChanged: true });
    expect(sub.notHonoured).toEqual({ promptsListChanged: true, resourceSubscriptions: ['file:///a.json'] });
    await client.close();
  });

  it('with nothing deliverable left, sends no listen at all; the handle is open and hears nothing', async () => {
    const { client, server } = await subscriptionPair({}, { tools: {} });
    const sub = await client.subscribe({ toolsListChanged: true });
    expect(listens(server)).toEqual([]);
    expect(sub.state).toBe('open');
    expect(sub.subscriptionId).toBeUndefined();
    expect(sub.notHonoured).toEqual({ toolsListChanged: true });
    await sub.close();
    expect(await sub.closed).toEqual({ reason: 'closed', reopens: 0 });
    expect(cancels(server)).toEqual([]);
    await client.close();
  });

  it('a partial ack is reported on the handle, not thrown', async () => {
    const { client } = await subscriptionPair({}, ALL_CHANGES, {
      honour: () => ({ toolsListChanged: true, resourceSubscriptions: ['file:///a.json'] }),
    });
    const sub = await client.subscribe({
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ['file:///a.json', 'file:///b.json'],
    });
    expect(sub.honoured).toEqual({ toolsListChanged: true, resourceSubscriptions: ['file:///a.json'] });
    expect(sub.notHonoured).toEqual({ promptsListChanged: true, resourceSubscriptions: ['file:///b.json'] });
    await client.close();
  });

  it('rejects a bad filter (nothing sent) and refuses before connect', async () => {
    const { client, server } = await subscriptionPair();
    await expect(client.subscribe({})).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(client.subscribe({ resourceSubscriptions: 'file:///a' } as never)).rejects.toMatchObject({
      code: -32602,
    });
    expect(listens(server)).toEqual([]);
    await client.close();
    const fresh = scriptedPair();
    await expect(fresh.client.subscribe({ toolsListChanged: true })).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('closing the client, or losing the connection, while waiting for the ack rejects with ConnectionClosedError', async () => {
    const { client, server } = await subscriptionPair({}, ALL_CHANGES, { honour: () => 'no-ack' });
    const pending = client.subscribe({ toolsListChanged: true }).catch((e: unknown) => e);
    await server.waitFor((m) => m['method'] === 'subscriptions/listen');
    await client.close();
    expect(await pending).toBeInstanceOf(ConnectionClosedError);

    const other = await subscriptionPair({}, ALL_CHANGES, { honour: () => 'no-ack' });
    const dropped = other.client.subscribe({ toolsListChanged: true }).catch((e: unknown) => e);
    await other.server.waitFor((m) => m['method'] === 'subscriptions/listen');
    await other.server.transport.close();
    expect(await dropped).toBeInstanceOf(ConnectionClosedError);
    await other.client.close();
  });

  it('an error response to the listen rejects with it as sent (e.g. -32602)', async () => {
    const { client, server } = await subscriptionPair();
    server.on('subscriptions/listen', () => ({
      error: { code: -32602, message: "Invalid params: 'notifications' is required" },
    }));
    const error = await client.subscribe({ toolsListChanged: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602 });
    await client.close();
  });

  it('a listen the server ends before acknowledging rejects with SubscriptionClosedError (-33008)', async () => {
    const { client, server } = await subscriptionPair();
    server.on('subscriptions/listen', (request) => ({
      result: { resultType: 'complete', _meta: { [SUB_ID]: request['id'] } },
    }));
    const error = await client.subscribe({ toolsListChanged: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubscriptionClosedError);
    expect(error).toMatchObject({ code: -33008, data: { reason: 'server-ended' } });
    await client.close();
  });
});

describe('timeouts: only the wait for the ack', () => {
  it('no ack within timeoutMs: TimeoutError, and the server is told', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair({ clock: fakeClock }, ALL_CHANGES, { honour: () => 'no-ack' });
    const outcome = client.subscribe({ toolsListChanged: true }, { timeoutMs: 5000 }).catch((e: unknown) => e);
    await settle(); // the listen is sent (the subscriptions load on first use, on real I/O)
    await vi.advanceTimersByTimeAsync(4999);
    expect(cancels(server)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBeInstanceOf(TimeoutError);
    expect(cancels(server).map((c) => c['params']['requestId'])).toEqual([listens(server)[0]!['id']]);
    await client.close();
  });

  it('once acknowledged, the stream stays open for hours (B24 idle variant)', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair({ clock: fakeClock, timeoutMs: 1000, maxTotalTimeoutMs: 2000 });
    const sub = await client.subscribe({ toolsListChanged: true });
    const events = record(sub);
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000);
    expect(sub.state).toBe('open');
    expect(cancels(server)).toEqual([]);
    await server.send(change('notifications/tools/list_changed', sub.subscriptionId));
    await flush();
    expect(types(events)).toEqual(['toolsListChanged']);
    await client.close();
  });

  it('the signal: before the ack, CancelledError with its reason; after, it closes the subscription', async () => {
    const { client, server } = await subscriptionPair({}, ALL_CHANGES, { honour: () => 'no-ack' });
    const early = new AbortController();
    const pending = client.subscribe({ toolsListChanged: true }, { signal: early.signal }).catch((e: unknown) => e);
    await server.waitFor((m) => m['method'] === 'subscriptions/listen');
    early.abort('user gave up');
    const error = await pending;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe('user gave up');
    await flush();
    expect(cancels(server)).toHaveLength(1);

    const { client: c2, server: s2 } = await subscriptionPair();
    const late = new AbortController();
    const sub = await c2.subscribe({ toolsListChanged: true }, { signal: late.signal });
    late.abort();
    expect(await sub.closed).toEqual({ reason: 'closed', reopens: 0 });
    await flush();
    expect(cancels(s2).map((c) => c['params']['requestId'])).toEqual([listens(s2)[0]!['id']]);
    await client.close();
    await c2.close();
  });
});

describe('events: listeners, iterators, routing, invalidation first', () => {
  it('several listens coexist; each notification reaches only the subscription it names', async () => {
    const { client, server } = await subscriptionPair();
    const tools = await client.subscribe({ toolsListChanged: true });
    const files = await client.subscribe({ resourceSubscriptions: ['file:///a.json'] });
    expect(tools.subscriptionId).not.toBe(files.subscriptionId);
    const a = record(tools);
    const b = record(files);
    await server.send(change('notifications/tools/list_changed', tools.subscriptionId));
    await server.send(change('notifications/resources/updated', files.subscriptionId, { uri: 'file:///a.json' }));
    await flush();
    expect(a).toEqual([{ type: 'toolsListChanged' }]);
    expect(b).toEqual([{ type: 'resourceUpdated', uri: 'file:///a.json' }]);
    await client.close();
  });

  it('any number of listeners; an unsubscribe removes only its own; iterators get events and end on close', async () => {
    const { client, server } = await subscriptionPair();
    const onEvent: SubscriptionEvent[] = [];
    const sub = await client.subscribe({ promptsListChanged: true }, { onEvent: (e) => onEvent.push(e) });
    const first: string[] = [];
    const second: string[] = [];
    const offFirst = sub.on((e) => first.push(e.type));
    sub.on((e) => second.push(e.type));
    const iterated: string[] = [];
    const iterating = (async () => {
      for await (const event of sub) iterated.push(event.type);
    })();
    await server.send(change('notifications/prompts/list_changed', sub.subscriptionId));
    await flush();
    offFirst();
    await server.send(change('notifications/prompts/list_changed', sub.subscriptionId));
    await flush();
    await sub.close();
    await sub.close(); // idempotent
    await iterating;
    expect(first).toEqual(['promptsListChanged']);
    expect(second).toEqual(['promptsListChanged', 'promptsListChanged']);
    expect(iterated).toEqual(['promptsListChanged', 'promptsListChanged']);
    expect(types(onEvent)).toEqual(['promptsListChanged', 'promptsListChanged']);
    expect(cancels(server)).toHaveLength(1);
    expect(await sub.closed).toEqual({ reason: 'closed', reopens: 0 });
    expect(sub.state).toBe('closed');
    await client.close();
  });

  it('the cache drops the list before any listener hears of the change', async () => {
    const cacheEvents: CacheEvent[] = [];
    const order: string[] = [];
    const { client, server } = await subscriptionPair({ cache: { onEvent: (e) => cacheEvents.push(e) } });
    server.on('tools/list', () => ({ result: TOOLS_PAGE }));
    const sub = await client.subscribe({ toolsListChanged: true });
    sub.on(() => {
      order.push('listener');
      expect(cacheEvents.some((e) => e.type === 'invalidate')).toBe(true);
    });
    await client.listTools();
    await client.listTools(); // a hit
    expect(server.requests('tools/list')).toHaveLength(1);
    cacheEvents.length = 0;
    await server.send(change('notifications/tools/list_changed', sub.subscriptionId));
    await flush();
    expect(order).toEqual(['listener']);
    await client.listTools(); // dropped: back to the server
    expect(server.requests('tools/list')).toHaveLength(2);
    await client.close();
  });

  it('what was cached before the first acknowledgment is stale once the stream is acknowledged', async () => {
    const { client, server } = await subscriptionPair();
    server.on('tools/list', () => ({ result: TOOLS_PAGE }));
    server.on('resources/read', (request) => ({
      result: {
        resultType: 'complete',
        contents: [{ uri: request['params']['uri'], text: 'x' }],
        ttlMs: 60_000,
        cacheScope: 'public',
      },
    }));
    await client.listTools();
    await client.readResource('mem://watched');
    await client.readResource('mem://other');
    // Changes before the ack were never announced: what the acknowledged subset covers is dropped.
    await client.subscribe({ toolsListChanged: true, resourceSubscriptions: ['mem://watched'] });
    await client.listTools();
    await client.readResource('mem://watched');
    await client.readResource('mem://other'); // not covered: still a hit
    expect(server.requests('tools/list')).toHaveLength(2);
    expect(server.requests('resources/read').map((r) => r['params']['uri'])).toEqual([
      'mem://watched',
      'mem://other',
      'mem://watched',
    ]);
    await client.close();
  });

  it('a type the subscription did not ask for is not delivered (reported); late notifications of a closed stream are dropped quietly', async () => {
    const { client, server, errors } = await subscriptionPair();
    const sub = await client.subscribe({ toolsListChanged: true });
    const events = record(sub);
    const id = sub.subscriptionId;
    await server.send(change('notifications/prompts/list_changed', id));
    await flush();
    expect(events).toEqual([]);
    expect(errors.filter((e) => e instanceof ProtocolError)).toHaveLength(1);
    await sub.close();
    await server.send(change('notifications/tools/list_changed', id));
    await flush();
    expect(errors.filter((e) => e instanceof UnmatchedNotificationError)).toEqual([]);
    await client.close();
  });

  it('a notifications/cancelled that is not for a listen goes on to onNotification', async () => {
    const passed: unknown[] = [];
    const { client, server } = await subscriptionPair({ onNotification: (n) => passed.push(n.method) });
    await server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4242 } });
    await flush();
    expect(passed).toEqual(['notifications/cancelled']);
    await client.close();
  });
});

describe('end of a stream and the reopen path (fake timers)', () => {
  it('a graceful end (a result): subscriptionLost, reopen after backoff, caches dropped, resync', async () => {
    vi.useFakeTimers();
    const cacheEvents: CacheEvent[] = [];
    const { client, server } = await subscriptionPair({
      clock: fakeClock,
      cache: { onEvent: (e) => cacheEvents.push(e) },
      ...noJitter,
    });
    const sub = await client.subscribe({ toolsListChanged: true, resourceSubscriptions: ['file:///a.json'] });
    const events = record(sub);
    const firstId = sub.subscriptionId;
    await vi.advanceTimersByTimeAsync(60_000); // lived a minute: not a quick failure
    await server.send({
      jsonrpc: '2.0',
      id: firstId,
      result: { resultType: 'complete', _meta: { [SUB_ID]: firstId } },
    });
    await flush();
    expect(events).toEqual([
      { type: 'subscriptionLost', reason: 'server-ended', error: undefined, willReopen: true, retryInMs: 1000 },
    ]);
    expect(sub.state).toBe('reopening');
    expect(sub.subscriptionId).toBeUndefined();
    await vi.advanceTimersByTimeAsync(999);
    expect(listens(server)).toHaveLength(1);
    const invalidationsBefore = cacheEvents.filter((e) => e.type === 'invalidate').length;
    await vi.advanceTimersByTimeAsync(1);
    expect(listens(server)).toHaveLength(2);
    expect(listens(server)[1]!['params']['notifications']).toEqual({
      toolsListChanged: true,
      resourceSubscriptions: ['file:///a.json'],
    });
    await flush();
    expect(sub.state).toBe('open');
    expect(sub.subscriptionId).toBe(listens(server)[1]!['id']);
    expect(types(events)).toEqual(['subscriptionLost', 'resync']);
    expect(events[1]).toEqual({ type: 'resync', reopens: 1, honoured: sub.honoured, notHonoured: {} });
    const targets = cacheEvents
      .filter((e): e is Extract<CacheEvent, { type: 'invalidate' }> => e.type === 'invalidate')
      .slice(invalidationsBefore)
      .map((e) => e.target);
    expect(targets).toEqual([
      { kind: 'list', method: 'tools/list', authContext: 'all' },
      { kind: 'uri', uri: 'file:///a.json' },
    ]);
    expect(sub.reopens).toBe(1);
    // The old id no longer routes; the new one does.
    await server.send(change('notifications/tools/list_changed', sub.subscriptionId));
    await flush();
    expect(types(events)).toEqual(['subscriptionLost', 'resync', 'toolsListChanged']);
    await client.close();
    expect(await sub.closed).toEqual({ reason: 'client-closed', reopens: 1 });
  });

  it("the server's notifications/cancelled ends the stream without an echo, then it reopens", async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair({ clock: fakeClock, ...noJitter });
    const sub = await client.subscribe({ toolsListChanged: true });
    const events = record(sub);
    const firstId = sub.subscriptionId;
    await server.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: firstId, reason: 'shutting down' },
    });
    await flush();
    expect(events[0]).toMatchObject({
      type: 'subscriptionLost',
      reason: 'server-cancelled',
      willReopen: true,
      retryInMs: 1000,
    });
    expect((events[0] as { error?: Error }).error).toBeInstanceOf(SubscriptionClosedError);
    expect(cancels(server)).toEqual([]);
    // A late response for the cancelled listen is dropped quietly.
    await server.send({ jsonrpc: '2.0', id: firstId, result: {} });
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(types(events)).toEqual(['subscriptionLost', 'resync']);
    expect(sub.subscriptionId).not.toBe(firstId);
    await client.close();
  });

  it('a stream that dies repeatedly: 3 quick retries with backoff, then the long cool-down', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair({ clock: fakeClock, ...noJitter });
    const sub = await client.subscribe({ toolsListChanged: true });
    const lost: Array<number | undefined> = [];
    sub.on((e) => {
      if (e.type === 'subscriptionLost') lost.push(e.retryInMs);
    });
    const killCurrent = async (): Promise<void> => {
      const id = sub.subscriptionId;
      await server.send({ jsonrpc: '2.0', id, result: { resultType: 'complete' } });
      await flush();
    };
    await killCurrent(); // dies at once: quick failure 1
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    await killCurrent(); // quick 2
    await vi.advanceTimersByTimeAsync(2000);
    await flush();
    await killCurrent(); // quick 3
    await vi.advanceTimersByTimeAsync(4000);
    await flush();
    expect(listens(server)).toHaveLength(4);
    await killCurrent(); // quick 4: budget spent
    expect(lost).toEqual([1000, 2000, 4000, 900_000]);
    await vi.advanceTimersByTimeAsync(899_999);
    expect(listens(server)).toHaveLength(4);
    expect(sub.state).toBe('reopening');
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(listens(server)).toHaveLength(5);
    expect(sub.state).toBe('open');
    expect(sub.reopens).toBe(4);
    await client.close();
  });

  it('a failed reopen attempt is retried with backoff (-32603); one that cannot succeed (-32601) closes it', async () => {
    vi.useFakeTimers();
    const { client, server } = await subscriptionPair({ clock: fakeClock, ...noJitter });
    const sub = await client.subscribe({ toolsListChanged: true });
    const events = record(sub);
    let replies: Array<{ code: number; message: string }> = [{ code: -32603, message: 'busy' }];
    server.on('subscriptions/listen', (request) => {
      const error = replies.shift();
      if (error !== undefined) return { error };
      void server.send(ackFor(request['id'], request['params']['notifications']));
      return undefined;
    });
    await vi.advanceTimersByTimeAsync(20_000);
    await server.send({ jsonrpc: '2.0', id: sub.subscriptionId, result: {} });
    await vi.advanceTimersByTimeAsync(1000); // reopen 1 fails with -32603
    await flush();
    expect(events.map((e) => (e.type === 'subscriptionLost' ? `${e.reason}:${e.retryInMs}` : e.type))).toEqual([
      'server-ended:1000',
      'server-error:2000',
    ]);
    await vi.advanceTimersByTimeAsync(2000); // reopen 2 succeeds
    await flush();
    expect(types(events)).toEqual(['subscriptionLost', 'subscriptionLost', 'resync']);

    replies = [{ code: -32601, message: 'Method not found' }];
    await vi.advanceTimersByTimeAsync(20_000);
    await server.send({ jsonrpc: '2.0', id: sub.subscriptionId, result: {} });
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(events.at(-1)).toMatchObject({ type: 'subscriptionLost', reason: 'server-error', willReopen: false });
    const closed = await sub.closed;
    expect(closed).toMatchObject({ reason: 'server-error', reopens: 1 });
    expect(closed.error).toBeInstanceOf(RpcError);
    await client.close();
  });

  it('reopen: false closes with the reason of the end', async () => {
    const { client, server } = await subscriptionPair();
    const sub = await client.subscribe({ toolsListChanged: true }, { reopen: false });
    const events = record(sub);
    await server.send({ jsonrpc: '2.0', id: sub.subscriptionId, result: {} });
    expect(await sub.closed).toEqual({ reason: 'server-ended', reopens: 0 });
    expect(events).toEqual([{ type: 'subscriptionLost', reason: 'server-ended', error: undefined, willReopen: false }]);
    await client.close();
  });

  it('a dropped transport: subscriptionLost, then closed with transport-closed; client.close gives client-closed', async () => {
    const { client, server } = await subscriptionPair();
    const sub = await client.subscribe({ toolsListChanged: true });
    const events = record(sub);
    await server.transport.close();
    const closed = await sub.closed;
    expect(closed.reason).toBe('transport-closed');
    expect(closed.error).toBeInstanceOf(ConnectionClosedError);
    expect(events).toMatchObject([{ type: 'subscriptionLost', reason: 'transport-closed', willReopen: false }]);
    await client.close();

    const other = await subscriptionPair();
    const sub2 = await other.client.subscribe({ toolsListChanged: true });
    const events2 = record(sub2);
    await other.client.close();
    expect(await sub2.closed).toEqual({ reason: 'client-closed', reopens: 0 });
    expect(events2).toEqual([]);
  });
});
