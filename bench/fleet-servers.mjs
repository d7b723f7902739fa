// The servers of bench/fleet.mjs, in a process of their own (so the host's CPU is the bench
// process's alone): five minimal MCP servers over HTTP (2026-07-28, JSON responses) on free
// ports of 127.0.0.1. `perUser` ones need `Authorization: Bearer tok-<user>` and answer per user.
// Prints one JSON line, { urls: [...], kinds: [...] }, then serves until killed; on SIGUSR2 it
// prints { sockets } (connections open now, per server).
import { createServer } from 'node:http';

const KINDS = ['perUser', 'perUser', 'shared', 'shared', 'shared'];
const sockets = KINDS.map(() => 0);

function answer(method, params, user) {
  switch (method) {
    case 'server/discover':
      return {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        ttlMs: 0,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fleet-bench', version: '0.0.0' } },
      };
    case 'tools/list':
      return {
        resultType: 'complete',
        tools: [{ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
        ttlMs: 60_000,
        cacheScope: user === undefined ? 'public' : 'private',
      };
    case 'tools/call':
      return {
        resultType: 'complete',
        content: [{ type: 'text', text: `${user ?? 'anyone'}: ${params?.arguments?.n}` }],
      };
    default:
      return undefined;
  }
}

const urls = await Promise.all(
  KINDS.map(
    (kind, i) =>
      new Promise((resolve) => {
        const server = createServer((req, res) => {
          const chunks = [];
          req.on('data', (chunk) => chunks.push(chunk));
          req.on('end', () => {
            let user;
            if (kind === 'perUser') {
              const auth = req.headers.authorization ?? '';
              user = auth.startsWith('Bearer tok-') ? auth.slice('Bearer tok-'.length) : undefined;
              if (user === undefined) return res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
            }
            const message = chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (message.id === undefined) return res.writeHead(202).end();
            const result = answer(message.method, message.params, user);
            const body = JSON.stringify(
              result === undefined
                ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
                : { jsonrpc: '2.0', id: message.id, result },
            );
            res
              .writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
              .end(body);
          });
        });
        server.on('connection', (socket) => {
          sockets[i]++;
          socket.on('close', () => sockets[i]--);
        });
        server.keepAliveTimeout = 60_000;
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/mcp`));
      }),
  ),
);
process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify({ sockets })}\n`));
process.stdout.write(`${JSON.stringify({ urls, kinds: KINDS })}\n`);
