// Echo server: answers every request with { echo: params }. Appends each raw line it reads to
// the file named by argv[2], if any. Special requests: "exit" (exit with params.code),
// "stderr" (write params.text to stderr), "notify" (send a notification first). Exits on stdin EOF.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const log = process.argv[2];
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (log) appendFileSync(log, line + '\n');
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.method === 'exit') process.exit(msg.params?.code ?? 0);
  if (msg.method === 'stderr') process.stderr.write(msg.params.text);
  if (msg.method === 'notify')
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n: 1 } }) + '\n');
  if (msg.id !== undefined) {
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { echo: msg.params ?? null } }) + '\n');
  }
});
rl.on('close', () => process.exit(0));
