/**
 * A slash command line read as the user typed it: `/command` then words, split at whitespace
 * as a shell would, with fewer surprises. A `"` or `'` opens a quote only as a word's first
 * character or right after `name=` (`"the MCP client"`, `name='Ada L'`); anywhere else it is a
 * letter (`O'Brien`, `style=don't`). Inside double quotes `\"` and `\\` escape; single quotes
 * take everything to the next `'`. A word whose unquoted start is `<argument>=` gives that
 * argument by name; every other word fills the next argument not given by name, in the
 * prompt's order, and the last argument left takes the rest of the line as typed (before any
 * `name=` words that end it), so a one-argument prompt takes a sentence unquoted. Pure.
 */
import { SlashCommandError } from './slashCommandError.js';
import type { SlashCommand, SlashCommandList } from './slashCommands.js';

/** One word of a line, with where it is. */
export interface LineWord {
  /** The word's value, quotes removed. */
  readonly value: string;
  /** Offset of its first character in the line (UTF-16 units, as `cursor`). */
  readonly start: number;
  /** Offset just past it. */
  readonly end: number;
  /** `name=`: the name before the first unquoted `=`, when the word starts unquoted with one. */
  readonly key?: string | undefined;
  /** With `key`: the value after the `=`; its offset is `valueStart`. */
  readonly keyValue?: string | undefined;
  readonly valueStart?: number | undefined;
  /** A quote opened in the word and not closed. */
  readonly unclosed: boolean;
}

/** A parsed slash command: the command and its arguments by name. */
export interface ParsedSlashCommand {
  readonly command: SlashCommand;
  /** The arguments given, by name (positional words mapped onto the prompt's order). */
  readonly arguments: Readonly<Record<string, string>>;
}

/** Whether `char` separates words (the same test the quoting of {@link quoteWord} uses). */
function isSpace(char: string): boolean {
  return /\s/.test(char);
}

/**
 * The words of `line` after its first (the command). A `"` or `'` opens a quote only as a
 * word's first character or right after its `name=`; anywhere else it is a letter.
 */
export function splitWords(line: string): LineWord[] {
  const words: LineWord[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && isSpace(line[i] as string)) i++;
    if (i >= n) break;
    const start = i;
    let value = '';
    let quotedYet = false;
    let key: string | undefined;
    let valueStart: number | undefined;
    let valueAt = 0;
    let unclosed = false;
    while (i < n && !isSpace(line[i] as string)) {
      const char = line[i] as string;
      if ((char === '"' || char === "'") && (i === start || i === valueStart)) {
        quotedYet = true;
        i++;
        let closed = false;
        while (i < n) {
          const c = line[i] as string;
          if (c === char) {
            closed = true;
            i++;
            break;
          }
          if (char === '"' && c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
            value += line[i + 1];
            i += 2;
            continue;
          }
          value += c;
          i++;
        }
        if (!closed) unclosed = true;
        continue;
      }
      if (char === '=' && key === undefined && !quotedYet && value !== '') {
        key = value;
        valueAt = value.length + 1;
        valueStart = i + 1;
      }
      value += char;
      i++;
    }
    words.push({
      value,
      start,
      end: i,
      ...(key !== undefined && { key, keyValue: value.slice(valueAt), valueStart }),
      unclosed,
    });
  }
  return words;
}

/** The command word of a line: its name (after `/`) and where it ends; `undefined` when the line is not a command. */
export function commandWord(line: string): { name: string; start: number; end: number } | undefined {
  const match = /^(\s*)\/(\S*)/.exec(line);
  if (match === null) return undefined;
  const start = (match[1] as string).length;
  return { name: match[2] as string, start, end: start + 1 + (match[2] as string).length };
}

/**
 * The command and arguments of `line` (see the module comment for the rules).
 * @throws SlashCommandError (-33055): `not-a-command`, `unknown-command`, `unclosed-quote`,
 *   `unknown-argument`, `duplicate-argument`, `too-many-arguments`, `missing-argument`.
 */
