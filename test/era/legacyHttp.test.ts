/**
 * The legacy shape of Streamable HTTP (spec 2025-11-25: basic/transports): resumption with
 * Last-Event-ID honouring `retry`, the standalone GET stream, server requests and their
 * responses, cancellation, DELETE on close, and going back to the modern envelope.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerResponse } from 'node:http';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { StreamableHttpTransportOptions } from '../../src/transport/http/streamableHttpOptions.js';
import { StreamBrokenError } from '../../src/transport/transportErrors.js';
import { resolveLegacyHttpOptions } from '../../src/transport/http/legacy/legacyHttp.js';
import { CancelledError, InvalidArgumentError } from '../../src/errors/errors.js';
import type { Era } from '../../src/era/era.js';
import type { ClientEvent } from '../../src/reconnect/types.js';
import { answerDiscover, HttpFake, sendJson, sseEvent, startSse, type RecordedRequest } from '../fakes/httpFake.js';
import { instantTimers } from '../fakes/httpHarness.js';
import { systemTimers } from '../../src/util/clock.js';
import {
  initializeResult,
  startLegacyHttpServer,
  type LegacyHttpScript,
  type LegacyHttpServer,
} from '../fakes/legacyHttpServer.js';
import { HTTP_PATHS } from '../fakes/httpPaths.js';

describe.each(HTTP_PATHS)('$path path', ({ Transport: StreamableHttpTransport }) => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  async function setUp(
    script: LegacyHttpScript,
    options: Partial<ClientOptions> = {},
    transport: StreamableHttpTransportOptions = {},
  ): Promise<{ server: LegacyHttpServer; client: McpClient; timers: ReturnType<typeof instantTimers> }> {
    const timers = instantTimers();
    const server = await startLegacyHttpServer(script);
    open.push(server);
    const client = new McpClient({
      transport: new StreamableHttpTransport(server.url, { retry: false, timers, ...transport }),
      clientInfo: { name: 'legacy-http', version: '1' },
      era: 'legacy',
      ...options,
    });
    open.push(client);
    await client.connect();
    return { server, client, timers };
  }

  const gets = (server: LegacyHttpServer): RecordedRequest[] => server.fake.requests.filter((r) => r.method === 'GET');
  const primingThenClose = (res: ServerResponse, id: string, retry?: number): void => {
    startSse(res, [`id: ${id}\n${retry === undefined ? '' : `retry: ${retry}\n`}data: \n\n`]);
    res.end();
  };

  describe('a new session after a 404 (issue 7)', () => {
    /**
     * A stateful legacy server whose second `initialize` is held until the test releases it:
     * S1, then S2; requests with an unknown session get 404, requests without one get 400 (H1).
     */
    async function heldRenewal(
      secondInitialize: (res: ServerResponse, id: unknown) => void,
      options: Partial<ClientOptions> = {},
    ) {
      const live = new Set<string>();
      let initializes = 0;
      let release: (() => void) | undefined;
      let held!: () => void;
      const renewalHeld = new Promise<void>((resolve) => (held = resolve));
      const fake = await HttpFake.start((request, res) => {
        const json = request.json;
        const session = request.headers['mcp-session-id'];
        if (request.method === 'GET') return void res.writeHead(405).end();
        if (request.method === 'DELETE') return void res.writeHead(200).end();
        if (json?.method === 'initialize') {
          initializes++;
          if (initializes === 1) {
            live.add('S1');
            return sendJson(
              res,
              200,
              { jsonrpc: '2.0', id: json.id, result: initializeResult('2025-11-25') },
              { 'Mcp-Session-Id': 'S1' },
            );
          }
          release = () => secondInitialize(res, json.id);
          held();
          return;
        }
        if (typeof session !== 'string')
          return sendJson(res, 400, {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, message: 'Bad Request: Missing session ID' },
          });
        if (!live.has(session))
          return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Session not found');
        if (json?.id === undefined) return void res.writeHead(202).end();
        sendJson(res, 200, {
          jsonrpc: '2.0',
          id: json.id,
          result: { content: [{ type: 'text', text: JSON.stringify(json.params?.arguments ?? {}) }] },
        });
      });
      open.push(fake);
      const client = new McpClient({
        transport: new StreamableHttpTransport(fake.url, { retry: false, legacy: { standaloneStream: false } }),
        clientInfo: { name: 'x', version: '1' },
        era: 'legacy',
        ...options,
      });
      open.push(client);
      await client.connect();
      const events: ClientEvent[] = [];
      client.on((event) => events.push(event));
      return { fake, client, live, events, renewalHeld, release: () => release?.() };
    }

    it('a request sent while the new session is set up waits for it and carries its Mcp-Session-Id', async () => {
      const server = await heldRenewal((res, id) => {
        server.live.add('S2');
        sendJson(res, 200, { jsonrpc: '2.0', id, result: initializeResult('2025-11-25') }, { 'Mcp-Session-Id': 'S2' });
      });
      server.live.clear(); // the server restarted: S1 is gone
      const first = server.client.callTool('echo', { n: 1 });
      await server.renewalHeld; // the 404 came back and the new initialize is at the server
      const second = server.client.callTool('echo', { n: 2 });
      const third = server.client.callTool('echo', { n: 3 });
      server.release();

      expect((await first).content).toEqual([{ type: 'text', text: '{"n":1}' }]);
      expect((await second).content).toEqual([{ type: 'text', text: '{"n":2}' }]);
      expect((await third).content).toEqual([{ type: 'text', text: '{"n":3}' }]);
      const calls = server.fake.requests
        .filter((r) => r.json?.method === 'tools/call')
        .map((r) => [r.json.params.arguments.n, r.headers['mcp-session-id']]);
      // n=1 went out under S1 (404), then once more under S2; n=2 and n=3 went out once, under S2.
      expect(calls[0]).toEqual([1, 'S1']);
      expect(calls.slice(1).sort()).toEqual([
        [1, 'S2'],
        [2, 'S2'],
        [3, 'S2'],
      ]);
      expect(calls.filter(([, session]) => session === undefined)).toEqual([]);
      const initialized = server.fake.requests
        .filter((r) => r.json?.method === 'notifications/initialized')
        .map((r) => r.headers['mcp-session-id']);
      expect(initialized).toEqual(['S1', 'S2']);
      // Observable as a reconnect (issue 18): reconnecting while the new session is set up, then open.
      expect(server.events).toEqual([
        { type: 'state', state: 'reconnecting', previous: 'open' },
        {
          type: 'reconnecting',
          attempt: 1,
          delayMs: 0,
          retryAt: expect.any(Number) as unknown,
          coolDown: false,
          cause: { reason: 'http-session-lost', httpStatus: 404, error: expect.objectContaining({ code: -33014 }) },
        },
        { type: 'state', state: 'open', previous: 'reconnecting' },
        { type: 'reconnected', attempt: 1, protocolVersion: '2025-11-25', era: 'legacy' },
      ]);
      expect(server.client.state).toBe('open');
    });

    it('with reconnect off, when the new session cannot be set up, requests sent meanwhile reject with the same error', async () => {
      const server = await heldRenewal(
        (res) => {
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end('initialize failed');
        },
        { reconnect: false },
      );
      server.live.clear();
      const first = server.client.callTool('echo', { n: 1 }).catch((error: unknown) => error);
      await server.renewalHeld;
      const second = server.client.callTool('echo', { n: 2 }).catch((error: unknown) => error);
      server.release();

      const [firstError, secondError] = await Promise.all([first, second]);
      expect(firstError).toMatchObject({
        name: 'HttpError',
        code: -33010,
        data: { method: 'initialize', status: 500 },
      });
      expect(secondError).toBe(firstError);
      // n=2 never went out: it waited for a session that never came.
      const calls = server.fake.requests
        .filter((r) => r.json?.method === 'tools/call')
        .map((r) => r.json.params.arguments.n);
      expect(calls).toEqual([1]);
      // No new session and no retry (reconnect off): closed, as after any drop with reconnect off.
      // With reconnect on, the set-up is retried on the policy (test/legacy/sessionRenewal.test.ts).
      expect(server.events.map((e) => (e.type === 'state' ? e.state : e.type))).toEqual([
        'reconnecting',
        'reconnecting',
        'closed',
      ]);
      expect(server.client.state).toBe('closed');
    });
  });

  describe('resumption (sse-retry)', () => {
    it('a response stream that closes after a priming event is resumed with GET + Last-Event-ID after `retry` ms', async () => {
      let callId: unknown;
      const { client, server, timers } = await setUp({
        request: (request, res) => {
          if (request.json?.method !== 'tools/call') return false;
          callId = request.json.id;
          primingThenClose(res, 'event-1', 500);
          return true;
        },
        get: (request, res) => {
          if (request.headers['last-event-id'] !== 'event-1') {
            res.writeHead(405).end();
            return;
          }
          startSse(res, [
            `id: event-2\n${sseEvent({ jsonrpc: '2.0', id: callId, result: { content: [{ type: 'text', text: 'resumed' }] } })}`,
          ]);
          res.end();
        },
      });
      const result = await client.callTool('test_reconnection', {});
      expect(result.content).toEqual([{ type: 'text', text: 'resumed' }]);
      const resume = gets(server).find((r) => r.headers['last-event-id'] !== undefined);
      expect(resume?.headers).toMatchObject({
        'last-event-id': 'event-1',
        'mcp-session-id': 'S1',
        accept: 'text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      });
      expect(timers.delays).toContain(500);
      expect(server.posts('tools/call')).toHaveLength(1);
    });

    it('without a retry field it waits the default (legacy.defaultRetryMs)', async () => {
      let callId: unknown;
      const { client, timers } = await setUp(
        {
          request: (request, res) => {
            if (request.json?.method !== 'tools/call') return false;
            callId = request.json.id;
            primingThenClose(res, 'a');
            return true;
          },
          get: (request, res) => {
            if (request.headers['last-event-id'] === undefined) return void res.writeHead(405).end();
            startSse(res, [sseEvent({ jsonrpc: '2.0', id: callId, result: { content: [] } })]);
            res.end();
          },
        },
        {},
        { legacy: { defaultRetryMs: 1234 } },
      );
      await client.callTool('x', {});
      expect(timers.delays).toEqual([1234]);
    });

    it('a stream that ends with no event id cannot be resumed: StreamBrokenError for a tools/call', async () => {
      const { client, server } = await setUp({
        request: (request, res) => {
          if (request.json?.method !== 'tools/call') return false;
          startSse(res, [
            sseEvent({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } }),
          ]);
          res.end();
          return true;
        },
      });
      const error = await client.callTool('x', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamBrokenError);
      expect(gets(server).filter((r) => r.headers['last-event-id'] !== undefined)).toEqual([]);
    });

    it('keeps resuming within the budget when a resumed stream closes without an event (same Last-Event-ID)', async () => {
      let callId: unknown;
      const { client, server } = await setUp(
        {
          request: (request, res) => {
            if (request.json?.method !== 'tools/call') return false;
            callId = request.json.id;
            primingThenClose(res, 'e-1', 10);
            return true;
          },
          get: (request, res) => {
            if (request.headers['last-event-id'] === undefined) return void res.writeHead(405).end();
            const resumes = gets(server).filter((r) => r.headers['last-event-id'] !== undefined).length;
            // The first resumption closes with nothing; the second delivers the reply.
            if (resumes === 1) {
              startSse(res, []);
              res.end();
              return;
            }
            startSse(res, [`id: e-2\n${sseEvent({ jsonrpc: '2.0', id: callId, result: { content: [] } })}`]);
            res.end();
          },
        },
        {},
        { legacy: { maxResumptions: 3 } },
      );
      const result = await client.callTool('x', {});
      expect(result.content).toEqual([]);
      const resumes = gets(server).filter((r) => r.headers['last-event-id'] !== undefined);
      expect(resumes.map((r) => r.headers['last-event-id'])).toEqual(['e-1', 'e-1']);
    });

    it('gives up after maxResumptions GETs that bring nothing new', async () => {
      const { client, server } = await setUp(
        {
          request: (request, res) => {
            if (request.json?.method !== 'tools/call') return false;
            primingThenClose(res, 'p-0', 10);
            return true;
          },
          get: (request, res) => {
            if (request.headers['last-event-id'] === undefined) return void res.writeHead(405).end();
            const n = gets(server).length;
            primingThenClose(res, `p-${n}`, 10);
          },
        },
        {},
        { legacy: { maxResumptions: 2 } },
      );
      const error = await client.callTool('x', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamBrokenError);
      expect(gets(server).filter((r) => r.headers['last-event-id'] !== undefined)).toHaveLength(2);
    });
  });

  describe('the standalone GET stream', () => {
    it('carries server notifications: list_changed reaches a subscription, and the cache is dropped first', async () => {
      let stream: ServerResponse | undefined;
      const { client, server } = await setUp(
        {
          get: (_request, res) => {
            stream = res;
            startSse(res, [': open\n\n']);
          },
        },
        { legacyTtlMs: 60_000 },
      );
      await client.listTools();
      await client.listTools();
      expect(server.posts('tools/list')).toHaveLength(1);
      const sub = await client.subscribe({ toolsListChanged: true });
      expect(sub.honoured).toEqual({ toolsListChanged: true });
      const heard: string[] = [];
      sub.on((event) => heard.push(event.type));
      await vi.waitFor(() => expect(stream).toBeDefined());
      stream?.write(sseEvent({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }));
      await vi.waitFor(() => expect(heard).toEqual(['toolsListChanged']));
      await client.listTools();
      expect(server.posts('tools/list')).toHaveLength(2);
    });

    it('a server request on it is answered by a POST carrying the session', async () => {
      let stream: ServerResponse | undefined;
      const { server } = await setUp(
        { get: (_request, res) => void ((stream = res), startSse(res, [': open\n\n'])) },
        { handlers: { roots: { list: () => ({ roots: [{ uri: 'file:///w' }] }) } } },
      );
      await vi.waitFor(() => expect(stream).toBeDefined());
      stream?.write(sseEvent({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' }));
      await vi.waitFor(() => expect(server.fake.requests.some((r) => r.json?.id === 'srv-1')).toBe(true));
      const answer = server.fake.requests.find((r) => r.json?.id === 'srv-1');
      expect(answer?.json).toEqual({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [{ uri: 'file:///w' }] } });
      expect(answer?.headers).toMatchObject({ 'mcp-session-id': 'S1', 'mcp-protocol-version': '2025-11-25' });
    });

    it('a stream that carried events is reopened after `retry` with Last-Event-ID', async () => {
      const { server, timers } = await setUp({
        get: (request, res) => {
          if (request.headers['last-event-id'] === 'g-1') return void startSse(res, [': second\n\n']);
          startSse(res, [
            `id: g-1\nretry: 700\n${sseEvent({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })}`,
          ]);
          res.end();
        },
      });
      await vi.waitFor(() => expect(gets(server)).toHaveLength(2));
      expect(gets(server)[1]?.headers['last-event-id']).toBe('g-1');
      expect(timers.delays).toEqual([700]);
    });

    it('can be turned off', async () => {
      const { client, server } = await setUp({}, {}, { legacy: { standaloneStream: false } });
      await client.listTools();
      expect(gets(server)).toEqual([]);
    });
  });

  describe('legacy HTTP envelope', () => {
    it('cancelling a request sends notifications/cancelled with the session, and closes its stream', async () => {
      let closed = false;
      const { client, server } = await setUp({
        request: (request, res) => {
          if (request.json?.method !== 'tools/call') return false;
          startSse(res, [': working\n\n']);
          res.on('close', () => (closed = true));
          return true;
        },
      });
      const controller = new AbortController();
      const call = client.callTool('slow', {}, { signal: controller.signal });
      await vi.waitFor(() => expect(server.posts('tools/call')).toHaveLength(1));
      controller.abort('enough');
      await expect(call).rejects.toBeInstanceOf(CancelledError);
      await vi.waitFor(() => expect(server.posts('notifications/cancelled')).toHaveLength(1));
      const [cancelled] = server.posts('notifications/cancelled');
      expect(cancelled?.json.params).toEqual({ requestId: server.posts('tools/call')[0]?.json.id, reason: 'enough' });
      expect(cancelled?.headers['mcp-session-id']).toBe('S1');
      await vi.waitFor(() => expect(closed).toBe(true));
    });

    it('close() sends DELETE with the session id', async () => {
      const { client, server } = await setUp({}, {}, { timers: systemTimers });
      await client.close();
      const deletes = server.fake.requests.filter((r) => r.method === 'DELETE');
      expect(deletes).toHaveLength(1);
      expect(deletes[0]?.headers['mcp-session-id']).toBe('S1');
    });

    it('no DELETE without a session, nor when turned off', async () => {
      const first = await setUp({ sessions: false });
      await first.client.close();
      expect(first.server.fake.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
      const second = await setUp({}, {}, { legacy: { deleteSessionOnClose: false } });
      await second.client.close();
      expect(second.server.fake.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    });

    it('an Mcp-Session-Id outside visible ASCII is reported and not sent back', async () => {
      const errors: Error[] = [];
      const timers = instantTimers();
      const fake = await HttpFake.start((request, res) => {
        if (request.json?.method === 'initialize') {
          res.setHeader('Mcp-Session-Id', 'has space');
          sendJson(res, 200, {
            jsonrpc: '2.0',
            id: request.json.id,
            result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'x', version: '1' } },
          });
          return;
        }
        if (request.method === 'GET') return void res.writeHead(405).end();
        if (request.json?.id === undefined) return void res.writeHead(202).end();
        sendJson(res, 200, { jsonrpc: '2.0', id: request.json.id, result: { tools: [] } });
      });
      open.push(fake);
      const client = new McpClient({
        transport: new StreamableHttpTransport(fake.url, { timers }),
        clientInfo: { name: 'x', version: '1' },
        era: 'legacy',
        onError: (e) => errors.push(e),
      });
      open.push(client);
      await client.connect();
      await client.listTools();
      expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('Mcp-Session-Id')]);
      expect(fake.requests.every((r) => r.headers['mcp-session-id'] === undefined)).toBe(true);
    });

    it('a failed first handshake goes back to the modern envelope before probing', async () => {
      const fake = await HttpFake.start((request, res) => {
        if (answerDiscover(request, res)) return;
        sendJson(res, 404, {
          jsonrpc: '2.0',
          id: request.json?.id ?? null,
          error: { code: -32601, message: 'Method not found' },
        });
      });
      open.push(fake);
      const eraMemory = new Map<string, Era>();
      const transport = new StreamableHttpTransport(fake.url, { retry: false });
      eraMemory.set(transport.serverIdentity, 'legacy');
      const client = new McpClient({ transport, clientInfo: { name: 'x', version: '1' }, eraMemory });
      open.push(client);
      await client.connect();
      expect(client.era).toBe('modern');
      expect(fake.requests.map((r) => [r.json?.method, r.headers['mcp-method']])).toEqual([
        ['initialize', undefined],
        ['server/discover', 'server/discover'],
      ]);
      expect(transport.capabilities.cancelsByAbortingSend).toBe(true);
    });

    it('over HTTP the probe is not cut short by probeTimeoutMs: a slow modern server stays modern', async () => {
      const fake = await HttpFake.start((request, res) => {
        setTimeout(() => {
          if (!answerDiscover(request, res))
            sendJson(res, 404, {
              jsonrpc: '2.0',
              id: request.json?.id ?? null,
              error: { code: -32601, message: 'Method not found' },
            });
        }, 100);
      });
      open.push(fake);
      const client = new McpClient({
        transport: new StreamableHttpTransport(fake.url, { retry: false }),
        clientInfo: { name: 'x', version: '1' },
        probeTimeoutMs: 10,
      });
      open.push(client);
      await client.connect();
      expect(client.era).toBe('modern');
      expect(fake.requests.map((r) => r.json?.method)).toEqual(['server/discover']);
    });

    it('legacy options are checked', () => {
      expect(() => resolveLegacyHttpOptions({ standaloneMaxAttempts: 0 })).toThrow(InvalidArgumentError);
      expect(() => resolveLegacyHttpOptions({ defaultRetryMs: -1 })).toThrow(InvalidArgumentError);
      expect(resolveLegacyHttpOptions(undefined)).toMatchObject({
        standaloneStream: true,
        standaloneMaxAttempts: 3,
        maxResumptions: 3,
        defaultRetryMs: 1000,
        deleteSessionOnClose: true,
      });
    });
  });
});
