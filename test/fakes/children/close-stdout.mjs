// Closes its stdout but keeps running (ignores stdin EOF; SIGTERM ends it).
import { closeSync } from 'node:fs';

process.stdout.write('{"jsonrpc":"2.0","method":"bye"}\n', () => {
  closeSync(1);
});
process.stdin.resume();
process.stdin.on('end', () => {});
setInterval(() => {}, 1000);
