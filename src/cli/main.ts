/**
 * `mcp-live`, the command line: parse, connect, run one command, close, and return the exit
 * code. Everything it touches of its process comes in through {@link CliIo}, so tests run it
 * in-process; src/cli/bin.ts binds it to the real process.
 */
import { McpClient, StreamableHttpTransport, debugFetch, type DebugSink, type Transport } from '../index.js';
import { debugFromEnvironment } from '../observability/debug.js';
import { StdioTransport, WebSocketTransport } from '../node.js';
import { parseCommandLine, USAGE, UsageError, type GlobalOptions, type ServerSpec } from './args.js';
import { runCommand } from './commands.js';
import { terminalElicitation } from './elicit.js';
import { EXIT_OK, EXIT_USAGE, describeError, errorJson, exitCodeFor } from './errors.js';
import type { CliIo } from './io.js';
import { styleFor } from './render.js';

/** The package version (test/cli checks it against package.json). */
export const VERSION = '0.1.0';

export type { CliIo, OutStream } from './io.js';

/** Runs `mcp-live` with `argv` (no node/script paths); resolves with the exit code. Never rejects. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let invocation;
  try {
    invocation = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(
      `mcp-live: ${error.message}\n${USAGE.slice(0, USAGE.indexOf('\n'))}\n(mcp-live --help for the commands and options)\n`,
    );
    return EXIT_USAGE;
  }
  if (invocation.kind === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return EXIT_OK;
  }
  if (invocation.kind === 'version') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT_OK;
  }

  const { command, server, options } = invocation;
  const interactive = io.stdin?.isTTY === true;
  // The debug log goes to stderr, never stdout (which may carry --json output).
  const debug: DebugSink | undefined =
    options.debug || debugFromEnvironment()
      ? (entry) => void io.stderr.write(`${styleFor(io.stderr).dim(`[debug] ${entry.message}`)}\n`)
      : undefined;
  const client = new McpClient({
    transport: createTransport(server, options, io, debug),
    debug: debug ?? false,
    clientInfo: { name: 'mcp-live-cli', version: VERSION },
    ...(interactive &&
      io.stdin !== undefined && { handlers: { elicitation: { form: terminalElicitation(io.stdin, io.stderr) } } }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    onError: (error) => void io.stderr.write(`${styleFor(io.stderr).dim(`mcp-live: warning: ${error.message}`)}\n`),
  });
  try {
    await client.connect({ signal: io.signal });
    return await runCommand({ client, io, options, style: styleFor(io.stdout) }, command);
  } catch (error) {
    const code = exitCodeFor(error, io.signal);
    if (options.json) io.stdout.write(`${JSON.stringify({ error: errorJson(error) }, null, 2)}\n`);
    else io.stderr.write(`mcp-live: ${code === 130 ? 'interrupted: ' : ''}${describeError(error, { interactive })}\n`);
    return code;
  } finally {
    await client.close().catch(() => {});
  }
}

function createTransport(
  server: ServerSpec,
  options: GlobalOptions,
  io: CliIo,
  debug: DebugSink | undefined,
): Transport {
  switch (server.kind) {
    case 'stdio':
      return new StdioTransport({
        command: server.command,
        args: server.args,
        ...(Object.keys(server.env).length > 0 && { env: server.env }),
        ...(server.cwd !== undefined && { cwd: server.cwd }),
        stderr: options.verbose ? (chunk) => void io.stderr.write(chunk) : 'pipe',
      });
    case 'http':
      return new StreamableHttpTransport(server.url, {
        headers: server.headers,
        ...(debug !== undefined && { fetch: debugFetch(debug) }),
      });
    case 'websocket':
      return new WebSocketTransport(server.url, { headers: server.headers });
  }
}
