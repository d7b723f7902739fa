/**
 * A lost legacy HTTP session (404 for its Mcp-Session-Id) whose new session cannot be set up at
 * once (issue 18): the set-up is retried on the client's reconnect policy, as every other
 * reconnect is, against a scripted legacy HTTP server. The reconnect waits run on the global
 * timers, faked here and moved by hand; the client's own timeouts keep real time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerResponse } from 'node:http';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import type { ClientEvent } from '../../src/reconnect/types.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';
import type { Clock } from '../../src/util/clock.js';
import { HTTP_PATHS } from '../fakes/httpPaths.js';
import { startLegacyHttpServer, type LegacyHttpServer } from '../fakes/legacyHttpServer.js';
import { fakeRetryTimers, realTimers } from '../fakes/retryTimers.js';

/** The client's clock: the fake `Date`, moved with the fake timers. */
const clock: Clock = { now: () => Date.now() };

/** Lets real I/O go on for a while, in real time (the fake time stands still). */
const realPause = (ms: number): Promise<void> => new Promise((resolve) => realTimers.setTimeout(resolve, ms));

const EXACT = { jitter: false, minDelayMs: 100 } as const;
const URI = 'file:///watched';

const fail503 = (res: ServerResponse): void =>
  void res.writeHead(503, { 'Content-Type': 'text/plain' }).end('initialize failed');

const { Transport } = HTTP_PATHS[0]!;

