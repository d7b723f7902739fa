/**
 * docs/cli.md "Examples" shows what the CLI prints: each `$ mcp-live …` line of that section's
 * first console block is run in-process against the example server (the command after `--` as
 * written, from the repository root) and its stdout must be the lines under it. A command piped
 * into another (`| head -3`) is skipped: the pipe is the shell's, not ours.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Example {
  line: number;
  args: string[];
  output: string;
}

/** The `$ mcp-live …` commands of the first ```console block after "## Examples", with their output. */
function examples(): Example[] {
  const lines = readFileSync(`${root}docs/cli.md`, 'utf8').split('\n');
  const start = lines.findIndex((l, i) => l === '```console' && lines.slice(0, i).includes('## Examples'));
  const end = lines.indexOf('```', start + 1);
  const found: Example[] = [];
  for (let i = start + 1; i < end; i++) {
    const text = lines[i] as string;
    if (!text.startsWith('$ ')) {
      const last = found.at(-1);
      if (last !== undefined) last.output += `${text}\n`;
      continue;
    }
    found.push({ line: i + 1, args: text.includes('|') ? [] : shellWords(text.slice(2)), output: '' });
  }
  return found.filter((e) => e.args[0] === 'mcp-live');
}

/** Words of a command line: spaces split, '…' quotes (all the docs use). */
function shellWords(text: string): string[] {
  return [...text.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? (m[2] as string));
}

const trimEnd = (text: string): string => text.replace(/\n+$/, '');

describe('docs/cli.md Examples', () => {
  const all = examples();
  it('has examples to check', () => {
    expect(all.length).toBeGreaterThan(5);
  });
  for (const example of all)
    it(`line ${example.line}: ${example.args.join(' ')}`, async () => {
      const { code, stdout } = await runCli(example.args.slice(1), { env: process.env });
      expect(code).toBe(0);
      expect(trimEnd(stdout)).toBe(trimEnd(example.output));
    });
});
