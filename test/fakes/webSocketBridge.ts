/**
 * A `ws` server on 127.0.0.1 that serves a real MCP server instance per connection
 * (@modelcontextprotocol/server `serveStdio` with a transport of our own over the socket):
 * subprotocol `mcp`, one JSON-RPC message per text frame.
 */
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage, McpServerFactory, Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

export interface WebSocketBridge {
  /** `ws://127.0.0.1:<port>/mcp` */
  readonly url: string;
  /** The server end of each connection, in order. */
  readonly sockets: WebSocket[];
  /** Its port on 127.0.0.1. */
  readonly port: number;
  close(): Promise<void>;
  /**
   * Goes away as a server restarting does: every connection is closed with `code` (1001 going
   * away by default) and the port stops listening. Start a new bridge on `port` to come back.
   */
  goAway(code?: number): Promise<void>;
}

/** An SDK `Transport` over one server-side socket. */
class SocketServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      try {
        this.onmessage?.(JSON.parse(rawText(data)) as JSONRPCMessage);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
    socket.on('close', () => this.onclose?.());
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.socket.send(JSON.stringify(message), (error) => (error ? reject(error) : resolve())),
    );
  }

  async close(): Promise<void> {
    this.socket.close(1000, 'server closing');
  }
}

/** Starts a bridge serving `factory` to each WebSocket connection, on `options.port` (default: a free one). */
export async function startWebSocketBridge(
  factory: McpServerFactory,
  options: { port?: number } = {},
): Promise<WebSocketBridge> {
  const sockets: WebSocket[] = [];
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: options.port ?? 0,
    path: '/mcp',
    handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
  });
  const handles: Array<{ close(): Promise<void> }> = [];
  wss.on('connection', (socket) => {
    sockets.push(socket);
    handles.push(serveStdio(factory, { transport: new SocketServerTransport(socket) }));
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/mcp`,
    sockets,
    port,
    goAway: async (code = 1001) => {
      const closed = sockets.map(
        (socket) =>
          new Promise<void>((resolve) =>
            socket.readyState === socket.CLOSED ? resolve() : socket.once('close', () => resolve()),
          ),
      );
      for (const socket of sockets) socket.close(code, 'server restarting');
      await Promise.all(closed);
      await Promise.all(handles.map((h) => h.close().catch(() => {})));
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
    close: async () => {
      await Promise.all(handles.map((h) => h.close().catch(() => {})));
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** The text of a `ws` message (a Buffer, an ArrayBuffer, or the fragments of one). */
export function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}
