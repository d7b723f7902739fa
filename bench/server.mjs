#!/usr/bin/env node
// The bench server: one fixed 2026-07-28 server on the official @modelcontextprotocol/server v2,
// over stdio. A tool `echo`; resources/list over 10,000 resources in pages of 100 with opaque
// cursors; resources/read of ~1 KiB text with ttlMs 600000 / cacheScope public.
import { McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
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
    if (!uri.startsWith('bench://r/')) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Resource not found', { uri });
    return { contents: [{ uri, mimeType: 'text/plain', text: resourceText(uri) }] };
  });
  return server;
}

serveStdio(createServer, { onerror: (error) => process.stderr.write(`[bench-server] ${error.message}\n`) });
