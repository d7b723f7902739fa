/**
 * `mcp-live complete -i`: the value is typed at the terminal, and the suggestions under it follow
 * each keystroke through `client.completer()` (debounced; a newer keystroke cancels the request
 * in flight). The line is drawn on stderr, so that stdout carries only the value chosen: Tab
 * takes the first suggestion, Enter prints the value on stdout, Ctrl-C stops.
 */
import { emitKeypressEvents } from 'node:readline';
import type { CompletionAnswer, McpClient } from '../index.js';
import type { Command } from './args.js';
import { EXIT_ERROR, EXIT_OK } from './errors.js';
import type { CliIo } from './io.js';
import { styleFor } from './render.js';

/** How long the terminal waits after a keystroke before asking, in ms. */
const DEBOUNCE_MS = 150;
/** How many suggestions are drawn under the value. */
const SHOWN = 8;

/** A note for stderr when the server has more than it sent, or sent more than 100. */
export function completionNote(answer: CompletionAnswer): string | undefined {
  const { values, total, hasMore, trimmed } = answer;
  const notes: string[] = [];
  if (hasMore === true || (total !== undefined && total > values.length))
    notes.push(`${values.length}${total === undefined ? '' : ` of ${total}`}; more available`);
  if (trimmed > 0) notes.push(`${trimmed} beyond the 100 a result may carry were dropped`);
  return notes.length === 0 ? undefined : `(${notes.join('; ')})`;
}

interface Key {
  name?: string | undefined;
  ctrl?: boolean | undefined;
  meta?: boolean | undefined;
}

/** Runs the interactive completion; resolves with the exit code (130 on Ctrl-C). */
export async function completeAsTyped(
  client: McpClient,
  io: CliIo,
  command: Extract<Command, { name: 'complete' }>,
): Promise<number> {
  const stdin = io.stdin;
  if (stdin === undefined || stdin.isTTY !== true) {
    io.stderr.write('mcp-live: complete -i needs a terminal on stdin\n');
    return EXIT_ERROR;
  }
  const style = styleFor(io.stderr, io.env);
  const screen = io.stderr;
  const completer = client.completer(command.ref, { debounceMs: DEBOUNCE_MS });
  const label = `${command.argument}: `;
  let value = '';
  let suggestions: string[] = [];
  let status = '';

  const draw = (): void => {
    const shown = suggestions.slice(0, SHOWN).join('  ');
    const more = suggestions.length > SHOWN ? style.dim(`  (+${suggestions.length - SHOWN})`) : '';
    // The value on its line, the suggestions on the next; the cursor back after the value.
    screen.write(
      `\r\x1b[2K${style.bold(label)}${value}\n\x1b[2K  ${shown}${more}${status ? style.dim(`  ${status}`) : ''}\x1b[1A\r\x1b[${label.length + value.length}C`,
    );
  };
  const ask = (): void => {
    const typed = value;
    completer.complete(command.argument, typed, command.context, { signal: io.signal }).then(
      (outcome) => {
        if (outcome.status === 'superseded') return;
        if (outcome.status === 'unsupported') {
          suggestions = [];
          status = outcome.reason;
        } else {
          suggestions = outcome.values;
          status = completionNote(outcome) ?? '';
        }
        draw();
      },
      (error: unknown) => {
        suggestions = [];
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
  ask();
  try {
    return await new Promise<number>((resolve) => {
      const finish = (code: number): void => {
        stdin.off('keypress', onKey);
        io.signal?.removeEventListener('abort', onAbort);
        // Leave the suggestions line blank and put the cursor below it.
        screen.write(`\r\x1b[2K${style.bold(label)}${value}\n\x1b[2K`);
        if (code === EXIT_OK) io.stdout.write(`${value}\n`);
        resolve(code);
      };
      const onAbort = (): void => finish(130);
      const onKey = (text: string | undefined, key: Key | undefined): void => {
        if (key?.ctrl && (key.name === 'c' || key.name === 'd')) return finish(130);
        if (key?.name === 'return' || key?.name === 'enter') return finish(EXIT_OK);
        if (key?.name === 'backspace') value = [...value].slice(0, -1).join('');
        else if (key?.name === 'tab') value = suggestions[0] ?? value;
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
    completer.close();
    setRaw(false);
    stdin.pause();
  }
}
