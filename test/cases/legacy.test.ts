/**
 * Cases from ../shared/cases/CASES.md that belong to the dual-era client (issue 7): era
 * detection and the `initialize` fallback (B45), the legacy HTTP session (B26), the optional
 * GET stream (B27), notification acknowledgments (B28), list_changed from a legacy server
 * (B09 a) and server-to-client elicitation on the legacy wire (B41 a-d). Each test is named
 * after its case id and asserts the case's "Right" values.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { HttpAuthError, HttpError } from '../../src/transport/transportErrors.js';
import { SessionExpiredError } from '../../src/transport/http/legacy/legacyHttp.js';
import type { Era } from '../../src/era/era.js';
import { answerDiscover, HttpFake, sendJson, type RecordedRequest } from '../fakes/httpFake.js';
import { fakeRetryTimers, realTimers } from '../fakes/retryTimers.js';
import { H1, startLegacyHttpServer, type Answer, type LegacyHttpServer } from '../fakes/legacyHttpServer.js';
import { connectedLegacyPair } from '../fakes/legacyScripted.js';
import { connectedPair, type Wire } from '../fakes/scriptedServer.js';

const LEGACY_STDIO = fileURLToPath(new URL('../fakes/children/legacy-stdio.mjs', import.meta.url));
const clientInfo = { name: 'legacy-cases', version: '1.0.0' };

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  for (const item of open.splice(0)) await item.close();
});

function track<T extends { close(): Promise<void> }>(item: T): T {
  open.push(item);
  return item;
}

/** A client on the scripted legacy stdio child in `mode`. */
function stdioClient(mode: string, options: Partial<ClientOptions> = {}, extra: string[] = []): McpClient {
  const transport = new StdioTransport({
    command: process.execPath,
    args: [LEGACY_STDIO, mode, ...extra],
    stderr: 'pipe',
    closeTimeoutMs: 1000,
  });
  return track(new McpClient({ transport, clientInfo, probeTimeoutMs: 300, ...options }));
}

/** Every message the scripted stdio child received so far (it returns them from tools/call). */
async function received(client: McpClient): Promise<Wire[]> {
  const result = await client.callTool('received', {});
  return JSON.parse((result.content[0] as { text: string }).text) as Wire[];
}

function httpClient(
  url: string,
  options: Partial<ClientOptions> = {},
  transport: ConstructorParameters<typeof StreamableHttpTransport>[1] = {},
): McpClient {
  return track(
    new McpClient({
      transport: new StreamableHttpTransport(url, { retry: false, ...transport }),
      clientInfo,
      ...options,
    }),
  );
}

async function legacyHttp(script: Parameters<typeof startLegacyHttpServer>[0]): Promise<LegacyHttpServer> {
  return track(await startLegacyHttpServer(script));
}

