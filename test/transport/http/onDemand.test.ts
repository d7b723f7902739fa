/**
 * The parts of the HTTP transports that load on first use (docs/transports.md, "What loads
 * when"): each works from a fresh module graph (`vi.resetModules()`, so nothing is loaded yet)
 * without a request of its own on the wire, and a part that cannot be loaded fails what needed
 * it with `ModuleLoadError` (-33042) before anything is sent for it.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerDiscover, HttpFake, sendJson, sseEvent, startSse, type RecordedRequest } from '../../fakes/httpFake.js';
import { instantTimers, startRecording } from '../../fakes/httpHarness.js';
import { startLegacyHttpServer } from '../../fakes/legacyHttpServer.js';
import type { McpClient } from '../../../src/client/client.js';
import type { ClientOptions } from '../../../src/client/options.js';
import type { StreamableHttpTransportOptions } from '../../../src/transport/http/streamableHttpOptions.js';

/** The modules as a program that imported nothing else yet sees them. */
async function fresh() {
  const [{ McpClient }, { StreamableHttpTransport }, { LegacySseTransport }] = await Promise.all([
    import('../../../src/client/client.js'),
    import('../../../src/transport/http/streamableHttp.js'),
    import('../../../src/transport/http/legacy/legacySse.js'),
  ]);
  return { McpClient, StreamableHttpTransport, LegacySseTransport };
}

/** Makes the dynamic import of `path` (relative to this file) fail, as a chunk missing from a deployment would. */
function failToLoad(path: string): void {
  vi.doMock(path, () => {
    throw new Error('chunk missing');
  });
}

const LEGACY_WIRE = '../../../src/transport/http/legacy/legacyWire.lazy.js';
const SSE_CONNECTION = '../../../src/transport/http/legacy/sseConnection.lazy.js';

const trace = (requests: RecordedRequest[]): string[] =>
  requests.map((r) => `${r.method} ${r.path} ${r.json?.method ?? ''}`.trim());

