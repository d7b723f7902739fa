/**
 * McpClient reconnecting over a restartable wire fake (each start a new scripted server), on
 * fake timers: the events and states, what is sent again and what is not, requests made while
 * reconnecting, the budget giving up, close() during a backoff, negotiation again, the cache,
 * subscriptions, tasks, and a first connect retried.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import {
  CancelledError,
  ConnectionClosedError,
  TimeoutError,
  VersionNegotiationError,
} from '../../src/errors/errors.js';
import type { ClientEvent } from '../../src/reconnect/types.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';
import { DISCOVER_RESULT, type ScriptedServer } from '../fakes/scriptedServer.js';
import { RestartableFake } from '../fakes/restartable.js';
import { loadTaskMachinery } from '../fakes/taskMachinery.js';
import { ALL_CHANGES, change, scriptListen } from '../subscriptions/fixtures.js';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const EXACT = { jitter: false, minDelayMs: 100 } as const;

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  vi.useRealTimers();
});

/** Every server answers discover, tools/call (echo), resources/read and prompts/get at once. */
function standard(server: ScriptedServer): void {
  server.on('server/discover', () => ({ result: { ...DISCOVER_RESULT, capabilities: ALL_CHANGES } }));
  server.on('tools/call', (request) => ({
    result: { content: [{ type: 'text', text: String(request['params'].arguments?.text) }] },
  }));
  server.on('resources/read', (request) => ({
    result: {
      contents: [{ uri: request['params'].uri, text: `read on ${JSON.stringify(request['params']._meta?.[VERSION])}` }],
      ttlMs: 60_000,
      cacheScope: 'public',
    },
  }));
  server.on('prompts/get', () => ({ result: { messages: [] } }));
  scriptListen(server);
}

function reconnecting(
  setUp: (server: ScriptedServer, n: number) => void = standard,
  options: Partial<ClientOptions> = {},
): { client: McpClient; transport: RestartableFake; events: ClientEvent[] } {
  const transport = new RestartableFake(setUp);
  const client = new McpClient({
    transport,
    clientInfo: { name: 'reconnect-tests', version: '0.0.0' },
    reconnect: EXACT,
    ...options,
  });
  clients.push(client);
  const events: ClientEvent[] = [];
  client.on((event) => events.push(event));
  return { client, transport, events };
}