describe('B45: server/discover probe, then initialize on any non-modern answer', () => {
  it.each([
    ['S1 (-32601)', 's1'],
    ['S2 (-32602)', 's2'],
    ['S3 (-32600 Server not initialized)', 's3'],
    ['S4 (no reply; the short probe timeout)', 's4'],
  ])(
    'B45 %s over stdio: initialize 2025-11-25, then notifications/initialized, then legacy requests',
    async (_label, mode) => {
      const client = stdioClient(mode);
      await client.connect();
      expect(client.era).toBe('legacy');
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(client.serverInfo).toMatchObject({ name: `legacy-stdio-${mode}` });
      const wire = await received(client);
      expect(wire.map((m) => m['method'])).toEqual([
        'server/discover',
        'initialize',
        'notifications/initialized',
        'tools/call',
      ]);
      expect(wire[0]?.['params']?._meta?.['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
      expect(wire[1]?.['params']).toEqual({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo });
      // The probe is never cancelled on the wire: the server has not been initialized yet.
      expect(wire.some((m) => m['method'] === 'notifications/cancelled')).toBe(false);
      // Legacy requests carry no modern _meta keys.
      const call = wire[3]?.['params'] as Wire;
      expect(Object.keys(call['_meta'] ?? {}).filter((k) => k.startsWith('io.modelcontextprotocol/'))).toEqual([]);
    },
  );

  const h2: Answer = (_r, res) =>
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Unsupported MCP-Protocol-Version header');
  const h3: Answer = (_r, res) =>
    res.writeHead(404, { 'Content-Type': 'text/html' }).end('<pre>Cannot POST /mcp</pre>');
  const h4: Answer = (_r, res) => res.writeHead(405).end();
  it.each([
    ['H1 (400, JSON-RPC -32000 Missing session ID)', H1],
    ['H2 (400 text/plain)', h2],
    ['H3 (404 text/html)', h3],
    ['H4 (405, empty)', h4],
  ])('B45 %s over HTTP: initialize, initialized with the session, then legacy requests', async (_label, probe) => {
    const server = await legacyHttp({ probe });
    const client = httpClient(server.url);
    await client.connect();
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    const [initialize] = server.posts('initialize');
    expect(initialize?.json.params.protocolVersion).toBe('2025-11-25');
    expect(initialize?.headers['mcp-session-id']).toBeUndefined();
    const [initialized] = server.posts('notifications/initialized');
    expect(initialized?.headers['mcp-session-id']).toBe('S1');
    expect(initialized?.headers['mcp-protocol-version']).toBe('2025-11-25');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo']);
    const [list] = server.posts('tools/list');
    expect(list?.headers).toMatchObject({ 'mcp-session-id': 'S1', 'mcp-protocol-version': '2025-11-25' });
    expect(list?.headers['mcp-method']).toBeUndefined();
  });

  it('B45 H3, when initialize fails too: a clear EraDetectionError naming every answer (the HTTP+SSE GET included)', async () => {
    const fake = track(
      await HttpFake.start((r, res) =>
        res.writeHead(404, { 'Content-Type': 'text/html' }).end(`<pre>Cannot ${r.method} /mcp</pre>`),
      ),
    );
    const client = httpClient(fake.url);
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'EraDetectionError', code: -33015 });
    expect((error as { data: unknown }).data).toMatchObject({
      probe: { method: 'server/discover', error: 'HttpError', status: 404 },
      fallback: { method: 'initialize', error: 'HttpError', status: 404 },
      sse: { method: 'GET', error: 'HttpError', status: 404 },
    });
    expect((error as Error).message).toContain('the HTTP+SSE fallback failed (GET: HTTP 404');
    expect(fake.requests.map((r) => `${r.method} ${r.json?.method ?? ''}`.trim())).toEqual([
      'POST server/discover',
      'POST initialize',
      'GET',
    ]);
    expect(client.state).toBe('closed');
  });

  it('B45 M1 (400 -32022): retries with a supported modern version, no fallback', async () => {
    const fake = track(
      await HttpFake.start((request, res) => {
        if (request.headers['mcp-protocol-version'] === '2027-01-01') {
          sendJson(res, 400, {
            jsonrpc: '2.0',
            id: request.json.id,
            error: {
              code: -32022,
              message: 'Unsupported protocol version',
              data: { supported: ['2026-07-28'], requested: '2027-01-01' },
            },
          });
          return;
        }
        if (!answerDiscover(request, res))
          sendJson(res, 404, {
            jsonrpc: '2.0',
            id: request.json?.id ?? null,
            error: { code: -32601, message: 'Method not found' },
          });
      }),
    );
    const client = httpClient(fake.url, { protocolVersions: ['2027-01-01', '2026-07-28'] });
    await client.connect();
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(fake.requests.map((r) => [r.json?.method, r.headers['mcp-protocol-version']])).toEqual([
      ['server/discover', '2027-01-01'],
      ['server/discover', '2026-07-28'],
    ]);
  });

  it('B45: -32601 that comes with HTTP 404 is a modern answer: thrown, no fallback', async () => {
    const fake = track(
      await HttpFake.start((request, res) =>
        sendJson(res, 404, {
          jsonrpc: '2.0',
          id: request.json?.id ?? null,
          error: { code: -32601, message: 'Method not found' },
        }),
      ),
    );
    const client = httpClient(fake.url);
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RpcError', code: -32601, httpStatus: 404 });
    expect(fake.requests.map((r) => r.json?.method)).toEqual(['server/discover']);
  });

  it('B45 M2 (401 with a Bearer challenge): HttpAuthError, no fallback', async () => {
    const fake = track(
      await HttpFake.start((_request, res) => {
        res
          .writeHead(401, {
            'WWW-Authenticate': 'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"',
          })
          .end();
      }),
    );
    const client = httpClient(fake.url);
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpAuthError);
    expect((error as HttpAuthError).resourceMetadata).toBe('https://mcp.example/.well-known/oauth-protected-resource');
    expect(fake.requests.map((r) => r.json?.method)).toEqual(['server/discover']);
  });

  it('B45: the era is remembered per server, so a reconnect does not probe again', async () => {
    const eraMemory = new Map<string, Era>();
    const first = stdioClient('s1', { eraMemory });
    await first.connect();
    const identity = first.serverIdentity;
    expect(eraMemory.get(identity)).toBe('legacy');
    await first.close();
    const second = stdioClient('s1', { eraMemory });
    await second.connect();
    expect(second.era).toBe('legacy');
    expect((await received(second)).map((m) => m['method'])).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/call',
    ]);
  });

  it('B45: a remembered era that fails is forgotten and the server probed again', async () => {
    const eraMemory = new Map<string, Era>();
    // The server is modern now: initialize is unknown to it.
    const { client, server } = await connectedPair({ eraMemory: seeded(eraMemory, 'memory:scripted', 'legacy') });
    track(client);
    expect(client.era).toBe('modern');
    expect(server.received.filter((m) => 'id' in m).map((m) => m['method'])).toEqual(['initialize', 'server/discover']);
    expect(eraMemory.get('memory:scripted')).toBe('modern');
  });
});