describe('parts of the HTTP transports loaded on first use', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  beforeEach(() => {
    vi.resetModules();
  });
  afterEach(async () => {
    vi.doUnmock(LEGACY_WIRE);
    vi.doUnmock(SSE_CONNECTION);
    for (const item of open.splice(0).reverse()) await item.close();
  });

  /** A client of `url` from fresh modules over a StreamableHttpTransport (no retries unless given), closed after the test. */
  async function freshClient(
    url: string,
    options: Partial<ClientOptions> = {},
    transport: StreamableHttpTransportOptions = { retry: false },
  ): Promise<McpClient> {
    const { McpClient, StreamableHttpTransport } = await fresh();
    const client = new McpClient({
      transport: new StreamableHttpTransport(url, transport),
      clientInfo: { name: 'on-demand', version: '1' },
      ...options,
    });
    open.push(client);
    return client;
  }

  describe('the 2025-11-25 session (legacy wire)', () => {
    it('a fresh client falls back to a legacy server with the same requests as ever: session id, GET, DELETE', async () => {
      const server = await startLegacyHttpServer();
      open.push(server);
      const client = await freshClient(server.url);
      await client.connect();
      expect(client.era).toBe('legacy');
      const result = await client.callTool('echo', { a: 1 });
      expect(result.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
      await client.close();
      expect(trace(server.fake.requests)).toEqual([
        'POST /mcp server/discover',
        'POST /mcp initialize',
        'POST /mcp notifications/initialized',
        'GET /mcp',
        'POST /mcp tools/call',
        'DELETE /mcp',
      ]);
      expect(server.fake.requests[1]?.headers['mcp-session-id']).toBeUndefined();
      expect(server.fake.requests[4]?.headers).toMatchObject({
        'mcp-session-id': 'S1',
        'mcp-protocol-version': '2025-11-25',
      });
      expect(server.fake.requests[4]?.headers['mcp-method']).toBeUndefined();
    });

    it('when its code cannot be loaded, connect() fails with ModuleLoadError and no initialize is sent', async () => {
      failToLoad(LEGACY_WIRE);
      const server = await startLegacyHttpServer();
      open.push(server);
      const client = await freshClient(server.url, { era: 'legacy' });
      const error = (await client.connect().catch((e: unknown) => e)) as Error & { code: number; data: unknown };
      expect(error.name).toBe('ModuleLoadError');
      expect(error.code).toBe(-33042);
      expect(error.data).toEqual({ module: 'legacy-http' });
      expect(server.fake.requests).toEqual([]);
    });
  });

  describe('the deprecated HTTP+SSE transport', () => {
    /** A 2024-11-05 server at /sse: POSTs to /sse get 405; the GET stream names /messages, where POSTs are answered on the stream. */
    async function oldServer(): Promise<HttpFake> {
      let stream: ServerResponse | undefined;
      const fake = await HttpFake.start((request, res) => {
        if (request.method === 'GET') {
          stream = res;
          startSse(res, ['event: endpoint\ndata: /messages\n\n']);
          return;
        }
        if (!request.path.startsWith('/messages')) return void res.writeHead(405, { Allow: 'GET' }).end();
        res.writeHead(202).end();
        const json = request.json as { id?: number; method?: string };
        if (json.id === undefined) return;
        const result =
          json.method === 'initialize'
            ? { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } }
            : { tools: [{ name: 'old', inputSchema: { type: 'object' } }] };
        stream?.write(sseEvent({ jsonrpc: '2.0', id: json.id, result }));
      }, '/sse');
      open.push(fake);
      return fake;
    }

    it('a fresh client falls back to it over a StreamableHttpTransport', async () => {
      const fake = await oldServer();
      const client = await freshClient(fake.url, { legacyProtocolVersions: ['2025-11-25', '2024-11-05'] });
      await client.connect();
      expect(client.eraVerdict).toBe('legacy-sse');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['old']);
      expect(trace(fake.requests)).toEqual([
        'POST /sse server/discover',
        'POST /sse initialize',
        'GET /sse',
        'POST /messages initialize',
        'POST /messages notifications/initialized',
        'POST /messages tools/list',
      ]);
    });

    it('a fresh LegacySseTransport loads in start(): endpoint, then a request answered on the stream', async () => {
      const { LegacySseTransport } = await fresh();
      const fake = await oldServer();
      const transport = new LegacySseTransport(fake.url);
      open.push(transport);
      expect(transport.endpoint).toBeUndefined();
      const recorded = await startRecording(transport);
      expect(transport.endpoint).toBe(fake.url.replace('/sse', '/messages'));
      await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      await vi.waitFor(() => expect(recorded.messages).toHaveLength(1));
      expect(recorded.messages[0]?.message).toMatchObject({ id: 1, result: { tools: [{ name: 'old' }] } });
    });

    it('when its code cannot be loaded, start() fails with ModuleLoadError, sends nothing, and the transport is closed', async () => {
      failToLoad(SSE_CONNECTION);
      const { LegacySseTransport } = await fresh();
      const fake = await oldServer();
      const transport = new LegacySseTransport(fake.url);
      const error = (await startRecording(transport).catch((e: unknown) => e)) as Error & {
        code: number;
        data: unknown;
      };
      expect(error.name).toBe('ModuleLoadError');
      expect(error.code).toBe(-33042);
      expect(error.data).toEqual({ module: 'http-sse' });
      expect(fake.requests).toEqual([]);
      await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toMatchObject({
        name: 'ConnectionClosedError',
        data: { reason: 'transport closed' },
      });
    });
  });

  describe('SSE response bodies', () => {
    it('a fresh transport reads its first text/event-stream response: progress, then the response', async () => {
      const { StreamableHttpTransport } = await fresh();
      const fake = await HttpFake.start((request, res) => {
        const id = request.json?.id;
        startSse(res, [
          sseEvent({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } }),
          sseEvent({ jsonrpc: '2.0', id, result: { content: [] } }),
        ]);
        res.end();
      });
      open.push(fake);
      const transport = new StreamableHttpTransport(fake.url, { retry: false });
      open.push(transport);
      const recorded = await startRecording(transport);
      await transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } });
      expect(recorded.messages.map((m) => m.message.method ?? m.message.id)).toEqual(['notifications/progress', 7]);
      expect(recorded.messages[1]?.context).toEqual({ relatedRequestId: 7 });
      expect(fake.requests).toHaveLength(1);
    });
  });

  describe('Mcp-Param-* headers', () => {
    /** A 2026-07-28 server whose tools/list lists `tools`; tools/call answers 503 first when `busyOnce`. */
    async function modernServer(tools: unknown[], busyOnce = false): Promise<HttpFake> {
      let busy = busyOnce;
      const fake = await HttpFake.start((request, res) => {
        if (answerDiscover(request, res)) return;
        const id = request.json?.id;
        if (request.json?.method === 'tools/list')
          return sendJson(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'complete', tools, ttlMs: 0 } });
        if (busy) {
          busy = false;
          return void res.writeHead(503).end();
        }
        sendJson(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'complete', content: [] } });
      });
      open.push(fake);
      return fake;
    }

    async function client(url: string): Promise<McpClient> {
      const c = await freshClient(
        url,
        { era: 'modern' },
        { timers: instantTimers(), retry: { retries: 1, jitter: false } },
      );
      await c.connect();
      return c;
    }

    it('a fresh client mirrors the x-mcp-header parameters of the tools its tools/list declares', async () => {
      const fake = await modernServer([
        {
          name: 'route',
          inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
        },
      ]);
      const c = await client(fake.url);
      await c.listTools();
      await c.callTool('route', { region: 'eu-west1' });
      const call = fake.requests.find((r) => r.json?.method === 'tools/call');
      expect(call?.headers['mcp-param-region']).toBe('eu-west1');
    });

    it('without annotations, idempotency hints still let a tools/call be retried', async () => {
      const fake = await modernServer(
        [
          { name: 'look', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'write', inputSchema: { type: 'object' } },
        ],
        true,
      );
      const c = await client(fake.url);
      expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['look', 'write']);
      await c.callTool('look', {});
      expect(fake.requests.filter((r) => r.json?.method === 'tools/call')).toHaveLength(2);
    });
  });

  describe('the tries after a 401, a 403 or a redirect', () => {
    /** Answers 401 to a request without `Bearer AT2`, after a same-origin 307 from /old. */
    async function guarded(): Promise<HttpFake> {
      const fake = await HttpFake.start((request, res) => {
        if (request.path === '/old') return void res.writeHead(307, { Location: '/mcp' }).end();
        if (request.headers['authorization'] !== 'Bearer AT2')
          return void res.writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token"' }).end();
        sendJson(res, 200, { jsonrpc: '2.0', id: request.json?.id, result: {} });
      }, '/old');
      open.push(fake);
      return fake;
    }

    it("a fresh transport follows the redirect and retries with the provider's new credential", async () => {
      const { StreamableHttpTransport } = await fresh();
      const fake = await guarded();
      const transport = new StreamableHttpTransport(fake.url, {
        retry: false,
        authProvider: (info) => (info.attempt === 1 ? 'Bearer AT1' : 'Bearer AT2'),
      });
      open.push(transport);
      const recorded = await startRecording(transport);
      await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(recorded.messages.map((m) => m.message.id)).toEqual([1]);
      expect(fake.requests.map((r) => `${r.path} ${r.headers['authorization']}`)).toEqual([
        '/old Bearer AT1',
        '/mcp Bearer AT1',
        '/mcp Bearer AT2',
      ]);
    });
  });
});
