/**
 * A real MCP server (official @modelcontextprotocol/server v2) served over Streamable HTTP on
 * 127.0.0.1 through `createMcpHandler`, bridged to node:http, in the test process. Small and
 * purpose-built: an `x-mcp-header` tool, a non-ASCII resource uri and a cancellable slow tool
 * the transport tests observe from the server side. The example server's own HTTP mode is
 * tested in test/integration/exampleHttp.test.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer, type McpServerFactory, type ServerNotifier } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** A URI with non-ASCII characters, for B13 end to end (the server checks Mcp-Name). */
export const CAFE_URI = 'file:///docs/café.md';

function text(value: string): { type: 'text'; text: string } {
  return { type: 'text', text: value };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Counts calls of the `slow` tool that saw their cancellation. */
export const observed = { slowCancelled: 0, slowStarted: 0 };

/** The tools, resources and prompts the HTTP and WebSocket integration tests use. */
export const testServerFactory: McpServerFactory = () => {
  const server = new McpServer(
    { name: 'mcp-live-http-test', version: '0.0.0' },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: {}, logging: {} },
    },
  );

  server.registerTool(
    'echo',
    {
      description: 'Returns its message.',
      inputSchema: z.object({ message: z.string() }),
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    ({ message }) => ({ content: [text(message)] }),
  );

  server.registerTool(
    'regional',
    {
      description: 'Echoes its region, which is mirrored into the Mcp-Param-Region header.',
      inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }), query: z.string() }),
    },
    ({ region, query }) => ({ content: [text(`${region}: ${query}`)] }),
  );

  server.registerTool(
    'slow',
    {
      description: 'Sends progress and a log message per step; stops when cancelled.',
      inputSchema: z.object({ steps: z.number().int().min(1).max(50), stepMs: z.number().int().min(0).max(5000) }),
    },
    async ({ steps, stepMs }, ctx) => {
      observed.slowStarted++;
      const token = ctx.mcpReq._meta?.progressToken;
      let done = 0;
      while (done < steps && !ctx.mcpReq.signal.aborted) {
        await sleep(stepMs, ctx.mcpReq.signal);
        if (ctx.mcpReq.signal.aborted) break;
        done++;
        await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: `step ${done}` } });
        if (token !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: done, total: steps },
          });
      }
      if (ctx.mcpReq.signal.aborted) observed.slowCancelled++;
      return { content: [text(`${done}/${steps}`)] };
    },
  );

  // The SDK looks resources up by `new URL(uri).href`, which percent-encodes the é.
  server.registerResource('cafe', new URL(CAFE_URI).href, { mimeType: 'text/markdown' }, () => ({
    contents: [{ uri: CAFE_URI, mimeType: 'text/markdown', text: '# Café' }],
  }));

  server.registerPrompt(
    'greet',
    { description: 'Greets someone.', argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({
      messages: [{ role: 'user', content: text(`Hello, ${name}`) }],
    }),
  );

  return server;
};

/** A running HTTP server in front of `createMcpHandler(testServerFactory)`. */
export interface HttpExampleServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: string;
  /** Publishes change notifications to open `subscriptions/listen` streams. */
  readonly notify: ServerNotifier;
  /** Every request's method, path and headers, in order. */
  readonly requests: Array<{ method: string; path: string; headers: Record<string, string | string[] | undefined> }>;
  close(): Promise<void>;
}

const SKIPPED_REQUEST_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** Serves {@link testServerFactory} over Streamable HTTP at `/mcp` on 127.0.0.1 (random port). */
export async function startHttpExampleServer(
  factory: McpServerFactory = testServerFactory,
): Promise<HttpExampleServer> {
  const handler = createMcpHandler(factory, { keepAliveMs: 15_000 });
  const requests: HttpExampleServer['requests'] = [];
  let origin = '';
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers } });
    bridge(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(error));
    });
  });

  async function bridge(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.url !== '/mcp') {
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>');
      return;
    }
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (SKIPPED_REQUEST_HEADERS.has(name) || value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const method = req.method ?? 'GET';
    const request = new Request(`${origin}${req.url}`, {
      method,
      headers,
      signal: controller.signal,
      ...(method !== 'GET' && method !== 'HEAD' && { body: Buffer.concat(chunks) }),
    });
    const response = await handler.fetch(request);
    const outHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      outHeaders[name] = value;
    });
    res.writeHead(response.status, outHeaders);
    res.flushHeaders();
    if (response.body === null) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    controller.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // The client went away.
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/mcp`,
    notify: handler.notify,
    requests,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
