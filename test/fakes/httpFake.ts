/**
 * A scripted HTTP server on 127.0.0.1 (port 0) for transport tests: it records every request
 * (method, path, headers, body) and answers with whatever the current handler writes.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, decoded as UTF-8. */
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: any;
}

export type HttpHandler = (request: RecordedRequest, res: ServerResponse, req: IncomingMessage) => unknown;

export class HttpFake {
  readonly requests: RecordedRequest[] = [];
  /** Open responses, so tests can end or destroy them. */
  readonly open = new Set<ServerResponse>();
  private handler: HttpHandler = (_request, res) => {
    res.statusCode = 500;
    res.end('no handler');
  };
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts a fake on 127.0.0.1 with a random port. `path` is the endpoint path in {@link url}. */
  static async start(handler?: HttpHandler, path = '/mcp'): Promise<HttpFake> {
    let fake: HttpFake | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = body === '' ? undefined : JSON.parse(body);
        } catch {
          json = undefined;
        }
        const request: RecordedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
          json,
        };
        fake!.record(request);
        fake!.open.add(res);
        res.on('close', () => fake!.open.delete(res));
        Promise.resolve(fake!.handler(request, res, req)).catch((error: unknown) => {
          if (!res.headersSent) res.statusCode = 500;
          res.end(String(error));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new HttpFake(server, `http://127.0.0.1:${port}${path}`);
    if (handler !== undefined) fake.handler = handler;
    return fake;
  }

  /** Replaces the handler for the next requests. */
  handle(handler: HttpHandler): this {
    this.handler = handler;
    return this;
  }

  /** Resolves once `count` requests in total have been received. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private record(request: RecordedRequest): void {
    this.requests.push(request);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (this.requests.length >= waiter.count) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}

/** Writes a JSON body with a status. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Starts an SSE response (200, `text/event-stream`) and writes `chunks` as they are. */
export function startSse(res: ServerResponse, chunks: string[] = [], headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
    ...headers,
  });
  res.flushHeaders();
  for (const chunk of chunks) res.write(chunk);
}

/** One SSE `message` event carrying `message` as JSON. */
export function sseEvent(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** The 2026-07-28 `server/discover` result the fakes answer with. */
export const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {}, prompts: {}, resources: {} },
  ttlMs: 0,
  cacheScope: 'public',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'http-fake', version: '0.0.0' } },
};

/** Answers `server/discover` with {@link DISCOVER}; true when it did. */
export function answerDiscover(request: RecordedRequest, res: ServerResponse): boolean {
  if (request.json?.method !== 'server/discover') return false;
  sendJson(res, 200, { jsonrpc: '2.0', id: request.json.id, result: DISCOVER });
  return true;
}
