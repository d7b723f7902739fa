import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnHttpServer, type HttpServerProcess } from '../../examples/httpServerProcess.js';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';

/** The built example server (`npm run build` writes it; `npm test` builds first). */
export const EXAMPLE_SERVER = fileURLToPath(new URL('../../build/examples/server.js', import.meta.url));

/** A client on a fresh example-server process over a real stdio pipe, with `env` added to the safe default variables it inherits; not yet connected. */
export function exampleClient(
  options: Partial<ClientOptions> = {},
  env?: Record<string, string>,
): { client: McpClient; transport: StdioTransport } {
  if (!existsSync(EXAMPLE_SERVER)) throw new Error(`${EXAMPLE_SERVER} is missing: run "npm run build" first`);
  const transport = new StdioTransport({
    command: process.execPath,
    args: [EXAMPLE_SERVER],
    stderr: 'pipe',
    closeTimeoutMs: 1000,
    env,
  });
  const client = new McpClient({ transport, clientInfo: { name: 'mcp-live-tests', version: '0.0.0' }, ...options });
  return { client, transport };
}

/**
 * The built example server over Streamable HTTP in a child process (`server.js --http 0`),
 * listening on 127.0.0.1 (on `options.port`, else a free port); `url` is the MCP endpoint it
 * printed. Call `stop()` when done.
 */
export async function startExampleHttpServer(options: { port?: number } = {}): Promise<HttpServerProcess> {
  if (!existsSync(EXAMPLE_SERVER)) throw new Error(`${EXAMPLE_SERVER} is missing: run "npm run build" first`);
  return spawnHttpServer(EXAMPLE_SERVER, options);
}