function seeded(memory: Map<string, Era>, key: string, era: Era): Map<string, Era> {
  memory.set(key, era);
  return memory;
}

describe('B26: a 404 on a legacy session request starts one new session', () => {
  it('B26: drops S1, initializes without a session id, and sends the call once more under S2 with a new id', async () => {
    const server = await legacyHttp({});
    const client = httpClient(server.url);
    await client.connect();
    await client.listTools();
    server.expireSessions();
    const result = await client.callTool('echo', { n: 5 });
    expect(result.content).toEqual([{ type: 'text', text: '{"n":5}' }]);
    expect(server.issued).toEqual(['S1', 'S2']);
    const inits = server.posts('initialize');
    expect(inits.map((r) => r.headers['mcp-session-id'])).toEqual([undefined, undefined]);
    const initialized = server.posts('notifications/initialized');
    expect(initialized.map((r) => r.headers['mcp-session-id'])).toEqual(['S1', 'S2']);
    const calls = server.posts('tools/call');
    expect(calls.map((r) => r.headers['mcp-session-id'])).toEqual(['S1', 'S2']);
    expect(calls[0]?.json.id).not.toBe(calls[1]?.json.id);
    // S2 is used from now on.
    await client.listTools({}, { cacheMode: 'no-store' });
    expect(server.posts('tools/list').at(-1)?.headers['mcp-session-id']).toBe('S2');
  });

  it('B26: when the resend gets 404 too: SessionExpiredError, and no loop', async () => {
    const server = await legacyHttp({
      request: (request, res) => {
        if (request.json?.method !== 'tools/call') return false;
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Session not found');
        return true;
      },
    });
    const client = httpClient(server.url);
    await client.connect();
    const error = await client.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(error).toMatchObject({ code: -33014, data: { method: 'tools/call', status: 404 } });
    expect(server.posts('initialize')).toHaveLength(2);
    expect(server.posts('tools/call')).toHaveLength(2);
  });

  it('B26: a 404 on a request sent without a session id is a plain HttpError, with no new initialize', async () => {
    const server = await legacyHttp({
      sessions: false,
      request: (request, res) => {
        if (request.json?.method !== 'tools/call') return false;
        res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>');
        return true;
      },
    });
    const client = httpClient(server.url);
    await client.connect();
    const error = await client.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).not.toBeInstanceOf(SessionExpiredError);
    expect((error as HttpError).status).toBe(404);
    expect(server.posts('initialize')).toHaveLength(1);
  });
});

