/**
 * The whole client over Streamable HTTP against a real 2026-07-28 server (official
 * @modelcontextprotocol/server v2 behind createMcpHandler) on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import { CancelledError, ProtocolError } from '../../src/errors/errors.js';
import { CAFE_URI, observed, startHttpExampleServer, type HttpExampleServer } from '../fakes/httpExampleServer.js';
import { HTTP_PATHS } from '../fakes/httpPaths.js';

describe.each(HTTP_PATHS)('$path path', ({ Transport: StreamableHttpTransport }) => {
  describe('McpClient over Streamable HTTP', () => {
    let server: HttpExampleServer;
    let client: McpClient;
    const errors: Error[] = [];

    beforeAll(async () => {
      server = await startHttpExampleServer();
      client = new McpClient({
        transport: new StreamableHttpTransport(server.url),
        clientInfo: { name: 'mcp-live-tests', version: '0.0.0' },
        onError: (error) => errors.push(error),
      });
      await client.connect();
    });
    afterAll(async () => {
      await client.close();
      await server.close();
    });

    it('connects with server/discover and sends the envelope headers', () => {
      expect(client.protocolVersion).toBe('2026-07-28');
      expect(client.serverInfo?.name).toBe('mcp-live-http-test');
      const discover = server.requests.find((r) => r.headers['mcp-method'] === 'server/discover');
      expect(discover?.headers['mcp-protocol-version']).toBe('2026-07-28');
    });

    it('mirrors x-mcp-header parameters once tools/list was seen', async () => {
      const { items } = await client.listAllTools();
      expect(items.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'regional', 'slow']));
      const result = await client.callTool('regional', { region: 'eu-west', query: 'q' });
      expect(result.content[0]).toMatchObject({ type: 'text', text: 'eu-west: q' });
      const call = server.requests.filter((r) => r.headers['mcp-name'] === 'regional').at(-1);
      expect(call?.headers['mcp-param-region']).toBe('eu-west');
    });

    it('recovers from -32020 by learning the tools again when it had not listed them (fresh client)', async () => {
      const fresh = new McpClient({
        transport: new StreamableHttpTransport(server.url),
        clientInfo: { name: 'fresh', version: '0' },
      });
      await fresh.connect();
      const result = await fresh.callTool('regional', { region: 'us', query: 'x' });
      expect(result.content[0]).toMatchObject({ text: 'us: x' });
      await fresh.close();
    });

    it('B13: reads a non-ASCII uri through the base64-wrapped Mcp-Name', async () => {
      const read = await client.readResource(new URL(CAFE_URI).href);
      expect(read.contents).toHaveLength(1);
    });

    it('cancels by closing the response stream; the server sees the abort', async () => {
      const before = observed.slowCancelled;
      const controller = new AbortController();
      const call = client.callTool('slow', { steps: 20, stepMs: 100 }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 150);
      await expect(call).rejects.toBeInstanceOf(CancelledError);
      for (let i = 0; i < 50 && observed.slowCancelled === before; i++) await new Promise((r) => setTimeout(r, 20));
      expect(observed.slowCancelled).toBe(before + 1);
    });

    it('delivers request-scoped log messages to that call', async () => {
      const logs: unknown[] = [];
      await client.callTool('slow', { steps: 2, stepMs: 10 }, { logLevel: 'info', onLog: (m) => logs.push(m.data) });
      expect(logs).toEqual(['step 1', 'step 2']);
      expect(errors.filter((e) => !(e instanceof ProtocolError))).toEqual([]);
    });
  });
});
