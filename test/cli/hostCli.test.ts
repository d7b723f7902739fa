/**
 * `mcp-live --config <file>`, run in-process: one table for every server (a failing one
 * included), exposed names, a call routed by exposed name, and the usage errors.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { runCli } from './harness.js';

const FATAL = fileURLToPath(new URL('../fakes/children/fatal.mjs', import.meta.url));

let dir: string;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-live-host-cli-'));
  config = join(dir, 'mcp.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        example: { command: process.execPath, args: [EXAMPLE_SERVER] },
        broken: { command: process.execPath, args: [FATAL] },
        later: { command: 'x', disabled: true },
      },
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The CLI with this process's environment, as a shell runs it. */
function run(args: string[], stderrTTY = false): ReturnType<typeof runCli> {
  return runCli(args, { stderrTTY, env: process.env });
}

describe('mcp-live --config', () => {
  it('inspect: one table of every server, the failed one with its cause, progress while connecting', async () => {
    const { code, stdout, stderr } = await run(['inspect', '--config', config], true);
    // One enabled server failed: exit 1, the table printed all the same.
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SERVER +STATE +TYPE +VERSION +TOOLS +PROMPTS +RESOURCES +TEMPLATES +LAST ERROR$/);
    expect(lines[1]).toMatch(/^example +open +stdio +2026-07-28 +10 +3 +254 +3$/);
    expect(lines[2]).toMatch(/^broken +failed +stdio +- +- +- +- +- +.*connection closed/);
    expect(lines[3]).toMatch(/^later +disabled +- +- /);
    // The progress line (a terminal on stderr), then the cause with the server's last words.
    expect(stderr).toContain('connecting: 0 of 2 settled');
    expect(stderr).toContain('mcp-live: broken: ConnectionClosedError -32000');
    expect(stderr).toContain('fatal: boom');
  });

  it('inspect: a server that cannot be reached gets one line naming why, the detail under --debug', async () => {
    const unreachable = join(dir, 'unreachable.json');
    await writeFile(
      unreachable,
      JSON.stringify({
        mcpServers: {
          example: { command: process.execPath, args: [EXAMPLE_SERVER] },
          down: { url: 'http://127.0.0.1:9/mcp' },
        },
      }),
    );
    const { code, stdout, stderr } = await run(['inspect', '--config', unreachable]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/\ndown +failed +http/);
    expect(stderr).toContain(
      'mcp-live: down: connection refused at 127.0.0.1:9: is the server running, on that port? (--debug for details)',
    );
    const debug = await run(['inspect', '--debug', '--config', unreachable]);
    expect(debug.stderr).toMatch(/mcp-live: down: \w+Error -32\d+/);
  });

  it('inspect exits with 0 when every enabled server is open (a disabled one does not count)', async () => {
    const healthy = join(dir, 'healthy.json');
    await writeFile(
      healthy,
      JSON.stringify({
        mcpServers: {
          example: { command: process.execPath, args: [EXAMPLE_SERVER] },
          later: { command: 'x', disabled: true },
        },
      }),
    );
    const text = await run(['inspect', '--config', healthy]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\nexample +open +stdio /);
    expect((await run(['inspect', '--json', '--config', healthy])).code).toBe(0);
  });

  it('inspect --json', async () => {
    const { code, stdout } = await run(['inspect', '--json', '--config', config]);
    expect(code).toBe(1);
    const doc = JSON.parse(stdout) as { servers: Array<Record<string, unknown>> };
    expect(doc.servers.map((s) => [s['name'], s['state'], s['protocolVersion']])).toEqual([
      ['example', 'open', '2026-07-28'],
      ['broken', 'failed', null],
      ['later', 'disabled', null],
    ]);
    expect(doc.servers[0]?.['counts']).toEqual({ tools: 10, prompts: 3, resources: 254, resourceTemplates: 3 });
    expect(doc.servers[1]?.['lastError']).toMatchObject({
      name: 'ConnectionClosedError',
      code: -32000,
      data: { stderrTail: 'fatal: boom\n' },
    });
  });

  it('list tools shows exposed names and servers, and exits 1 because one server failed', async () => {
    const { code, stdout, stderr } = await run(['list', 'tools', '--config', config]);
    // The list is printed, and the exit code says a server's part is missing (as inspect's does).
    expect(code).toBe(1);
    expect(stdout).toContain('example__add(a, b) — Adds two numbers. [example]');
    expect(stdout.trimEnd().split('\n')).toHaveLength(10);
    expect(stderr).toContain('not listed: broken');
  });

  it('call routes an exposed name to its server', async () => {
    const { code, stdout } = await run(['call', 'example__add', '{"a":2,"b":40}', '--config', config]);
    expect(code).toBe(0);
    expect(stdout).toBe('42\nstructured: {"sum":42}\n');
  });

  it('call with a name the catalog does not have lists the names it has', async () => {
    const { code, stderr } = await run(['call', 'add', '{"a":2,"b":40}', '--config', config]);
    expect(code).toBe(1);
    expect(stderr).toContain('HostRoutingError -33051: no tool "add" in the catalog');
    expect(stderr).toMatch(
      /no tool "add" in the catalog[^]*\nmcp-live: the tools are example__generate_report, example__create_ticket, example__echo, example__add,/,
    );
  });

  describe('two servers that list the same URIs (--server)', () => {
    let twins: string;
    beforeAll(async () => {
      twins = join(dir, 'twins.json');
      await writeFile(
        twins,
        JSON.stringify({
          mcpServers: {
            left: { command: process.execPath, args: [EXAMPLE_SERVER] },
            right: { command: process.execPath, args: [EXAMPLE_SERVER] },
          },
        }),
      );
    });

    it('read of a URI both list is ambiguous, and the error names the --server flag', async () => {
      const { code, stderr } = await run(['read', 'demo://note', '--config', twins]);
      expect(code).toBe(1);
      expect(stderr).toContain(
        'HostRoutingError -33051: demo://note could be served by "left" and "right": choose one with --server <name>',
      );
      expect(stderr).not.toContain('pass { server }');
      const json = await run(['read', 'demo://note', '--json', '--config', twins]);
      expect(JSON.parse(json.stdout)).toMatchObject({
        error: { code: -33051, data: { reason: 'ambiguous-resource', servers: ['left', 'right'] } },
      });
    });

    it('--server chooses the server for read, call, get-prompt and complete', async () => {
      const read = await run(['read', 'demo://note', '--server', 'right', '--json', '--config', twins]);
      expect(read.code).toBe(0);
      expect(JSON.parse(read.stdout)).toMatchObject({ contents: [{ uri: 'demo://note' }] });
      // call and get-prompt take the original name on that server, not the exposed one.
      const call = await run(['call', 'add', '{"a":2,"b":40}', '--server', 'left', '--config', twins]);
      expect(call).toMatchObject({ code: 0, stdout: '42\nstructured: {"sum":42}\n' });
      const prompt = await run(['get-prompt', 'greet', 'name=Ada', '--server', 'left', '--config', twins]);
      expect(prompt.code).toBe(0);
      expect(prompt.stdout).toContain('Ada');
      const ambiguous = await run(['complete', 'demo://menu/{cuisine}/{dish}', 'cuisine', 'it', '--config', twins]);
      expect(ambiguous.stderr).toContain('choose one with --server <name>');
      const complete = await run([
        'complete',
        'demo://menu/{cuisine}/{dish}',
        'cuisine',
        'it',
        '--server',
        'right',
        '--config',
        twins,
      ]);
      expect(complete.code).toBe(0);
      expect(complete.stdout).toMatch(/^ital/im);
    });

    it('--server with a name the file does not have is an error naming it', async () => {
      const { code, stderr } = await run(['read', 'demo://note', '--server', 'nope', '--config', twins]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/HostRoutingError -33051: .*"?nope"?/);
    });
  });

  it.each([
    [['read', 'demo://note', '--server', 'a', '--url', 'http://h/mcp'], 'without --config'],
    [['inspect', '--server', 'a', '--config', 'x.json'], '--server is for read, call, get-prompt and complete'],
    [['list', 'tools', '--server', 'a', '--config', 'x.json'], '--server is for read'],
    [['inspect', '--config', 'x.json', '--url', 'http://h/mcp'], 'not both'],
    [['inspect', '--config', 'x.json', '--', 'node', 's.js'], 'not both'],
    [['inspect', '--config', 'x.json', '-e', 'A=b'], 'put them in the config file'],
    [['watch', '--config', 'x.json'], 'watch follows one server'],
  ])('usage error: %j', async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('a config file that is missing or malformed is a usage error naming it', async () => {
    const missing = await run(['inspect', '--config', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{ "mcpServers": ');
    const malformed = await run(['inspect', '--config', bad]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain(`${bad}:1:`);
  });
});
