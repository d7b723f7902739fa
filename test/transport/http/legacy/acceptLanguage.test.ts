/**
 * `acceptLanguage` (SEP-2792, a draft) on the 2025-11-25 HTTP wires: a legacy Streamable HTTP
 * server and an HTTP+SSE server (the official SDK's `SSEServerTransport`), both on 127.0.0.1 and
 * recording every request's headers, get the preference as `Accept-Language` on each POST that
 * carries it in `_meta`, byte for byte, the call's in place of the client's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../../../src/client/client.js';
import { LegacySseTransport } from '../../../../src/transport/http/legacy/legacySse.js';
import { StreamableHttpTransport } from '../../../../src/transport/http/streamableHttp.js';
import type { Transport } from '../../../../src/transport/transport.js';
import { startLegacyHttpServer } from '../../../fakes/legacyHttpServer.js';
import { startV1SseServer } from '../../../fakes/v1SseServer.js';

const KEY = 'io.modelcontextprotocol/acceptLanguage';
const PREFERENCE = 'fr-CA,fr;q=0.9,en;q=0.5';

const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function connected(transport: Transport): Promise<McpClient> {
  const client = new McpClient({
    transport,
    clientInfo: { name: 'lang', version: '1' },
    acceptLanguage: PREFERENCE,
  });
  open.push(client);
  await client.connect();
  expect(client.era).toBe('legacy');
  return client;
}

describe('Accept-Language on the 2025-11-25 wire', () => {
  it('Streamable HTTP: every request with the preference in _meta carries it as the header', async () => {
    const server = await startLegacyHttpServer();
    open.push(server);
    const client = await connected(new StreamableHttpTransport(server.url, { retry: false }));
    await client.listTools();
    await client.callTool('echo', { a: 1 }, { acceptLanguage: 'de' });
    const [list] = server.posts('tools/list');
    expect(list?.json.params._meta[KEY]).toBe(PREFERENCE);
    expect(list?.headers['accept-language']).toBe(PREFERENCE);
    expect(list?.headers['mcp-session-id']).toBe('S1');
    const [call] = server.posts('tools/call');
    expect(call?.json.params._meta[KEY]).toBe('de');
    expect(call?.headers['accept-language']).toBe('de');
    // A notification without the preference in its _meta goes without it (fetch's own `*` if any).
    const [initialized] = server.posts('notifications/initialized');
    expect(initialized?.json.params?._meta?.[KEY]).toBeUndefined();
    expect(initialized?.headers['accept-language']).not.toBe(PREFERENCE);
  });

  it('HTTP+SSE: each POST to the endpoint carries it', async () => {
    const server = await startV1SseServer();
    open.push(server);
    const client = await connected(new LegacySseTransport(server.url));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    await client.callTool('echo', { message: 'hi' }, { acceptLanguage: 'ja' });
    const posts = server.seen.filter((seen) => seen.method === 'POST');
    // tools/list with the client's preference, then tools/call with the call's.
    expect(posts.slice(-2).map((seen) => seen.headers['accept-language'])).toEqual([PREFERENCE, 'ja']);
    expect(server.posted.slice(-2)).toEqual(['tools/list', 'tools/call']);
  });
});
