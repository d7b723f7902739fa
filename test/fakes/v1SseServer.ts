/**
 * A 2024-11-05-style HTTP+SSE server on the official v1 SDK (`@modelcontextprotocol/sdk`,
 * `SSEServerTransport`), in-process on 127.0.0.1 with a random port: `GET /sse` opens a
 * session whose `endpoint` event names `/messages?sessionId=...`; `POST /messages` takes the
 * client's messages (202). Anything else gets 404, like an Express app without that route
 * (so the Streamable HTTP `POST /sse` of a dual-era client is refused with 404).
 *
 * Tools: echo; roots (asks the client `roots/list`); ask (asks `elicitation/create`); grow
 * (adds a tool: `notifications/tools/list_changed`); touch (`notifications/resources/updated`
 * for demo://note when subscribed). Resource demo://note; prompt greet.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/** One request the server saw. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface V1SseServer {
  /** The SSE URL, `http://127.0.0.1:<port>/sse`. */
  readonly url: string;
  /** Every HTTP request, in arrival order. */
  readonly seen: SeenRequest[];
  /** JSON-RPC methods POSTed to /messages, in arrival order (responses as `(response)`). */
  readonly posted: string[];
  /** Open SSE sessions. */
  sessions(): number;
  /** Ends every SSE stream from the server side (the client sees its stream end). */
  dropStreams(): void;
  close(): Promise<void>;
}

const text = (value: unknown) => ({
  content: [{ type: 'text' as const, text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

function build(): McpServer {
  const mcp = new McpServer(
    { name: 'v1-sse-fake', version: '1.0.0' },
    {
      capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true }, prompts: {} },
      instructions: 'an HTTP+SSE server',
    },
  );
  const subscribed = new Set<string>();
  let note = 'first';
  let grown = 0;
  mcp.registerTool('echo', { description: 'Echoes', inputSchema: { message: z.string() } }, ({ message }) =>
    text(message),
  );
  mcp.registerTool('roots', { description: 'Lists the client roots' }, async () => text(await mcp.server.listRoots()));
  mcp.registerTool('ask', { description: 'Elicits a name' }, async () =>
    text(
      await mcp.server.elicitInput({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'Ada' } } },
      }),
    ),
  );
  mcp.registerTool('grow', { description: 'Adds a tool' }, () => {
    grown++;
    mcp.registerTool(`grown_${grown}`, { description: 'Added by grow' }, () => text('grown'));
    return text('grew');
  });
  mcp.registerTool('touch', { description: 'Changes the note' }, async () => {
    note = `changed ${grown}`;
    if (subscribed.has('demo://note')) await mcp.server.sendResourceUpdated({ uri: 'demo://note' });
    return text('touched');
  });
  mcp.registerTool('slow', { description: 'Answers after 30 s, or when cancelled' }, async (extra) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 30_000).unref();
      extra.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return text(extra.signal.aborted ? 'cancelled' : 'late');
  });
  mcp.registerResource('note', 'demo://note', { mimeType: 'text/plain' }, () => ({
    contents: [{ uri: 'demo://note', text: note }],
  }));
  mcp.registerPrompt('greet', { description: 'Greets', argsSchema: { name: z.string() } }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }],
  }));
  mcp.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  mcp.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  return mcp;
}

/** Starts the server; `close()` ends every stream and the listener. */
export async function startV1SseServer(): Promise<V1SseServer> {
  const transports = new Map<string, { transport: SSEServerTransport; res: ServerResponse; mcp: McpServer }>();
  const seen: SeenRequest[] = [];
  const posted: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers });
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      const mcp = build();
      transports.set(transport.sessionId, { transport, res, mcp });
      res.on('close', () => {
        transports.delete(transport.sessionId);
        void mcp.close();
      });
      void mcp.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const entry = transports.get(url.searchParams.get('sessionId') ?? '');
      if (entry === undefined) {
        res.writeHead(404).end('Session not found');
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method?: string };
        posted.push(body.method ?? '(response)');
        void entry.transport.handlePostMessage(req, res, body);
      });
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/html' }).end(`<pre>Cannot ${req.method} ${url.pathname}</pre>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    seen,
    posted,
    sessions: () => transports.size,
    dropStreams: () => {
      for (const { res } of transports.values()) res.end();
    },
    close: async () => {
      for (const { res } of transports.values()) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
