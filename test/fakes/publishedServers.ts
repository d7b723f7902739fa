/**
 * Published MCP servers from npm (and the tiny v1-SDK server of test/fakes), started by the
 * interop tests themselves: over stdio as child processes, over Streamable HTTP as child
 * processes that listen on 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';

const require = createRequire(import.meta.url);

/** Entry points of the published servers, as installed (devDependencies). */
export const EVERYTHING_SERVER = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
export const FILESYSTEM_SERVER = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);
/** MCP Apps example servers (ext-apps 2.x): `--stdio` for stdio, else Streamable HTTP on `PORT`. */
export const BASIC_VANILLAJS_SERVER = appServer('@modelcontextprotocol/server-basic-vanillajs');
export const BASIC_PREACT_SERVER = appServer('@modelcontextprotocol/server-basic-preact');
export const SYSTEM_MONITOR_SERVER = appServer('@modelcontextprotocol/server-system-monitor');

/** Their `exports` hide package.json: the main entry (dist/server.js) sits beside the CLI (dist/index.js). */
function appServer(name: string): string {
  return join(dirname(require.resolve(name)), 'index.js');
}
/** The tiny server of test/fakes on the official v1 SDK (`@modelcontextprotocol/sdk`). */
export const V1_SDK_SERVER = fileURLToPath(new URL('./children/v1-sdk-server.mjs', import.meta.url));
const LOOPBACK_PRELOAD = fileURLToPath(new URL('./children/loopback-listen.cjs', import.meta.url));

/** A stdio transport on `node <script> ...args`. */
export function nodeStdio(script: string, args: string[] = []): StdioTransport {
  return new StdioTransport({
    command: process.execPath,
    args: [script, ...args],
    stderr: 'pipe',
    closeTimeoutMs: 1000,
  });
}

/** A server child listening on 127.0.0.1. */
export interface LoopbackServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node <script> ...args` with a preload that keeps its listener on 127.0.0.1 (the
 * published CLIs listen on every interface) and `PORT=0`, and resolves once it listens.
 * @param path the endpoint path on that port. @default "/mcp"
 */
export function spawnLoopbackServer(
  script: string,
  args: string[],
  path = '/mcp',
  env: Record<string, string> = {},
): Promise<LoopbackServer> {
  const child = spawn(process.execPath, ['--require', LOOPBACK_PRELOAD, script, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: '0', ...env },
  });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${script} did not listen within 15 s; stderr:\n${stderr}`));
    }, 15_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /LOOPBACK_PORT (\d+)/.exec(stderr);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${match[1]}${path}`, child, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before listening; stderr:\n${stderr}`));
    });
  });
}
