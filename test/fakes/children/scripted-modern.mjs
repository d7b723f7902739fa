// A tiny 2026-07-28 stdio server driven by argv[2] (a mode), for client-level stdio cases.
//   noisy:          B17 - banner and log lines on stdout around real messages.
//   die-on-second:  B20 - answers server/discover, then on the next request writes
//                   "fatal: boom" to stderr and exits 1.
//   crash-after-first <marker file>: the first run serves (and creates the marker); every
//                   later run writes "fatal: store locked" to stderr and exits 2 at once.
//   templates <record file>: resources with the templates db://object/{name} and
//                   db://object/{name}/columns/{column}; completion/complete answers from
//                   fixed lists (a value listed twice included) and appends each request's
//                   params to the record file as one JSON line.
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.argv[2];
if (mode === 'crash-after-first') {
  const marker = process.argv[3];
  if (existsSync(marker)) {
    process.stderr.write('fatal: store locked\n', () => process.exit(2));
  } else {
    writeFileSync(marker, String(process.pid));
  }
}
const discover = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: mode === 'templates' ? { resources: {}, completions: {} } : { tools: {} },
  ttlMs: 0,
  cacheScope: 'public',
};
const out = (text) => process.stdout.write(text);
const send = (message) => out(JSON.stringify(message) + '\n');

if (mode === 'noisy') out('Server v1.2 starting...\n');

let count = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (!('id' in message)) return;
  count++;
  if (message.method === 'server/discover') {
    send({ jsonrpc: '2.0', id: message.id, result: discover });
    if (mode === 'noisy') out('[INFO] ready\n{"level":"info","msg":"listening"}\n🚀 up\n');
    return;
  }
  if (mode === 'die-on-second' && count === 2) {
    process.stderr.write('fatal: boom\n', () => process.exit(1));
    return;
  }
  if (mode === 'templates') {
    send({ jsonrpc: '2.0', id: message.id, ...templatesAnswer(message) });
    return;
  }
  if (message.method === 'tools/list') {
    if (mode === 'noisy')
      send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
    send({
      jsonrpc: '2.0',
      id: message.id,
      result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'private' },
    });
  }
});

function templatesAnswer({ method, params }) {
  const list = { resultType: 'complete', ttlMs: 0, cacheScope: 'public' };
  if (method === 'resources/list') return { result: { ...list, resources: [] } };
  if (method === 'resources/templates/list')
    return {
      result: {
        ...list,
        resourceTemplates: [
          { uriTemplate: 'db://object/{name}', name: 'object' },
          { uriTemplate: 'db://object/{name}/columns/{column}', name: 'column' },
        ],
      },
    };
  if (method === 'completion/complete') {
    appendFileSync(process.argv[3], JSON.stringify(params) + '\n');
    const values = { name: ['aspirin', 'aspartame', 'ibuprofen'], column: ['dose', 'dose', 'dosage_form', 'route'] };
    const typed = params.argument.value;
    const found = (values[params.argument.name] ?? []).filter((v) => v.startsWith(typed));
    return { result: { resultType: 'complete', completion: { values: found, total: found.length, hasMore: false } } };
  }
  return { error: { code: -32601, message: `no method ${method}` } };
}
