// B20: reads one line, writes "fatal: boom" to stderr and exits with code 1.
import { createInterface } from 'node:readline';

const rl = createInterface({ input: process.stdin });
rl.once('line', () => {
  process.stderr.write('fatal: boom\n', () => process.exit(1));
});
