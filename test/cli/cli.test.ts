/**
 * The `mcp-live` CLI, run in-process (main() with injected stdout/stderr/signal) against the
 * built example server: over stdio for the one-shot commands, over Streamable HTTP for watch
 * (a second client changes the note the watch is subscribed to).
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, VERSION } from '../../src/cli/main.js';
import { serverIdentityLines, styleFor } from '../../src/cli/render.js';
import { McpClient } from '../../src/client/client.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { EXAMPLE_SERVER, startExampleHttpServer } from '../integration/exampleServer.js';
import { EVERYTHING_SERVER, FILESYSTEM_SERVER } from '../fakes/publishedServers.js';
import { collector, runCli, until } from './harness.js';

const STDIO = ['--', process.execPath, EXAMPLE_SERVER];

/** The CLI with this process's environment, as a shell runs it. */
function run(args: string[], io: Parameters<typeof runCli>[1] = {}): ReturnType<typeof runCli> {
  return runCli(args, { env: process.env, ...io });
}

describe('mcp-live over stdio (in-process)', () => {
  it('inspect: identity, versions, capabilities and counts', async () => {
    const { code, stdout, stderr } = await run(['inspect', ...STDIO]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('identity:   mcp-live example server 0.1.0');
    expect(stdout).toContain('protocol:   2026-07-28 (server supports 2026-07-28)');
    expect(stdout).toContain('offers:     tools, prompts, resources, completions, extensions');
    expect(stdout).toMatch(/tools: +10\n/);
    expect(stdout).toMatch(/prompts: +3\n/);
    expect(stdout).toMatch(/resources: +254 \(6 pages\)\n/);
    expect(stdout).toMatch(/templates: +3\n/);
  });

  it('inspect --json: one document', async () => {
    const { code, stdout } = await run(['inspect', '--json', ...STDIO]);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout);
    expect(doc).toMatchObject({
      serverInfo: { name: 'mcp-live-example', version: '0.1.0' },
      protocolVersion: '2026-07-28',
      era: 'modern',
      supportedVersions: ['2026-07-28'],
      counts: { tools: 10, prompts: 3, resources: 254, resourceTemplates: 3 },
    });
    expect(Object.keys(doc.capabilities)).toEqual(expect.arrayContaining(['tools', 'prompts', 'resources']));
  });

  it('list tools, human-readable', async () => {
    const { code, stdout } = await run(['list', 'tools', ...STDIO]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines).toContain('add(a, b) — Adds two numbers.');
    expect(lines.some((l) => l.startsWith('slow(steps?, durationMs?) — '))).toBe(true);
  });

  it('list tools --json', async () => {
    const { code, stdout } = await run(['list', 'tools', '--json', ...STDIO]);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as { tools: Array<{ name: string; inputSchema: unknown }>; pages: number };
    expect(doc.pages).toBe(1);
    expect(doc.tools.map((t) => t.name).sort()).toEqual([
      'add',
      'add_item',
      'add_prompt',
      'create_ticket',
      'echo',
      'generate_report',
      'get_item_link',
      'slow',
      'toggle_prompt',
      'update_note',
    ]);
    expect(doc.tools.find((t) => t.name === 'add')?.inputSchema).toMatchObject({ type: 'object' });
  });

  it('list resources walks every page, with a progress line when stderr is a terminal', async () => {
    const { code, stdout, stderr } = await run(['list', 'resources', ...STDIO], { stderrTTY: true });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(254);
    expect(lines[0]).toMatch(/^demo:\/\/readme +readme +text\/markdown$/);
    expect(stderr).toContain('resources/list: 254 resources in 6 pages');
    expect(stderr).toContain('\r\x1b[2K');
    // eslint-disable-next-line no-control-regex -- the dim escape sequence is what is checked
    expect(stderr).toMatch(/\n?\x1b\[2m254 resources in 6 pages\x1b\[0m\n$/);
  });

  it('read: text as is; a blob described', async () => {
    const text = await run(['read', 'demo://readme', ...STDIO]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^# mcp-live example server\n\nThis server exposes 250 item resources/);
    const blob = await run(['read', 'demo://logo.png', '--json', ...STDIO]);
    expect(blob.code).toBe(0);
    expect(JSON.parse(blob.stdout).contents[0]).toMatchObject({
      uri: 'demo://logo.png',
      mimeType: 'image/png',
      blob: expect.any(String),
    });
  });

  it('get-prompt with key=value arguments', async () => {
    const { code, stdout } = await run(['get-prompt', 'greet', 'name=Ada', 'style=pirate', ...STDIO]);
    expect(code).toBe(0);
    expect(stdout).toContain('user: Write a pirate greeting for Ada.\n');
  });

  it('call with JSON arguments', async () => {
    const { code, stdout } = await run(['call', 'add', '{"a":2,"b":40}', ...STDIO]);
    expect(code).toBe(0);
    expect(stdout).toBe('42\nstructured: {"sum":42}\n');
    const json = await run(['call', 'add', '{"a":2,"b":40}', '--json', ...STDIO]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      content: [{ type: 'text', text: '42' }],
      structuredContent: { sum: 42 },
    });
  });

  it('call answers an elicitation at the terminal', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    stdin.end('Ada\nhigh\n');
    const { code, stdout, stderr } = await run(['call', 'create_ticket', '{"title":"Printer on fire"}', ...STDIO], {
      stdin,
    });
    expect(stderr).toContain('The server asks: Who is filing "Printer on fire"?');
    expect(code).toBe(0);
    expect(stdout).toContain('filed by Ada (priority high)');
  });

  it('call without a terminal: the server cannot ask, and the error says how to answer', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end();
    const { code, stderr } = await run(['call', 'create_ticket', '{"title":"Printer on fire"}', ...STDIO], { stdin });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^mcp-live: MissingClientCapabilityError -32021 \(tools\/call\): /);
    expect(stderr).toContain(
      '\n  hint: the server asks for input; run mcp-live with stdin on a terminal to answer its questions\n',
    );
  });

  it('call --task: the server runs it as a task; its id is shown, its question asked at the terminal', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    stdin.end('yes\nlooks good\n');
    const { code, stdout, stderr } = await run(
      ['call', 'generate_report', '{"topic":"Q3","steps":2,"stepMs":20}', '--task', ...STDIO],
      { stdin },
    );
    expect(stderr).toMatch(/mcp-live: generate_report runs as task [0-9a-f-]{36}\n/);
    expect(stderr).toContain('The server asks: Publish the report on "Q3"?');
    expect(code).toBe(0);
    expect(stdout).toBe('Report on "Q3": 2 sections written and approved (looks good).\n');
  });

  it('call --task without a terminal: the task cannot be answered, is cancelled, and the error says why', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end();
    const { code, stderr } = await run(
      ['call', 'generate_report', '{"topic":"Q3","steps":2,"stepMs":20}', '--task', ...STDIO],
      { stdin },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /mcp-live: InputRequestFailedError -33007: tools\/call: cannot answer inputRequests\["approval"\]/,
    );
    expect(stderr).toContain('hint: the server asks for input');
  });

  it('--task belongs to call', async () => {
    const { code, stderr } = await run(['list', 'tools', '--task', ...STDIO]);
    expect(code).toBe(2);
    expect(stderr).toContain('--task is an option of call');
  });

  it('complete a prompt argument and a resource-template variable', async () => {
    const prompt = await run(['complete', 'prompt:greet', 'name', 'a', ...STDIO]);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toBe('alice\n');
    const template = await run(['complete', 'demo://greeting/{name}', 'name', 'b', '--json', ...STDIO]);
    expect(template.code).toBe(0);
    expect(JSON.parse(template.stdout).completion.values).toEqual(['bob']);
  });

  it('complete: a note when the server has more than it sent', async () => {
    const { code, stdout, stderr } = await run(['complete', 'template:demo://items/{n}', 'n', '1', ...STDIO]);
    expect(code).toBe(0);
    expect(stdout.split('\n')).toHaveLength(101);
    expect(stderr).toBe('(100 of 111; more available)\n');
    const json = await run([
      'complete',
      'demo://menu/{cuisine}/{dish}',
      'dish',
      't',
      'cuisine=mexican',
      '--json',
      ...STDIO,
    ]);
    expect(JSON.parse(json.stdout)).toEqual({
      completion: { values: ['tacos', 'tamales', 'tostadas'], total: 3, hasMore: false },
    });
  });

  it('complete -i: suggestions follow each keystroke; Tab takes the first, Enter prints the value', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
    const stdout = collector();
    const stderr = collector();
    const done = main(['complete', '-i', 'demo://menu/{cuisine}/{dish}', 'dish', 'cuisine=japanese', ...STDIO], {
      stdout,
      stderr,
      stdin,
    });
    await until(() => stderr.text.includes('ramen  sushi  tempura  udon'), 'the first suggestions');
    stdin.write('t');
    await until(() => stderr.text.endsWith(`${'\x1b[2K'}  tempura\x1b[1A\r\x1b[7C`), 'the suggestions for "t"');
    stdin.write('\t');
    stdin.write('\r');
    expect(await done).toBe(0);
    expect(stdout.text).toBe('tempura\n');
    expect(stderr.text).not.toContain('warning');
  });

  it('call with key=value and key:=json arguments, and with JSON on stdin (-)', async () => {
    const pairs = await run(['call', 'add', 'a:=2', 'b:=40', ...STDIO]);
    expect(pairs.code).toBe(0);
    expect(pairs.stdout).toBe('42\nstructured: {"sum":42}\n');
    const echo = await run(['call', 'echo', 'message=hello world', '--json', ...STDIO]);
    expect(echo.code).toBe(0);
    expect(JSON.stringify(JSON.parse(echo.stdout))).toContain('hello world');
    const stdin = new PassThrough();
    stdin.end('{"a":1,"b":2}');
    const piped = await run(['call', 'add', '-', ...STDIO], { stdin });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('3\nstructured: {"sum":3}\n');
    const bad = new PassThrough();
    bad.end('{"a":1,');
    const broken = await run(['call', 'add', '-', ...STDIO], { stdin: bad });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(
      'mcp-live: stdin: the tool arguments are not JSON, at its end (character 8) (property name expected)',
    );
  });

  it('call with invalid JSON says where it is wrong, not that it looks like a server command', async () => {
    const { code, stderr } = await run(['call', 'add', '{"a":2,"b":}', ...STDIO]);
    expect(code).toBe(2);
    expect(stderr).not.toContain("server's command");
    expect(stderr).toContain('the tool arguments are not JSON, at character 12 of 12 (value expected)');
    expect(stderr).toContain('\n  {"a":2,"b":}\n             ^\n');
    const bare = await run(['call', 'add', '{"a":2,', '--url', 'http://127.0.0.1:9/mcp']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('not JSON, at its end (character 8)');
  });

  it("<command> --help and help <command> print that command's help", async () => {
    for (const args of [
      ['call', '--help'],
      ['help', 'call'],
      ['call', '-h', ...STDIO],
    ]) {
      const { code, stdout } = await run(args);
      expect(code, args.join(' ')).toBe(0);
      expect(stdout).toMatch(/^usage: mcp-live call /);
      expect(stdout).toContain('key:=json');
      expect(stdout).not.toContain('get-prompt');
      expect(stdout).toContain('mcp-live --help');
    }
  });

  it('usage errors exit 2 without starting a server', async () => {
    for (const args of [
      [],
      ['lst', 'tools', ...STDIO],
      ['list', 'widgets', ...STDIO],
      ['list', 'tools'],
      ['call', 'add', '{not json', ...STDIO],
      ['get-prompt', 'greet', 'name', ...STDIO],
      ['list', 'tools', '--url', 'ftp://example.com', ...STDIO],
      ['list', 'tools', '-i', ...STDIO],
      ['complete', '-i', 'prompt:greet', ...STDIO],
      ['list', 'tools', '--bogus', ...STDIO],
    ]) {
      const { code, stdout, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^mcp-live: [^\n]+(\n {2}[^\n]*)*\nusage: mcp-live <command>/);
    }
  });

  it('--help and --version', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('exit codes: 0 ok, 1 error from the server or the transport, 2 usage error');
    const version = await run(['--version']);
    expect(version.stdout).toBe(`${VERSION}\n`);
    expect(VERSION).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });

  it('a server error exits 1 with its name, code, message and data', async () => {
    const human = await run(['read', 'demo://nope', ...STDIO]);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe('');
    expect(human.stderr).toBe(
      'mcp-live: ResourceNotFoundError -32602 (resources/read): Resource not found: demo://nope\n  data: {"uri":"demo://nope"}\n',
    );
    const json = await run(['read', 'demo://nope', '--json', ...STDIO]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        name: 'ResourceNotFoundError',
        code: -32602,
        message: 'Resource not found: demo://nope',
        data: { uri: 'demo://nope' },
        method: 'resources/read',
      },
    });
  });

  it('a server that cannot start exits 1 with a transport error', async () => {
    const { code, stderr } = await run([
      'inspect',
      '--',
      process.execPath,
      '-e',
      'process.stderr.write("boom\\n"); process.exit(3)',
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^mcp-live: ConnectionClosedError -32000/);
    expect(stderr).toContain('boom');
  });
});

