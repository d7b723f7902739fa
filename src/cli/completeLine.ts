/**
 * `mcp-live --config <file> complete -i`: a line typed at the terminal, completed as it is
 * typed through the host: a line that starts with `/` completes its slash command and then the
 * argument at the end (`host.completeSlashCommand`), a word that starts with `@` completes as a
 * mention (`host.completeMention`). Drawn on stderr as `complete -i` draws a value; Tab puts the
 * first suggestion in place, Enter prints the line on stdout, Ctrl-C stops.
 */
import type { HostCompletion, McpHost } from '../host.js';
import { completionNote } from './completeAsTyped.js';
import { EXIT_ERROR } from './errors.js';
import type { CliIo } from './io.js';
import { editLine, type LineView } from './lineEditor.js';

const PROMPT = '> ';

/** What Tab would do: the text that replaces `[start, end)` of the line. */
interface Pending {
  start: number;
  end: number;
  insert: string;
}

/** The completion of `line` (cursor at its end) through `host`, and where the mention word starts. */
export async function completeTyped(host: McpHost, line: string, signal?: AbortSignal): Promise<HostCompletion> {
  if (/^\s*\//.test(line)) return host.completeSlashCommand(line, line.length, { signal });
  const word = /(^|\s)(@\S*)$/.exec(line);
  if (word === null) return { status: 'none', reason: 'type / for a command or @ for a mention' };
  const offset = line.length - (word[2] as string).length;
  const outcome = await host.completeMention(word[2] as string, { signal });
  if (outcome.status !== 'completed') return outcome;
  return { ...outcome, replace: { start: outcome.replace.start + offset, end: outcome.replace.end + offset } };
}

/** Runs the interactive line; resolves with the exit code (130 on Ctrl-C). */
export async function completeLine(host: McpHost, io: CliIo): Promise<number> {
  const stdin = io.stdin;
  if (stdin === undefined || stdin.isTTY !== true) {
    io.stderr.write('mcp-live: complete -i needs a terminal on stdin\n');
    return EXIT_ERROR;
  }
  const view: LineView = { suggestions: [], status: '' };
  let pending: Pending | undefined;
  let asked = 0;
  return editLine(io, stdin, view, {
    label: PROMPT,
    askAtStart: false,
    tab: (value) => {
      if (pending === undefined) return undefined;
      const next = `${value.slice(0, pending.start)}${pending.insert}${value.slice(pending.end)}`;
      // After a command or a whole argument, the next word starts.
      return !next.endsWith(':') && !next.endsWith('/') && /^\s*\//.test(next) ? `${next} ` : next;
    },
    changed: (typed, redraw) => {
      const mine = ++asked;
      completeTyped(host, typed, io.signal).then(
        (outcome) => {
          if (outcome.status === 'superseded' || mine !== asked) return;
          pending = undefined;
          if (outcome.status === 'completed') {
            // A command by its label (/example:greet (MCP)), everything else as it would be typed.
            view.suggestions = outcome.candidates.map((c) =>
              c.command !== undefined ? (c.label ?? c.value) : c.value,
            );
            const first = outcome.candidates[0];
            if (first !== undefined) pending = { ...outcome.replace, insert: first.insert };
            view.status =
              completionNote({
                status: 'completed',
                values: outcome.candidates.map((c) => c.value),
                total: outcome.total,
                hasMore: outcome.hasMore,
                trimmed: 0,
                source: 'server',
              }) ?? '';
          } else {
            view.suggestions = [];
            view.status = outcome.reason;
          }
          redraw();
        },
        (error: unknown) => {
          if (mine !== asked) return;
          view.suggestions = [];
          pending = undefined;
          view.status = error instanceof Error ? error.message : String(error);
          redraw();
        },
      );
    },
  });
}