describe('a new legacy HTTP session that fails is retried on the reconnect policy', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const item of open.splice(0).reverse()) await item.close();
  });

  /** A connected client (S1) with a resource subscription; `failing(n)` says which initializes fail. */
  async function setUp(failing: (n: number) => boolean, options: Partial<ClientOptions> = {}) {
    const timers = fakeRetryTimers();
    const server = await startLegacyHttpServer({
      initialize: (_request, res, n) => (failing(n) ? (fail503(res), true) : false),
    });
    open.push(server);
    const client = new McpClient({
      transport: new Transport(server.url, { retry: false, timers: realTimers, legacy: { standaloneStream: false } }),
      clientInfo: { name: 'renewal', version: '1' },
      era: 'legacy',
      clock,
      timers: realTimers,
      reconnect: EXACT,
      ...options,
    });
    open.push(client);
    await client.connect();
    const sub = await client.subscribe({ resourceSubscriptions: [URI] });
    const heard: SubscriptionEvent[] = [];
    sub.on((event) => heard.push(event));
    const events: ClientEvent[] = [];
    client.on((event) => events.push(event));
    return { server, client, timers, sub, heard, events };
  }

  const initializes = (server: LegacyHttpServer): number => server.posts('initialize').length;
  const reconnecting = (events: ClientEvent[]): number => events.filter((e) => e.type === 'reconnecting').length;
  const summary = (events: ClientEvent[]): unknown[] =>
    events.map((event) =>
      event.type === 'state'
        ? event.state
        : event.type === 'reconnecting'
          ? [event.type, event.attempt, event.delayMs, event.cause.reason, event.cause.httpStatus]
          : event.type === 'gaveUp'
            ? [event.type, event.attempts, event.cause.httpStatus]
            : [event.type, event.attempt],
    );

  it('fails twice, then succeeds: reconnecting with backoff, then reconnected, requests sent, the subscription resynced', async () => {
    const { server, client, timers, sub, heard, events } = await setUp((n) => n === 2 || n === 3);
    server.expireSessions();
    const first = client.callTool('echo', { n: 1 });
    // Attempt 1 (at once) failed: the next waits 200 ms (the drop and the failure in a row).
    await timers.waitFor(() => reconnecting(events) === 2);
    expect(client.state).toBe('reconnecting');
    expect(sub.state).toBe('reopening');
    // A request made during the backoff waits for the new session; nothing goes out meanwhile.
    const second = client.callTool('echo', { n: 2 });
    await vi.advanceTimersByTimeAsync(199);
    await realPause(20);
    expect(initializes(server)).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    await timers.waitFor(() => reconnecting(events) === 3);
    expect(initializes(server)).toBe(3);
    expect(client.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(400);

    expect((await first).content).toEqual([{ type: 'text', text: '{"n":1}' }]);
    expect((await second).content).toEqual([{ type: 'text', text: '{"n":2}' }]);
    expect(client.state).toBe('open');
    expect(summary(events)).toEqual([
      'reconnecting',
      ['reconnecting', 1, 0, 'http-session-lost', 404],
      ['reconnecting', 2, 200, 'connect-failed', 503],
      ['reconnecting', 3, 400, 'connect-failed', 503],
      'open',
      ['reconnected', 3],
    ]);
    expect(events.at(-1)).toEqual({ type: 'reconnected', attempt: 3, protocolVersion: '2025-11-25', era: 'legacy' });
    // The new session is S2 (the failed attempts got none): both calls and the subscription went out under it.
    expect(server.issued).toEqual(['S1', 'S2']);
    const calls = server.posts('tools/call').map((r) => [r.json.params.arguments.n, r.headers['mcp-session-id']]);
    expect(calls).toEqual([
      [1, 'S1'],
      [1, 'S2'],
      [2, 'S2'],
    ]);
    await timers.waitFor(() => heard.length === 2);
    expect(heard.map((e) => e.type)).toEqual(['subscriptionLost', 'resync']);
    expect(sub.state).toBe('open');
    expect(server.posts('resources/subscribe').map((r) => r.headers['mcp-session-id'])).toEqual(['S1', 'S2']);
  });

  it('always fails: the budget runs out, gaveUp then closed, and what waited rejects with the last cause', async () => {
    let held: ServerResponse | undefined;
    const timers = fakeRetryTimers();
    const server = await startLegacyHttpServer({
      initialize: (_request, res, n) => {
        if (n === 1) return false;
        // Attempt 1 is held until a request is waiting for it in the transport.
        if (n === 2) held = res;
        else fail503(res);
        return true;
      },
    });
    open.push(server);
    const client = new McpClient({
      transport: new Transport(server.url, { retry: false, timers: realTimers, legacy: { standaloneStream: false } }),
      clientInfo: { name: 'renewal', version: '1' },
      era: 'legacy',
      clock,
      timers: realTimers,
      // The drop and two failed attempts are quick failures; past two, with no cool-down allowed, it gives up.
      reconnect: { ...EXACT, maxQuickRetries: 2, maxCoolDowns: 0, quickPhaseMs: 0 },
    });
    open.push(client);
    await client.connect();
    const sub = await client.subscribe({ resourceSubscriptions: [URI] });
    const events: ClientEvent[] = [];
    client.on((event) => events.push(event));
    server.expireSessions();

    const first = client.callTool('echo', { n: 1 }).catch((error: unknown) => error);
    await timers.waitFor(() => held !== undefined);
    const heldInTransport = client.callTool('echo', { n: 2 }).catch((error: unknown) => error);
    await realPause(20);
    fail503(held!);
    await timers.waitFor(() => reconnecting(events) === 2);
    const waiting = client.listTools().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(200);

    const errors = await Promise.all([first, heldInTransport, waiting]);
    expect(summary(events)).toEqual([
      'reconnecting',
      ['reconnecting', 1, 0, 'http-session-lost', 404],
      ['reconnecting', 2, 200, 'connect-failed', 503],
      ['gaveUp', 2, 503],
      'closed',
    ]);
    expect(client.state).toBe('closed');
    for (const error of errors) {
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(error).toMatchObject({ data: { reason: 'gave up reconnecting' } });
      expect((error as Error).cause).toMatchObject({ name: 'HttpError', data: { method: 'initialize', status: 503 } });
    }
    expect(errors[1]).toBe(errors[0]);
    expect(await sub.closed).toMatchObject({ reason: 'transport-closed' });
    // Nothing else went out, and nothing is left scheduled.
    expect(initializes(server)).toBe(3);
    expect(server.posts('tools/call').map((r) => r.json.params.arguments.n)).toEqual([1]);
    expect(server.posts('tools/list')).toEqual([]);
    expect(timers.pending()).toEqual([]);
  });

  it('close() during the backoff stops at once: no further attempt, what waited rejects', async () => {
    const { server, client, timers, sub, events } = await setUp((n) => n >= 2);
    server.expireSessions();
    const first = client.callTool('echo', { n: 1 }).catch((error: unknown) => error);
    await timers.waitFor(() => reconnecting(events) === 2);
    expect(timers.pending()).toContain(200);

    await client.close();
    expect(client.state).toBe('closed');
    expect(timers.pending()).toEqual([]);
    const error = await first;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error).toMatchObject({ data: { reason: 'closed by client' } });
    expect(await sub.closed).toMatchObject({ reason: 'client-closed' });
    await vi.advanceTimersByTimeAsync(60_000);
    await realPause(20);
    expect(initializes(server)).toBe(2);
    expect(summary(events)).toEqual([
      'reconnecting',
      ['reconnecting', 1, 0, 'http-session-lost', 404],
      ['reconnecting', 2, 200, 'connect-failed', 503],
      'closed',
    ]);
  });

  it('reconnect: false: one new session is tried; when it fails the client is closed, its subscriptions end', async () => {
    const { server, client, timers, sub, events } = await setUp((n) => n >= 2, { reconnect: false });
    server.expireSessions();
    const error = await client.callTool('echo', { n: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'HttpError', data: { method: 'initialize', status: 503 } });
    expect(client.state).toBe('closed');
    expect(summary(events)).toEqual(['reconnecting', ['reconnecting', 1, 0, 'http-session-lost', 404], 'closed']);
    const closed = await sub.closed;
    expect(closed).toMatchObject({ reason: 'transport-closed' });
    expect(closed.error).toBeInstanceOf(ConnectionClosedError);
    expect(closed.error).toMatchObject({ data: { reason: 'http-session-lost' }, cause: error });
    await expect(client.listTools()).rejects.toMatchObject({ data: { reason: 'client is closed' } });
    expect(initializes(server)).toBe(2);
    expect(timers.pending()).toEqual([]);
  });
});
