/**
 * A real `redis-server` for tests: its own process on a free port of 127.0.0.1, no persistence
 * (`--save '' --appendonly no`), its files in a temp dir. It can be killed (SIGKILL, as a crash)
 * and started again on the same port, empty, and paused (`CLIENT PAUSE`, as a slow Redis).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** True while the process runs. */
  readonly running: boolean;
  /** SIGKILL, as a crash; resolves once it exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved). */
  restart(): Promise<void>;
  /** `CLIENT PAUSE <ms> ALL`: every client's commands wait that long. */
  pause(ms: number): Promise<void>;
  /** A fresh admin connection (the caller quits it). */
  admin(): Redis;
  /** Stops it and removes its dir. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (closed again before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `binary` (redis-server) and resolves once it accepts connections. */
export async function startRedisServer(binary: string): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-live-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function launch(): Promise<void> {
    const proc = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
      const onData = (chunk: Buffer): void => {
        output += chunk.toString('utf8');
        if (output.includes('Ready to accept connections')) done();
      };
      const onExit = (code: number | null): void => fail(new Error(`redis-server exited (${code}):\n${output}`));
      function done(): void {
        cleanup();
        resolve();
      }
      function fail(error: Error): void {
        cleanup();
        proc.kill('SIGKILL');
        reject(error);
      }
      function cleanup(): void {
        clearTimeout(timer);
        proc.stdout.off('data', onData);
        proc.off('exit', onExit);
      }
      proc.stdout.on('data', onData);
      proc.stderr.on('data', onData);
      proc.once('exit', onExit);
    });
    proc.stdout.resume();
    proc.stderr.resume();
  }

  async function kill(): Promise<void> {
    const proc = child;
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGKILL');
    await exited;
  }

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    pause: async (ms) => {
      const admin = new Redis(port, '127.0.0.1');
      try {
        await admin.call('CLIENT', 'PAUSE', String(ms), 'ALL');
      } finally {
        admin.disconnect();
      }
    },
    admin: () => new Redis(port, '127.0.0.1'),
    stop: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