describe('mcp-live watch (in-process, Streamable HTTP)', () => {
  let server: HttpServerProcess | undefined;
  beforeAll(async () => {
    server = await startExampleHttpServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('prints change events as JSON lines until its signal aborts', async () => {
    const stdout = collector();
    const stderr = collector();
    const abort = new AbortController();
    const done = main(['watch', 'demo://note', '--json', '--url', server!.url], {
      stdout,
      stderr,
      signal: abort.signal,
    });
    const lines = (): Array<Record<string, unknown>> =>
      stdout.text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l));
    await until(() => lines().some((e) => e['type'] === 'subscribed'), 'the subscription');
    expect(lines()[0]).toMatchObject({
      type: 'subscribed',
      honoured: { resourceSubscriptions: ['demo://note'] },
      notHonoured: {},
    });

    const other = new McpClient({
      transport: new StreamableHttpTransport(server!.url),
      clientInfo: { name: 'cli-test', version: '0' },
    });
    try {
      await other.connect();
      await other.callTool('update_note', { text: 'changed from a second client' });
    } finally {
      await other.close();
    }
    await until(() => lines().some((e) => e['type'] === 'resourceUpdated'), 'the resourceUpdated event');
    abort.abort();
    expect(await done).toBe(0);
    const events = lines();
    expect(events.find((e) => e['type'] === 'resourceUpdated')).toMatchObject({
      uri: 'demo://note',
      time: expect.any(String),
    });
    expect(events.at(-1)).toMatchObject({ type: 'closed', reason: 'closed' });
    expect(stderr.text).toBe('');
  });

  it('human output: one line per event', async () => {
    const stdout = collector();
    const abort = new AbortController();
    const done = main(['watch', '--url', server!.url], { stdout, stderr: collector(), signal: abort.signal });
    await until(() => stdout.text.includes('watching'), 'the subscription');
    const other = new McpClient({
      transport: new StreamableHttpTransport(server!.url),
      clientInfo: { name: 'cli-test', version: '0' },
    });
    try {
      await other.connect();
      await other.callTool('add_item', {});
    } finally {
      await other.close();
    }
    await until(() => /\n\d\d:\d\d:\d\d resourcesListChanged\n/.test(stdout.text), 'the list change');
    abort.abort();
    expect(await done).toBe(0);
    expect(stdout.text).toMatch(
      /^\d\d:\d\d:\d\d watching toolsListChanged, promptsListChanged, resourcesListChanged\n/,
    );
    expect(stdout.text).toMatch(/\n\d\d:\d\d:\d\d resourcesListChanged\n/);
  });
});

