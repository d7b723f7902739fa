/**
 * Errors as the CLI shows them (name, code, message, data) and the exit code each one gets.
 */
import { ErrorCode, McpError, isCancelledError } from '../index.js';
import { isSlashCommandError } from '../host.js';
import { UsageError } from './args.js';

export const EXIT_OK = 0;
/** An error from the server or the transport (or a tool result with `isError`). */
export const EXIT_ERROR = 1;
/** A malformed command line, or arguments the SDK rejected before sending anything. */
export const EXIT_USAGE = 2;
/** Interrupted (Ctrl-C) before the command finished; 128 + SIGINT, as shells do. */
export const EXIT_INTERRUPTED = 130;

/** The JSON form of an error: what `--json` prints under `error`. */
export interface ErrorJson {
  name: string;
  code: number;
  message: string;
  data?: unknown;
  method?: string;
}

/**
 * A failure the CLI itself finds (not the SDK, not the server), with a JSON-RPC `code` and
 * `data` like the SDK's errors, so `--json` output always carries a code.
 */
export class CliError extends Error {
  constructor(
    override readonly name: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * The JSON form of `error`. Every error gets a `code`: the SDK's and the CLI's their own, any
 * other (a bug) -32603, InternalError.
 */
export function errorJson(error: unknown): ErrorJson {
  if (error instanceof CliError) {
    const out: ErrorJson = { name: error.name, code: error.code, message: error.message };
    if (error.data !== undefined) out.data = error.data;
    return out;
  }
  if (McpError.is(error)) {
    const out: ErrorJson = { name: error.name, code: error.code, message: error.message };
    if (error.data !== undefined) out.data = error.data;
    const method = (error as { method?: unknown }).method;
    if (typeof method === 'string') out.method = method;
    return out;
  }
  if (error instanceof Error) return { name: error.name, code: ErrorCode.InternalError, message: error.message };
  return { name: 'Error', code: ErrorCode.InternalError, message: String(error) };
}

/**
 * `RpcError -32602 (tools/call): message`, then `data:` on its own lines (left out for an
 * `EraDetectionError` when `brief`: its data repeats its message), then a hint when the server
 * asked for input the CLI could not give because stdin is not a terminal.
 */
export function describeError(error: unknown, context: { interactive?: boolean; brief?: boolean } = {}): string {
  const json = errorJson(error);
  const method = json.method === undefined ? '' : ` (${json.method})`;
  let text = `${json.name} ${json.code}${method}: ${json.message}`;
  // Era detection's data repeats its message step by step: that is --debug's (and --json's).
  const repeatsMessage = json.name === 'EraDetectionError';
  if (json.data !== undefined && !(context.brief === true && repeatsMessage)) {
    const data = json.data;
    // A stdio server's last words read better as text than as one escaped JSON string.
    if (
      typeof data === 'object' &&
      data !== null &&
      'stderrTail' in data &&
      typeof data.stderrTail === 'string' &&
      data.stderrTail.trim() !== ''
    ) {
      const { stderrTail, ...rest } = data as Record<string, unknown>;
      text += `\n  data: ${JSON.stringify(rest)}\n  server stderr (last lines):\n${(stderrTail as string).trimEnd().replace(/^/gm, '    ')}`;
    } else {
      text += `\n  data: ${JSON.stringify(json.data)}`;
    }
  }
  const unhandledInput =
    json.code === ErrorCode.InputRequestFailed &&
    (json.data as { reason?: unknown } | undefined)?.reason === 'unsupported';
  const askedForInput =
    json.code === ErrorCode.MissingRequiredClientCapability || json.code === ErrorCode.InputRequired || unhandledInput;
  if (askedForInput && context.interactive === false) {
    text += '\n  hint: the server asks for input; run mcp-live with stdin on a terminal to answer its questions';
  }
  return text;
}

export function exitCodeFor(error: unknown, signal: AbortSignal | undefined): number {
  if (error instanceof UsageError) return EXIT_USAGE;
  if (signal?.aborted && isCancelledError(error)) return EXIT_INTERRUPTED;
  // Checked by the SDK before anything was sent: the user's input, not the server.
  if (McpError.is(error) && error.name === 'InvalidArgumentError') return EXIT_USAGE;
  // A slash command line that does not fit its prompt (run): the user's input too.
  if (isSlashCommandError(error)) return EXIT_USAGE;
  return EXIT_ERROR;
}
