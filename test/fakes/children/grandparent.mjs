// Spawns a long-lived grandchild and reports its pid as a notification.
// argv[2]: "stay" (ignore stdin EOF and keep running) or "exit-on-eof" (exit when stdin ends,
// leaving the grandchild behind holding our stdout/stderr pipes).
import { spawn } from 'node:child_process';

const mode = process.argv[2] ?? 'stay';
const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
  stdio: mode === 'exit-on-eof' ? ['ignore', 'inherit', 'inherit'] : 'ignore',
});
grandchild.on('spawn', () => {
  process.stdout.write(
    JSON.stringify({ jsonrpc: '2.0', method: 'grandchild', params: { pid: grandchild.pid } }) + '\n',
  );
});
process.stdin.resume();
if (mode === 'exit-on-eof') {
  process.stdin.on('end', () => process.exit(0));
} else {
  process.stdin.on('end', () => {});
  setInterval(() => {}, 1000);
}
