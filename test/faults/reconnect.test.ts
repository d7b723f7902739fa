/**
 * Reconnecting over HTTP and WebSocket against a real server on 127.0.0.1 that goes down: it
 * comes back on the same port, or never does; 100 `tools/call` in flight at the drop. Counted on
 * the server: no `tools/call` ever runs twice. Every call settles within a bound with its
 * documented error, no unhandled rejection, nothing left running after close().
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { McpClient, type ClientEvent } from '../../src/index.js';
import { StreamableHttpTransport, WebSocketTransport } from '../../src/node.js';
import { DISCOVER } from '../fakes/httpFake.js';
import { rawText } from '../fakes/webSocketBridge.js';
import { expectNoLeakedHandles, faultProbe, settleWithin } from './harness.js';

type Message = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: any };

/** A JSON-RPC server that counts each `tools/call` by its `arguments.n`, and holds them or answers them. */
class CountingServer {
  /** How many times each call (by `arguments.n`) reached this server. */
  readonly calls = new Map<number, number>();
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly port: number,
    http: Server,
    private readonly hold: boolean,
  ) {
    this.http = http;
    this.wss = new WebSocketServer({
      noServer: true,
      handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
    });
    http.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    http.on('request', (req, res) => void this.onHttp(req, res));
    http.on('upgrade', (req, socket, head) => this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws)));
  }

  /** Listens on `port` (0: a free one); `hold`: tools/call is never answered. */
  static async start(options: { port?: number; hold: boolean }): Promise<CountingServer> {
    const http = createServer();
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port ?? 0, '127.0.0.1', resolve);
    });
    return new CountingServer((http.address() as AddressInfo).port, http, options.hold);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/mcp`;
  }

  /** Total tools/call received. */
  get total(): number {
    let sum = 0;
    for (const count of this.calls.values()) sum += count;
    return sum;
  }

  /** Goes down as a crashed process does: every connection cut, the port closed. */
  async kill(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    for (const socket of this.sockets) socket.destroy();
    this.wss.close();
    await new Promise((resolve) => this.http.close(resolve));
  }

  /** The answer to `message`, or `undefined` to hold it (or for a notification). */
  private answer(message: Message): object | undefined {
    if (message.id === undefined) return undefined;
    const result = (value: object) => ({ jsonrpc: '2.0', id: message.id, result: value });
    switch (message.method) {
      case 'server/discover':
        return result(DISCOVER);
      case 'tools/list':
        return result({ resultType: 'complete', tools: [{ name: 'go', inputSchema: { type: 'object' } }], ttlMs: 0 });
      case 'tools/call': {
        const n = Number(message.params?.arguments?.n);
        this.calls.set(n, (this.calls.get(n) ?? 0) + 1);
        if (this.hold) return undefined;
        return result({ resultType: 'complete', content: [{ type: 'text', text: `ran ${n}` }] });
      }
      default:
        return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not here' } };
    }
  }

  private async onHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let message: Message;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Message;
    } catch {
      res.writeHead(400).end();
      return;
    }
    const answer = this.answer(message);
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (answer === undefined) {
      // Held: the headers go out, the answer never does (a server working on it).
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': working\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }

  private onSocket(ws: WebSocket): void {
    ws.on('message', (data) => {
      let message: Message;
      try {
        message = JSON.parse(rawText(data)) as Message;
      } catch {
        return;
      }
      const answer = this.answer(message);
      if (answer !== undefined) ws.send(JSON.stringify(answer));
    });
  }
}

const FAST = { jitter: false, minDelayMs: 50 } as const;

async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Each transport, and how a `tools/call` cut by the drop rejects: over WebSocket the connection
 * closed (`ConnectionClosedError` -32000), over HTTP its response stream broke
 * (`StreamBrokenError` -33012); the outcome is unknown either way, and the call is not repeated.
 */
const KINDS = [
  {
    name: 'WebSocket',
    transport: (s: CountingServer) => new WebSocketTransport(s.wsUrl),
    cut: 'ConnectionClosedError',
    cutCode: -32000,
  },
  {
    name: 'Streamable HTTP',
    transport: (s: CountingServer) => new StreamableHttpTransport(s.url),
    cut: 'StreamBrokenError',
    cutCode: -33012,
  },
] as const;

describe('reconnect over HTTP and WebSocket, a server that goes down', () => {
  const probe = faultProbe();
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  async function clientFor(kind: (typeof KINDS)[number], server: CountingServer, options = {}) {
    const client = new McpClient({
      transport: kind.transport(server),
      clientInfo: { name: 'faults', version: '0.0.0' },
      reconnect: FAST,
      ...options,
    });
    cleanups.push(() => client.close());
    const events: ClientEvent[] = [];
    client.on((event) => events.push(event));
    await client.connect({ timeoutMs: 3000 });
    return { client, events };
  }

  for (const kind of KINDS) {
    it(`${kind.name}: 100 tools/call in flight, the server restarts on the same port: each settles once, none runs twice`, async () => {
      const first = await CountingServer.start({ hold: true });
      cleanups.push(() => first.kill());
      const { client } = await clientFor(kind, first);
      const calls = Array.from({ length: 100 }, (_, n) =>
        settleWithin(client.callTool('go', { n }, { timeoutMs: 10_000 }), 10_000, `call ${n}`),
      );
      await until(() => first.total === 100, 5000, 'the 100 calls reaching the server');
      const port = first.port;
      await first.kill();
      const second = await CountingServer.start({ port, hold: false });
      cleanups.push(() => second.kill());
      const settled = await Promise.all(calls);

      // Every call reached the first server once; none was sent again to the second.
      expect([...first.calls.values()].every((count) => count === 1)).toBe(true);
      expect(second.total).toBe(0);
      for (const s of settled) {
        expect(s.status).toBe('rejected');
        if (s.status !== 'rejected') continue;
        const error = s.error as { name: string; code: number; data?: { outcome?: string } };
        expect(error.name, String(s.error)).toBe(kind.cut);
        expect(error.code, String(s.error)).toBe(kind.cutCode);
        if (kind.cut === 'ConnectionClosedError') expect(error.data?.outcome, String(s.error)).toBe('unknown');
      }

      // The client goes on against the new process.
      await until(() => client.state === 'open', 5000, 'the client open again');
      const again = await settleWithin(client.callTool('go', { n: 1000 }), 5000, 'a call after the restart');
      expect(again.status, again.status === 'rejected' ? String(again.error) : '').toBe('fulfilled');
      expect(second.calls.get(1000)).toBe(1);
      await settleWithin(client.close(), 3000, 'close()');
      await second.kill();
      await expectNoLeakedHandles(probe.baseline);
    }, 30_000);

    it(`${kind.name}: the server gone for good: calls in flight and calls made later settle bounded, typed`, async () => {
      const server = await CountingServer.start({ hold: true });
      cleanups.push(() => server.kill());
      const { client } = await clientFor(kind, server, {
        reconnect: { ...FAST, maxQuickRetries: 2, maxCoolDowns: 0, quickPhaseMs: 0 },
      });
      const inFlight = Array.from({ length: 10 }, (_, n) => settleWithin(client.callTool('go', { n }), 10_000));
      await until(() => server.total === 10, 5000, 'the calls reaching the server');
      await server.kill();
      for (const s of await Promise.all(inFlight)) {
        expect(s.status).toBe('rejected');
        if (s.status === 'rejected') expect((s.error as { code: number }).code, String(s.error)).toBe(kind.cutCode);
      }
      const later = await settleWithin(client.listTools({}, { cacheMode: 'no-cache' }), 10_000, 'a list made later');
      expect(later.status).toBe('rejected');
      if (later.status === 'rejected') expect((later.error as { code: number }).code, String(later.error)).toBe(-32000);
      // Over WebSocket the client gives up once its budget is spent: closed, the reason says so.
      if (kind.name === 'WebSocket' && later.status === 'rejected') {
        expect((later.error as { data: { reason: string } }).data.reason).toMatch(
          /gave up reconnecting|client is closed/,
        );
        expect(client.state).toBe('closed');
      }
      await settleWithin(client.close(), 3000, 'close()');
      await expectNoLeakedHandles(probe.baseline);
    }, 30_000);
  }
});
