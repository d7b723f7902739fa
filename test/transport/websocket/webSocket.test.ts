/**
 * The WebSocket transport (custom transport: subprotocol `mcp`, one JSON-RPC message per text
 * frame) against `ws` servers on 127.0.0.1, including B31 (a dead peer that never closes).
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { McpClient } from '../../../src/client/client.js';
import { ConnectionClosedError, InvalidArgumentError, ProtocolError } from '../../../src/errors/errors.js';
import { JsonRpcSession } from '../../../src/jsonrpc/session.js';
import {
  isWebSocketCloseError,
  TransportErrorCode,
  WebSocketCloseError,
} from '../../../src/transport/transportErrors.js';
import {
  WebSocketTransport as NeutralWebSocketTransport,
  type WebSocketConstructor,
} from '../../../src/transport/websocket/webSocket.js';
import { WebSocketTransport } from '../../../src/transport/websocket/node.js';
import type { Transport, TransportCloseInfo } from '../../../src/transport/transport.js';
import { systemTimers } from '../../../src/util/clock.js';
import { testServerFactory } from '../../fakes/httpExampleServer.js';
import { request, startRecording } from '../../fakes/httpHarness.js';
import { rawText, startWebSocketBridge, type WebSocketBridge } from '../../fakes/webSocketBridge.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A scripted `ws` server: each connection's socket and the text frames it received. */
async function scriptedServer(options: { protocol?: string | false } = {}) {
  const sockets: ServerSocket[] = [];
  const frames: string[] = [];
  const closes: Array<{ code: number; reason: string }> = [];
  let onFrame: (socket: ServerSocket, frame: any) => void = () => {};
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    handleProtocols: (protocols) =>
      options.protocol === undefined ? (protocols.has('mcp') ? 'mcp' : false) : options.protocol,
  });
  wss.on('connection', (socket) => {
    sockets.push(socket);
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = rawText(data);
      frames.push(text);
      onFrame(socket, JSON.parse(text));
    });
    socket.on('close', (code, reason) => closes.push({ code, reason: reason.toString() }));
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as AddressInfo;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.terminate();
        wss.close(() => resolve());
      }),
  );
  return {
    url: `ws://127.0.0.1:${port}/mcp`,
    sockets,
    frames,
    closes,
    respond(handler: (socket: ServerSocket, frame: any) => void) {
      onFrame = handler;
    },
  };
}

