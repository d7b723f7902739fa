// A tiny 2025-11-25 server on the official v1 SDK (@modelcontextprotocol/sdk), for the legacy
// interop tests. `node v1-sdk-server.mjs` serves stdio; `node v1-sdk-server.mjs http` serves
// Streamable HTTP with sessions at http://127.0.0.1:<port>/mcp and prints
// "LOOPBACK_PORT <port>" on stderr.
//
// Tools: echo; ask (elicitation/create with a default for every field, SEP-1034); roots
// (roots/list); sample (sampling/createMessage); touch (notifications/resources/updated for
// demo://note, then a new tool and notifications/tools/list_changed); expire (HTTP: ends the
// session, so the next request gets 404); connect (URLElicitationRequiredError, -32042, until
// the user has "completed" the URL: 50 ms after the error, when the client declared URL
// elicitation, the server sends notifications/elicitation/complete and the next call succeeds). Resource demo://note supports resources/subscribe.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const text = (value) => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

/** One server instance (one per HTTP session). `onExpire` ends its session. */
function build(onExpire) {
  const mcp = new McpServer(
    { name: 'v1-sdk-fake', version: '1.0.0' },
    {
      capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } },
      instructions: 'a v1 SDK server',
    },
  );
  const subscribed = new Set();
  let note = 'first';
  let added = 0;
  mcp.registerTool('echo', { description: 'Echoes', inputSchema: { message: z.string() } }, ({ message }) =>
    text(message),
  );
  mcp.registerTool('ask', { description: 'Elicits a form with defaults' }, async () => {
    const result = await mcp.server.elicitInput({
      message: 'Your details',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', default: 'Ada' },
          age: { type: 'integer', default: 36 },
          score: { type: 'number', default: 9.5 },
          status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
          verified: { type: 'boolean', default: true },
        },
      },
    });
    return text(result);
  });
  mcp.registerTool('roots', { description: 'Lists the client roots' }, async () => text(await mcp.server.listRoots()));
  mcp.registerTool('sample', { description: 'Asks the client to sample' }, async () =>
    text(
      await mcp.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 5,
      }),
    ),
  );
  mcp.registerTool('touch', { description: 'Changes the note and the tool list' }, async () => {
    note = `changed ${Date.now()}`;
    if (subscribed.has('demo://note')) await mcp.server.sendResourceUpdated({ uri: 'demo://note' });
    added++;
    mcp.registerTool(`added_${added}`, { description: 'Added by touch' }, () => text('added'));
    return text('touched');
  });
  let connected = false;
  mcp.registerTool('connect', { description: 'Needs the user to open a URL first' }, () => {
    if (connected) return text('connected');
    const elicitationId = `connect-${randomUUID()}`;
    if (mcp.server.getClientCapabilities()?.elicitation?.url !== undefined) {
      const complete = mcp.server.createElicitationCompletionNotifier(elicitationId);
      setTimeout(() => {
        connected = true;
        void complete();
      }, 50);
    }
    throw new UrlElicitationRequiredError([
      {
        mode: 'url',
        elicitationId,
        url: `https://auth.example.com/connect?elicitationId=${elicitationId}`,
        message: 'Connect your Example account',
      },
    ]);
  });
  mcp.registerTool('expire', { description: 'Ends the HTTP session' }, () => {
    onExpire?.();
    return text('expired');
  });
  mcp.registerResource('note', 'demo://note', { mimeType: 'text/plain' }, () => ({
    contents: [{ uri: 'demo://note', text: note }],
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

if (process.argv[2] === 'http') {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (transport === undefined) {
        res
          .writeHead(404, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
        return;
      }
      await transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || body?.method !== 'initialize') {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
        }),
      );
      return;
    }
    let transport;
    const mcp = build(() => {
      // Unknown from now on (404); the transport itself closes once this response is out.
      sessions.delete(transport.sessionId);
      setTimeout(() => void transport.close(), 100);
    });
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1', () => process.stderr.write(`LOOPBACK_PORT ${http.address().port}\n`));
} else {
  await build().connect(new StdioServerTransport());
}
