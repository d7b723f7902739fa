/**
 * The `mcp-live` executable (dist/cli.js, `bin` in package.json): binds {@link main} to this
 * process. Ctrl-C (or SIGTERM) aborts the command once; a second one exits at once.
 */
import { main } from './main.js';

const controller = new AbortController();
let interrupts = 0;
const onSignal = (signal: NodeJS.Signals): void => {
  interrupts++;
  if (interrupts > 1) process.exit(130);
  controller.abort(new Error(`received ${signal}`));
};
process.on('SIGINT', onSignal);
// Output piped into `head` and the like: stop quietly once the reader has gone.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
process.on('SIGTERM', onSignal);

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = code;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  },
  (error: unknown) => {
    process.stderr.write(
      `mcp-live: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