describe('B27: the optional GET stream answered 405, 400 or 404', () => {
  const gets = (server: LegacyHttpServer): RecordedRequest[] => server.fake.requests.filter((r) => r.method === 'GET');

  /** A connected client whose retry waits run on fake timers (its own timers keep real time). */
  async function connectOnFakeRetryTimers(server: LegacyHttpServer, errors: Error[]) {
    const timers = fakeRetryTimers();
    const client = httpClient(
      server.url,
      { onError: (e) => errors.push(e), timers: realTimers },
      { timers: realTimers },
    );
    await timers.settle(client.connect());
    return { client, timers };
  }

  it('B27 A (405): exactly one GET, no retries; POST-only and healthy', async () => {
    const server = await legacyHttp({ get: (_r, res) => res.writeHead(405, { Allow: 'POST' }).end() });
    const errors: Error[] = [];
    const { client, timers } = await connectOnFakeRetryTimers(server, errors);
    await timers.until(() => gets(server).length === 1);
    const { tools } = await timers.settle(client.listTools());
    expect(tools).toHaveLength(1);
    expect(gets(server)).toHaveLength(1);
    expect(gets(server)[0]?.headers).toMatchObject({
      accept: 'text/event-stream',
      'mcp-session-id': 'S1',
      'mcp-protocol-version': '2025-11-25',
    });
    expect(timers.delays).toEqual([]);
    expect(errors).toEqual([]);
  });

  const b: Answer = (_r, res) => res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad Request: No sessionId');
  const c: Answer = (_r, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('Cannot GET /mcp');
  it.each([
    ['B (400)', b, 400],
    ['C (404 text/html)', c, 404],
  ])('B27 %s: listTools resolves; GET tried at most 3 times with backoff, no teardown', async (_label, get, status) => {
    // p-retry's jitter: each wait times (1 + 0.5) / 2.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const server = await legacyHttp({ get });
    const errors: Error[] = [];
    const { client, timers } = await connectOnFakeRetryTimers(server, errors);
    await timers.until(() => errors.length === 1);
    expect(gets(server)).toHaveLength(3);
    // Backoff 1 s then 2 s, each times 0.75 with this jitter: well within 60 s for all three.
    expect(timers.delays).toEqual([750, 1500]);
    expect(errors[0]).toBeInstanceOf(HttpError);
    expect((errors[0] as HttpError).status).toBe(status);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    expect(client.state).toBe('open');
    expect(gets(server)).toHaveLength(3);
    expect(server.issued).toEqual(['S1']);
  });

  it('B27: in modern mode the client never sends GET', async () => {
    const fake = track(
      await HttpFake.start((request, res) => {
        if (answerDiscover(request, res)) return;
        sendJson(res, 200, {
          jsonrpc: '2.0',
          id: request.json.id,
          result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'private' },
        });
      }),
    );
    const client = httpClient(fake.url);
    await client.connect();
    await client.listTools();
    await client.close();
    expect(client.era).toBe('modern');
    expect(fake.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
  });
});

describe('B28 (legacy): acknowledging notifications/initialized', () => {
  const variants: Array<[string, (res: ServerResponse) => void]> = [
    ['A (202, no Content-Type, empty)', (res) => res.writeHead(202).end()],
    [
      'B (200 application/json, Content-Length 0)',
      (res) => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '0' }).end(),
    ],
    ['C (204)', (res) => res.writeHead(204).end()],
    [
      'D (202 text/plain "Accepted")',
      (res) => res.writeHead(202, { 'Content-Type': 'text/plain; charset=UTF-8' }).end('Accepted'),
    ],
  ];
  it.each(variants)('B28 %s counts as success; the next tools/list goes ahead', async (_label, answer) => {
    const server = await legacyHttp({ initialized: (_r, res) => answer(res) });
    const errors: Error[] = [];
    const client = httpClient(server.url, { onError: (e) => errors.push(e) });
    await client.connect();
    expect((await client.listTools()).tools).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('B28 E (400 with a JSON-RPC error): reported through onError, no teardown', async () => {
    const server = await legacyHttp({
      initialized: (_r, res) => sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32600, message: 'bad' } }),
    });
    const errors: Error[] = [];
    const client = httpClient(server.url, { onError: (e) => errors.push(e) });
    await client.connect();
    expect((await client.listTools()).tools).toHaveLength(1);
    expect(client.state).toBe('open');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(HttpError);
    expect((errors[0] as HttpError).data).toMatchObject({
      status: 400,
      method: 'notifications/initialized',
      rpcError: { code: -32600, message: 'bad' },
    });
  });
});

