/**
 * Interop with servers built on the official SDKs: a tiny 2025-11-25 server on the v1 SDK
 * (test/fakes/children/v1-sdk-server.mjs) over stdio and Streamable HTTP, and the dual-era
 * example server on the v2 SDK (examples/server.ts) in both eras. See docs/legacy.md.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { Transport } from '../../src/transport/transport.js';
import { HTTP_PATHS } from '../fakes/httpPaths.js';
import { UrlElicitationRequiredError } from '../../src/inputRequired/errors.js';
import type { InputHandlers } from '../../src/inputRequired/handlers.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { nodeStdio, spawnLoopbackServer, V1_SDK_SERVER, type LoopbackServer } from '../fakes/publishedServers.js';
import { EXAMPLE_SERVER, startExampleHttpServer } from './exampleServer.js';

const clientInfo = { name: 'mcp-live-interop', version: '0.0.0' };
/** The URLs the URL-mode handler was shown. */
const shownUrls: string[] = [];
const handlers: InputHandlers = {
  // Accepts without touching a field: the schema defaults fill the form (SEP-1034).
  elicitation: {
    form: () => ({ action: 'accept', content: {} }),
    url: ({ url }) => (shownUrls.push(url), { action: 'accept' }),
  },
  roots: { list: () => ({ roots: [{ uri: 'file:///projects/demo', name: 'demo' }] }) },
  sampling: {
    createMessage: () => ({ role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled' } }),
  },
};

function client(transport: Transport, options: Partial<ClientOptions> = {}): McpClient {
  return new McpClient({ transport, clientInfo, handlers, ...options });
}

const json = (result: { content: unknown[] }): any => JSON.parse((result.content[0] as { text: string }).text);

/** The v1-SDK server's features, the same over both transports. */
function v1Suite(connect: () => Promise<McpClient>): void {
  let v1: McpClient;
  beforeAll(async () => {
    v1 = await connect();
  });
  afterAll(() => v1?.close());

  it('is legacy, with its InitializeResult kept', () => {
    expect(v1.era).toBe('legacy');
    expect(v1.protocolVersion).toBe('2025-11-25');
    expect(v1.serverInfo).toMatchObject({ name: 'v1-sdk-fake', version: '1.0.0' });
    expect(v1.instructions).toBe('a v1 SDK server');
    expect(v1.initializeResult).toMatchObject({ protocolVersion: '2025-11-25' });
  });

  it('elicitation/create: accepted, every field completed from the schema defaults (SEP-1034)', async () => {
    expect(json(await v1.callTool('ask', {}))).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, score: 9.5, status: 'active', verified: true },
    });
  });

  it('roots/list and sampling/createMessage reach the host handlers', async () => {
    expect(json(await v1.callTool('roots', {}))).toEqual({ roots: [{ uri: 'file:///projects/demo', name: 'demo' }] });
    expect(json(await v1.callTool('sample', {}))).toMatchObject({ role: 'assistant', model: 'test-model' });
  });

  it('URLElicitationRequiredError (-32042): the URL shown, the completion awaited, the call sent again and answered', async () => {
    shownUrls.length = 0;
    expect(await v1.callTool('connect', {})).toMatchObject({ content: [{ type: 'text', text: 'connected' }] });
    expect(shownUrls).toEqual([
      expect.stringMatching(/^https:\/\/auth\.example\.com\/connect\?elicitationId=connect-/),
    ]);
  });

  it('resources/subscribe and list_changed feed subscription events and a live list', async () => {
    const tools = await v1.live('tools', { debounceMs: 0 });
    const sub = await v1.subscribe({ resourceSubscriptions: ['demo://note'] });
    const heard: SubscriptionEvent[] = [];
    sub.on((event) => heard.push(event));
    const before = tools.items.length;
    expect(tools.watching).toBe(true);
    await v1.callTool('touch', {});
    await vi.waitFor(() => expect(heard).toContainEqual({ type: 'resourceUpdated', uri: 'demo://note' }));
    await vi.waitFor(() => expect(tools.items.length).toBe(before + 1));
    await sub.close();
    await tools.close();
  });
}

