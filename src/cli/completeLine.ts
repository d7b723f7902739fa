/**
 * `mcp-live --config <file> complete -i`: a line typed at the terminal, completed as it is
 * typed through the host: a line that starts with `/` completes its slash command and then the
 * argument at the end (`host.completeSlashCommand`), a word that starts with `@` completes as a
 * mention (`host.completeMention`). Drawn on stderr as `complete -i` draws a value; Tab puts the
 * first suggestion in place, Enter prints the line on stdout, Ctrl-C stops.
 */
import { emitKeypressEvents } from 'node:readline';
import type { HostCompletion, McpHost } from '../index.js';
import { completionNote } from './completeAsTyped.js';
import { EXIT_ERROR, EXIT_OK } from './errors.js';
import type { CliIo } from './io.js';
import { styleFor } from './render.js';

/** How many suggestions are drawn under the line. */
const SHOWN = 8;
const PROMPT = '> ';

interface Key {
  name?: string | undefined;
  ctrl?: boolean | undefined;
  meta?: boolean | undefined;
}

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
  const style = styleFor(io.stderr, io.env);
  const screen = io.stderr;
  let value = '';
  let shown: string[] = [];
  let pending: Pending | undefined;
  let status = '';
  let asked = 0;

  const draw = (): void => {
    const more = shown.length > SHOWN ? style.dim(`  (+${shown.length - SHOWN})`) : '';
    screen.write(
      `\r\x1b[2K${style.bold(PROMPT)}${value}\n\x1b[2K  ${shown.slice(0, SHOWN).join('  ')}${more}${status ? style.dim(`  ${status}`) : ''}\x1b[1A\r\x1b[${PROMPT.length + value.length}C`,
    );
  };
  const ask = (): void => {
    const typed = value;
    const mine = ++asked;
    completeTyped(host, typed, io.signal).then(
      (outcome) => {
        if (outcome.status === 'superseded' || mine !== asked) return;
        pending = undefined;
        if (outcome.status === 'completed') {
          // A command by its label (/example:greet (MCP)), everything else as it would be typed.
          shown = outcome.candidates.map((c) => (c.command !== undefined ? (c.label ?? c.value) : c.value));
          const first = outcome.candidates[0];
          if (first !== undefined) pending = { ...outcome.replace, insert: first.insert };
          status =
            completionNote({
              status: 'completed',
              values: outcome.candidates.map((c) => c.value),
              total: outcome.total,
              hasMore: outcome.hasMore,
              trimmed: 0,
              source: 'server',
            }) ?? '';
        } else {
          shown = [];
          status = outcome.reason;
        }
        draw();
      },
      (error: unknown) => {
        if (mine !== asked) return;
        shown = [];
        pending = undefined;
        status = error instanceof Error ? error.message : String(error);
        draw();
      },
    );
  };

  const raw = typeof (stdin as { setRawMode?: unknown }).setRawMode === 'function';
  const setRaw = (on: boolean): void => {
    if (raw) (stdin as unknown as { setRawMode(on: boolean): void }).setRawMode(on);
  };
  emitKeypressEvents(stdin);
  setRaw(true);
  stdin.resume();
  draw();
  try {
    return await new Promise<number>((resolve) => {
      const finish = (code: number): void => {
        stdin.off('keypress', onKey);
        io.signal?.removeEventListener('abort', onAbort);
        screen.write(`\r\x1b[2K${style.bold(PROMPT)}${value}\n\x1b[2K`);
        if (code === EXIT_OK) io.stdout.write(`${value}\n`);
        resolve(code);
      };
      const onAbort = (): void => finish(130);
      const onKey = (text: string | undefined, key: Key | undefined): void => {
        if (key?.ctrl && (key.name === 'c' || key.name === 'd')) return finish(130);
        if (key?.name === 'return' || key?.name === 'enter') return finish(EXIT_OK);
        if (key?.name === 'backspace') value = [...value].slice(0, -1).join('');
        else if (key?.name === 'tab') {
          if (pending === undefined) return;
          value = `${value.slice(0, pending.start)}${pending.insert}${value.slice(pending.end)}`;
          // After a command or a whole argument, the next word starts.
          if (!value.endsWith(':') && !value.endsWith('/') && /^\s*\//.test(value)) value += ' ';
        }
        // eslint-disable-next-line no-control-regex -- typed text is what holds no control character
        else if (text !== undefined && !key?.ctrl && !key?.meta && /^[^\x00-\x1f\x7f]+$/u.test(text)) value += text;
        else return;
        draw();
        ask();
      };
      io.signal?.addEventListener('abort', onAbort, { once: true });
      stdin.on('keypress', onKey);
    });
  } finally {
    setRaw(false);
    stdin.pause();
  }
}
