/**
 * Starts the example server over Streamable HTTP in a child process (`server.js --http 0`) and
 * stops it again. Used by the demo's `--http` mode and by the integration tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A running `server.js --http` child. */
export interface HttpServerProcess {
  /** The MCP endpoint the server printed, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** The last few KB the server wrote to stderr. */
  stderrTail(): string;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const STDERR_TAIL_CHARS = 4096;

/**
 * Spawns `node <serverScript> --http <options.port ?? 0>` (with `--cors <origin>` when `options.cors` is set) and
 * resolves once it printed its `MCP_URL=` line.
 * Rejects (with the child killed) when the child fails to start, exits first, or takes longer
 * than `timeoutMs`.
 */
export function spawnHttpServer(
  serverScript: string,
  options: { timeoutMs?: number; cors?: string; port?: number } = {},
): Promise<HttpServerProcess> {
  const port = String(options.port ?? 0);
  const args = [serverScript, '--http', port, ...(options.cors === undefined ? [] : ['--cors', options.cors])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  async function stop(graceMs = 3000): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  return new Promise<HttpServerProcess>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const fail = (reason: string): void => {
      cleanup();
      lines.close();
      void stop(0);
      const tail = stderr.trim();
      reject(new Error(`example server (${serverScript}) ${reason}${tail === '' ? '' : `; its stderr:\n${tail}`}`));
    };
    const onLine = (line: string): void => {
      const match = /^MCP_URL=(\S+)$/.exec(line);
      if (match === null) return;
      cleanup();
      resolve({ url: match[1] as string, child, stderrTail: () => stderr, stop });
    };
    const onError = (error: Error): void => fail(`could not start: ${error.message}`);
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      fail(`exited before listening (code ${code}, signal ${signal})`);
    const timer = setTimeout(
      () => fail(`printed no MCP_URL line within ${options.timeoutMs ?? 10_000} ms`),
      options.timeoutMs ?? 10_000,
    );
    function cleanup(): void {
      clearTimeout(timer);
      lines.off('line', onLine);
      child.off('error', onError);
      child.off('exit', onExit);
    }
    lines.on('line', onLine);
    child.once('error', onError);
    child.once('exit', onExit);
  });
}
