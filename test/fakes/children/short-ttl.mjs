// A 2026-07-28 stdio server whose cache entries expire quickly, for the devtools' cache view:
// `node short-ttl.mjs [ttlMs]` (default 1500). `demo://clock` is public and fresh for ttlMs,
// `demo://mine` private (60 s); the tool `reads` answers how many `resources/read` of each uri
// the server answered (the server side's count; `tool:send` counts the sends), `send` echoes its `to` and `text` (for the
// approvals). Its lists are public for 60 s. On the official @modelcontextprotocol/server v2.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const ttlMs = Number(process.argv[2] ?? '1500');
const reads = {};
const count = (uri) => (reads[uri] = (reads[uri] ?? 0) + 1);

serveStdio(() => {
  const server = new McpServer(
    { name: 'short-ttl', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
      cacheHints: {
        'server/discover': { ttlMs: 60_000, cacheScope: 'public' },
        'tools/list': { ttlMs: 60_000, cacheScope: 'public' },
        'resources/list': { ttlMs: 60_000, cacheScope: 'public' },
        'resources/templates/list': { ttlMs: 60_000, cacheScope: 'public' },
      },
    },
  );
  server.registerResource(
    'clock',
    'demo://clock',
    { title: 'Clock', mimeType: 'text/plain', cacheHint: { ttlMs, cacheScope: 'public' } },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `read ${count(uri.href)}` }] }),
  );
  server.registerResource(
    'mine',
    'demo://mine',
    { title: 'Mine', mimeType: 'text/plain', cacheHint: { ttlMs: 60_000, cacheScope: 'private' } },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `secret of read ${count(uri.href)}` }] }),
  );
  server.registerTool('reads', { description: 'How many reads of each uri the server answered.' }, async () => ({
    content: [{ type: 'text', text: JSON.stringify(reads) }],
  }));
  server.registerTool(
    'send',
    { description: 'Sends a message.', inputSchema: z.object({ to: z.string(), text: z.string() }) },
    async ({ to, text }) => {
      count('tool:send');
      return { content: [{ type: 'text', text: `sent to ${to}: ${text}` }] };
    },
  );
  return server;
});
