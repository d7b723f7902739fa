import { ErrorCode } from '../../errors/codes.js';
import { LocalError, McpError } from '../../errors/errors.js';

/** What is wrong with a slash command line ({@link SlashCommandError}). */
export type SlashCommandErrorReason =
  /** The line does not start with `/` and a command name. */
  | 'not-a-command'
  /** No slash command of the host has that name (`host.slashCommands()` lists them). */
  | 'unknown-command'
  /** A required argument was given neither as a word nor as `name=value`. */
  | 'missing-argument'
  /** More positional words than the prompt has arguments left to take them. */
  | 'too-many-arguments'
  /** `name=value` with a name the prompt does not declare (quote the word to pass it as a value). */
  | 'unknown-argument'
  /** One argument given twice. */
  | 'duplicate-argument'
  /** A quote opened and never closed. */
  | 'unclosed-quote';

/** `data` of {@link SlashCommandError}. */
export interface SlashCommandErrorData {
  reason: SlashCommandErrorReason;
  /** The command as typed, without its `/` (when the line has one). */
  command?: string | undefined;
  /** The argument at fault (`missing-argument`, `unknown-argument`, `duplicate-argument`). */
  argument?: string | undefined;
  /** `too-many-arguments`: the words that had no argument left to take them. */
  extra?: string[] | undefined;
  /** The command's usage line (`/mcp__example__greet <name> [style]`) once the command is known. */
  usage?: string | undefined;
}

/**
 * A slash command line the host cannot run (code -33055, local): `data.reason` says what is
 * wrong ({@link SlashCommandErrorReason}), `data.usage` how the command is typed. Nothing was
 * sent. See docs/host.md, "Slash commands and mentions".
 */
export class SlashCommandError extends LocalError {
  override name = 'SlashCommandError';
  declare readonly data: SlashCommandErrorData;

  constructor(message: string, data: SlashCommandErrorData) {
    super(ErrorCode.SlashCommandInvalid, data.usage === undefined ? message : `${message} (usage: ${data.usage})`, {
      data,
    });
  }
}

/** True for a {@link SlashCommandError}, whichever copy of the package made it. */
export function isSlashCommandError(value: unknown): value is SlashCommandError {
  return McpError.is(value) && value.local && value.code === ErrorCode.SlashCommandInvalid;
}