export function parseSlashCommandLine(line: string, list: SlashCommandList): ParsedSlashCommand {
  if (typeof line !== 'string') throw new SlashCommandError('expected a line of text', { reason: 'not-a-command' });
  const head = commandWord(line);
  if (head === undefined || head.name === '')
    throw new SlashCommandError('a slash command starts with / and its name (/mcp__<server>__<prompt>)', {
      reason: 'not-a-command',
    });
  const command = list.byCommand.get(head.name);
  if (command === undefined)
    throw new SlashCommandError(`no slash command /${head.name} (host.slashCommands() lists them)`, {
      reason: 'unknown-command',
      command: head.name,
    });
  const { usage } = command;
  const rest = line.slice(head.end);
  const words = splitWords(rest);
  const byName = new Map(command.arguments.map((a) => [a.name, a]));
  const named = (word: LineWord): word is LineWord & { key: string } => word.key !== undefined && byName.has(word.key);
  const unclosed = words.find((w) => w.unclosed);
  if (unclosed !== undefined)
    throw new SlashCommandError(`a quote in ${JSON.stringify(unclosed.value)} is not closed`, {
      reason: 'unclosed-quote',
      command: head.name,
      usage,
    });
  const given: Record<string, string> = {};
  const give = (word: LineWord & { key: string }): void => {
    if (Object.hasOwn(given, word.key))
      throw new SlashCommandError(`${word.key} is given twice`, {
        reason: 'duplicate-argument',
        command: head.name,
        argument: word.key,
        usage,
      });
    given[word.key] = word.keyValue ?? '';
  };
  // The `name=` words that end the line give their arguments whatever comes before them.
  let body = words.length;
  while (body > 0 && named(words[body - 1] as LineWord)) body--;
  const trailing = new Set(words.slice(body).map((w) => w.key));
  for (let i = 0; i < body; i++) {
    const word = words[i] as LineWord;
    if (named(word)) {
      give(word);
      continue;
    }
    if (word.key !== undefined && /^[A-Za-z_][\w.-]*$/.test(word.key))
      throw new SlashCommandError(
        `/${head.name} has no argument ${JSON.stringify(word.key)} (quote the word to pass it as a value)`,
        { reason: 'unknown-argument', command: head.name, argument: word.key, usage },
      );
    const open = command.arguments.filter((a) => !Object.hasOwn(given, a.name) && !trailing.has(a.name));
    const argument = open[0];
    if (argument === undefined) {
      const extra = words.slice(i, body).filter((w) => !named(w));
      throw new SlashCommandError(
        `/${head.name} takes ${command.arguments.length} argument${command.arguments.length === 1 ? '' : 's'}; ${extra.length} word${extra.length === 1 ? '' : 's'} too many`,
        { reason: 'too-many-arguments', command: head.name, extra: extra.map((w) => w.value), usage },
      );
    }
    if (open.length === 1 && i < body - 1) {
      // The last argument left takes the rest of the line, as typed.
      given[argument.name] = rest.slice(word.start, (words[body - 1] as LineWord).end);
      break;
    }
    given[argument.name] = word.value;
  }
  for (const word of words.slice(body)) give(word as LineWord & { key: string });
  const missing = command.arguments.find((a) => a.required && !Object.hasOwn(given, a.name));
  if (missing !== undefined)
    throw new SlashCommandError(`/${head.name} needs ${missing.name}`, {
      reason: 'missing-argument',
      command: head.name,
      argument: missing.name,
      usage,
    });
  // In the prompt's order, so the request is the same however the line was typed.
  const ordered: Record<string, string> = {};
  for (const a of command.arguments) if (Object.hasOwn(given, a.name)) ordered[a.name] = given[a.name] as string;
  return Object.freeze({ command, arguments: Object.freeze(ordered) });
}

/**
 * `value` as one word of a line, read back as `value` by {@link splitWords}: as is when it is
 * not empty, has no whitespace or `=` and does not start with a quote; else in double quotes,
 * with `"` and `\\` escaped.
 */
export function quoteWord(value: string): string {
  return value !== '' && !/[\s=]/.test(value) && !/^["']/.test(value)
    ? value
    : `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * The line that runs `command` with `args` (by name): `/command`, then the values in the
 * prompt's order, each quoted by {@link quoteWord}, positional up to the first argument left
 * out and `name=value` after it. {@link parseSlashCommandLine} reads it back as `args`.
 * Required arguments are not checked (the parse does that).
 * @throws SlashCommandError (-33055) `unknown-argument` for a name the command does not
 *   declare, or a value that is not a string.
 */
export function formatSlashCommandLine(command: SlashCommand, args: Readonly<Record<string, string>>): string {
  for (const [name, value] of Object.entries(args))
    if (!command.arguments.some((a) => a.name === name) || typeof value !== 'string')
      throw new SlashCommandError(`/${command.command} has no argument ${JSON.stringify(name)} that takes this value`, {
        reason: 'unknown-argument',
        command: command.command,
        argument: name,
        usage: command.usage,
      });
  const words = [`/${command.command}`];
  let positional = true;
  for (const { name } of command.arguments) {
    if (!Object.hasOwn(args, name)) {
      positional = false;
      continue;
    }
    const value = quoteWord(args[name] as string);
    words.push(positional ? value : `${name}=${value}`);
  }
  return words.join(' ');
}