describe('a v1-SDK server over stdio', () => {
  v1Suite(async () => {
    const v1 = client(nodeStdio(V1_SDK_SERVER));
    await v1.connect();
    return v1;
  });

  it('without a URL handler, its URLElicitationRequiredError reaches the caller with the URL', async () => {
    const formOnly = client(nodeStdio(V1_SDK_SERVER), {
      handlers: { elicitation: { form: () => ({ action: 'accept', content: {} }) } },
    });
    try {
      await formOnly.connect();
      const error = await formOnly.callTool('connect', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UrlElicitationRequiredError);
      expect((error as UrlElicitationRequiredError).elicitations).toEqual([
        expect.objectContaining({
          mode: 'url',
          message: 'Connect your Example account',
          url: expect.stringContaining('https://auth.example.com/connect'),
        }),
      ]);
    } finally {
      await formOnly.close();
    }
  });
});

describe.each(HTTP_PATHS)(
  'a v1-SDK server over Streamable HTTP with sessions (127.0.0.1), $path path',
  ({ Transport: StreamableHttpTransport }) => {
    let server: LoopbackServer;
    let v1: McpClient;
    beforeAll(async () => {
      server = await spawnLoopbackServer(V1_SDK_SERVER, ['http']);
    });
    afterAll(() => server?.stop());

    v1Suite(async () => {
      v1 = client(new StreamableHttpTransport(server.url));
      await v1.connect();
      return v1;
    });

    it('B26 against a real server: after the session ends, the next call starts a new one and goes through', async () => {
      const seen: Array<{ method: string | undefined; session: string | null; status: number }> = [];
      const fetch = async (url: string, init: RequestInit): Promise<Response> => {
        const response = await globalThis.fetch(url, init);
        const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
        if (init.method === 'POST')
          seen.push({
            method: body?.method,
            session: new Headers(init.headers).get('mcp-session-id'),
            status: response.status,
          });
        return response;
      };
      const fresh = client(new StreamableHttpTransport(server.url, { fetch }));
      try {
        await fresh.connect();
        await fresh.callTool('expire', {});
        expect((await fresh.callTool('echo', { message: 'after expiry' })).content).toEqual([
          { type: 'text', text: 'after expiry' },
        ]);
        const echoes = seen.filter((s) => s.method === 'tools/call').slice(1);
        expect(echoes.map((s) => s.status)).toEqual([404, 200]);
        expect(echoes[0]?.session).not.toBe(echoes[1]?.session);
        expect(seen.filter((s) => s.method === 'initialize').map((s) => s.session)).toEqual([null, null]);
      } finally {
        await fresh.close();
      }
    });
  },
);

describe('the v2 example server (dual-era) over stdio', () => {
  it.each([
    ['auto: modern', 'auto' as const, 'modern', '2026-07-28'],
    ['forced legacy', 'legacy' as const, 'legacy', '2025-11-25'],
  ])('%s: the same lists and calls', async (_label, era, expectedEra, version) => {
    const example = client(nodeStdio(EXAMPLE_SERVER), { era });
    try {
      await example.connect();
      expect(example.era).toBe(expectedEra);
      expect(example.protocolVersion).toBe(version);
      expect(example.serverInfo).toMatchObject({ name: 'mcp-live-example' });
      const resources = await example.listAllResources();
      expect(resources.items.length).toBe(254);
      expect((await example.callTool('add', { a: 2, b: 40 })).content).toEqual([{ type: 'text', text: '42' }]);
      const read = await example.readResource('demo://readme');
      expect(read.contents[0]).toMatchObject({ uri: 'demo://readme', mimeType: 'text/markdown' });
    } finally {
      await example.close();
    }
  });
});

describe.each(HTTP_PATHS)(
  'the v2 example server (dual-era) over Streamable HTTP, $path path',
  ({ Transport: StreamableHttpTransport }) => {
    let server: HttpServerProcess;
    beforeAll(async () => {
      server = await startExampleHttpServer();
    });
    afterAll(() => server?.stop());

    it.each([
      ['auto: modern', 'auto' as const, 'modern', '2026-07-28'],
      ['forced legacy', 'legacy' as const, 'legacy', '2025-11-25'],
    ])('%s: the same lists and calls', async (_label, era, expectedEra, version) => {
      const example = client(new StreamableHttpTransport(server.url), { era });
      try {
        await example.connect();
        expect(example.era).toBe(expectedEra);
        expect(example.protocolVersion).toBe(version);
        expect((await example.listAllResources()).items.length).toBe(254);
        expect((await example.callTool('add', { a: 1, b: 2 })).content).toEqual([{ type: 'text', text: '3' }]);
      } finally {
        await example.close();
      }
    });
  },
);
