/**
 * McpHost in front of servers that drop and servers with a half-implemented push channel
 * (scripted wire fakes over a restartable in-memory transport): items stay in the catalog,
 * tagged unavailable, while a server reconnects; calls wait for it within their deadline; a
 * listen that is refused, never acknowledged or keeps dropping leaves the server open with its
 * lists, fetched again on the server's ttlMs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { type HostEvent } from '../../src/host/servers/hostOptions.js';
import { HostRoutingError } from '../../src/host/catalog/errors.js';
import { CancelledError, TimeoutError } from '../../src/errors/errors.js';
import type { HostClientOptions } from '../../src/host/servers/config.js';
import { DISCOVER_RESULT, type ScriptedServer, type Wire } from '../fakes/scriptedServer.js';
import { RestartableFake } from '../fakes/restartable.js';

const SUB_ID = 'io.modelcontextprotocol/subscriptionId';
const FAST = { jitter: false, minDelayMs: 20, maxDelayMs: 40 } as const;
const hosts: McpHost[] = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

type Listen = 'ack' | 'refuse' | 'never' | 'drop';

interface Script {
  listen: Listen;
  /** The tools the server lists now; change it and the next tools/list shows it. */
  tools: string[];
  /** `ttlMs` of each tools/list result. */
  ttlMs?: number;
}

/** Scripts one connection of a server that offers tools with listChanged. */
function scripted(script: Script): (server: ScriptedServer) => void {
  return (server) => {
    server.on('server/discover', () => ({
      result: { ...DISCOVER_RESULT, capabilities: { tools: { listChanged: true } } },
    }));
    server.on('tools/list', () => ({
      result: {
        tools: script.tools.map((name) => ({ name, inputSchema: { type: 'object' } })),
        ...(script.ttlMs !== undefined && { ttlMs: script.ttlMs }),
      },
    }));
    server.on('tools/call', (request: Wire) => ({
      result: { content: [{ type: 'text', text: `${request['params']['name']} ok` }] },
    }));
    server.on('subscriptions/listen', (request: Wire) => {
      const ack = {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: request['params']['notifications'], _meta: { [SUB_ID]: request['id'] } },
      };
      switch (script.listen) {
        case 'refuse':
          return { error: { code: -32601, message: 'Method not found' } };
        case 'never':
          return undefined;
        case 'drop':
          void server.send(ack).then(() => server.send({ jsonrpc: '2.0', id: request['id'], result: {} }));
          return undefined;
        case 'ack':
          void server.send(ack);
          return undefined;
      }
    });
  };
}

function hostOn(
  fake: RestartableFake,
  client: HostClientOptions = {},
): { host: McpHost; events: HostEvent[]; sizes: number[] } {
  const host = new McpHost({
    clientInfo: { name: 'availability-tests', version: '0.0.0' },
    servers: { srv: { type: 'custom', transport: () => fake, client: { reconnect: FAST, ...client } } },
  });
  hosts.push(host);
  const events: HostEvent[] = [];
  const sizes: number[] = [];
  host.on((event) => {
    events.push(event);
    if (event.type === 'catalog') sizes.push(host.tools().length);
  });
  return { host, events, sizes };
}

function next(host: McpHost, match: (event: HostEvent) => boolean): Promise<HostEvent> {
  return new Promise((resolve) => {
    const off = host.on((event) => {
      if (!match(event)) return;
      off();
      resolve(event);
    });
  });
}