describe('reconnecting after a drop', () => {
  it('goes reconnecting, waits its backoff, negotiates on a new connection, and is open again', async () => {
    vi.useFakeTimers();
    const { client, transport, events } = reconnecting();
    await client.connect();
    expect(client.state).toBe('open');
    const droppedAt = Date.now();
    transport.drop({ exitCode: 1, signal: null, stderrTail: 'fatal: boom\n' });
    expect(client.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(99);
    expect(transport.starts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(transport.starts).toBe(2);
    expect(client.state).toBe('open');
    expect(transport.servers[1]!.requests('server/discover')).toHaveLength(1);
    expect(events).toEqual([
      { type: 'state', state: 'connecting', previous: 'new' },
      { type: 'state', state: 'open', previous: 'connecting' },
      { type: 'state', state: 'reconnecting', previous: 'open' },
      {
        type: 'reconnecting',
        attempt: 1,
        delayMs: 100,
        retryAt: droppedAt + 100,
        coolDown: false,
        cause: expect.objectContaining({
          reason: 'process-exit',
          exitCode: 1,
          signal: null,
          stderrTail: 'fatal: boom\n',
          error: expect.any(ConnectionClosedError),
        }) as unknown,
      },
      { type: 'state', state: 'open', previous: 'reconnecting' },
      { type: 'reconnected', attempt: 1, protocolVersion: '2026-07-28', era: 'modern' },
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('re-sends reads cut short on the new connection; a tools/call cut short rejects with outcome unknown', async () => {
    vi.useFakeTimers();
    const { client, transport } = reconnecting((server, n) => {
      standard(server);
      if (n === 1) {
        server.on('resources/read', () => undefined);
        server.on('prompts/get', () => undefined);
        server.on('tools/call', () => undefined);
      }
    });
    await client.connect();
    const read = client.readResource('demo://a');
    const prompt = client.getPrompt('greet');
    const call = client.callTool('echo', { text: 'once' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.server.requests('resources/read')).toHaveLength(1);
    transport.drop();
    const error = (await call) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.data).toMatchObject({ outcome: 'unknown', exitCode: 1 });
    await vi.advanceTimersByTimeAsync(100);
    await expect(read).resolves.toMatchObject({ contents: [{ uri: 'demo://a' }] });
    await expect(prompt).resolves.toEqual({ messages: [] });
    // Sent again on the second connection only; the tools/call never was.
    expect(transport.servers[1]!.requests('resources/read')).toHaveLength(1);
    expect(transport.servers[1]!.requests('prompts/get')).toHaveLength(1);
    expect(transport.servers[1]!.requests('tools/call')).toHaveLength(0);
  });

  it('a request whose write fails as the connection dies, before the close is seen, is held like one cut short', async () => {
    vi.useFakeTimers();
    const { client, transport } = reconnecting((server, n) => {
      standard(server);
      server.on('tools/list', () => ({
        result: { tools: [{ name: `tool-of-${n}`, inputSchema: { type: 'object' } }] },
      }));
    });
    await client.connect();
    // The server is gone, but the transport has not seen its exit yet: writes fail (EPIPE).
    transport.breakWrites('unknown');
    const read = client.readResource('demo://a');
    const list = client.listTools();
    const call = client.callTool('echo', { text: 'once' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    expect(client.state).toBe('open');
    transport.drop({ exitCode: null, signal: 'SIGKILL', stderrTail: '' });
    // A write that failed may have been read: a tools/call is not repeated; its error is the close's.
    const error = (await call) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.data).toMatchObject({ outcome: 'unknown', signal: 'SIGKILL' });
    await vi.advanceTimersByTimeAsync(100);
    await expect(read).resolves.toMatchObject({ contents: [{ uri: 'demo://a' }] });
    await expect(list).resolves.toMatchObject({ tools: [{ name: 'tool-of-2' }] });
    expect(transport.servers[1]!.requests('resources/read')).toHaveLength(1);
    expect(transport.servers[1]!.requests('tools/list')).toHaveLength(1);
    expect(transport.servers[1]!.requests('tools/call')).toHaveLength(0);
  });

  it('a tools/call the dying transport refused before writing it is sent on the new connection', async () => {
    vi.useFakeTimers();
    const { client, transport } = reconnecting();
    await client.connect();
    transport.breakWrites('not-sent');
    const call = client.callTool('echo', { text: 'once' });
    await vi.advanceTimersByTimeAsync(0);
    transport.drop();
    await vi.advanceTimersByTimeAsync(100);
    await expect(call).resolves.toMatchObject({ content: [{ type: 'text', text: 'once' }] });
    expect(transport.servers[0]!.requests('tools/call')).toHaveLength(0);
    expect(transport.servers[1]!.requests('tools/call')).toHaveLength(1);
  });

  it('requests made while reconnecting wait, then go out once negotiated, with the new version', async () => {
    vi.useFakeTimers();
    const { client, transport } = reconnecting(
      (server, n) => {
        standard(server);
        // The server came back upgraded: it speaks only the newer version.
        if (n === 2)
          server.on('server/discover', () => ({
            result: { ...DISCOVER_RESULT, capabilities: ALL_CHANGES, supportedVersions: ['2027-01-01'] },
          }));
      },
      { protocolVersions: ['2026-07-28', '2027-01-01'] },
    );
    await client.connect();
    expect(client.protocolVersion).toBe('2026-07-28');
    transport.drop();
    const call = client.callTool('echo', { text: 'later' });
    const read = client.readResource('demo://b');
    await vi.advanceTimersByTimeAsync(100);
    await expect(call).resolves.toMatchObject({ content: [{ text: 'later' }] });
    await expect(read).resolves.toMatchObject({ contents: [{ text: 'read on "2027-01-01"' }] });
    expect(client.protocolVersion).toBe('2027-01-01');
    const second = transport.servers[1]!;
    // Discover came first (its result named the version to switch to); the held requests after it.
    expect(second.received.filter((m) => 'id' in m).map((m) => m['method'])).toEqual([
      'server/discover',
      'tools/call',
      'resources/read',
    ]);
    expect(second.requests('tools/call')[0]!['params']._meta[VERSION]).toBe('2027-01-01');
  });

  it('a request waits no longer than its own timeout, and its signal cancels the wait', async () => {
    vi.useFakeTimers();
    const { client, transport } = reconnecting();
    await client.connect();
    transport.failNextStarts(100);
    transport.drop();
    const slow = client.listTools({}, { timeoutMs: 2_000 }).catch((e: unknown) => e);
    const controller = new AbortController();
    const aborted = client.getPrompt('x', {}, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort('enough');
    expect(await aborted).toBeInstanceOf(CancelledError);
    await vi.advanceTimersByTimeAsync(2_000);
    const error = (await slow) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.data).toEqual({ method: 'tools/list', timeoutMs: 2_000, kind: 'idle' });
    expect(client.state).toBe('reconnecting');
  });

  it('close() during a backoff stops at once: no timer, no new start, waiting calls rejected', async () => {
    vi.useFakeTimers();
    const { client, transport, events } = reconnecting(standard, { reconnect: { ...EXACT, minDelayMs: 60_000 } });
    await client.connect();
    transport.drop();
    const waiting = client.listPrompts().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    // The backoff, and the waiting call's own timeout.
    expect(vi.getTimerCount()).toBe(2);
    await client.close();
    expect(vi.getTimerCount()).toBe(0);
    expect(await waiting).toMatchObject({ name: 'ConnectionClosedError', data: { outcome: 'not-sent' } });
    expect(client.state).toBe('closed');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(transport.starts).toBe(1);
    expect(events.at(-1)).toEqual({ type: 'state', state: 'closed', previous: 'reconnecting' });
  });

  it('close() during an attempt stops it at once: the attempt is abandoned and its connection closed', async () => {
    vi.useFakeTimers();
    // The second server never answers server/discover: the attempt hangs until close().
    const { client, transport, events } = reconnecting((server, n) => {
      standard(server);
      if (n === 2) server.on('server/discover', () => undefined);
    });
    await client.connect();
    transport.drop();
    const waiting = client.readResource('demo://a').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(transport.starts).toBe(2);
    expect(transport.servers[1]!.requests('server/discover')).toHaveLength(1);
    expect(client.state).toBe('reconnecting');
    await client.close();
    expect(client.state).toBe('closed');
    expect(await waiting).toMatchObject({ name: 'ConnectionClosedError', data: { outcome: 'not-sent' } });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(transport.starts).toBe(2);
    expect(transport.servers[1]!.requests('resources/read')).toHaveLength(0);
    expect(events.filter((e) => e.type !== 'state').map((e) => e.type)).toEqual(['reconnecting']);
  });

  it('a server that cannot come back: the budget is spent, gaveUp with the last cause, then closed', async () => {
    vi.useFakeTimers();
    const { client, transport, events } = reconnecting(standard, {
      reconnect: { ...EXACT, maxQuickRetries: 2, maxCoolDowns: 1, coolDownMs: 10_000, quickPhaseMs: 0 },
    });
    await client.connect();
    const sub = await client.subscribe({ toolsListChanged: true });
    // A connection that lived a while: its drop is not a quick failure itself.
    await vi.advanceTimersByTimeAsync(20_000);
    transport.failNextStarts(
      100,
      new ConnectionClosedError('process exited with code 9', {
        reason: 'process exited with code 9',
        exitCode: 9,
        signal: null,
        stderrTail: 'no database\n',
      }),
    );
    transport.drop();
    const waiting = client.listTools().catch((e: unknown) => e);
    // Waiting is visible: retryAt is when the next attempt starts (wall clock), 100 ms after the drop.
    expect(client.state).toBe('reconnecting');
    expect(client.retryAt).toBe(Date.now() + 100);
    await vi.advanceTimersByTimeAsync(100 + 200 + 400);
    // The third failure: the quick retries are spent, a cool-down of 10 s, flagged as such.
    expect(events.at(-1)).toMatchObject({ type: 'reconnecting', delayMs: 10_000, coolDown: true });
    expect(client.retryAt).toBe(Date.now() + 10_000);
    expect((events.at(-1) as { retryAt: number }).retryAt).toBe(client.retryAt);
    await vi.advanceTimersByTimeAsync(60_000 - 700);
    // The drop (1st wait), two quick retries, one cool-down, then it gives up: 4 attempts.
    expect(transport.starts).toBe(1 + 4);
    expect(
      events
        .filter((e) => e.type === 'reconnecting')
        .map((e) => [(e as { delayMs: number }).delayMs, (e as { coolDown: boolean }).coolDown]),
    ).toEqual([
      [100, false],
      [200, false],
      [400, false],
      [10_000, true],
    ]);
    expect(events.at(-2)).toMatchObject({
      type: 'gaveUp',
      attempts: 4,
      cause: { reason: 'process-exit', exitCode: 9, stderrTail: 'no database\n' },
    });
    expect(events.at(-1)).toEqual({ type: 'state', state: 'closed', previous: 'reconnecting' });
    expect(client.state).toBe('closed');
    expect(client.retryAt).toBeUndefined();
    expect(await waiting).toMatchObject({
      name: 'ConnectionClosedError',
      data: { reason: 'gave up reconnecting', exitCode: 9, stderrTail: 'no database\n' },
    });
    expect((await sub.closed).reason).toBe('transport-closed');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an attempt that finds no shared version gives up at once', async () => {
    vi.useFakeTimers();
    const { client, transport, events } = reconnecting((server, n) => {
      standard(server);
      if (n === 2)
        server.on('server/discover', () => ({
          error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2030-01-01'] } },
        }));
    });
    await client.connect();
    transport.drop();
    await vi.advanceTimersByTimeAsync(100);
    expect(client.state).toBe('closed');
    const gaveUp = events.find((e) => e.type === 'gaveUp');
    expect(gaveUp).toMatchObject({ attempts: 1, cause: { reason: 'connect-failed' } });
    expect((gaveUp as { cause: { error: unknown } }).cause.error).toBeInstanceOf(VersionNegotiationError);
  });

  it('without reconnect (or over a transport that cannot start again) a drop closes the client', async () => {
    const { client, transport, events } = reconnecting(standard, { reconnect: false });
    await client.connect();
    transport.drop();
    expect(client.state).toBe('closed');
    await expect(client.listTools()).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(transport.starts).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['state', 'state', 'state']);
  });
});

describe('what a reconnect resets', () => {
  it('drops the server’s cache entries: a read cached before the drop is fetched again', async () => {
    vi.useFakeTimers();
    const { client, transport } = reconnecting();
    await client.connect();
    await client.readResource('demo://c');
    await client.readResource('demo://c');
    expect(transport.server.requests('resources/read')).toHaveLength(1);
    transport.drop();
    await vi.advanceTimersByTimeAsync(100);
    await client.readResource('demo://c');
    expect(transport.servers[1]!.requests('resources/read')).toHaveLength(1);
  });

  it('a subscription hears subscriptionLost, listens again with the same filter, hears resync, and keeps delivering', async () => {
    vi.useFakeTimers();
    const { client, transport } = reconnecting();
    await client.connect();
    const filter = { toolsListChanged: true, resourceSubscriptions: ['demo://note'] };
    const sub = await client.subscribe(filter);
    const seen: SubscriptionEvent[] = [];
    sub.on((event) => seen.push(event));
    transport.drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(sub.state).toBe('reopening');
    expect(seen).toEqual([
      {
        type: 'subscriptionLost',
        reason: 'transport-closed',
        error: expect.any(ConnectionClosedError),
        willReopen: true,
      },
    ]);
    await vi.advanceTimersByTimeAsync(100);
    const second = transport.servers[1]!;
    const listen = second.requests('subscriptions/listen');
    expect(listen.map((m) => m['params'].notifications)).toEqual([filter]);
    expect(sub.state).toBe('open');
    expect(seen.at(-1)).toMatchObject({ type: 'resync', reopens: 1, honoured: filter });
    await second.send(change('notifications/resources/updated', listen[0]!['id'], { uri: 'demo://note' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.at(-1)).toEqual({ type: 'resourceUpdated', uri: 'demo://note' });
    expect(sub.subscriptionId).toBe(listen[0]!['id']);
  });

  it('a live list resyncs: it loads the list again from the new connection', async () => {
    vi.useFakeTimers();
    const { client, transport } = reconnecting((server, n) => {
      standard(server);
      server.on('tools/list', () => ({
        result: { tools: [{ name: `tool-of-${n}`, inputSchema: { type: 'object' } }] },
      }));
    });
    await client.connect();
    const live = await client.live('tools');
    expect(live.items.map((t) => t.name)).toEqual(['tool-of-1']);
    transport.drop();
    await vi.advanceTimersByTimeAsync(200);
    expect(live.items.map((t) => t.name)).toEqual(['tool-of-2']);
    expect(live.stale).toBe(false);
  });

  it('subscribe() made while reconnecting waits for the new connection', async () => {
    vi.useFakeTimers();
    const { client, transport } = reconnecting();
    await client.connect();
    transport.drop();
    const pending = client.subscribe({ promptsListChanged: true });
    await vi.advanceTimersByTimeAsync(100);
    const sub = await pending;
    expect(sub.state).toBe('open');
    expect(transport.servers[1]!.requests('subscriptions/listen')).toHaveLength(1);
    expect(transport.servers[0]!.requests('subscriptions/listen')).toHaveLength(0);
  });

  it('a task being followed polls on across the reconnect and resolves', async () => {
    await loadTaskMachinery();
    vi.useFakeTimers();
    const created = {
      resultType: 'task',
      taskId: 'task-1',
      status: 'working',
      createdAt: '2026-08-01T10:00:00.000Z',
      lastUpdatedAt: '2026-08-01T10:00:00.000Z',
      ttlMs: null,
      pollIntervalMs: 1000,
    };
    const { client, transport } = reconnecting(
      (server, n) => {
        standard(server);
        server.on('server/discover', () => ({
          result: {
            ...DISCOVER_RESULT,
            capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
          },
        }));
        server.on('tools/call', () => ({ result: created }));
        server.on('tasks/get', () =>
          n === 1
            ? undefined // in flight when the connection drops
            : {
                result: {
                  ...created,
                  resultType: 'complete',
                  status: 'completed',
                  result: { content: [{ type: 'text', text: 'done' }] },
                },
              },
        );
      },
      { tasks: { poll: { minMs: 0 }, push: false } },
    );
    await client.connect();
    const result = client.callTool('report', {});
    await vi.advanceTimersByTimeAsync(1_000);
    expect(transport.server.requests('tasks/get')).toHaveLength(1);
    transport.drop();
    await vi.advanceTimersByTimeAsync(100);
    await expect(result).resolves.toMatchObject({ content: [{ text: 'done' }] });
    expect(transport.servers[1]!.requests('tasks/get').map((m) => m['params'].taskId)).toEqual(['task-1']);
  });
});

describe('negotiating again', () => {
  /** A 2025-11-25 server: no server/discover, an initialize handshake, resources/subscribe. */
  function legacy(server: ScriptedServer): void {
    server.on('server/discover', () => ({ error: { code: -32601, message: 'Method not found' } }));
    server.on('initialize', (request) => ({
      result: {
        protocolVersion: request['params'].protocolVersion,
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
        serverInfo: { name: 'legacy', version: '1' },
      },
    }));
    server.on('resources/subscribe', () => ({ result: {} }));
    server.on('tools/call', () => ({ result: { content: [] } }));
  }

  it('a server downgraded to 2025-11-25: the legacy wire; subscriptions of the old era end', async () => {
    vi.useFakeTimers();
    const eraMemory = new Map();
    const { client, transport, events } = reconnecting((server, n) => (n === 1 ? standard(server) : legacy(server)), {
      eraMemory,
    });
    await client.connect();
    expect(eraMemory.get(transport.serverIdentity)).toBe('modern');
    const sub = await client.subscribe({ toolsListChanged: true });
    transport.drop();
    await vi.advanceTimersByTimeAsync(100);
    expect(client.state).toBe('open');
    expect(events.at(-1)).toEqual({ type: 'reconnected', attempt: 1, protocolVersion: '2025-11-25', era: 'legacy' });
    expect(client.era).toBe('legacy');
    expect(eraMemory.get(transport.serverIdentity)).toBe('legacy');
    expect((await sub.closed).reason).toBe('transport-closed');
    // The legacy wire from now on: no per-request _meta version.
    await client.callTool('x', {});
    expect(transport.servers[1]!.requests('tools/call')[0]!['params']._meta).toEqual({
      progressToken: expect.anything(),
    });
    // And its subscriptions work as on any legacy connection.
    const legacySub = await client.subscribe({ resourceSubscriptions: ['demo://z'] });
    expect(legacySub.honoured).toEqual({ resourceSubscriptions: ['demo://z'] });
  });

  it('a server remembered as legacy is probed again, and found upgraded; legacy subscriptions resync on a legacy server', async () => {
    vi.useFakeTimers();
    const eraMemory = new Map();
    const { client, transport, events } = reconnecting((server, n) => (n === 3 ? standard(server) : legacy(server)), {
      eraMemory,
    });
    await client.connect();
    expect(client.era).toBe('legacy');
    const sub = await client.subscribe({ resourceSubscriptions: ['demo://z'] });
    const seen: SubscriptionEvent[] = [];
    sub.on((event) => seen.push(event));
    // Still legacy after the first drop: the uri is subscribed again, and the subscription resyncs.
    transport.drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(sub.state).toBe('reopening');
    await vi.advanceTimersByTimeAsync(100);
    expect(transport.servers[1]!.requests('server/discover')).toHaveLength(1);
    expect(transport.servers[1]!.requests('resources/subscribe').map((m) => m['params'].uri)).toEqual(['demo://z']);
    expect(seen.map((e) => e.type)).toEqual(['subscriptionLost', 'resync']);
    expect(sub.state).toBe('open');
    // Upgraded by the second drop: modern again.
    transport.drop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(events.at(-1)).toMatchObject({ type: 'reconnected', era: 'modern', protocolVersion: '2026-07-28' });
    expect(eraMemory.get(transport.serverIdentity)).toBe('modern');
    expect(transport.servers[2]!.requests('initialize')).toHaveLength(0);
    expect((await sub.closed).reason).toBe('transport-closed');
  });
});

describe('retryFirstConnect', () => {
  it('connect() rejects with the failure, and the client goes on reconnecting until it is open', async () => {
    vi.useFakeTimers();
    const { client, transport, events } = reconnecting(standard, { reconnect: { ...EXACT, retryFirstConnect: true } });
    transport.failNextStarts(2);
    await expect(client.connect()).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(client.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(100);
    expect(client.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(200);
    expect(client.state).toBe('open');
    expect(transport.starts).toBe(3);
    expect(events.map((e) => (e.type === 'state' ? `${e.state}` : e.type))).toEqual([
      'connecting',
      'reconnecting',
      'reconnecting',
      'reconnecting',
      'open',
      'reconnected',
    ]);
    await expect(client.readResource('demo://d')).resolves.toBeDefined();
  });

  it('never for a failure another attempt cannot mend, nor without the option', async () => {
    vi.useFakeTimers();
    const refused = reconnecting(
      (server) => {
        standard(server);
        server.on('server/discover', () => ({
          error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2030-01-01'] } },
        }));
      },
      { reconnect: { ...EXACT, retryFirstConnect: true } },
    );
    await expect(refused.client.connect()).rejects.toBeInstanceOf(VersionNegotiationError);
    expect(refused.client.state).toBe('closed');

    const plain = reconnecting();
    plain.transport.failNextStarts(1);
    await expect(plain.client.connect()).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(plain.client.state).toBe('closed');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(plain.transport.starts).toBe(1);
  });
});
