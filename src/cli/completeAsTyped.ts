/**
 * `mcp-live complete -i`: the value is typed at the terminal, and the suggestions under it follow
 * each keystroke through `client.completer()` (debounced; a newer keystroke cancels the request
 * in flight). The line is drawn on stderr, so that stdout carries only the value chosen: Tab
 * takes the first suggestion, Enter prints the value on stdout, Ctrl-C stops.
 */
import type { CompletionAnswer, McpClient } from '../index.js';
import type { Command } from './args.js';
import { EXIT_ERROR } from './errors.js';
import type { CliIo } from './io.js';
import { editLine, type LineView } from './lineEditor.js';

/** How long the terminal waits after a keystroke before asking, in ms. */
const DEBOUNCE_MS = 150;

/** A note for stderr when the server has more than it sent, or sent more than 100. */
export function completionNote(answer: CompletionAnswer): string | undefined {
  const { values, total, hasMore, trimmed } = answer;
  const notes: string[] = [];
  if (hasMore === true || (total !== undefined && total > values.length))
    notes.push(`${values.length}${total === undefined ? '' : ` of ${total}`}; more available`);
  if (trimmed > 0) notes.push(`${trimmed} beyond the 100 a result may carry were dropped`);
  return notes.length === 0 ? undefined : `(${notes.join('; ')})`;
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
  const completer = client.completer(command.ref, { debounceMs: DEBOUNCE_MS });
  const view: LineView = { suggestions: [], status: '' };
  try {
    return await editLine(io, stdin, view, {
      label: `${command.argument}: `,
      tab: (value) => view.suggestions[0] ?? value,
      changed: (value, redraw) => {
        completer.complete(command.argument, value, command.context, { signal: io.signal }).then(
          (outcome) => {
            if (outcome.status === 'superseded') return;
            if (outcome.status === 'unsupported') {
              view.suggestions = [];
              view.status = outcome.reason;
            } else {
              view.suggestions = outcome.values;
              view.status = completionNote(outcome) ?? '';
            }
            redraw();
          },
          (error: unknown) => {
            view.suggestions = [];
            view.status = error instanceof Error ? error.message : String(error);
            redraw();
          },
        );
      },
    });
  } finally {
    completer.close();
  }
}
