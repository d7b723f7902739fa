// Backpressure check: does not read stdin for argv[2] ms (so the pipe fills up), then reads
// requests with params.seq, and on method "done" answers with how many came and whether
// they came in order.
import { createInterface } from 'node:readline';

const pauseMs = Number(process.argv[2] ?? '300');
let count = 0;
let inOrder = true;
setTimeout(() => {
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const msg = JSON.parse(line);
    if (msg.method === 'done') {
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { count, inOrder } }) + '\n');
      return;
    }
    if (msg.params.seq !== count) inOrder = false;
    count += 1;
  });
  rl.on('close', () => process.exit(0));
}, pauseMs);
