/**
 * The terminal line both `complete -i` forms use: the typed value on one line of stderr and a
 * line of suggestions under it, redrawn on each keystroke. Raw mode while it runs; Tab asks the
 * caller for the completed value, Enter prints the value on stdout, Ctrl-C or Ctrl-D (or the
 * CLI's abort signal) stop with 130.
 */
import { emitKeypressEvents } from 'node:readline';
import { EXIT_OK } from './errors.js';
import type { CliIo } from './io.js';
import { styleFor, type Style } from './render.js';

/** How many suggestions are drawn under the value. */
const SHOWN = 8;

interface Key {
  name?: string | undefined;
  ctrl?: boolean | undefined;
  meta?: boolean | undefined;
}

/** What the line shows under the value, set by the caller between redraws. */
export interface LineView {
  suggestions: readonly string[];
  status: string;
}

/** The caller's side of the line. */
export interface LineEditorDeps {
  /** Drawn in bold before the value. */
  label: string;
  /** The value after Tab, or `undefined` when Tab does nothing now. */
  tab(value: string): string | undefined;
  /** Whether `changed` also runs once at the start, for the empty value. @default true */
  askAtStart?: boolean;
  /** After each change of the value: ask for suggestions, then `redraw()`. */
  changed(value: string, redraw: () => void): void;
}

/**
 * Runs the line on `stdin` (a TTY) until Enter or a stop; resolves with the exit code. `view`
 * is read at each redraw.
 */
export async function editLine(
  io: CliIo,
  stdin: NonNullable<CliIo['stdin']>,
  view: LineView,
  hooks: LineEditorDeps,
): Promise<number> {
  const style: Style = styleFor(io.stderr, io.env);
  const screen = io.stderr;
  const { label } = hooks;
  let value = '';
  const draw = (): void => {
    const { suggestions, status } = view;
    const more = suggestions.length > SHOWN ? style.dim(`  (+${suggestions.length - SHOWN})`) : '';
    // The value on its line, the suggestions on the next; the cursor back after the value.
    screen.write(
      `\r\x1b[2K${style.bold(label)}${value}\n\x1b[2K  ${suggestions.slice(0, SHOWN).join('  ')}${more}${status ? style.dim(`  ${status}`) : ''}\x1b[1A\r\x1b[${label.length + value.length}C`,
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
  if (hooks.askAtStart !== false) hooks.changed(value, draw);
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
        else if (key?.name === 'tab') {
          const next = hooks.tab(value);
          if (next === undefined) return;
          value = next;
        }
        // eslint-disable-next-line no-control-regex -- typed text is what holds no control character
        else if (text !== undefined && !key?.ctrl && !key?.meta && /^[^\x00-\x1f\x7f]+$/u.test(text)) value += text;
        else return;
        draw();
        hooks.changed(value, draw);
      };
      io.signal?.addEventListener('abort', onAbort, { once: true });
      stdin.on('keypress', onKey);
    });
  } finally {
    setRaw(false);
    stdin.pause();
  }
}
