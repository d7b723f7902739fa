/**
 * AppSession over a scripted frame port: the handshake and what waits for it, the rules of
 * app-initiated tool calls (own server, visibility, the approve hook, overrides, a throwing
 * hook), the UI requests with and without handlers, the sandbox proxy, and teardown.
 */
import { describe, expect, it, vi } from 'vitest';
import { AppSession, type AppServerLink, type FramePort } from '../../src/apps/appSession.js';
import type { JsonRpcMessage } from '../../src/wire/messages.js';
import type { Tool } from '../../src/wire/protocol.js';
import { appResourceFrom } from '../../src/apps/appResource.js';

const tool = (name: string, visibility?: string[]): Tool => ({
  name,
  inputSchema: { type: 'object' },
  _meta: { ui: { resourceUri: 'ui://demo/app.html', ...(visibility !== undefined && { visibility }) } },
});
const TOOLS = [tool('both'), tool('model-only', ['model']), tool('app-only', ['app'])];

/** A frame port whose app side the test drives. */
function scriptedFrame(): FramePort & { sent: JsonRpcMessage[]; fromApp(message: unknown): void; closed: boolean } {
  let listener: ((message: unknown) => void) | undefined;
  const port = {
    sent: [] as JsonRpcMessage[],
    closed: false,
    send: (message: JsonRpcMessage) => void port.sent.push(message),
    onMessage: (l: (message: unknown) => void) => {
      listener = l;
      return () => (listener = undefined);
    },
    fromApp: (message: unknown) => listener?.(message),
    close: () => void (port.closed = true),
  };
  return port;
}

function link(): AppServerLink & { calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = [];
  return {
    server: 'demo',
    calls,
    findTool: (name) => TOOLS.find((t) => t.name === name),
    callTool: async (name, args) => {
      calls.push([name, args]);
      return { content: [{ type: 'text', text: `ran ${name}` }] };
    },
    readResource: async (uri) => ({ contents: [{ uri, text: 'hi' }] }),
  };
}

const hostInfo = { name: 'test-host', version: '1.0.0' };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

async function request(port: ReturnType<typeof scriptedFrame>, id: number, method: string, params: object = {}) {
  port.fromApp({ jsonrpc: '2.0', id, method, params });
  await vi.waitFor(() => expect(port.sent.some((m) => 'id' in m && m.id === id)).toBe(true));
  return port.sent.find((m) => 'id' in m && m.id === id) as { result?: any; error?: { code: number; message: string } };
}

