/**
 * `mcp-live`, the command line: parse, connect, run one command, close, and return the exit
 * code. Everything it touches of its process comes in through {@link CliIo}, so tests run it
 * in-process; src/cli/bin.ts binds it to the real process.
 */
import { McpClient, type DebugSink, type ReconnectOptions, type Transport } from '../index.js';
import { debugFromEnvironment } from '../observability/debug.js';
import { StdioTransport, WebSocketTransport } from '../node.js';
import { CliHttpTransport } from './debugHttp.js';
import {
  commandUsage,
  jsonObject,
  parseCommandLine,
  USAGE,
  UsageError,
  type GlobalOptions,
  type ServerSpec,
} from './args.js';
import { runCommand } from './commands.js';
import { runHostCommand } from './hostCommands.js';
import { terminalElicitation } from './elicit.js';
import { diagnoseConnection } from './diagnose.js';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, describeError, errorJson, exitCodeFor } from './errors.js';
import type { CliIo } from './io.js';
import { styleFor } from './render.js';

/** The package version (test/cli checks it against package.json). */
export const VERSION = '0.2.0';

/**
 * How `watch` reconnects: it outlives a server that restarts, while one that keeps dying ends
 * it within seconds (three quick drops in a row, counted alone, then no cool-down). The other commands run
 * once and report a drop as it is.
 */
const WATCH_RECONNECT: ReconnectOptions = { maxQuickRetries: 2, quickPhaseMs: 0, maxCoolDowns: 0 };

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
    io.stdout.write(`${invocation.command === undefined ? USAGE : commandUsage(invocation.command)}\n`);
    return EXIT_OK;
  }
  if (invocation.kind === 'version') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT_OK;
  }

  const { command, server, options } = invocation;
  if (command.name === 'call' && command.argsFromStdin === true) {
    try {
      command.args = jsonObject(await readAll(io.stdin));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      io.stderr.write(`mcp-live: stdin: ${error.message}\n`);
      return EXIT_USAGE;
    }
  }
  const env = io.env ?? process.env;
  const interactive = io.stdin?.isTTY === true;
  // The debug log goes to stderr, never stdout (which may carry --json output).
  const debug: DebugSink | undefined =
    options.debug || debugFromEnvironment(env)
      ? (entry) => void io.stderr.write(`${styleFor(io.stderr, env).dim(`[debug] ${entry.message}`)}\n`)
      : undefined;
  if (server.kind === 'config')
    return runHostCommand(command, server, options, io, {
      clientName: 'mcp-live-cli',
      clientVersion: VERSION,
      debug,
    });
  const client = new McpClient({
    transport: createTransport(server, options, io, debug),
    debug: debug ?? false,
    clientInfo: { name: 'mcp-live-cli', version: VERSION },
    reconnect:
      command.name === 'watch' || (command.name === 'events' && command.action === 'watch') ? WATCH_RECONNECT : false,
    ...(interactive &&
      io.stdin !== undefined && { handlers: { elicitation: { form: terminalElicitation(io.stdin, io.stderr) } } }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    onError: (error) =>
      void io.stderr.write(`${styleFor(io.stderr, env).dim(`mcp-live: warning: ${error.message}`)}\n`),
  });
  let connected = false;
  try {
    await client.connect({ signal: io.signal });
    connected = true;
    return await runCommand({ client, io: { ...io, env }, options, style: styleFor(io.stdout, env) }, command);
  } catch (error) {
    const code = exitCodeFor(error, io.signal);
    // A server that cannot be reached gets one line naming the likely cause; the whole error
    // (every era's attempt) stays for --debug and --json.
    const diagnosis = connected || code === EXIT_INTERRUPTED ? undefined : diagnoseConnection(error, targetOf(server));
    if (options.json) {
      const json = { ...errorJson(error), ...(diagnosis !== undefined && { hint: diagnosis.summary }) };
      io.stdout.write(`${JSON.stringify({ error: json }, null, 2)}\n`);
    } else if (diagnosis !== undefined && !options.debug) {
      io.stderr.write(`mcp-live: ${diagnosis.summary} ${styleFor(io.stderr, env).dim('(--debug for details)')}\n`);
    } else {
      if (diagnosis !== undefined) io.stderr.write(`mcp-live: ${diagnosis.summary}\n`);
      const detail = describeError(error, { interactive, brief: !options.debug });
      io.stderr.write(`mcp-live: ${code === EXIT_INTERRUPTED ? 'interrupted: ' : ''}${detail}\n`);
    }
    return code;
  } finally {
    await client.close().catch(() => {});
  }
}

/** The server as the user named it: its URL, or its command line. */
function targetOf(server: Exclude<ServerSpec, { kind: 'config' }>): string {
  return server.kind === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
}

function createTransport(
  server: Exclude<ServerSpec, { kind: 'config' }>,
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
      return new CliHttpTransport(server.url, { headers: server.headers, debugSink: debug });
    case 'websocket':
      return new WebSocketTransport(server.url, { headers: server.headers });
  }
}

/** All of stdin as UTF-8 text. @throws UsageError when there is no stdin to read */
async function readAll(stdin: CliIo['stdin']): Promise<string> {
  if (stdin === undefined) throw new UsageError('call <tool> - reads the arguments from stdin, and there is none');
  let text = '';
  for await (const chunk of stdin as AsyncIterable<string | Uint8Array>)
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}
