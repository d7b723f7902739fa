/**
 * Prompts as slash commands and resources as @-mentions, against real server processes: the
 * example server (build/examples/server.js) and `@modelcontextprotocol/server-everything` over
 * stdio, plus in-process example servers for names that collide or are reserved, and a
 * scripted fake for a refresh that fails.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpHost } from '../../src/host/nodeHost.js';
import type { HostEvent } from '../../src/host/servers/hostOptions.js';
import { SlashCommandError } from '../../src/host/userInput/slashCommandError.js';
import type { CompletedCandidates, HostCompletion } from '../../src/host/userInput/completionCandidates.js';
import { toAnthropicTools } from '../../src/host/models/modelTools.js';
import { CancelledError } from '../../src/errors/errors.js';
import { EVERYTHING_SERVER } from '../fakes/publishedServers.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { inMemoryExample } from './inMemoryExample.js';
import { DISCOVER_RESULT } from '../fakes/scriptedServer.js';
import { RestartableFake } from '../fakes/restartable.js';

const clientInfo = { name: 'slash-tests', version: '0.0.0' };
const SUB_ID = 'io.modelcontextprotocol/subscriptionId';

function completed(outcome: HostCompletion): CompletedCandidates {
  if (outcome.status !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function next(host: McpHost, test: (event: HostEvent) => boolean): Promise<HostEvent> {
  return new Promise((resolve) => {
    const off = host.on((event) => {
      if (test(event)) {
        off();
        resolve(event);
      }
    });
  });
}

describe('slash commands and mentions on real servers (example server, server-everything)', () => {
  let host: McpHost;
  const events: HostEvent[] = [];
  beforeAll(async () => {
    host = McpHost.fromConfig(
      {
        mcpServers: {
          example: { command: process.execPath, args: [EXAMPLE_SERVER] },
          everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
        },
      },
      { clientInfo, completion: { debounceMs: 0 } },
    );
    host.on((event) => events.push(event));
    const statuses = await host.connect();
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['example', 'open'],
      ['everything', 'open'],
    ]);
  }, 30_000);
  afterAll(() => host?.close());

  it('lists every prompt as a command with its label, title, description and arguments in order', () => {
    const commands = host.slashCommands();
    expect(commands.map((c) => c.command)).toEqual([
      'mcp__example__greet',
      'mcp__example__summarize_item',
      'mcp__example__code_review',
      'mcp__everything__simple-prompt',
      'mcp__everything__args-prompt',
      'mcp__everything__completable-prompt',
      'mcp__everything__resource-prompt',
    ]);
    expect(commands[0]).toMatchObject({
      label: '/example:greet (MCP)',
      server: 'example',
      name: 'greet',
      title: 'Greet someone',
      description: 'Writes a greeting for a person in a given style.',
      arguments: [
        { name: 'name', required: true, description: 'Who to greet' },
        { name: 'style', required: false, description: 'formal, casual or pirate' },
      ],
      usage: '/mcp__example__greet <name> [style]',
    });
    expect(commands.find((c) => c.name === 'args-prompt')).toMatchObject({
      label: '/everything:args-prompt (MCP)',
      arguments: [
        { name: 'city', required: true },
        { name: 'state', required: false },
      ],
    });
  });

  it('no converter offers a prompt to a model: the tools are the tools', () => {
    const names = toAnthropicTools(host.tools()).map((t) => t.name);
    for (const command of host.slashCommands()) {
      expect(names).not.toContain(command.command);
      expect(names).not.toContain(`${command.server}__${command.name}`);
    }
    expect(names).toContain('example__echo');
  });

  it('runs a command: prompts/get on its server, the messages for the API asked for', async () => {
    const run = await host.runSlashCommand('/mcp__example__greet Ada pirate', { api: 'anthropic' });
    expect(run.command.command).toBe('mcp__example__greet');
    expect(run.arguments).toEqual({ name: 'Ada', style: 'pirate' });
    expect(run.result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Write a pirate greeting for Ada.' } },
    ]);
    expect(run.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Write a pirate greeting for Ada.' }] },
    ]);
    const everything = await host.runSlashCommand('/mcp__everything__args-prompt state=Texas "San Antonio"', {
      api: 'openAiChat',
    });
    expect(everything.arguments).toEqual({ city: 'San Antonio', state: 'Texas' });
    expect(everything.messages).toEqual([{ role: 'user', content: "What's weather in San Antonio, Texas?" }]);
    // An embedded resource reaches the model as text headed by its URI.
    const embedded = await host.runSlashCommand('/mcp__example__summarize_item 3 words=5', { api: 'gemini' });
    expect(embedded.messages?.[1]?.parts[0]).toEqual({
      text: expect.stringMatching(/^Resource demo:\/\/items\/3 \(text\/plain\):\n/),
    });
    // Without an API, the result alone.
    expect((await host.runSlashCommand('/mcp__everything__simple-prompt')).messages).toBeUndefined();
  });

  it('refuses a bad line before sending anything, and honours the signal', async () => {
    await expect(host.runSlashCommand('/mcp__example__greet')).rejects.toMatchObject({
      name: 'SlashCommandError',
      data: { reason: 'missing-argument', argument: 'name', usage: '/mcp__example__greet <name> [style]' },
    });
    await expect(host.runSlashCommand('/mcp__everything__args-prompt city=a state=b c')).rejects.toBeInstanceOf(
      SlashCommandError,
    );
    await expect(
      host.runSlashCommand('/mcp__example__greet Ada', { signal: AbortSignal.abort('user') }),
    ).rejects.toBeInstanceOf(CancelledError);
  });

  it('completes command names by prefix, then fuzzy', async () => {
    const byPrefix = completed(await host.completeSlashCommand('/mcp__example__'));
    expect(byPrefix).toMatchObject({ kind: 'command', replace: { start: 0, end: 15 }, total: 3, hasMore: false });
    expect(byPrefix.candidates.map((c) => [c.insert, c.label])).toEqual([
      ['/mcp__example__greet', '/example:greet (MCP)'],
      ['/mcp__example__summarize_item', '/example:summarize_item (MCP)'],
      ['/mcp__example__code_review', '/example:code_review (MCP)'],
    ]);
    // The label's form and a fuzzy run both find it.
    expect(completed(await host.completeSlashCommand('/everything:args')).candidates[0]?.value).toBe(
      '/mcp__everything__args-prompt',
    );
    expect(completed(await host.completeSlashCommand('/cmplprm')).candidates[0]?.value).toBe(
      '/mcp__everything__completable-prompt',
    );
  });

  it('completes the argument under the cursor through completion/complete, with the arguments typed as context', async () => {
    const line = '/mcp__everything__completable-prompt Engineering ';
    const name = completed(await host.completeSlashCommand(line));
    expect(name).toMatchObject({
      kind: 'argument',
      argument: 'name',
      replace: { start: line.length, end: line.length },
    });
    expect(name.candidates.map((c) => c.value)).toEqual(['Alice', 'Bob', 'Charlie']);
    // name= before the department: the context still holds the department.
    const sales = completed(await host.completeSlashCommand('/mcp__everything__completable-prompt name=D Sales', 43));
    expect(sales.candidates.map((c) => c.value)).toEqual(['David']);
    expect(sales.replace).toEqual({ start: 42, end: 43 });
    // The department itself, mid-word.
    const department = completed(await host.completeSlashCommand('/mcp__everything__completable-prompt Sa'));
    expect(department).toMatchObject({ argument: 'department', replace: { start: 37, end: 39 } });
    expect(department.candidates.map((c) => c.value)).toEqual(['Sales']);
    // The example server's greet: its second argument.
    const style = completed(await host.completeSlashCommand('/mcp__example__greet "Ada L" p'));
    expect(style.candidates.map((c) => c.value)).toEqual(['pirate']);
    // The last argument takes the rest of the line: its value is all of it up to the cursor.
    const rest = completed(await host.completeSlashCommand("/mcp__example__greet O'Brien very p"));
    expect(rest).toMatchObject({ argument: 'style', replace: { start: 29, end: 35 } });
    expect(rest.candidates).toEqual([]);
  });

  it('answers the latest keystroke: an earlier one is superseded, a repeat comes from the cache; total and hasMore carried', async () => {
    const first = host.completeSlashCommand('/mcp__example__greet a');
    const second = host.completeSlashCommand('/mcp__example__greet b');
    expect(await first).toEqual({ status: 'superseded' });
    const answer = completed(await second);
    expect(answer.candidates.map((c) => c.value)).toEqual(['bob']);
    expect(answer.source).toBe('server');
    expect(completed(await host.completeSlashCommand('/mcp__example__greet b')).source).toBe('cache');
    // 250 items: 100 values, with total and hasMore as the server sent them.
    const items = completed(await host.completeSlashCommand('/mcp__example__summarize_item '));
    expect(items.candidates).toHaveLength(100);
    expect(items.hasMore).toBe(true);
    expect(items.total).toBe(250);
  });

  it('says when there is nothing to complete', async () => {
    expect(await host.completeSlashCommand('hello')).toMatchObject({ status: 'none' });
    expect(await host.completeSlashCommand('/mcp__example__nope x')).toMatchObject({ status: 'none' });
    expect(await host.completeSlashCommand('/mcp__example__greet name=a style=b ')).toMatchObject({
      status: 'none',
      reason: '/mcp__example__greet takes no more arguments',
    });
  });

  it('resolves mentions of listed resources and of templated URIs, and reports the unknown ones', async () => {
    const text =
      'Compare @example:demo://items/2 with @everything:demo://resource/dynamic/text/7, greet @example:demo://greeting/Ada. Also @nobody:x://y and @example:demo://items/9999.';
    const resolved = await host.resolveMentions(text, { api: 'anthropic' });
    expect(resolved.mentions.map((m) => [m.text, m.status])).toEqual([
      ['@example:demo://items/2', 'included'],
      ['@everything:demo://resource/dynamic/text/7', 'included'],
      ['@example:demo://greeting/Ada', 'included'],
      ['@nobody:x://y', 'unknown-server'],
      ['@example:demo://items/9999', 'failed'],
    ]);
    expect(resolved.unresolved.map((m) => m.text)).toEqual(['@nobody:x://y', '@example:demo://items/9999']);
    expect(resolved.content[0]).toEqual({ type: 'text', text });
    expect(resolved.content.slice(1).map((b) => b.type === 'resource' && b.resource.uri)).toEqual([
      'demo://items/2',
      'demo://resource/dynamic/text/7',
      'demo://greeting/Ada',
    ]);
    expect(resolved.messages[3]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Resource demo://greeting/Ada (text/plain):\nHello, Ada!' }],
    });
  });

  it('bounds mentions by the budget: one over what is left becomes a resource link with a note', async () => {
    const resolved = await host.resolveMentions('@example:demo://greeting/Ada @example:demo://greeting/Bob', {
      maxChars: 15,
    });
    expect(resolved.mentions.map((m) => [m.status, 'chars' in m && m.chars])).toEqual([
      ['included', 11],
      ['linked', 11],
    ]);
    expect(resolved.content.slice(2)).toEqual([
      { type: 'resource_link', uri: 'demo://greeting/Bob', name: 'demo://greeting/Bob' },
      {
        type: 'text',
        text: '[@example:demo://greeting/Bob is 11 characters, over the 4 left of the context budget: linked, not included]',
      },
    ]);
  });

  it('completes mentions: servers, resources and templates by URI or name, then template variables', async () => {
    const servers = completed(await host.completeMention('@exa'));
    expect(servers.candidates[0]).toMatchObject({ value: '@example:', kind: 'server' });
    const byName = completed(await host.completeMention('@example:item-12'));
    expect(byName.candidates.map((c) => c.value).slice(0, 1)).toEqual(['@example:demo://items/12']);
    const templates = completed(await host.completeMention('@example:demo://gree'));
    expect(templates.candidates.map((c) => [c.value, c.kind])).toContainEqual([
      '@example:demo://greeting/',
      'template',
    ]);
    const names = completed(await host.completeMention('@example:demo://greeting/c'));
    expect(names).toMatchObject({ kind: 'mention', argument: 'name', replace: { start: 0, end: 26 } });
    expect(names.candidates.map((c) => c.value)).toEqual(['@example:demo://greeting/carol']);
    // The second variable, with the first as context.
    const dishes = completed(await host.completeMention('@example:demo://menu/japanese/'));
    expect(dishes.argument).toBe('dish');
    expect(dishes.candidates.map((c) => c.value)).toEqual([
      '@example:demo://menu/japanese/ramen',
      '@example:demo://menu/japanese/sushi',
      '@example:demo://menu/japanese/tempura',
      '@example:demo://menu/japanese/udon',
    ]);
    const everything = completed(await host.completeMention('@everything:demo://resource/dynamic/text/4'));
    expect(everything.candidates.map((c) => c.value)).toEqual(['@everything:demo://resource/dynamic/text/4']);
  });

  it('follows prompts/list_changed: one slashCommands event, the new command runs', async () => {
    events.length = 0;
    const changed = next(host, (e) => e.type === 'slashCommands');
    await host.callTool('example__add_prompt', { name: 'haiku', text: 'Write a haiku about {topic}.' });
    const event = await changed;
    expect(event.type === 'slashCommands' && event.commands.map((c) => c.command)).toContain('mcp__example__haiku');
    expect(host.slashCommands().map((c) => c.command)).toContain('mcp__example__haiku');
    const run = await host.runSlashCommand('/mcp__example__haiku caches');
    expect(run.result.messages[0]?.content).toEqual({ type: 'text', text: 'Write a haiku about caches.' });
    expect(events.filter((e) => e.type === 'slashCommands')).toHaveLength(1);
  });
});

describe('slash commands: names that collide, the reserved name, a failed refresh', () => {
  const hosts: McpHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });

  it('two servers that sanitise to one name get suffixed commands and a collision event; anthropic-skills is left out unless asked', async () => {
    const made = (reservedServers?: string[]): McpHost => {
      const h = new McpHost({
        clientInfo,
        servers: {
          'my.server': inMemoryExample().location,
          my_server: inMemoryExample().location,
          'anthropic-skills': inMemoryExample().location,
        },
        ...(reservedServers !== undefined && { slashCommands: { reservedServers } }),
      });
      hosts.push(h);
      return h;
    };
    const h = made();
    const events: HostEvent[] = [];
    h.on((e) => events.push(e));
    await h.connect();
    const greets = h.slashCommands().filter((c) => c.name === 'greet');
    expect(greets.map((c) => c.server)).toEqual(['my.server', 'my_server']);
    expect(greets.map((c) => c.command)).toEqual([
      expect.stringMatching(/^mcp__my_server__greet_[0-9a-f]{8}$/),
      expect.stringMatching(/^mcp__my_server__greet_[0-9a-f]{8}$/),
    ]);
    const collision = events.find(
      (e) =>
        e.type === 'collision' && e.kind === 'slashCommands' && e.collision.exposedName === 'mcp__my_server__greet',
    );
    expect(collision).toMatchObject({
      collision: { resolution: 'suffixed', exposedNames: greets.map((c) => c.command) },
    });
    // Each suffixed command runs on its own server.
    const run = await h.runSlashCommand(`/${greets[1]?.command} Ada`);
    expect(run.command.server).toBe('my_server');
    expect(h.slashCommands().some((c) => c.server === 'anthropic-skills')).toBe(false);
    expect(h.prompts().some((p) => p.server === 'anthropic-skills')).toBe(true);

    const open = made([]);
    await open.connect();
    expect(open.slashCommands().map((c) => c.command)).toContain('mcp__anthropic-skills__greet');
  });

  it('a refresh after prompts/list_changed that fails keeps the last good list', async () => {
    let failing = false;
    let prompts = ['p1'];
    const fake = new RestartableFake((server) => {
      server.on('server/discover', () => ({
        result: { ...DISCOVER_RESULT, capabilities: { prompts: { listChanged: true } } },
      }));
      server.on('prompts/list', () =>
        failing
          ? { error: { code: -32603, message: 'list broke' } }
          : { result: { prompts: prompts.map((name) => ({ name, arguments: [{ name: 'x', required: true }] })) } },
      );
      server.on('subscriptions/listen', (request) => {
        void server.send({
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { notifications: request['params']['notifications'], _meta: { [SUB_ID]: request['id'] } },
        });
        return undefined;
      });
    });
    const errors: Error[] = [];
    const h = new McpHost({
      clientInfo,
      servers: {
        srv: {
          type: 'custom',
          transport: () => fake,
          client: { subscriptions: { liveRetry: { jitter: false, minDelayMs: 60_000, maxDelayMs: 60_000 } } },
        },
      },
      onError: (error) => errors.push(error),
    });
    hosts.push(h);
    await h.connect();
    expect(h.slashCommands().map((c) => c.command)).toEqual(['mcp__srv__p1']);
    const before = h.slashCommands();
    const listen = fake.server.requests('subscriptions/listen')[0]!;
    const notify = (): Promise<void> =>
      fake.server.send({
        jsonrpc: '2.0',
        method: 'notifications/prompts/list_changed',
        params: { _meta: { [SUB_ID]: listen['id'] } },
      });

    failing = true;
    prompts = ['p1', 'p2'];
    const asked = fake.server.requests('prompts/list').length;
    await notify();
    await fake.server.waitFor(
      (m) => m['method'] === 'prompts/list' && fake.server.requests('prompts/list').length > asked,
    );
    // The failed refresh is reported; the list stays as it was.
    await vi.waitFor(() => expect(errors.map((e) => e.message).join()).toContain('list broke'));
    expect(h.slashCommands()).toBe(before);
    expect(h.slashCommands().map((c) => c.command)).toEqual(['mcp__srv__p1']);
    expect((await h.runSlashCommand('/mcp__srv__p1 1').catch((e: unknown) => e)) instanceof SlashCommandError).toBe(
      false,
    );

    failing = false;
    const changed = next(h, (e) => e.type === 'slashCommands');
    await notify();
    await changed;
    expect(h.slashCommands().map((c) => c.command)).toEqual(['mcp__srv__p1', 'mcp__srv__p2']);
  });
});