describe('AppSession', () => {
  it('answers ui/initialize, and sends the tool input and result only after initialized', async () => {
    const port = scriptedFrame();
    const session = new AppSession({
      port,
      link: link(),
      hostInfo,
      hostContext: { theme: 'dark' },
      toolInput: { city: 'Paris' },
      toolResult: { content: [{ type: 'text', text: 'sunny' }] },
    });
    expect(session.state).toBe('connecting');
    const init = await request(port, 1, 'ui/initialize', {
      appInfo: { name: 'a', version: '1' },
      appCapabilities: {},
      protocolVersion: '2026-01-26',
    });
    expect(init.result).toEqual({
      protocolVersion: '2026-01-26',
      hostInfo,
      hostCapabilities: { serverTools: {}, serverResources: {}, logging: {} },
      hostContext: { theme: 'dark' },
    });
    expect(port.sent).toHaveLength(1);
    port.fromApp({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    await session.initialized;
    expect(session.state).toBe('open');
    expect(port.sent.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: { city: 'Paris' } } },
      {
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-result',
        params: { content: [{ type: 'text', text: 'sunny' }] },
      },
    ]);
  });

  it('relays calls to app-callable tools of its server only', async () => {
    const port = scriptedFrame();
    const server = link();
    new AppSession({ port, link: server, hostInfo });
    expect((await request(port, 1, 'tools/call', { name: 'both', arguments: { a: 1 } })).result).toEqual({
      content: [{ type: 'text', text: 'ran both' }],
    });
    expect((await request(port, 2, 'tools/call', { name: 'app-only' })).result).toBeDefined();
    expect((await request(port, 3, 'tools/call', { name: 'model-only' })).error).toEqual({
      code: -33071,
      message: 'tool "model-only" is not callable by apps',
    });
    expect((await request(port, 4, 'tools/call', { name: 'elsewhere' })).error?.code).toBe(-33071);
    expect((await request(port, 5, 'tools/call', { name: 'both', arguments: [1] })).error?.code).toBe(-32602);
    expect(server.calls).toEqual([
      ['both', { a: 1 }],
      ['app-only', {}],
    ]);
  });

  it('asks approve before every call: a refusal with its reason, an override, a throwing hook refuses', async () => {
    const port = scriptedFrame();
    const server = link();
    const errors: Error[] = [];
    const answers = [{ allow: false, reason: 'not now' }, { allow: true, arguments: { safe: true } }, 'throw'];
    const asked: unknown[] = [];
    new AppSession({
      port,
      link: server,
      hostInfo,
      resource: appResourceFrom(
        { contents: [{ uri: 'ui://demo/app.html', mimeType: 'text/html;profile=mcp-app', text: '<p>' }] },
        'ui://demo/app.html',
      ),
      approve: (call) => {
        asked.push({ name: call.name, arguments: call.arguments, resourceUri: call.resourceUri });
        const answer = answers.shift();
        if (answer === 'throw') throw new Error('policy broke');
        return answer as never;
      },
      onError: (error) => errors.push(error),
    });
    expect((await request(port, 1, 'tools/call', { name: 'both', arguments: { x: 1 } })).error).toEqual({
      code: -33071,
      message: 'the host refused the call to "both": not now',
    });
    await request(port, 2, 'tools/call', { name: 'both', arguments: { x: 2 } });
    expect((await request(port, 3, 'tools/call', { name: 'both' })).error?.code).toBe(-33071);
    expect(server.calls).toEqual([['both', { safe: true }]]);
    expect(asked).toEqual([
      { name: 'both', arguments: { x: 1 }, resourceUri: 'ui://demo/app.html' },
      { name: 'both', arguments: { x: 2 }, resourceUri: 'ui://demo/app.html' },
      { name: 'both', arguments: {}, resourceUri: 'ui://demo/app.html' },
    ]);
    expect(errors.map((e) => e.message)).toEqual(['policy broke']);
  });

  it('UI requests go to their handlers; without one the app hears method not found', async () => {
    const port = scriptedFrame();
    const messages: unknown[] = [];
    new AppSession({ port, link: link(), hostInfo, onMessage: (m) => void messages.push(m), onOpenLink: () => false });
    expect(
      (await request(port, 1, 'ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] })).result,
    ).toEqual({});
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    expect((await request(port, 2, 'ui/open-link', { url: 'https://example.com' })).result).toEqual({ isError: true });
    expect((await request(port, 3, 'ui/update-model-context', {})).error?.code).toBe(-32601);
    expect((await request(port, 4, 'ui/request-display-mode', { mode: 'fullscreen' })).result).toEqual({
      mode: 'inline',
    });
    expect((await request(port, 5, 'resources/read', { uri: 'ui://x' })).result).toEqual({
      contents: [{ uri: 'ui://x', text: 'hi' }],
    });
    expect((await request(port, 6, 'sampling/createMessage')).error?.code).toBe(-32601);
  });

  it('ui/download-file: the host hook decides on checked, sanitised files; downloadFile declared only with a hook', async () => {
    const port = scriptedFrame();
    const asked: unknown[] = [];
    let answer: boolean = true;
    new AppSession({
      port,
      link: link(),
      hostInfo,
      onDownloadFile: (files) => {
        asked.push(files);
        return answer;
      },
    });
    const init = await request(port, 1, 'ui/initialize', { appInfo: { name: 'a', version: '1' } });
    expect(init.result.hostCapabilities.downloadFile).toEqual({});
    const contents = [
      { type: 'resource', resource: { uri: 'file:///exports/..%2F..%2F.bashrc', mimeType: 'text/csv', text: 'a,b\n' } },
      { type: 'resource', resource: { uri: 'ui://demo/report\u202Efdp.exe', blob: 'AAEC' } },
      { type: 'resource_link', uri: 'ui://demo/big.zip', name: 'big.zip', mimeType: 'application/zip' },
    ];
    expect((await request(port, 2, 'ui/download-file', { contents })).result).toEqual({});
    expect(asked).toEqual([
      [
        {
          kind: 'embedded',
          uri: contents[0]!.resource!.uri,
          name: '_.._.bashrc',
          mimeType: 'text/csv',
          bytes: new TextEncoder().encode('a,b\n'),
        },
        {
          kind: 'embedded',
          uri: 'ui://demo/report\u202Efdp.exe',
          name: 'report_fdp.exe',
          mimeType: undefined,
          bytes: new Uint8Array([0, 1, 2]),
        },
        { kind: 'link', uri: 'ui://demo/big.zip', name: 'big.zip', mimeType: 'application/zip' },
      ],
    ]);
    answer = false;
    expect((await request(port, 3, 'ui/download-file', { contents: [contents[2]] })).result).toEqual({ isError: true });
    // Malformed requests never reach the hook: invalid params, with the item named.
    const bad = [
      {},
      { contents: [] },
      { contents: [{ type: 'text', text: 'x' }] },
      { contents: [{ type: 'resource', resource: { uri: 'ui://x', blob: 'not base64!' } }] },
      { contents: [{ type: 'resource', resource: { uri: 'ui://x', text: 'a', blob: 'AA==' } }] },
      { contents: [{ type: 'resource_link', name: 'x' }] },
      { contents: Array.from({ length: 17 }, () => contents[2]) },
    ];
    for (const [index, params] of bad.entries()) {
      const answerOf = await request(port, 10 + index, 'ui/download-file', params);
      expect(answerOf.error?.code, JSON.stringify(params)).toBe(-32602);
    }
    expect(asked).toHaveLength(2);
  });

  it('ui/download-file without a hook: method not found, and no downloadFile capability', async () => {
    const port = scriptedFrame();
    new AppSession({ port, link: link(), hostInfo });
    const init = await request(port, 1, 'ui/initialize', { appInfo: { name: 'a', version: '1' } });
    expect(init.result.hostCapabilities).not.toHaveProperty('downloadFile');
    const contents = [{ type: 'resource', resource: { uri: 'ui://x/a.txt', text: 'a' } }];
    expect((await request(port, 2, 'ui/download-file', { contents })).error?.code).toBe(-32601);
  });

  it('hands the HTML to a sandbox proxy that says it is ready', () => {
    const port = scriptedFrame();
    const resource = appResourceFrom(
      {
        contents: [
          {
            uri: 'ui://demo/app.html',
            mimeType: 'text/html;profile=mcp-app',
            text: '<p>app</p>',
            _meta: { ui: { csp: { connectDomains: ['https://api.example.com', 'https://x.com; script-src *'] } } },
          },
        ],
      },
      'ui://demo/app.html',
    );
    new AppSession({ port, link: link(), hostInfo, resource });
    port.fromApp({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    expect(port.sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'ui/notifications/sandbox-resource-ready',
        params: { html: '<p>app</p>', csp: { connectDomains: ['https://api.example.com'] } },
      },
    ]);
    expect(resource.ignoredCspEntries).toEqual(['https://x.com; script-src *']);
  });

  it('teardown asks the app, waits for its answer, then closes the port', async () => {
    const port = scriptedFrame();
    const session = new AppSession({ port, link: link(), hostInfo });
    port.fromApp({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    const done = session.teardown('user closed it');
    const asked = port.sent.at(-1) as { id: string; method: string; params: unknown };
    expect(asked).toMatchObject({ method: 'ui/resource-teardown', params: { reason: 'user closed it' } });
    expect(session.state).toBe('open');
    port.fromApp({ jsonrpc: '2.0', id: asked.id, result: {} });
    await done;
    expect(session.state).toBe('closed');
    expect(port.closed).toBe(true);
    await expect(session.closed).resolves.toBe('user closed it');
    port.fromApp({ jsonrpc: '2.0', id: 9, method: 'ping' });
    await flush();
    expect(port.sent.filter((m) => 'id' in m && m.id === 9)).toEqual([]);
  });

  it('teardown gives up waiting after teardownTimeoutMs', async () => {
    vi.useFakeTimers();
    try {
      const port = scriptedFrame();
      const session = new AppSession({ port, link: link(), hostInfo, teardownTimeoutMs: 500 });
      port.fromApp({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
      const done = session.teardown();
      await vi.advanceTimersByTimeAsync(499);
      expect(session.state).toBe('open');
      await vi.advanceTimersByTimeAsync(1);
      await done;
      expect(session.state).toBe('closed');
    } finally {
      vi.useRealTimers();
    }
  });
});
