/**
 * The options of `StdioTransport`: their shape and defaults, the checks its constructor
 * runs on them, and the hint given when a command with spaces was not found. Node only.
 */
import { ConnectionClosedError, InvalidArgumentError } from '../../errors/errors.js';
import { errorCode } from './childProcess.js';

/** Options for `StdioTransport`. */
export interface StdioTransportOptions {
  /** Executable to run, e.g. `"npx"`, `"uvx"`, `"node"`. Looked up on the child's PATH. */
  command: string;
  /** Arguments, each passed as one argument (no shell splitting, on every platform). */
  args?: string[] | undefined;
  /**
   * Extra environment variables. The child gets only a safe default set inherited from the
   * host (POSIX: HOME, LOGNAME, PATH, SHELL, TERM, USER; Windows: APPDATA, PATH, PATHEXT,
   * SYSTEMROOT, COMSPEC, TEMP, USERPROFILE...) plus these, which win.
   */
  env?: Record<string, string> | undefined;
  /** Working directory of the server. Default: the host's. */
  cwd?: string | undefined;
  /**
   * What to do with the server's stderr. It is always drained, so a chatty server never blocks
   * on a full pipe, and its last 4 KiB are kept for `TransportCloseInfo.stderrTail`:
   * - `'pipe'` (default): keep the tail only;
   * - `'inherit'`: also copy every byte to the host's `process.stderr`;
   * - a function: also call it with each chunk, decoded as UTF-8 (characters never split);
   * - `'ignore'`: connect stderr to the null device; no tail.
   */
  stderr?: 'pipe' | 'inherit' | 'ignore' | ((chunk: string) => void) | undefined;
  /**
   * Milliseconds `close()` waits after closing stdin before sending SIGTERM, and again before
   * SIGKILL. Default 2000.
   */
  closeTimeoutMs?: number | undefined;
  /** Longest accepted stdout line in bytes; longer ones are dropped and reported. Default 64 MiB. */
  maxLineBytes?: number | undefined;
}

/** Default {@link StdioTransportOptions.closeTimeoutMs} (ms). */
export const DEFAULT_CLOSE_TIMEOUT_MS = 2000;

/** `{ command: 'node', args: ['server.js'] }` for the words of a command line (display only). */
function suggestedOptions(words: readonly string[]): string {
  const [command, ...args] = words;
  return `{ command: ${JSON.stringify(command ?? '')}, args: ${JSON.stringify(args)} }`;
}

/**
 * Throws when `options` cannot describe a process: a command line passed as one string, or a
 * `command` that is not a non-empty string.
 */
export function checkSpawnOptions(options: unknown): void {
  if (typeof options === 'string') {
    throw new InvalidArgumentError(
      'options',
      options,
      `expected { command, args }, not a command line: new StdioTransport(${suggestedOptions(options.trim().split(/\s+/))})`,
    );
  }
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', options, 'expected { command, args }');
  const command = (options as { command?: unknown }).command;
  if (typeof command !== 'string' || command === '')
    throw new InvalidArgumentError('command', command, 'expected the program to run, e.g. "node"');
}

/**
 * For a command that was not found: when it holds spaces and came without `args`, the arguments
 * most likely belong in `args` (the command is one program, never split).
 */
function argumentsHint(command: string, args: readonly string[]): string {
  const words = command.trim().split(/\s+/);
  if (words.length < 2) return '';
  return `; the whole of command is taken as the program's name: put the arguments in args, e.g. ${suggestedOptions([...words, ...args])}`;
}

/**
 * The error of a `start()` whose process could not be spawned: `ConnectionClosedError`
 * (-32000) with `data: { reason, connectFailure: "spawn", errorCode? }` and the Node error as
 * `cause`. The reason names the command, the cwd when set, the Node error (and its code), and
 * for a command not found, where its arguments belong (see {@link argumentsHint}).
 */
export function spawnFailure(options: StdioTransportOptions, error: unknown): ConnectionClosedError {
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  const where = options.cwd === undefined ? '' : ` in ${JSON.stringify(options.cwd)}`;
  const reason = `failed to start ${JSON.stringify(options.command)}${where}: ${detail}${code !== undefined && !detail.includes(code) ? ` (${code})` : ''}${code === 'ENOENT' ? argumentsHint(options.command, options.args ?? []) : ''}`;
  const data = { reason, connectFailure: 'spawn' as const, ...(code !== undefined && { errorCode: code }) };
  return new ConnectionClosedError(reason, data, error);
}
