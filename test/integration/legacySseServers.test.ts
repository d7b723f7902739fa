/**
 * The deprecated HTTP+SSE transport (2024-11-05) against real servers: an in-process server on
 * the v1 SDK's `SSEServerTransport` (test/fakes/v1SseServer.ts) and
 * `@modelcontextprotocol/server-everything` in its `sse` mode, both on 127.0.0.1. The client
 * is given the SSE URL as a Streamable HTTP endpoint and finds its way there: probe,
 * `initialize`, then `GET` for the `endpoint` event. See docs/legacy.md.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { EraVerdict } from '../../src/era/era.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { LegacySseTransport } from '../../src/transport/http/legacy/legacySse.js';
import type { Transport } from '../../src/transport/transport.js';
import type { InputHandlers } from '../../src/inputRequired/handlers.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';
import { startV1SseServer, type V1SseServer } from '../fakes/v1SseServer.js';
import { EVERYTHING_SERVER, spawnLoopbackServer, type LoopbackServer } from '../fakes/publishedServers.js';

const clientInfo = { name: 'mcp-live-sse-interop', version: '0.0.0' };
const handlers: InputHandlers = {
  elicitation: { form: () => ({ action: 'accept', content: {} }) },
  roots: { list: () => ({ roots: [{ uri: 'file:///projects/sse', name: 'sse' }] }) },
};
const text = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;
const allText = (result: { content: unknown[] }): string =>
  result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');

function client(transport: Transport, options: Partial<ClientOptions> = {}): McpClient {
  return new McpClient({ transport, clientInfo, handlers, ...options });
}

describe('a v1-SDK HTTP+SSE server (SSEServerTransport), reached from its SSE URL', () => {
  let server: V1SseServer;
  let v1: McpClient;
  const errors: Error[] = [];
  const eraMemory = new Map<string, EraVerdict>();
  beforeAll(async () => {
    server = await startV1SseServer();
    v1 = client(new StreamableHttpTransport(server.url), { eraMemory, onError: (e) => errors.push(e) });
    await v1.connect();
  });
  afterAll(async () => {
    await v1?.close();
    await server?.close();
  });

  it('falls back step by step: POST server/discover 404, POST initialize 404, GET /sse, then POSTs to the endpoint', () => {
    expect(v1.era).toBe('legacy');
    expect(v1.eraVerdict).toBe('legacy-sse');
    expect(v1.protocolVersion).toBe('2025-11-25');
    expect(v1.serverInfo).toMatchObject({ name: 'v1-sse-fake', version: '1.0.0' });
    expect(v1.instructions).toBe('an HTTP+SSE server');
    expect(
      server.seen.slice(0, 5).map((r) => `${r.method} ${r.path.replace(/sessionId=[\w-]+/, 'sessionId=S')}`),
    ).toEqual(['POST /sse', 'POST /sse', 'GET /sse', 'POST /messages?sessionId=S', 'POST /messages?sessionId=S']);
    expect(server.posted.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    expect(server.seen[2]?.headers['accept']).toBe('text/event-stream');
    expect(eraMemory.get(new URL(server.url).origin + '/sse')).toBe('legacy-sse');
  });

  it('tools/list, tools/call, resources/read, prompts/get', async () => {
    const { items } = await v1.listAllTools();
    expect(items.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'roots', 'ask', 'grow', 'touch']));
    expect(text(await v1.callTool('echo', { message: 'over SSE' }))).toBe('over SSE');
    const read = await v1.readResource('demo://note');
    expect(read.contents).toEqual([{ uri: 'demo://note', text: 'first' }]);
    const prompt = await v1.getPrompt('greet', { name: 'Ada' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
  });

  it('answers the server requests roots/list and elicitation/create with the host handlers, POSTed to the endpoint', async () => {
    expect(JSON.parse(text(await v1.callTool('roots', {})))).toEqual({
      roots: [{ uri: 'file:///projects/sse', name: 'sse' }],
    });
    expect(JSON.parse(text(await v1.callTool('ask', {})))).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(server.posted.filter((m) => m === '(response)').length).toBe(2);
  });

  it('list_changed and resources/updated feed a live list and a subscription', async () => {
    const tools = await v1.live('tools', { debounceMs: 0 });
    const sub = await v1.subscribe({ resourceSubscriptions: ['demo://note'] });
    const heard: SubscriptionEvent[] = [];
    sub.on((event) => heard.push(event));
    const before = tools.items.length;
    await v1.callTool('grow', {});
    await vi.waitFor(() => expect(tools.items.map((t) => t.name)).toContain('grown_1'));
    expect(tools.items.length).toBe(before + 1);
    await v1.callTool('touch', {});
    await vi.waitFor(() => expect(heard).toContainEqual({ type: 'resourceUpdated', uri: 'demo://note' }));
    expect((await v1.readResource('demo://note')).contents[0]).toMatchObject({ text: 'changed 1' });
    await sub.close();
    await tools.close();
    expect(server.posted).toContain('resources/subscribe');
    await vi.waitFor(() => expect(server.posted).toContain('resources/unsubscribe'));
  });

  it('cancels with notifications/cancelled, POSTed to the endpoint', async () => {
    const controller = new AbortController();
    const call = v1.callTool('slow', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(server.posted.at(-1)).toBe('tools/call'));
    controller.abort('no longer needed');
    await expect(call).rejects.toMatchObject({ name: 'CancelledError', code: -32800 });
    await vi.waitFor(() => expect(server.posted.at(-1)).toBe('notifications/cancelled'));
  });

  it('reports nothing unexpected', () => {
    expect(errors).toEqual([]);
  });

  it('a second client with the same memory goes straight to GET /sse', async () => {
    const before = server.seen.length;
    const again = client(new StreamableHttpTransport(server.url), { eraMemory });
    try {
      await again.connect();
      expect(again.eraVerdict).toBe('legacy-sse');
      expect(server.seen[before]).toMatchObject({ method: 'GET', path: '/sse' });
      expect(text(await again.callTool('echo', { message: 'remembered' }))).toBe('remembered');
    } finally {
      await again.close();
    }
  });

  it('era "legacy" reaches it too, after the refused initialize', async () => {
    const before = server.seen.length;
    const forced = client(new StreamableHttpTransport(server.url), { era: 'legacy' });
    try {
      await forced.connect();
      expect(forced.eraVerdict).toBe('legacy-sse');
      expect(server.seen.slice(before, before + 2).map((r) => r.method)).toEqual(['POST', 'GET']);
    } finally {
      await forced.close();
    }
  });

  it('a LegacySseTransport given directly, with era "legacy": no probe; close ends the stream on the server', async () => {
    const direct = client(new LegacySseTransport(server.url), { era: 'legacy' });
    // Only the first client's stream is left open by the tests before this one.
    await vi.waitFor(() => expect(server.sessions()).toBe(1));
    const before = server.seen.length;
    await direct.connect();
    expect(server.seen[before]).toMatchObject({ method: 'GET', path: '/sse' });
    expect(server.sessions()).toBe(2);
    expect(direct.eraVerdict).toBe('legacy');
    expect(text(await direct.callTool('echo', { message: 'direct' }))).toBe('direct');
    await direct.close();
    await vi.waitFor(() => expect(server.sessions()).toBe(1));
  });

  it('the server ending the stream mid-request closes the connection: the call fails with ConnectionClosedError', async () => {
    const dropped = client(new StreamableHttpTransport(server.url), { eraMemory });
    await dropped.connect();
    const call = dropped.callTool('slow', {});
    await vi.waitFor(() => expect(server.posted.at(-1)).toBe('tools/call'));
    server.dropStreams();
    await expect(call).rejects.toMatchObject({ name: 'ConnectionClosedError', code: -32000 });
    expect(dropped.state).toBe('closed');
    await expect(dropped.listTools()).rejects.toMatchObject({ code: -32000 });
    await dropped.close();
  });
});

describe('@modelcontextprotocol/server-everything in its sse mode (127.0.0.1)', () => {
  let server: LoopbackServer;
  let everything: McpClient;
  const errors: Error[] = [];
  beforeAll(async () => {
    server = await spawnLoopbackServer(EVERYTHING_SERVER, ['sse'], '/sse');
    everything = client(new StreamableHttpTransport(server.url), {
      handlers: { ...handlers, elicitation: { form: () => ({ action: 'accept', content: { name: 'Ada Lovelace' } }) } },
      onError: (e) => errors.push(e),
    });
    await everything.connect();
  });
  afterAll(async () => {
    await everything?.close();
    await server?.stop();
  });

  it('is reached over HTTP+SSE and initialized at 2025-11-25', () => {
    expect(everything.era).toBe('legacy');
    expect(everything.eraVerdict).toBe('legacy-sse');
    expect(everything.protocolVersion).toBe('2025-11-25');
    expect(everything.serverInfo?.name).toBe('mcp-servers/everything');
  });

  it('lists and calls tools, reads a resource, gets a prompt', async () => {
    const { items } = await everything.listAllTools();
    expect(items.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-roots-list']));
    expect(text(await everything.callTool('echo', { message: 'sse' }))).toBe('Echo: sse');
    const resources = await everything.listAllResources();
    const read = await everything.readResource(resources.items[0]!.uri);
    expect(read.contents.length).toBeGreaterThan(0);
    const prompts = await everything.listAllPrompts();
    const simple = prompts.items.find((p) => (p.arguments ?? []).length === 0);
    expect(simple).toBeDefined();
    expect((await everything.getPrompt(simple!.name, {})).messages.length).toBeGreaterThan(0);
  });

  it('answers its roots/list and elicitation/create', async () => {
    expect(text(await everything.callTool('get-roots-list', {}))).toContain('file:///projects/sse');
    expect(allText(await everything.callTool('trigger-elicitation-request', {}))).toContain('Ada Lovelace');
  });

  it('reports nothing unexpected', () => {
    // server-everything registers some tools once it has seen the client's capabilities, and its
    // SDK then sends tools/list_changed; on a loaded machine that can come after connect(), with
    // no subscription open: reported (case B09) and expected, so only that one is let through.
    const raced = (e: Error): boolean =>
      e.name === 'UnmatchedNotificationError' &&
      (e as Error & { data?: { method?: string } }).data?.method === 'notifications/tools/list_changed';
    expect(errors.filter((e) => !raced(e))).toEqual([]);
  });
});
