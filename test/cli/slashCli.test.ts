/**
 * `mcp-live --config <file>` for what a user types, run in-process against real server
 * processes (the example server and the example skills server): `run` a slash command, `complete
 * -i` of a line (slash commands, their arguments, @-mentions), and `skills list|show|read`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { collector, runCli, until } from './harness.js';

const SKILLS_SERVER = fileURLToPath(new URL('../../build/examples/skills-server.js', import.meta.url));

let dir: string;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-live-slash-cli-'));
  config = join(dir, 'mcp.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        example: { command: process.execPath, args: [EXAMPLE_SERVER] },
        skills: { command: process.execPath, args: [SKILLS_SERVER] },
      },
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (args: string[]): ReturnType<typeof runCli> => runCli(args, { env: process.env });

describe('mcp-live --config run', () => {
  it("prints the prompt's messages", async () => {
    const { code, stdout, stderr } = await run(['--config', config, 'run', '/mcp__example__greet Ada pirate']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('user: Write a pirate greeting for Ada.\n');
    const json = await run(['--config', config, 'run', '/mcp__example__greet "Ada L" style=formal', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      command: 'mcp__example__greet',
      server: 'example',
      prompt: 'greet',
      arguments: { name: 'Ada L', style: 'formal' },
      result: {
        description: 'Greeting for Ada L',
        messages: [{ role: 'user', content: { type: 'text', text: 'Write a formal greeting for Ada L.' } }],
      },
    });
  });

  it('a line that does not fit is a usage error naming what is wrong, with the usage; without --config too', async () => {
    const missing = await run(['--config', config, 'run', '/mcp__example__greet']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/mcp__example__greet needs name (usage: /mcp__example__greet <name> [style])');
    const unknown = await run(['--config', config, 'run', '/mcp__nope__x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no slash command /mcp__nope__x');
    const single = await run(['run', '/mcp__example__greet Ada', '--', process.execPath, EXAMPLE_SERVER]);
    expect(single.code).toBe(2);
    expect(single.stderr).toContain('run works on the servers of a --config file');
  });
});

describe('mcp-live --config complete -i', () => {
  it('completes a slash command, then its argument; Tab takes the first, Enter prints the line', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
    const stdout = collector();
    const stderr = collector();
    const done = main(['--config', config, 'complete', '-i'], { stdout, stderr, stdin, env: process.env });
    await until(() => stderr.text.includes('> '), 'the prompt');
    stdin.write('/mcp__example__gr');
    await until(() => stderr.text.includes('/example:greet (MCP)'), 'the command');
    stdin.write('\t');
    await until(() => stderr.text.includes('alice  bob  carol'), 'the names');
    stdin.write('c');
    await until(() => stderr.text.includes('\x1b[2K  carol\x1b'), 'the names with c');
    stdin.write('\t');
    stdin.write('\r');
    expect(await done).toBe(0);
    expect(stdout.text).toBe('/mcp__example__greet carol \n');
  });

  it('completes an @-mention: a template variable through completion/complete', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
    const stdout = collector();
    const stderr = collector();
    const done = main(['--config', config, 'complete', '-i'], { stdout, stderr, stdin, env: process.env });
    await until(() => stderr.text.includes('> '), 'the prompt');
    stdin.write('see @example:demo://menu/italian/r');
    await until(
      () => stderr.text.includes('@example:demo://menu/italian/risotto  @example:demo://menu/italian/ravioli'),
      'the dishes',
    );
    stdin.write('\t');
    stdin.write('\r');
    expect(await done).toBe(0);
    expect(stdout.text).toBe('see @example:demo://menu/italian/risotto\n');
  });
});

describe('mcp-live --config skills', () => {
  it('list: every skill under its exposed name, with its server', async () => {
    const { code, stdout } = await run(['--config', config, 'skills', 'list']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'skills__release-notes  Write release notes for a version from its merged changes [skills]',
    );
    expect(stdout).toContain('skills__code-review  Review a change for correctness, tests and naming [skills]');
    const json = JSON.parse((await run(['--config', config, 'skills', 'list', '--json'])).stdout);
    expect(json.skills).toContainEqual(
      expect.objectContaining({ exposedName: 'skills__release-notes', server: 'skills', trusted: false }),
    );
  });

  it('show: the entry and its files; read: SKILL.md or a file, verified; an unknown skill fails', async () => {
    const show = await run(['--config', config, 'skills', 'show', 'release-notes']);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('skills__release-notes (release-notes) from skills, not trusted');
    expect(show.stdout).toMatch(/references\/STYLE\.md {2}\d+ B {2}sha256:/);
    const read = await run(['--config', config, 'skills', 'read', 'skills__release-notes']);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('# Release notes');
    const file = await run(['--config', config, 'skills', 'read', 'release-notes', 'references/STYLE.md']);
    expect(file.stdout).toBe('# Style\n\nOne line per change, past tense, user terms.\n');
    const missing = await run(['--config', config, 'skills', 'show', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no skill named "nope"');
    const usage = await run(['--config', config, 'skills', 'frob']);
    expect(usage.code).toBe(2);
  });
});