/** Wraps a transport to capture the close info its owner receives. */
function observeClose(inner: Transport): { transport: Transport; closed: Promise<TransportCloseInfo> } {
  let resolve!: (info: TransportCloseInfo) => void;
  const closed = new Promise<TransportCloseInfo>((r) => (resolve = r));
  const transport: Transport = {
    capabilities: inner.capabilities,
    serverIdentity: inner.serverIdentity,
    start: (handlers) =>
      inner.start({
        onMessage: (message, context) => handlers.onMessage(message, context),
        onError: (error) => handlers.onError(error),
        onClose: (info) => {
          resolve(info);
          handlers.onClose(info);
        },
      }),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
  return { transport, closed };
}

function transportFor(
  url: string,
  options: ConstructorParameters<typeof WebSocketTransport>[1] = {},
): WebSocketTransport {
  const transport = new WebSocketTransport(url, options);
  cleanups.push(() => transport.close());
  return transport;
}

describe('WebSocket transport', () => {
  it('opens with subprotocol mcp and exchanges one JSON-RPC message per text frame, in order', async () => {
    const server = await scriptedServer();
    server.respond((socket, frame) =>
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: frame.id, result: { echo: frame.id } })),
    );
    const transport = transportFor(server.url);
    const recorded = await startRecording(transport);
    expect(server.sockets[0]!.protocol).toBe('mcp');
    await Promise.all(Array.from({ length: 50 }, (_, i) => transport.send(request(i, 'tools/list'))));
    await vi.waitFor(() => expect(recorded.messages).toHaveLength(50), { timeout: 5000, interval: 10 });
    expect(server.frames.map((f) => JSON.parse(f).id)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(server.frames.every((f) => !f.includes('\n'))).toBe(true);
    expect(recorded.messages.map((m) => m.message.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(recorded.messages[0]?.context).toBeUndefined();
    expect(transport.capabilities.cancelsByAbortingSend).toBe(false);
    expect(transport.serverIdentity).toBe(server.url);
  });

  it('reports text frames that are not JSON and binary frames, and stays open', async () => {
    const server = await scriptedServer();
    const transport = transportFor(server.url);
    const recorded = await startRecording(transport);
    server.sockets[0]!.send('not json');
    server.sockets[0]!.send(Buffer.from([1, 2, 3]), { binary: true });
    server.sockets[0]!.send(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }),
    );
    await vi.waitFor(() => expect(recorded.messages).toHaveLength(1), { timeout: 5000, interval: 10 });
    expect(recorded.errors).toHaveLength(2);
    expect(recorded.errors.every((e) => e instanceof ProtocolError)).toBe(true);
    expect(recorded.messages).toHaveLength(1);
    expect(recorded.closes).toEqual([]);
  });

  it('cancellation sends notifications/cancelled (the session cancels by notification)', async () => {
    const server = await scriptedServer();
    const session = new JsonRpcSession({
      transport: transportFor(server.url),
      timers: systemTimers,
      onNotification: () => {},
      onError: () => {},
    });
    await session.start();
    const controller = new AbortController();
    const pending = session.request(
      'tools/call',
      { name: 'slow' },
      { signal: controller.signal, timeoutMs: 5000, maxTotalTimeoutMs: 5000, resetTimeoutOnProgress: false },
    );
    await vi.waitFor(() => expect(server.frames).toHaveLength(1), { timeout: 5000, interval: 10 });
    controller.abort('user');
    await expect(pending).rejects.toMatchObject({ name: 'CancelledError' });
    await vi.waitFor(() => expect(server.frames).toHaveLength(2), { timeout: 5000, interval: 10 });
    expect(server.frames.map((f) => JSON.parse(f))).toEqual([
      { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'slow' } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0, reason: 'user' } },
    ]);
    await session.close();
  });

  it('maps a server close code to a typed error; pending requests fail; sends fail fast', async () => {
    const server = await scriptedServer();
    const errors: Error[] = [];
    const transport = transportFor(server.url);
    let closeInfo: any;
    let closedResolve!: () => void;
    const closed = new Promise<void>((resolve) => (closedResolve = resolve));
    const session = new JsonRpcSession({
      transport,
      timers: systemTimers,
      onNotification: () => {},
      onError: (e) => errors.push(e),
      onClose: (info) => {
        closeInfo = info;
        closedResolve();
      },
    });
    await session.start();
    const pending = session.request(
      'tools/list',
      {},
      { timeoutMs: 5000, maxTotalTimeoutMs: 5000, resetTimeoutOnProgress: false },
    );
    await vi.waitFor(() => expect(server.frames).toHaveLength(1), { timeout: 5000, interval: 10 });
    server.sockets[0]!.close(1001, 'restarting');
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    await closed;
    expect(closeInfo).toMatchObject({
      initiatedByClient: false,
      exitCode: 1001,
      reason: expect.stringContaining('1001 going-away'),
    });
    const cause = closeInfo.cause as WebSocketCloseError;
    expect(isWebSocketCloseError(cause)).toBe(true);
    expect(cause.code).toBe(TransportErrorCode.WebSocketClosed);
    expect(cause.data).toEqual({ code: 1001, reason: 'restarting', kind: 'going-away', local: false, retryable: true });
    await expect(transport.send(request(9, 'tools/list'))).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('B31: a peer that stops reading and never answers ping is terminated (1006, no Close frame sent)', async () => {
    const server = await scriptedServer();
    server.respond((socket, frame) => {
      if (frame.method === 'server/discover') {
        socket.send(
          JSON.stringify({
            jsonrpc: '2.0',
            id: frame.id,
            result: {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: {} },
              ttlMs: 0,
              cacheScope: 'public',
            },
          }),
        );
        // Freeze: stop reading (no pong, no close), keep the TCP connection open.
        (socket as unknown as { _socket: { pause(): void } })._socket.pause();
      }
    });
    const closeCalls: unknown[][] = [];
    let terminated = 0;
    class SpyWebSocket extends WebSocket {
      override close(...args: unknown[]): void {
        closeCalls.push(args);
        super.close(...(args as [number?, string?]));
      }
      override terminate(): void {
        terminated++;
        super.terminate();
      }
    }
    const transport = transportFor(server.url, {
      WebSocket: SpyWebSocket as unknown as WebSocketConstructor,
      pingIntervalMs: 100,
      pongTimeoutMs: 100,
    });
    const observed = observeClose(transport);
    // Without reconnecting: the client closes with the transport (reconnects: test/integration/reconnect.test.ts).
    const client = new McpClient({
      transport: observed.transport,
      clientInfo: { name: 'b31', version: '0' },
      reconnect: false,
    });
    await client.connect();
    const call = client.callTool('echo', { message: 'x' });
    await expect(call).rejects.toBeInstanceOf(ConnectionClosedError);
    const clientClose: any = await observed.closed;
    expect(terminated).toBe(1);
    expect(closeCalls.filter((args) => args[0] === 1006)).toEqual([]);
    expect(clientClose).toMatchObject({
      initiatedByClient: false,
      exitCode: 1006,
      reason: expect.stringContaining('1006 abnormal'),
    });
    expect((clientClose.cause as WebSocketCloseError).data).toMatchObject({
      code: 1006,
      kind: 'abnormal',
      local: true,
      retryable: true,
    });
    expect(client.state).toBe('closed');
    await expect(client.callTool('echo', { message: 'y' })).rejects.toBeInstanceOf(ConnectionClosedError);
    // The server, once it reads again, sees the connection end without a Close frame (1006).
    const serverSocket = server.sockets[0] as unknown as { _socket: { resume(): void } };
    const serverClosed = new Promise<number>((resolve) => server.sockets[0]!.once('close', (code) => resolve(code)));
    serverSocket._socket.resume();
    expect(await serverClosed).toBe(1006);
  });

  it('starts again after a close (restartable): a new socket to the same URL, with its own handlers', async () => {
    const server = await scriptedServer();
    server.respond((socket, frame) => socket.send(JSON.stringify({ jsonrpc: '2.0', id: frame.id, result: {} })));
    const transport = transportFor(server.url);
    expect(transport.capabilities.restartable).toBe(true);
    const first = await startRecording(transport);
    server.sockets[0]!.close(1001, 'going away');
    await vi.waitFor(() => expect(first.closes).toHaveLength(1), { timeout: 5000, interval: 10 });
    expect(first.closes[0]).toMatchObject({ exitCode: 1001, initiatedByClient: false });

    const second = await startRecording(transport);
    expect(server.sockets).toHaveLength(2);
    await transport.send(request(7, 'tools/list'));
    await vi.waitFor(() => expect(second.messages).toHaveLength(1), { timeout: 5000, interval: 10 });
    expect(first.messages).toHaveLength(0);
    await transport.close();
    expect(second.closes).toEqual([{ reason: 'closed by client', initiatedByClient: true, exitCode: 1000 }]);
    // And after the owner's close() too.
    const third = await startRecording(transport);
    expect(server.sockets).toHaveLength(3);
    await transport.close();
    expect(third.closes).toHaveLength(1);
    expect(first.closes).toHaveLength(1);
  });

  it('close() sends 1000 and resolves after onClose', async () => {
    const server = await scriptedServer();
    const transport = transportFor(server.url);
    const recorded = await startRecording(transport);
    await transport.close();
    expect(recorded.closes).toEqual([{ reason: 'closed by client', initiatedByClient: true, exitCode: 1000 }]);
    await vi.waitFor(() => expect(server.closes).toHaveLength(1), { timeout: 5000, interval: 10 });
    expect(server.closes).toEqual([{ code: 1000, reason: 'client closing' }]);
    await transport.close();
    expect(recorded.closes).toHaveLength(1);
  });

  it('start() rejects when the server picks no subprotocol, refuses the upgrade, or is not there', async () => {
    const noProtocol = await scriptedServer({ protocol: false });
    await expect(
      transportFor(noProtocol.url).start({ onMessage() {}, onError() {}, onClose() {} }),
    ).rejects.toBeInstanceOf(ConnectionClosedError);

    const refusing = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (_info, done) => done(false, 401, 'Unauthorized'),
    });
    await new Promise<void>((resolve) => refusing.once('listening', () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => refusing.close(() => resolve())));
    const { port } = refusing.address() as AddressInfo;
    const refused = await transportFor(`ws://127.0.0.1:${port}/mcp`)
      .start({ onMessage() {}, onError() {}, onClose() {} })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConnectionClosedError);
    expect((refused as Error).message).toContain('401');

    await new Promise<void>((resolve) => refusing.close(() => resolve()));
    const gone = await transportFor(`ws://127.0.0.1:${port}/mcp`)
      .start({ onMessage() {}, onError() {}, onClose() {} })
      .catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ConnectionClosedError);
  });

  it('checks its options, and the runtime-neutral class needs a WebSocket implementation', async () => {
    expect(() => new WebSocketTransport('ftp://x')).toThrow(InvalidArgumentError);
    expect(() => new WebSocketTransport('ws://x', { pongTimeoutMs: 0 })).toThrow(InvalidArgumentError);
    expect(new WebSocketTransport('https://user:pw@example.com/mcp').serverIdentity).toBe('wss://example.com/mcp');
    const keyed = new WebSocketTransport('https://example.com/mcp?key=1').serverIdentity;
    expect(keyed).toMatch(/^wss:\/\/example\.com\/mcp\?sha256:[0-9a-f]{16}$/);
    expect(keyed).not.toBe(new WebSocketTransport('https://example.com/mcp?key=2').serverIdentity);
    const hasGlobal = typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'function';
    const neutral = new NeutralWebSocketTransport('ws://127.0.0.1:9/mcp', { connectTimeoutMs: 500 });
    cleanups.push(() => neutral.close());
    const started = neutral.start({ onMessage() {}, onError() {}, onClose() {} });
    if (hasGlobal) await expect(started).rejects.toBeInstanceOf(ConnectionClosedError);
    else await expect(started).rejects.toThrow(/no WebSocket implementation/);
  });
});

describe('WebSocket transport against a real MCP server (ws bridge)', () => {
  let bridge: WebSocketBridge;

  it('connects, discovers, lists and calls tools with progress', async () => {
    bridge = await startWebSocketBridge(testServerFactory);
    cleanups.push(() => bridge.close());
    const client = new McpClient({
      transport: transportFor(bridge.url),
      clientInfo: { name: 'ws-bridge', version: '0' },
    });
    cleanups.push(() => client.close());
    await client.connect();
    expect(client.serverInfo).toMatchObject({ name: 'mcp-live-http-test' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'slow']));
    await expect(client.callTool('echo', { message: 'over ws' })).resolves.toMatchObject({
      content: [{ text: 'over ws' }],
    });
    const progress: number[] = [];
    await expect(
      client.callTool('slow', { steps: 2, stepMs: 5 }, { onProgress: (p) => progress.push(p.progress) }),
    ).resolves.toMatchObject({
      content: [{ text: '2/2' }],
    });
    expect(progress).toEqual([1, 2]);
    expect(bridge.sockets[0]!.protocol).toBe('mcp');
  });
});
