#!/usr/bin/env node
/**
 * mcp-live example server: the tools, resources and prompts of examples/serverFactory.ts, on the
 * official @modelcontextprotocol/server v2, served over stdio or Streamable HTTP.
 *
 *   node build/examples/server.js                 stdio: newline-delimited JSON-RPC on stdin/stdout
 *   node build/examples/server.js --http <port>   Streamable HTTP at http://127.0.0.1:<port>/mcp
 *                                                 (port 0 picks a free one)
 *   ... --http <port> --cors <origin>             and CORS for a browser page on <origin>
 *                                                 (e.g. http://localhost:5173): examples/cors.ts
 *
 * Over HTTP the server listens on 127.0.0.1 only, rejects requests whose Host or Origin is not
 * a localhost one (DNS rebinding), and prints one line to stdout once it listens:
 * `MCP_URL=http://127.0.0.1:<port>/mcp`. It exits on SIGTERM or SIGINT, and when its stdin is a
 * pipe whose other end closes (so a parent that spawned it cannot leak it by dying). Over stdio
 * it exits when stdin closes. Diagnostics go to stderr only.
 */
import { once } from 'node:events';
import { fstatSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { corsHeaders, parseOrigin, preflightHeaders } from './cors.js';
import { serveTaskListen, type ReportTasks } from './exampleTasks.js';
import { ExampleEvents } from './exampleEvents.js';
import { createExampleServerFactory, createExampleState, SERVER_NAME, SERVER_VERSION } from './serverFactory.js';

const HOST = '127.0.0.1';
const MCP_PATH = '/mcp';
const USAGE = 'usage: server.js [--http <port> [--cors <origin>]]';

function log(message: string): void {
  process.stderr.write(`[${SERVER_NAME}] ${message}\n`);
}

/** The port after `--http` (undefined for stdio) and the origin after `--cors`. Exits with the usage on anything else. */
function parseArgs(argv: string[]): { port: number | undefined; cors: string | undefined } {
  if (argv.length === 0) return { port: undefined, cors: undefined };
  const port = Number(argv[1]);
  const httpOk = argv[0] === '--http' && /^\d+$/.test(argv[1] ?? '') && port <= 65_535;
  if (httpOk && argv.length === 2) return { port, cors: undefined };
  if (httpOk && argv.length === 4 && argv[2] === '--cors') {
    try {
      return { port, cors: parseOrigin(argv[3] as string) };
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
    }
  }
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

/**
 * `inner` with the `events/*` requests answered by `events` before the SDK sees them, and the
 * `notifications/cancelled` of its push streams stopping them.
 */
function withEvents(inner: Transport, events: ExampleEvents): Transport {
  const streams = new Map<string | number, AbortController>();
  const wrapper: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => {
      for (const stream of streams.values()) stream.abort();
      return inner.close();
    },
  };
  inner.onclose = () => wrapper.onclose?.();
  inner.onerror = (error) => wrapper.onerror?.(error);
  inner.onmessage = (message, extra) => {
    const cancelled = message as { method?: string; params?: { requestId?: string | number } };
    if (cancelled.method === 'notifications/cancelled' && streams.has(cancelled.params?.requestId ?? '')) {
      streams.get(cancelled.params!.requestId!)!.abort();
      return;
    }
    if (events.handles(message)) {
      const abort = new AbortController();
      streams.set(message.id!, abort);
      const send = (out: object): void => void inner.send(out as JSONRPCMessage).catch(() => undefined);
      void events.answer(message, send, abort.signal).finally(() => streams.delete(message.id!));
      return;
    }
    wrapper.onmessage?.(message, extra);
  };
  return wrapper;
}

function serveOverStdio(): void {
  // One connection per process, so one state per process is one state per connection.
  serveStdio(createExampleServerFactory(createExampleState()), {
    onerror: (error) => log(`error: ${error.message}`),
    transport: withEvents(new StdioServerTransport(), new ExampleEvents()),
  });
  log(`${SERVER_NAME} ${SERVER_VERSION} serving MCP on stdio`);
}

async function serveOverHttp(port: number, cors: string | undefined): Promise<void> {
  // createMcpHandler builds an instance per request: the state is the process's, and change
  // notifications go through handler.notify to the open subscriptions/listen streams.
  const state = createExampleState();
  const events = new ExampleEvents();
  const handler: McpHttpHandler = createMcpHandler(
    createExampleServerFactory(state, { notifier: () => handler.notify }),
    {
      onerror: (error) => log(`error: ${error.message}`),
    },
  );
  const httpServer = createServer((req, res) => {
    serveRequest(handler, req, res, cors, state.reports, events).catch((error: unknown) => {
      log(`error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, HOST, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const url = `http://${HOST}:${(httpServer.address() as AddressInfo).port}${MCP_PATH}`;
  process.stdout.write(`MCP_URL=${url}\n`);
  log(`${SERVER_NAME} ${SERVER_VERSION} serving MCP on ${url}`);

  let stopping = false;
  const stop = (why: string): void => {
    if (stopping) return;
    stopping = true;
    log(`${why}: shutting down`);
    // A hung close must not keep the process alive.
    setTimeout(() => process.exit(0), 2000).unref();
    void (async () => {
      await handler.close().catch(() => {});
      httpServer.closeAllConnections(); // open listen streams
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      process.exit(0);
    })();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  if (stdinIsPipe()) {
    process.stdin.on('end', () => stop('stdin closed')).on('error', () => stop('stdin failed'));
    process.stdin.resume(); // read and drop: only the end matters
  }
}

/** True when stdin is a pipe or socket (a parent's end of it), not a terminal, /dev/null or a file. */
function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/** Node's IncomingMessage → web Request → the MCP handler → web Response → ServerResponse. */
async function serveRequest(
  handler: McpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  cors: string | undefined,
  reports: ReportTasks,
  events: ExampleEvents,
): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${HOST}`);
  if (url.pathname !== MCP_PATH) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found\n');
    return;
  }
  const origin = req.headers.origin;
  if (cors !== undefined && req.method === 'OPTIONS') {
    const requested = req.headers['access-control-request-headers'];
    res.writeHead(204, preflightHeaders(cors, origin, requested)).end();
    return;
  }

  // Aborted when the client goes away before the response is complete (e.g. it cancels a
  // request, or closes a subscriptions/listen stream).
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });

  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'connection' || name === 'keep-alive' || name === 'transfer-encoding') continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'GET';
  let body: Buffer<ArrayBuffer> | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks);
  }
  const request = new Request(url, { method, headers, signal: abort.signal, ...(body !== undefined && { body }) });

  // The --cors origin may send requests too, even when it is not a localhost one.
  const allowedOrigins =
    cors === undefined ? localhostAllowedOrigins() : [...localhostAllowedOrigins(), new URL(cors).hostname];
  const response =
    hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
    originValidationResponse(request, allowedOrigins) ??
    serveTaskListen(reports, parseBody(body), abort.signal) ??
    serveEvents(events, parseBody(body), abort.signal) ??
    (await handler.fetch(request));

  const outHeaders: Record<string, string> = cors === undefined ? {} : corsHeaders(cors, origin);
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  res.writeHead(response.status, outHeaders);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders(); // an SSE stream may stay silent for a while
  const reader = response.body.getReader();
  abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await once(res, 'drain', { signal: abort.signal });
    }
  } catch {
    // The client went away mid-stream.
  }
  res.end();
}

const { port, cors } = parseArgs(process.argv.slice(2));
if (port === undefined) {
  serveOverStdio();
} else {
  serveOverHttp(port, cors).catch((error: unknown) => {
    log(`cannot serve on ${HOST}:${port}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

/** A POST body as JSON, or `undefined` when it is none (the SDK then answers it). */
function parseBody(body: Buffer | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Answers an `events/*` POST (the Triggers & Events extension, examples/exampleEvents.ts): one
 * JSON response, or for `events/stream` an SSE stream of its notifications until the client
 * goes (`signal`). Any other message gives `undefined` (the SDK answers it).
 */
function serveEvents(events: ExampleEvents, message: unknown, signal: AbortSignal): Response | undefined {
  if (!events.handles(message)) return undefined;
  const frame = (payload: object) => new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(payload)}\n\n`);
  if (message.method !== 'events/stream') {
    let answer: object | undefined;
    void events.answer(message, (out) => (answer = out), signal);
    return Response.json(answer ?? { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'no answer' } });
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      void events
        .answer(message, (out) => controller.enqueue(frame(out)), signal)
        .finally(() => {
          try {
            controller.close();
          } catch {
            // already closed by the client going away
          }
        });
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}
