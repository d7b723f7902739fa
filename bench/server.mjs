#!/usr/bin/env node
// The bench server: one fixed 2026-07-28 server on the official @modelcontextprotocol/server v2,
// over stdio, or with `--http` over Streamable HTTP (W5): `createMcpHandler` with JSON responses
// behind a node:http server on 127.0.0.1 (random port), which prints `MCP_URL=<url>` on stdout
// once it listens. A tool `echo`; resources/list over 10,000 resources in pages of 100 with opaque
// cursors; resources/read of ~1 KiB text with ttlMs 600000 / cacheScope public.
import { createServer as createHttpServer } from 'node:http';
import { createMcpHandler, McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import {
  DISCOVER_HINT,
  LIST_HINT,
  READ_HINT,
  SERVER_INFO,
  TOOLS_HINT,
  decodeCursor,
  listPage,
  recordSpawn,
  resourceText,
} from './fixtures.mjs';

await recordSpawn();

function createServer() {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    cacheHints: {
      'server/discover': DISCOVER_HINT,
      'tools/list': TOOLS_HINT,
      'resources/list': LIST_HINT,
      'resources/read': READ_HINT,
    },
  });
  server.registerTool(
    'echo',
    { description: 'Returns its text argument.', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.server.setRequestHandler('resources/list', (request) => {
    const cursor = request.params?.cursor;
    let offset = 0;
    if (cursor !== undefined) {
      const decoded = decodeCursor(cursor);
      if (decoded === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor', { cursor });
      offset = decoded;
    }
    return listPage(offset);
  });
  server.server.setRequestHandler('resources/read', (request) => {
    const uri = request.params.uri;
    if (!uri.startsWith('bench://r/'))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Resource not found', { uri });
    return { contents: [{ uri, mimeType: 'text/plain', text: resourceText(uri) }] };
  });
  return server;
}

const onerror = (error) => process.stderr.write(`[bench-server] ${error.message}\n`);

if (process.argv.includes('--http')) serveHttp();
else serveStdio(createServer, { onerror });

/** Streamable HTTP at /mcp: node:http in front of the handler's web-standard `fetch`. */
function serveHttp() {
  const handler = createMcpHandler(createServer, { responseMode: 'json', onerror });
  let origin = '';
  const http = createHttpServer((req, res) => {
    bridge(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(error));
    });
  });
  async function bridge(req, res) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (
        value === undefined ||
        name === 'host' ||
        name === 'connection' ||
        name === 'content-length' ||
        name === 'keep-alive' ||
        name === 'transfer-encoding'
      )
        continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const method = req.method ?? 'GET';
    const response = await handler.fetch(
      new Request(`${origin}${req.url}`, {
        method,
        headers,
        ...(method !== 'GET' && method !== 'HEAD' && { body: Buffer.concat(chunks) }),
      }),
    );
    const out = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    res.writeHead(response.status, out);
    if (response.body === null) return void res.end();
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  }
  http.keepAliveTimeout = 60_000;
  http.listen(0, '127.0.0.1', () => {
    origin = `http://127.0.0.1:${http.address().port}`;
    process.stdout.write(`MCP_URL=${origin}/mcp\n`);
  });
  // The parent closing our stdin (or dying) ends the server.
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}
