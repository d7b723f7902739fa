/**
 * A slash command line read as the user typed it: `/command` then words. A word is a run of
 * characters without whitespace, or a quoted run (`"the MCP client"`, `'it''s'` is two words;
 * inside double quotes `\"` and `\\` escape); quoted and plain runs join into one word
 * (`name="Ada L"`). A word whose unquoted start is `<argument>=` gives that argument by name;
 * every other word fills the next argument not given by name, in the prompt's order. Pure.
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

/** The words of `line` after its first (the command). */
export function splitWords(line: string): LineWord[] {
  const words: LineWord[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && /\s/.test(line[i] as string)) i++;
    if (i >= n) break;
    const start = i;
    let value = '';
    let quotedYet = false;
    let key: string | undefined;
    let valueStart: number | undefined;
    let valueAt = 0;
    let unclosed = false;
    while (i < n && !/\s/.test(line[i] as string)) {
      const char = line[i] as string;
      if (char === '"' || char === "'") {
        quotedYet = true;
        const close = char;
        i++;
        let closed = false;
        while (i < n) {
          const c = line[i] as string;
          if (c === close) {
            closed = true;
            i++;
            break;
          }
          if (close === '"' && c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
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
  const words = splitWords(line.slice(head.end)).map((w) => ({ ...w }));
  const byName = new Map(command.arguments.map((a) => [a.name, a]));
  const given: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of words) {
    if (word.unclosed)
      throw new SlashCommandError(`a quote in ${JSON.stringify(word.value)} is not closed`, {
        reason: 'unclosed-quote',
        command: head.name,
        usage,
      });
    if (word.key !== undefined && byName.has(word.key)) {
      if (Object.hasOwn(given, word.key))
        throw new SlashCommandError(`${word.key} is given twice`, {
          reason: 'duplicate-argument',
          command: head.name,
          argument: word.key,
          usage,
        });
      given[word.key] = word.keyValue ?? '';
      continue;
    }
    if (word.key !== undefined && /^[A-Za-z_][\w.-]*$/.test(word.key))
      throw new SlashCommandError(
        `/${head.name} has no argument ${JSON.stringify(word.key)} (quote the word to pass it as a value)`,
        { reason: 'unknown-argument', command: head.name, argument: word.key, usage },
      );
    positional.push(word.value);
  }
  const open = command.arguments.filter((a) => !Object.hasOwn(given, a.name));
  if (positional.length > open.length)
    throw new SlashCommandError(
      `/${head.name} takes ${command.arguments.length} argument${command.arguments.length === 1 ? '' : 's'}; ${positional.length - open.length} word${positional.length - open.length === 1 ? '' : 's'} too many`,
      { reason: 'too-many-arguments', command: head.name, extra: positional.slice(open.length), usage },
    );
  positional.forEach((value, i) => {
    given[(open[i] as { name: string }).name] = value;
  });
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

/** `value` as a word of a line: as is when plain, else in double quotes. */
export function quoteWord(value: string): string {
  return value !== '' && /^[^\s"'\\]+$/.test(value) ? value : `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
