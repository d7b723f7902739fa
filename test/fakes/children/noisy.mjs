// B17: a server that logs to stdout around its JSON-RPC messages, then echoes requests.
import { createInterface } from 'node:readline';

const out = (s) => process.stdout.write(s);
out('Server v1.2 starting...\n');
out('{"jsonrpc":"2.0","id":"s1","method":"ping"}\n');
out('[INFO] ready\n');
out('{"level":"info","msg":"listening"}\n');
out('\u{1F680} up\n');
out('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n');
out('{"jsonrpc":"2.0","id":7,"result":{}}\n');
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id !== undefined && msg.method !== undefined) {
    out(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { ok: true } }) + '\n');
  }
});
rl.on('close', () => process.exit(0));
