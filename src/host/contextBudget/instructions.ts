/**
 * `host.instructions()`: the servers' `instructions` (spec: `server/discover` result) for a
 * system prompt, each bounded and tagged with its server, so a model (and a reader) can tell
 * whose words they are. They are the server's text: treat them as data, not as the host's.
 */
import { headOf } from '../../util/text.js';

/** Options of `host.instructions`. */
export interface InstructionsOptions {
  /**
   * The most characters (UTF-16 code units) kept of each server's instructions; a longer text is
   * cut on a whole character (src/util/text.ts) and says how much was left out. @default 2000
   */
  maxChars?: number | undefined;
}

export const DEFAULT_INSTRUCTIONS_CHARS = 2000;
const TAG = 'server-instructions';

/**
 * @internal The tagged block of each server's text, in host order, joined by a blank line;
 * `""` when none sent any. A text that would close the tag has its `<` escaped.
 */
export function tagInstructions(
  sources: ReadonlyArray<{ server: string; text: string }>,
  options: InstructionsOptions = {},
): string {
  const max = options.maxChars ?? DEFAULT_INSTRUCTIONS_CHARS;
  const blocks: string[] = [];
  for (const { server, text } of sources) {
    const trimmed = text.trim();
    if (trimmed === '') continue;
    const head = headOf(trimmed, Math.max(0, max));
    const kept =
      head.length === trimmed.length
        ? trimmed
        : `${head}\n[… ${trimmed.length - head.length} more characters left out]`;
    const safe = kept.replace(new RegExp(`</?${TAG}`, 'gi'), (m) => m.replace('<', '&lt;'));
    blocks.push(`<${TAG} server=${JSON.stringify(server)}>\n${safe}\n</${TAG}>`);
  }
  return blocks.join('\n\n');
}