describe('McpHost: a server that drops keeps its items, marked unavailable', () => {
  it('lists them unavailable while it reconnects (one catalog event each way), and a call in the gap succeeds after', async () => {
    const script: Script = { listen: 'ack', tools: ['a', 'b'] };
    const fake = new RestartableFake(scripted(script));
    const { host, events, sizes } = hostOn(fake);
    await host.connect();
    expect(host.tools().map((t) => [t.exposedName, t.availability])).toEqual([
      ['srv__a', 'available'],
      ['srv__b', 'available'],
    ]);
    const catalogEvents = (): number => events.filter((e) => e.type === 'catalog').length;
    const before = catalogEvents();

    fake.failNextStarts(3); // down for a few attempts
    const reconnecting = next(host, (e) => e.type === 'state' && e.state === 'reconnecting');
    fake.drop();
    await reconnecting;
    expect(host.server('srv')?.state).toBe('reconnecting');
    expect(host.tools().map((t) => [t.exposedName, t.availability])).toEqual([
      ['srv__a', 'unavailable'],
      ['srv__b', 'unavailable'],
    ]);
    expect(catalogEvents()).toBe(before + 1);

    // Routed by exposed name while the server is away: waits, then goes through.
    const result = await host.callTool('srv__a', {}, { timeoutMs: 5000 });
    expect(result.content).toEqual([{ type: 'text', text: 'a ok' }]);
    expect(host.server('srv')?.state).toBe('open');
    expect(fake.starts).toBe(5); // first start, three refused, the one that took
    expect(fake.server.requests('tools/call')).toHaveLength(1);
    expect(host.tools().every((t) => t.availability === 'available')).toBe(true);
    // The catalog never shrank: every catalog event saw both tools.
    expect(sizes.every((size) => size === 2)).toBe(true);
  });

  it('a call in the gap fails server-unavailable at its deadline, with the state and last error', async () => {
    const fake = new RestartableFake(scripted({ listen: 'ack', tools: ['a'] }));
    const { host } = hostOn(fake);
    await host.connect();
    fake.failNextStarts(1000);
    const reconnecting = next(host, (e) => e.type === 'state' && e.state === 'reconnecting');
    fake.drop();
    await reconnecting;
    const error = await host.callTool('srv__a', {}, { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostRoutingError);
    expect((error as HostRoutingError).data).toMatchObject({
      reason: 'server-unavailable',
      server: 'srv',
      state: 'reconnecting',
      lastError: expect.stringContaining('ECONNREFUSED'),
    });
    expect((error as HostRoutingError).message).toMatch(/after waiting \d+ ms/);
    // By { server, name } too, and a user abort is a cancellation, not a timeout.
    const abort = new AbortController();
    const aborted = host.callTool({ server: 'srv', name: 'a' }, {}, { signal: abort.signal });
    abort.abort(new Error('user'));
    await expect(aborted).rejects.toBeInstanceOf(CancelledError);
    // A signal that is AbortSignal.timeout()'s is a timeout, as for a call to an open server.
    const timedOut = host.callTool('srv__a', {}, { signal: AbortSignal.timeout(30) }).catch((e: unknown) => e);
    expect(await timedOut).toBeInstanceOf(TimeoutError);
    expect(((await timedOut) as TimeoutError).code).toBe(-32001);
    expect(host.tools().map((t) => t.availability)).toEqual(['unavailable']);
  });

  it('a server that fails for good takes its items out', async () => {
    const fake = new RestartableFake(scripted({ listen: 'ack', tools: ['a'] }));
    const { host } = hostOn(fake, { reconnect: false });
    await host.connect();
    const failed = next(host, (e) => e.type === 'state' && e.state === 'failed');
    fake.drop();
    await failed;
    expect(host.tools()).toEqual([]);
    await expect(host.callTool({ server: 'srv', name: 'a' }, {})).rejects.toMatchObject({
      data: { reason: 'server-unavailable', state: 'failed' },
    });
  });
});

describe('McpHost: nothing waits for a server that is not coming back in time', () => {
  /** Every drop starts a cool-down of 400 ms (no quick retries, no quick phase). */
  const COOL = { ...FAST, maxQuickRetries: 0, quickPhaseMs: 0, coolDownMs: 400 } as const;

  it('a call whose deadline ends before the next attempt fails at once, server-unavailable with retryAt', async () => {
    const fake = new RestartableFake(scripted({ listen: 'ack', tools: ['a'] }));
    // The first attempt is 2 s after the drop (no cool-down: the tools stay listed).
    const { host } = hostOn(fake, { reconnect: { ...FAST, minDelayMs: 2000, maxDelayMs: 2000 } });
    await host.connect();
    fake.failNextStarts(1000);
    const reconnecting = next(host, (e) => e.type === 'client' && e.event.type === 'reconnecting');
    fake.drop();
    const announced = (await reconnecting) as Extract<HostEvent, { type: 'client' }>;
    const retryAt = host.server('srv')?.retryAt;
    expect(retryAt).toBe((announced.event as { retryAt: number }).retryAt);
    expect(host.tools().map((t) => t.availability)).toEqual(['unavailable']);
    // A 100 ms deadline against an attempt 2 s away: no wait at all (the error says it did not wait).
    const error = await host.callTool('srv__a', {}, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostRoutingError);
    expect((error as HostRoutingError).data).toMatchObject({
      reason: 'server-unavailable',
      server: 'srv',
      state: 'reconnecting',
      retryAt,
      lastError: expect.stringContaining('process exited') as unknown,
    });
    expect((error as HostRoutingError).message).not.toMatch(/after waiting/);
    expect((error as HostRoutingError).message).toContain(new Date(retryAt!).toISOString());
    await expect(host.callTool({ server: 'srv', name: 'a' }, {}, { timeoutMs: 100 })).rejects.toMatchObject({
      data: { reason: 'server-unavailable', retryAt },
    });
    expect(fake.starts).toBe(1);
  });

  it('in a cool-down, a call by { server, name } fails at once with retryAt; the exposed name is no longer listed', async () => {
    const fake = new RestartableFake(scripted({ listen: 'ack', tools: ['a'] }));
    const { host } = hostOn(fake, { reconnect: COOL });
    await host.connect();
    fake.failNextStarts(1000);
    const coolDown = next(host, (e) => e.type === 'client' && e.event.type === 'reconnecting' && e.event.coolDown);
    fake.drop();
    await coolDown;
    const retryAt = host.server('srv')?.retryAt;
    const error = await host.callTool({ server: 'srv', name: 'a' }, {}, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect((error as HostRoutingError).data).toMatchObject({
      reason: 'server-unavailable',
      state: 'reconnecting',
      retryAt,
    });
    expect((error as HostRoutingError).message).not.toMatch(/after waiting/);
    await expect(host.callTool('srv__a', {}, { timeoutMs: 100 })).rejects.toMatchObject({
      data: { reason: 'unknown-tool' },
    });
  });

  it('a call that is waiting fails when a cool-down past its deadline is announced', async () => {
    const fake = new RestartableFake(scripted({ listen: 'ack', tools: ['a'] }));
    // Quick retries first (20 ms), then a 5 s cool-down once two attempts failed.
    const { host } = hostOn(fake, { reconnect: { ...FAST, maxQuickRetries: 2, quickPhaseMs: 0, coolDownMs: 5000 } });
    await host.connect();
    fake.failNextStarts(1000);
    const reconnecting = next(host, (e) => e.type === 'state' && e.state === 'reconnecting');
    fake.drop();
    await reconnecting;
    const waiting = host.callTool('srv__a', {}, { timeoutMs: 2000 }).catch((e: unknown) => e);
    const coolDown = next(host, (e) => e.type === 'client' && e.event.type === 'reconnecting' && e.event.coolDown);
    const [error] = await Promise.all([waiting, coolDown]);
    expect((error as HostRoutingError).data).toMatchObject({ reason: 'server-unavailable', state: 'reconnecting' });
    expect((error as HostRoutingError).data.retryAt).toBe(host.server('srv')?.retryAt);
  });

  it('in a cool-down its tools and instructions leave the catalog (one event), and come back when it is open', async () => {
    const script: Script = { listen: 'ack', tools: ['a', 'b'] };
    // Two quick retries, then the cool-down: the drop and the first attempt are quick retries.
    const fake = new RestartableFake(scripted(script));
    const { host, events, sizes } = hostOn(fake, {
      reconnect: { ...FAST, maxQuickRetries: 1, quickPhaseMs: 0, coolDownMs: 300 },
    });
    await host.connect();
    expect(host.instructions()).toContain('scripted');
    const catalogEvents = (): number => events.filter((e) => e.type === 'catalog').length;
    const before = catalogEvents();

    fake.failNextStarts(2);
    const reconnecting = next(host, (e) => e.type === 'state' && e.state === 'reconnecting');
    fake.drop();
    await reconnecting;
    // Reconnecting, quick retries: listed unavailable, with the last connection's instructions.
    expect(host.tools().map((t) => t.availability)).toEqual(['unavailable', 'unavailable']);
    expect(host.instructions()).toContain('<server-instructions server="srv">');
    expect(host.instructions()).toContain('scripted');
    expect(catalogEvents()).toBe(before + 1);

    const coolDown = next(host, (e) => e.type === 'client' && e.event.type === 'reconnecting' && e.event.coolDown);
    await coolDown;
    expect(host.server('srv')?.state).toBe('reconnecting');
    expect(host.tools()).toEqual([]);
    expect(host.instructions()).toBe('');
    expect(catalogEvents()).toBe(before + 2);

    const open = next(host, (e) => e.type === 'state' && e.state === 'open');
    await open;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(host.tools().map((t) => [t.exposedName, t.availability])).toEqual([
      ['srv__a', 'available'],
      ['srv__b', 'available'],
    ]);
    expect(host.instructions()).toContain('scripted');
    expect(catalogEvents()).toBe(before + 3);
    expect(sizes.slice(-3)).toEqual([2, 0, 2]);
  });
});

describe('McpHost: push is an optimisation, never a precondition', () => {
  const poll = { subscriptions: { poll: { minIntervalMs: 20, defaultIntervalMs: 20 } } };

  it.each([
    ['refuses listen (-32601)', 'refuse' as const, 'refused', 1000],
    ['never acknowledges listen', 'never' as const, 'unacknowledged', 300],
    ['ends every listen at once', 'drop' as const, 'dropped', 1000],
  ])(
    'a server that %s is open with its tools, refreshed on its ttlMs, said once',
    async (_, listen, reason, timeoutMs) => {
      const script: Script = { listen, tools: ['a'], ttlMs: 30 };
      const fake = new RestartableFake(scripted(script));
      const { host, events } = hostOn(fake, {
        ...poll,
        timeoutMs,
        subscriptions: { ...poll.subscriptions, reopen: { ...FAST, coolDownMs: 60_000, maxQuickRetries: 1 } },
      });
      const polling = next(host, (e) => e.type === 'polling');
      const [status] = await host.connect();
      expect(status?.state).toBe('open');
      expect(host.tools().map((t) => t.exposedName)).toEqual(['srv__a']);
      expect(await polling).toMatchObject({ type: 'polling', server: 'srv', kind: 'tools', reason, intervalMs: 30 });
      if (reason !== 'dropped') expect(host.server('srv')?.lastError).toBeDefined();

      const grown = next(host, (e) => e.type === 'catalog');
      script.tools = ['a', 'b'];
      await grown;
      expect(host.tools().map((t) => t.exposedName)).toEqual(['srv__a', 'srv__b']);
      expect(events.filter((e) => e.type === 'polling')).toHaveLength(1);
      expect(host.server('srv')?.state).toBe('open');
    },
  );
});

describe('McpHost: one listen stream per server', () => {
  it('its lists share one subscriptions/listen with the combined filter; a change on it refreshes the right list', async () => {
    let prompts = ['p1'];
    const fake = new RestartableFake((server) => {
      scripted({ listen: 'ack', tools: ['a'] })(server);
      server.on('server/discover', () => ({
        result: {
          ...DISCOVER_RESULT,
          capabilities: {
            tools: { listChanged: true },
            prompts: { listChanged: true },
            resources: { listChanged: true },
          },
        },
      }));
      server.on('prompts/list', () => ({ result: { prompts: prompts.map((name) => ({ name })) } }));
      server.on('resources/list', () => ({ result: { resources: [{ uri: 'demo://r', name: 'r' }] } }));
      server.on('resources/templates/list', () => ({ result: { resourceTemplates: [] } }));
    });
    const { host } = hostOn(fake);
    await host.connect();
    expect(host.tools()).toHaveLength(1);
    expect(host.resources()).toHaveLength(1);
    const listens = fake.server.requests('subscriptions/listen');
    expect(listens).toHaveLength(1);
    expect(listens[0]!['params']['notifications']).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    const changed = next(host, (e) => e.type === 'catalog');
    prompts = ['p1', 'p2'];
    await fake.server.send({
      jsonrpc: '2.0',
      method: 'notifications/prompts/list_changed',
      params: { _meta: { [SUB_ID]: listens[0]!['id'] } },
    });
    expect(await changed).toEqual({ type: 'catalog', kinds: ['prompts'] });
    expect(host.prompts().map((p) => p.exposedName)).toEqual(['srv__p1', 'srv__p2']);

    // After a reconnect: still one stream (the one before it, reopened on the new connection).
    const back = next(host, (e) => e.type === 'state' && e.state === 'open');
    fake.drop();
    await back;
    await fake.server.waitFor((m) => m['method'] === 'subscriptions/listen');
    expect(fake.server.requests('subscriptions/listen')).toHaveLength(1);
    expect(fake.servers.flatMap((s) => s.requests('subscriptions/listen'))).toHaveLength(2);
  });
});
