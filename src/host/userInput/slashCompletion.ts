/**
 * `host.completeSlashCommand(line, cursor)`: with the cursor in the command word, the host's
 * commands whose name matches what is typed (prefix, then substring, then fuzzy); after it,
 * the argument under the cursor through `completion/complete`, with the arguments already
 * typed as `context.arguments`, debounced and cached by the pool's completers.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import type { CompleterPool } from './completerPool.js';
import { MAX_CANDIDATES, matchRank, type CompletionCandidate, type HostCompletion } from './completionCandidates.js';
import type * as Line from './slashCommandLine.js';
import type { LineWord } from './slashCommandLine.js';
import type { SlashCommand, SlashCommandList } from './slashCommands.js';

/**
 * The words of a line, from slashCommandLine.ts, handed over by the host: they are in the
 * initial load for `parseSlashCommand`, and this module loads on first use, so it imports no
 * file the entries reach (docs/design.md).
 */
export type LineWords = Pick<typeof Line, 'commandWord' | 'splitWords' | 'quoteWord'>;

/** What completing a line needs: the commands, the completers, the line's words. */
export interface SlashCompletionContext {
  list: SlashCommandList;
  pool: CompleterPool;
  words: LineWords;
}

/**
 * Completion of `line` at `cursor` (default its end).
 * @throws InvalidArgumentError (-32602) for a line that is not a string or a cursor outside it.
 */
export async function completeSlashCommandLine(
  line: string,
  cursor: number | undefined,
  { list, pool, words: { commandWord, splitWords, quoteWord } }: SlashCompletionContext,
  signal: AbortSignal | undefined,
): Promise<HostCompletion> {
  if (typeof line !== 'string') throw new InvalidArgumentError('line', line, 'expected a string');
  const at = cursor ?? line.length;
  if (!Number.isSafeInteger(at) || at < 0 || at > line.length)
    throw new InvalidArgumentError('cursor', cursor, `expected an offset from 0 to ${line.length}`);
  const head = commandWord(line);
  if (head === undefined || at < head.start + 1)
    return { status: 'none', reason: 'not in a slash command (a line that starts with /)' };
  if (at <= head.end) return commandCandidates(line.slice(head.start + 1, at), head, list);

  const command = list.byCommand.get(head.name);
  if (command === undefined) return { status: 'none', reason: `no slash command /${head.name}` };
  const words = splitWords(line.slice(head.end)).map((w) => shift(w, head.end));
  const typed = splitWords(line.slice(head.end, at)).map((w) => shift(w, head.end));
  const last = typed[typed.length - 1];
  const inWord = last !== undefined && last.end === at;
  const current = inWord ? words.find((w) => w.start === last.start) : undefined;
  const others = words.filter((w) => w !== current);

  // Which argument the word under the cursor gives, and what of it is typed.
  const named = new Set(others.flatMap((w) => (w.key !== undefined && hasArgument(command, w.key) ? [w.key] : [])));
  let argument: string | undefined;
  let value: string;
  let replace: { start: number; end: number };
  if (
    inWord &&
    last.key !== undefined &&
    hasArgument(command, last.key) &&
    last.valueStart !== undefined &&
    at >= last.valueStart
  ) {
    argument = last.key;
    value = last.keyValue ?? '';
    replace = { start: last.valueStart, end: current?.end ?? at };
  } else {
    const before = others.filter((w) => w.end <= at && !(w.key !== undefined && hasArgument(command, w.key)));
    const open = command.arguments.filter((a) => !named.has(a.name));
    const tail = before[open.length - 1];
    if (tail !== undefined && before.length >= open.length) {
      // Past the first word of the last argument: it takes the rest of the line.
      argument = open[open.length - 1]?.name;
      value = line.slice(tail.start, at);
      replace = { start: tail.start, end: current?.end ?? at };
    } else {
      argument = open[before.length]?.name;
      value = inWord ? last.value : '';
      replace = inWord ? { start: last.start, end: current?.end ?? at } : { start: at, end: at };
    }
  }
  if (argument === undefined) return { status: 'none', reason: `/${command.command} takes no more arguments` };

  const context = contextOf(command, others, argument, line);
  const completer = pool.get(command.server, { type: 'ref/prompt', name: command.name });
  const outcome = await completer.complete(argument, value, context, { signal });
  if (outcome.status === 'superseded') return outcome;
  if (outcome.status === 'unsupported') return { status: 'unsupported', reason: outcome.reason, command, argument };
  return {
    status: 'completed',
    kind: 'argument',
    replace,
    candidates: outcome.values.map((v) => ({ value: v, insert: quoteWord(v), kind: 'value' })),
    ...(outcome.total !== undefined && { total: outcome.total }),
    ...(outcome.hasMore !== undefined && { hasMore: outcome.hasMore }),
    source: outcome.source,
    command,
    argument,
  };
}

function commandCandidates(
  query: string,
  head: { start: number; end: number },
  list: SlashCommandList,
): HostCompletion {
  const ranked = list.commands
    .map((command, order) => ({
      command,
      order,
      rank: matchRank(query, [command.command, `${command.server}:${command.name}`, command.name]),
    }))
    .filter((r): r is { command: SlashCommand; order: number; rank: number } => r.rank !== undefined)
    .sort((a, b) => a.rank - b.rank || a.order - b.order);
  const candidates: CompletionCandidate[] = ranked.slice(0, MAX_CANDIDATES).map(({ command }) => ({
    value: `/${command.command}`,
    insert: `/${command.command}`,
    label: command.label,
    ...(command.description !== undefined && { description: command.description }),
    command,
  }));
  return {
    status: 'completed',
    kind: 'command',
    replace: { start: head.start, end: head.end },
    candidates,
    total: ranked.length,
    hasMore: ranked.length > candidates.length,
    source: 'catalog',
  };
}

/**
 * The arguments the other words give (named, then positional in order, the last one left
 * taking the rest of the line), leaving out `argument`.
 */
function contextOf(
  command: SlashCommand,
  others: readonly LineWord[],
  argument: string,
  line: string,
): Record<string, string> {
  const given: Record<string, string> = {};
  const positional: LineWord[] = [];
  for (const word of others) {
    if (word.key !== undefined && hasArgument(command, word.key)) given[word.key] = word.keyValue ?? '';
    else positional.push(word);
  }
  const open = command.arguments.filter((a) => !Object.hasOwn(given, a.name) && a.name !== argument);
  positional.forEach((word, i) => {
    const name = open[i]?.name;
    if (name === undefined) return;
    const last = positional[positional.length - 1] as LineWord;
    given[name] = i === open.length - 1 && word !== last ? line.slice(word.start, last.end) : word.value;
  });
  delete given[argument];
  return given;
}

function hasArgument(command: SlashCommand, name: string): boolean {
  return command.arguments.some((a) => a.name === name);
}

function shift(word: LineWord, by: number): LineWord {
  return {
    ...word,
    start: word.start + by,
    end: word.end + by,
    ...(word.valueStart !== undefined && { valueStart: word.valueStart + by }),
  };
}
