/**
 * What the CLI prints in the cases a first hour hit: colour switches, a list the server does not
 * offer, inspect's order, embedded and text-blob resources, a server dying under `watch`, and a
 * server command given without `--`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { colourWanted, contentsText, foldText } from '../../src/cli/render.js';
import { viewContents } from '../../src/wire/resourceContents.js';
import { EVERYTHING_SERVER } from '../fakes/publishedServers.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { runCli } from './harness.js';

const child = (name: string): string => fileURLToPath(new URL(`../fakes/children/${name}`, import.meta.url));
const EVERYTHING = ['--', process.execPath, EVERYTHING_SERVER, 'stdio'];
const EXAMPLE = ['--', process.execPath, EXAMPLE_SERVER];
const ESC = '\x1b[';

describe('colour', () => {
  it('FORCE_COLOR decides when set, then NO_COLOR, then whether the stream is a terminal', () => {
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    expect(colourWanted(tty, {})).toBe(true);
    expect(colourWanted(pipe, {})).toBe(false);
    expect(colourWanted(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourWanted(tty, { NO_COLOR: '' })).toBe(true);
    expect(colourWanted(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourWanted(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(colourWanted(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourWanted(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    // TERM=dumb: a terminal that shows no escapes.
    expect(colourWanted(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourWanted(tty, { TERM: 'xterm-256color' })).toBe(true);
    expect(colourWanted(tty, { TERM: 'dumb', FORCE_COLOR: '1' })).toBe(true);
  });

  it('inspect on a terminal: escapes, unless NO_COLOR', async () => {
    const coloured = await runCli(['inspect', ...EXAMPLE], { stdoutTTY: true });
    expect(coloured.stdout).toContain(ESC);
    const plain = await runCli(['inspect', ...EXAMPLE], { stdoutTTY: true, env: { NO_COLOR: '1' } });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain(ESC);
  });
});

describe('lists and resources', () => {
  it('list resources on a server without them: "does not offer", not a raw -32601', async () => {
    const human = await runCli(['list', 'resources', '--', process.execPath, child('legacy-stdio.mjs'), 's1']);
    expect(human.code).toBe(1);
    expect(human.stderr).toBe(
      'mcp-live: NotOfferedError -32601: the server does not offer resources (its capabilities have no "resources")\n  data: {"method":"resources/list","capability":"resources"}\n',
    );
  });

  it('inspect: counts first, then the server, then its long instructions folded', async () => {
    const { code, stdout } = await runCli(['inspect', ...EVERYTHING]);
    expect(code).toBe(0);
    expect(stdout.indexOf('Counts')).toBe(0);
    expect(stdout.indexOf('Server')).toBeGreaterThan(stdout.indexOf('templates:'));
    const instructions = stdout.slice(stdout.indexOf('Instructions\n'));
    expect(instructions.split('\n').length).toBeLessThanOrEqual(9);
    expect(instructions).toMatch(/… \(\d+ characters in \d+ lines?; --json shows them all\)\n$/);
  });

  it('read: a text/plain blob prints as its text', async () => {
    const { code, stdout } = await runCli(['read', 'demo://resource/dynamic/blob/1', ...EVERYTHING]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Resource 1: This is a base64 blob created at .+\n$/);
  });

  it('get-prompt: an embedded resource shows its text', async () => {
    const args = ['get-prompt', 'resource-prompt', 'resourceType=Text', 'resourceId=2', ...EVERYTHING];
    const { code, stdout } = await runCli(args);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /\nuser: embedded resource demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\):\nResource 2: This is a plaintext resource/,
    );
  });

  it('contentsText: text and textual blobs; not binary, not another charset, not invalid UTF-8', () => {
    const blob = (mimeType: string, bytes: number[]) =>
      viewContents({ uri: 'x:a', mimeType, blob: Buffer.from(bytes).toString('base64') });
    expect(contentsText(viewContents({ uri: 'x:a', text: 'hi' }))).toBe('hi');
    expect(contentsText(blob('text/markdown', [0x23, 0x20, 0xc3, 0xa9]))).toBe('# é');
    expect(contentsText(blob('application/json', [0x7b, 0x7d]))).toBe('{}');
    expect(contentsText(blob('application/vnd.api+json', [0x7b, 0x7d]))).toBe('{}');
    expect(contentsText(blob('image/png', [0x89, 0x50]))).toBeUndefined();
    expect(contentsText(blob('text/plain; charset=iso-8859-1', [0xe9]))).toBeUndefined();
    expect(contentsText(blob('text/plain', [0xff, 0xfe]))).toBeUndefined();
  });

  it('foldText keeps short text whole and says what it left out of long text', () => {
    expect(foldText('one\ntwo\n', 3, 80)).toEqual(['  one', '  two']);
    expect(foldText('a\nb\nc\nd', 2, 80)).toEqual([
      '  a',
      '  b',
      '  … (7 characters in 4 lines; --json shows them all)',
    ]);
  });
});

describe('watch', () => {
  it('a server that keeps dying: reconnects, then gives up with its exit and the tail of its stderr', async () => {
    const { code, stdout, stderr } = await runCli(['watch', '--', process.execPath, child('dies-while-watched.mjs')]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/watching toolsListChanged\n/);
    // Each run dies 300 ms after its handshake: two reconnects (each a resync), then the
    // watch budget (three quick drops in a row) is spent.
    expect(stdout.match(/subscriptionLost \(transport-closed\), reopening once reconnected/g)).toHaveLength(3);
    expect(stdout.match(/resync after reopen/g)).toHaveLength(2);
    expect(stderr).toMatch(
      /^mcp-live: connection lost \(process-exit, exit code 3\); reconnecting in \d+ ms \(attempt 1\)\nmcp-live: reconnected \(legacy wire, protocol 2025-11-25\)\n/,
    );
    expect(stderr).toContain('mcp-live: gave up reconnecting after 0 attempt(s) (process-exit, exit code 3)\n');
    expect(stderr).toMatch(/mcp-live: the subscription ended: transport-closed\n {2}ConnectionClosedError -32000/);
    expect(stderr).toContain('fatal: the widget store is corrupt');
  });
});

describe('a server command without --', () => {
  it('says to put it after --, with the line fixed', async () => {
    for (const [args, fixed] of [
      [['list', 'tools', 'node', 'server.js'], 'mcp-live list tools -- node server.js'],
      [['call', 'add', '{"a":1}', 'node', 'server.js'], `mcp-live call add '{"a":1}' -- node server.js`],
      [['watch', 'demo://note', 'node', 'server.js'], 'mcp-live watch demo://note -- node server.js'],
      [['inspect', 'npx', 'some-server'], 'mcp-live inspect -- npx some-server'],
    ] as const) {
      const { code, stderr } = await runCli([...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toContain(`looks like the server's command: put it after --, as in\n  ${fixed}\n`);
    }
  });
});