describe('B09 (a): list_changed from a legacy server without listChanged', () => {
  it('B09 a: the tools cache is dropped anyway, nothing is written back, and a subscriber hears it', async () => {
    const { client, server } = await connectedLegacyPair(
      { legacyTtlMs: 60_000 },
      { capabilities: { tools: {} }, serverInfo: { name: 'no-list-changed', version: '1' } },
    );
    track(client);
    server.on('tools/list', () => ({ result: { tools: [{ name: 'a', inputSchema: { type: 'object' } }] } }));
    await client.listTools();
    await client.listTools();
    expect(server.requests('tools/list')).toHaveLength(1);
    const sub = await client.subscribe({ toolsListChanged: true });
    expect(sub.notHonoured).toEqual({ toolsListChanged: true });
    const heard: string[] = [];
    sub.on((event) => heard.push(event.type));
    const before = server.received.length;
    await server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await vi.waitFor(() => expect(heard).toEqual(['toolsListChanged']));
    await client.listTools();
    expect(server.requests('tools/list')).toHaveLength(2);
    // Only the second tools/list went out: nothing answered the notification.
    expect(server.received.slice(before).map((m) => m['method'])).toEqual(['tools/list']);
  });
});

describe('B41: legacy server-to-client elicitation', () => {
  async function ask(
    server: Awaited<ReturnType<typeof connectedLegacyPair>>['server'],
    params: Record<string, unknown>,
  ): Promise<Wire> {
    await server.send({ jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params });
    return server.waitFor((m) => m['id'] === 'e1' && !('method' in m));
  }
  const form = { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } };

  it('B41 a: a client without an elicitation handler declares no elicitation key in initialize', async () => {
    const { client, server } = await connectedLegacyPair();
    track(client);
    const [initialize] = server.requests('initialize');
    expect(initialize?.['params']?.capabilities).toEqual({});
    const response = await ask(server, form);
    expect(response['error']).toMatchObject({ code: -32601 });
  });

  it('B41 b: URL mode only, a form request gets -32602 and the handler is not called', async () => {
    const url = vi.fn(() => ({ action: 'accept' as const }));
    const { client, server } = await connectedLegacyPair({ handlers: { elicitation: { url } } });
    track(client);
    expect(server.requests('initialize')[0]?.['params']?.capabilities).toEqual({ elicitation: { url: {} } });
    const response = await ask(server, form);
    expect(response['error']).toMatchObject({ code: -32602 });
    expect(url).not.toHaveBeenCalled();
  });

  it.each([
    [
      'c (the handler throws)',
      () => {
        throw new Error('boom');
      },
    ],
    ['d (the handler resolves undefined)', async () => undefined],
  ])('B41 %s: -32603, exactly one response', async (_label, handler) => {
    const { client, server } = await connectedLegacyPair({ handlers: { elicitation: { form: handler as never } } });
    track(client);
    const response = await ask(server, form);
    expect(response).toMatchObject({ jsonrpc: '2.0', id: 'e1', error: { code: -32603 } });
    expect(typeof response['error'].message).toBe('string');
    // A round trip later there is still exactly one response for e1.
    await client.request('ping');
    expect(server.received.filter((m) => m['id'] === 'e1')).toHaveLength(1);
  });
});
