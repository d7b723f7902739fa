// Writes to stderr: argv[2] = "split" (a 2-byte UTF-8 character split across two writes),
// "flood" (1 MiB, more than a pipe holds, before answering), "tail" (10000 bytes then END).
// Then echoes requests until stdin ends.
import { setTimeout as sleep } from 'node:timers/promises';
import { createInterface } from 'node:readline';

const mode = process.argv[2];
const write = (b) => new Promise((r) => process.stderr.write(b, r));
if (mode === 'split') {
  await write(Buffer.from([0x63, 0x61, 0x66, 0xc3]));
  await sleep(50);
  await write(Buffer.from([0xa9, 0x0a]));
} else if (mode === 'flood') {
  await write('e'.repeat(1024 * 1024) + '\n');
} else if (mode === 'tail') {
  await write('a'.repeat(10000) + 'END\n');
}
process.stdout.write('{"jsonrpc":"2.0","method":"stderr-done"}\n');
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} }) + '\n');
});
rl.on('close', () => process.exit(0));
