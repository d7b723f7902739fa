/**
 * The client over Streamable HTTP against a real MCP server (official
 * @modelcontextprotocol/server v2, `createMcpHandler`) on 127.0.0.1. That server checks
 * MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* against the body (-32020).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../../src/client/client.js';
import { CancelledError } from '../../../src/errors/errors.js';
import type { JsonRpcMessage, JsonRpcNotification } from '../../../src/wire/messages.js';
import { JsonRpcSession } from '../../../src/jsonrpc/session.js';
import { paramHeadersFor, type ParamHeaderMap } from '../../../src/transport/http/mcpParamHeaders.js';
import type { StreamableHttpTransport } from '../../../src/transport/http/streamableHttp.js';
import type {
  Transport,
  TransportHandlers,
  TransportLink,
  TransportLinkDeps,
  TransportSendOptions,
} from '../../../src/transport/transport.js';
import { systemTimers } from '../../../src/util/clock.js';
import { CAFE_URI, observed, startHttpExampleServer, type HttpExampleServer } from '../../fakes/httpExampleServer.js';
import { HTTP_PATHS } from '../../fakes/httpPaths.js';

describe.each(HTTP_PATHS)('$path path', ({ Transport: StreamableHttpTransport }) => {
  /**
   * What the client will do for `x-mcp-header`: keep each listed tool's map and hand the
   * `Mcp-Param-*` headers of a `tools/call` to the transport.
   */
  class ParamHeaderTransport implements Transport {
    readonly maps = new Map<string, ParamHeaderMap>();
    constructor(private readonly inner: StreamableHttpTransport) {}
    get capabilities() {
      return this.inner.capabilities;
    }
    get serverIdentity() {
      return this.inner.serverIdentity;
    }
    links(deps: TransportLinkDeps): readonly TransportLink[] {
      return this.inner.links(deps);
    }
    start(handlers: TransportHandlers): Promise<void> {
      return this.inner.start(handlers);
    }
    send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
      if ('method' in message && message.method === 'tools/call') {
        const map = this.maps.get(String(message.params?.['name']));
        if (map !== undefined)
          return this.inner.send(message, { ...options, headers: paramHeadersFor(map, message.params?.['arguments']) });
      }
      return this.inner.send(message, options);
    }
    close(): Promise<void> {
      return this.inner.close();
    }
  }

  describe('the client over Streamable HTTP against a real server', () => {
    let server: HttpExampleServer;
    let client: McpClient;
    let transport: ParamHeaderTransport;
    const errors: Error[] = [];

    beforeAll(async () => {
      server = await startHttpExampleServer();
      transport = new ParamHeaderTransport(new StreamableHttpTransport(server.url));
      client = new McpClient({
        transport,
        clientInfo: { name: 'mcp-live-http-tests', version: '0.0.0' },
        onError: (e) => errors.push(e),
      });
      await client.connect();
    });
    afterAll(async () => {
      await client.close();
      await server.close();
    });

    it('discovers the server and names it by URL', () => {
      expect(client.protocolVersion).toBe('2026-07-28');
      expect(client.serverInfo).toMatchObject({ name: 'mcp-live-http-test' });
      expect(client.serverIdentity).toBe(server.url);
    });

    it('B13: reads a resource whose URI is not ASCII (the server decodes and checks Mcp-Name)', async () => {
      const result = await client.readResource(CAFE_URI);
      expect(result.contents[0]).toMatchObject({ uri: CAFE_URI, text: '# Café' });
      const sent = server.requests.filter((r) => r.headers['mcp-method'] === 'resources/read');
      expect(sent.at(-1)?.headers['mcp-name']).toBe('=?base64?ZmlsZTovLy9kb2NzL2NhZsOpLm1k?=');
    });

    it('calls tools and gets prompts', async () => {
      await expect(client.callTool('echo', { message: 'hi' })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'hi' }],
      });
      await expect(client.getPrompt('greet', { name: 'Ada' })).resolves.toMatchObject({
        messages: [{ role: 'user', content: { text: 'Hello, Ada' } }],
      });
    });

    it('x-mcp-header: a call without Mcp-Param-Region gets -32020; the client learns the tools once and retries with it', async () => {
      const from = server.requests.length;
      await expect(client.callTool('regional', { region: 'eu-west', query: 'q' })).resolves.toMatchObject({
        content: [{ text: 'eu-west: q' }],
      });
      const wire = server.requests.slice(from).map((r) => [r.headers['mcp-method'], r.headers['mcp-param-region']]);
      expect(wire).toEqual([
        ['tools/call', undefined],
        ['tools/list', undefined],
        ['tools/call', 'eu-west'],
      ]);
      await expect(client.callTool('regional', { region: 'Zürich', query: 'q' })).resolves.toMatchObject({
        content: [{ text: 'Zürich: q' }],
      });
      expect(server.requests.at(-1)?.headers['mcp-param-region']).toBe('=?base64?WsO8cmljaA==?=');
    });

    it('delivers progress and logs from the SSE response to the call', async () => {
      const progress: number[] = [];
      const logs: unknown[] = [];
      const result = await client.callTool(
        'slow',
        { steps: 3, stepMs: 10 },
        { onProgress: (p) => progress.push(p.progress), logLevel: 'info', onLog: (m) => logs.push(m.data) },
      );
      expect(result.content).toEqual([{ type: 'text', text: '3/3' }]);
      expect(progress).toEqual([1, 2, 3]);
      expect(logs).toEqual(['step 1', 'step 2', 'step 3']);
    });

    it('cancelling a call closes its stream, and the server sees the cancellation', async () => {
      const before = observed.slowCancelled;
      const controller = new AbortController();
      const call = client.callTool(
        'slow',
        { steps: 50, stepMs: 100 },
        { signal: controller.signal, onProgress: () => controller.abort('enough') },
      );
      await expect(call).rejects.toBeInstanceOf(CancelledError);
      await vi.waitFor(() => expect(observed.slowCancelled).toBe(before + 1), { timeout: 5000, interval: 20 });
    });

    it('subscriptions/listen: an open stream carries change notifications tagged with the listen id', async () => {
      const session = new JsonRpcSession({
        transport: new StreamableHttpTransport(server.url),
        timers: systemTimers,
        onNotification: () => {},
        onError: (e) => errors.push(e),
      });
      await session.start();
      const received: JsonRpcNotification[] = [];
      const controller = new AbortController();
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'listen', version: '0' },
      };
      const listen = session.request(
        'subscriptions/listen',
        { notifications: { toolsListChanged: true }, _meta: meta },
        {
          signal: controller.signal,
          timeoutMs: 60_000,
          maxTotalTimeoutMs: 60_000,
          resetTimeoutOnProgress: false,
          onRelatedNotification: (n) => received.push(n),
        },
      );
      await vi.waitFor(
        () => expect(received.map((n) => n.method)).toContain('notifications/subscriptions/acknowledged'),
        { timeout: 5000, interval: 10 },
      );
      server.notify.toolsChanged();
      await vi.waitFor(() => expect(received.map((n) => n.method)).toContain('notifications/tools/list_changed'), {
        timeout: 5000,
        interval: 10,
      });
      const changed = received.find((n) => n.method === 'notifications/tools/list_changed')!;
      const ack = received[0]!;
      const subscriptionId = (ack.params?.['_meta'] as Record<string, unknown>)[
        'io.modelcontextprotocol/subscriptionId'
      ];
      expect((changed.params?.['_meta'] as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId']).toBe(
        subscriptionId,
      );
      controller.abort();
      await expect(listen).rejects.toBeInstanceOf(CancelledError);
      await session.close();
    });

    it('never sends GET, and reports nothing unexpected', () => {
      expect(server.requests.length).toBeGreaterThan(5);
      expect(server.requests.every((r) => r.method === 'POST')).toBe(true);
      expect(server.requests.every((r) => r.headers['mcp-protocol-version'] === '2026-07-28')).toBe(true);
      expect(errors).toEqual([]);
    });
  });
});
