/**
 * The `mcp-live` command as a real process (build/examples/cli.js, the same source as the
 * package's dist/cli.js, built by `npm run build:examples`): exit codes, output, and Ctrl-C
 * ending a watch cleanly.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';

const CLI = fileURLToPath(new URL('../../build/examples/cli.js', import.meta.url));
const DIST_CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(
  script: string,
  args: string[],
  onStdout?: (text: string, child: ReturnType<typeof spawn>) => void,
): Promise<Finished> {
  if (!existsSync(script)) throw new Error(`${script} is missing: run "npm run build:examples" first`);
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    onStdout?.(stdout, child);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('mcp-live as a process', () => {
  it('lists prompts from a stdio server and exits 0', async () => {
    const result = await start(CLI, ['list', 'prompts', '--', process.execPath, EXAMPLE_SERVER]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'greet(name, style?) — Writes a greeting for a person in a given style.',
        'summarize_item(item, words?) — Asks for a summary of one catalog item, embedding the item resource.',
        'code_review(language, code) — Asks for a review of a code snippet.',
        '',
      ].join('\n'),
    );
  });

  it('exits 2 on a usage error', async () => {
    const result = await start(CLI, ['call']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'mcp-live: call wants <tool> [json | - | key=value ...]\nusage: mcp-live <command> [options] (--url <url> | --config <file> | -- <server command> [args...])\n(mcp-live --help for the commands and options)\n',
    );
  });

  it('watch: SIGINT stops it cleanly with exit 0', async () => {
    let sent = false;
    const result = await start(
      CLI,
      ['watch', 'demo://note', '--', process.execPath, EXAMPLE_SERVER],
      (stdout, child) => {
        if (!sent && stdout.includes('watching')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    );
    expect(sent).toBe(true);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^\d\d:\d\d:\d\d watching toolsListChanged, promptsListChanged, resourcesListChanged, resourceSubscriptions \[demo:\/\/note\]\n$/,
    );
  });

  it('devtools --config: prints the page URL, serves it behind the token, and SIGINT ends it with exit 0', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-live-cli-devtools-'));
    const config = join(folder, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { example: { command: process.execPath, args: [EXAMPLE_SERVER] } } }),
    );
    const seen: { page?: number; noToken?: number; html?: string } = {};
    let asked = false;
    try {
      const result = await start(CLI, ['devtools', '--config', config], (stdout, child) => {
        const url = /^devtools: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)\n/.exec(stdout)?.[1];
        if (url === undefined || asked) return;
        asked = true;
        void (async () => {
          const page = await fetch(url);
          seen.page = page.status;
          seen.html = await page.text();
          seen.noToken = (await fetch(new URL('/', url))).status;
          child.kill('SIGINT');
        })();
      });
      expect(asked).toBe(true);
      expect(seen).toMatchObject({ page: 200, noToken: 401 });
      expect(seen.html).toContain('<!doctype html>');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  // dist/ exists after `npm run build`, and `npm test` builds it first (pretest) when missing or stale.
  it.runIf(existsSync(DIST_CLI))('dist/cli.js (package bin) starts with a shebang and runs', async () => {
    expect(readFileSync(DIST_CLI, 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.bin).toEqual({ 'mcp-live': './dist/cli.js' });
    const result = await start(DIST_CLI, ['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${pkg.version}\n`);
  });
});