describe('rendering', () => {
  it('multi-line server instructions stay inside the indented block', () => {
    const client = {
      serverInfo: { name: 'srv', version: '1.0.0' },
      serverDiscovery: { supportedVersions: ['2025-11-25'], capabilities: { tools: {} } },
      serverIdentity: 'node server.js',
      protocolVersion: '2025-11-25',
      instructions: 'First line.\nSecond line.\n',
    } as unknown as McpClient;
    expect(serverIdentityLines(client, styleFor({ isTTY: false })).at(-1)).toBe(
      '  instructions: First line.\n                Second line.',
    );
  });
});

describe('mcp-live on 2025-11-25 servers (published, over stdio)', () => {
  it('watch subscribes on server-everything (no listen id on that wire) until its signal aborts', async () => {
    const stdout = collector();
    const abort = new AbortController();
    const done = main(
      [
        'watch',
        'demo://resource/static/document/architecture.md',
        '--json',
        '--',
        process.execPath,
        EVERYTHING_SERVER,
        'stdio',
      ],
      {
        stdout,
        stderr: collector(),
        signal: abort.signal,
      },
    );
    await until(() => stdout.text.includes('"subscribed"'), 'the subscription');
    abort.abort();
    expect(await done).toBe(0);
    const events = stdout.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // server-everything announces its tools list at start: that event may come first.
    expect(events.find((e) => e['type'] === 'subscribed')).toMatchObject({
      type: 'subscribed',
      era: 'legacy',
      subscriptionId: null,
      honoured: { resourceSubscriptions: ['demo://resource/static/document/architecture.md'] },
    });
    expect(events.at(-1)).toMatchObject({ type: 'closed', reason: 'closed' });
  });

  it('watch on server-filesystem: subscribed to what it offers', async () => {
    const stdout = collector();
    const abort = new AbortController();
    const done = main(['watch', '--json', '--', process.execPath, FILESYSTEM_SERVER, tmpdir()], {
      stdout,
      stderr: collector(),
      signal: abort.signal,
    });
    await until(() => stdout.text.includes('"subscribed"'), 'the subscription');
    abort.abort();
    expect(await done).toBe(0);
    const subscribed = stdout.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e['type'] === 'subscribed');
    expect(subscribed).toMatchObject({ era: 'legacy', subscriptionId: null });
    expect(Object.keys(subscribed!['honoured'] as object).length).toBeGreaterThan(0);
  });

  it('watch on a server that offers no changes: one error with a code', async () => {
    const script = fileURLToPath(new URL('../fakes/children/legacy-stdio.mjs', import.meta.url));
    const { code, stdout } = await run(['watch', '--json', '--', process.execPath, script, 's1']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      error: {
        name: 'NothingToWatchError',
        code: -33008,
        message: expect.stringContaining('the server can deliver none of the changes asked for'),
        data: { notHonoured: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } },
      },
    });
  });
});
