#!/usr/bin/env node
// The floor server: answers with precomputed bytes. It reads lines, finds the id, method and
// (for lists and reads) the cursor or uri with indexOf, and writes a response string built once
// at start-up with those spliced in. The results are byte-for-byte what bench/server.mjs sends
// (same fields, same order), so clients parse the same thing from either server. No JSON.parse,
// no validation. tools/call always answers the echo of ECHO_TEXT (the only call the bench makes).
//
// With `--http` (W5) it is the HTTP floor instead: node:http on 127.0.0.1 (random port, printed
// as `MCP_URL=<url>` on stdout), every POST body answered with the same spliced bytes as one
// `Content-Type: application/json` response (202 and no body for a notification), whatever the
// path or headers. It stops when its stdin ends.
import { createServer } from 'node:http';
import {
  DISCOVER_HINT,
  ECHO_TOOL,
  LIST_HINT,
  PAGE_SIZE,
  PROTOCOL_VERSION,
  READ_HINT,
  RESOURCE_COUNT,
  SERVER_INFO,
  TOOLS_HINT,
  encodeCursor,
  listPage,
  recordSpawn,
  resourceText,
} from './fixtures.mjs';

export const ECHO_TEXT = 'hello';

await recordSpawn();

const meta = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
const complete = (result, hint) =>
  hint === undefined
    ? { ...result, resultType: 'complete', _meta: meta }
    : { ...result, resultType: 'complete', ...hint, _meta: meta };
const head = (result) => `{"result":${JSON.stringify(result)},"jsonrpc":"2.0","id":`;

const DISCOVER = head(
  complete(
    {
      supportedVersions: [PROTOCOL_VERSION],
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
    },
    DISCOVER_HINT,
  ),
);
const TOOLS = head(complete({ tools: [ECHO_TOOL] }, TOOLS_HINT));
const CALL = head(complete({ content: [{ type: 'text', text: ECHO_TEXT }] }));
const PAGES = new Map();
for (let offset = 0; offset < RESOURCE_COUNT; offset += PAGE_SIZE) {
  PAGES.set(offset === 0 ? '' : encodeCursor(offset), head(complete(listPage(offset), LIST_HINT)));
}
// resources/read: the result with a placeholder uri, split around it.
const PLACEHOLDER = '\u0001URI\u0001';
const READ_PARTS = head(
  complete({ contents: [{ uri: PLACEHOLDER, mimeType: 'text/plain', text: resourceText(PLACEHOLDER) }] }, READ_HINT),
).split(JSON.stringify(PLACEHOLDER).slice(1, -1));

/** The string value of `"key":"…"` in `line` (no escapes in bench values), or undefined. */
function stringField(line, key) {
  const at = line.indexOf(key);
  if (at === -1) return undefined;
  const start = at + key.length;
  return line.slice(start, line.indexOf('"', start));
}

function answer(line) {
  const at = line.indexOf('"id":');
  if (at === -1) return ''; // a notification
  let end = at + 5;
  while (end < line.length && line.charCodeAt(end) !== 44 /* , */ && line.charCodeAt(end) !== 125 /* } */) end++;
  const id = line.slice(at + 5, end);
  const method = stringField(line, '"method":"');
  switch (method) {
    case 'tools/call':
      return `${CALL}${id}}\n`;
    case 'resources/read':
      return READ_PARTS.join(stringField(line, '"uri":"')) + `${id}}\n`;
    case 'resources/list': {
      const page = PAGES.get(stringField(line, '"cursor":"') ?? '');
      if (page !== undefined) return `${page}${id}}\n`;
      return `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"Invalid cursor"}}\n`;
    }
    case 'tools/list':
      return `${TOOLS}${id}}\n`;
    case 'server/discover':
      return `${DISCOVER}${id}}\n`;
    default:
      return `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found"}}\n`;
  }
}

if (process.argv.includes('--http')) serveHttp();
else serveStdio();

function serveHttp() {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST', 'Content-Length': '0' }).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const out = answer(body);
      if (out === '') {
        res.writeHead(202, { 'Content-Length': '0' }).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out) }).end(out);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`MCP_URL=http://127.0.0.1:${server.address().port}/mcp\n`));
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

function serveStdio() {
  let rest = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    const text = rest + chunk;
    let out = '';
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      if (nl > start) out += answer(text.slice(start, nl));
      start = nl + 1;
    }
    rest = text.slice(start);
    if (out !== '') process.stdout.write(out);
  });
  process.stdin.on('end', () => process.exit(0));
}
