// A 2026-07-28 stdio server that answers server/discover and tools/list, then misbehaves the way
// argv[2] says (one mode per fault). It exits on stdin EOF unless the mode says otherwise.
//   exit-on-call        tools/call: exits with code 3 (after "fatal: crash" on stderr)
//   sigkill-on-call     tools/call: SIGKILLs itself
//   hang                tools/call: never answered
//   silent              nothing is ever answered, not even server/discover
//   silent-stubborn     as silent, and it ignores stdin EOF and SIGTERM (only SIGKILL ends it)
//   garbage             tools/call: 1000 garbage lines on stdout first, then the answer
//   huge-line           tools/call: one 10 MiB line of non-JSON, then the answer
//   huge-answer         tools/call: the answer itself is a 10 MiB line
//   flood               tools/call: 20000 notifications/message first, then the answer
//   unknown-ids         tools/call: answers for ids never sent, then the answer twice
//   group-helper        spawns a helper in its process group that ignores SIGTERM and
//                       holds no pipe; reports its pid as notifications/helper
//   stubborn-group      as group-helper, and the server itself ignores stdin EOF and SIGTERM
//   input-forever       tools/call: always input_required (asks the roots again and again)
//   crash-loop          answers as usual, and exits with code 1 150 ms after it started
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'hang';
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const discover = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: 'public',
};
const answer = (id) => send({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [] } });

if (mode === 'group-helper' || mode === 'stubborn-group') {
  const helper = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], {
    stdio: 'ignore',
  });
  helper.on('spawn', () => send({ jsonrpc: '2.0', method: 'notifications/helper', params: { pid: helper.pid } }));
}

if (mode === 'crash-loop') setTimeout(() => process.exit(1), 150);

if (mode === 'silent-stubborn' || mode === 'stubborn-group') {
  process.on('SIGTERM', () => {});
  setInterval(() => {}, 1000);
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('close', () => {
  if (mode !== 'silent-stubborn' && mode !== 'stubborn-group') process.exit(0);
});
rl.on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (mode.startsWith('silent') || !('id' in message) || message.method === undefined) return;
  const { id, method } = message;
  if (method === 'server/discover') return send({ jsonrpc: '2.0', id, result: discover });
  if (method === 'tools/list')
    return send({
      jsonrpc: '2.0',
      id,
      result: {
        resultType: 'complete',
        tools: [{ name: 'go', inputSchema: { type: 'object' } }],
        ttlMs: 0,
        cacheScope: 'public',
      },
    });
  if (method !== 'tools/call') return send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'no' } });
  switch (mode) {
    case 'exit-on-call':
      process.stderr.write('fatal: crash\n', () => process.exit(3));
      return;
    case 'sigkill-on-call':
      process.kill(process.pid, 'SIGKILL');
      return;
    case 'hang':
      return;
    case 'garbage':
      for (let i = 0; i < 1000; i++) process.stdout.write(`garbage line ${i} {not json\n`);
      return answer(id);
    case 'huge-line':
      process.stdout.write('x'.repeat(10 * 1024 * 1024) + '\n');
      return answer(id);
    case 'huge-answer':
      return send({
        jsonrpc: '2.0',
        id,
        result: { resultType: 'complete', content: [{ type: 'text', text: 'y'.repeat(10 * 1024 * 1024) }] },
      });
    case 'flood': {
      const note = JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'x' },
      });
      process.stdout.write(`${note}\n`.repeat(20_000));
      return answer(id);
    }
    case 'unknown-ids':
      send({ jsonrpc: '2.0', id: 987654, result: {} });
      send({ jsonrpc: '2.0', id: 'nobody', error: { code: -32603, message: 'stray' } });
      answer(id);
      answer(id);
      return;
    case 'input-forever':
      return send({
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'input_required',
          inputRequests: { roots: { method: 'roots/list', params: {} } },
          requestState: `round-${Math.random()}`,
        },
      });
    default:
      return answer(id);
  }
});
