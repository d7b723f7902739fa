/**
 * McpHost against example servers in this process: lifecycle and states, the live catalog,
 * routing (by exposed name, by ref, by URI), per-call options through the host, a server that
 * fails or drops, add/remove, and the one shared cache store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { type HostEvent, type McpHostOptions } from '../../src/host/servers/hostOptions.js';
import { HostConfigError, HostRoutingError } from '../../src/host/catalog/errors.js';
import { parseCacheKey } from '../../src/cache/cacheKey.js';
import { MemoryCacheStore } from '../../src/cache/cacheStore.js';
import { CancelledError, ConnectionClosedError, InputRequiredError, TimeoutError } from '../../src/errors/errors.js';
import { InMemoryTransport } from '../../src/transport/memory.js';
import type { Transport } from '../../src/transport/transport.js';
import { ToolTask } from '../../src/tasks/toolTask.js';
import { inMemoryExample, type InMemoryExample } from './inMemoryExample.js';

const clientInfo = { name: 'host-tests', version: '0.0.0' };
const hosts: McpHost[] = [];

function host(options: Omit<McpHostOptions, 'clientInfo'>): { host: McpHost; events: HostEvent[] } {
  const made = new McpHost({ clientInfo, ...options });
  hosts.push(made);
  const events: HostEvent[] = [];
  made.on((event) => events.push(event));
  return { host: made, events };
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** A transport whose start fails as a server that cannot be spawned would. */
function unstartable(): Transport {
  const [end] = InMemoryTransport.createLinkedPair('memory:unstartable');
  end.start = () =>
    Promise.reject(
      new ConnectionClosedError('failed to start "missing-server": spawn missing-server ENOENT', {
        reason: 'spawn failed',
        stderrTail: 'missing-server: not found',
      }),
    );
  return end;
}

describe('McpHost: connecting', () => {
  it('connects every server in parallel and reports each one; a server that fails leaves the others working', async () => {
    const a = inMemoryExample();
    const b = inMemoryExample();
    const { host: h, events } = host({
      servers: {
        alpha: { ...a.location },
        beta: { ...b.location },
        broken: { type: 'custom', transport: unstartable },
      },
    });
    expect(h.servers.map((s) => s.state)).toEqual(['new', 'new', 'new']);
    const statuses = await h.connect();
    expect(statuses.map((s) => [s.name, s.state, s.type, s.protocolVersion, s.era, s.serverInfo?.name])).toEqual([
      ['alpha', 'open', 'custom', '2026-07-28', 'modern', 'mcp-live-example'],
      ['beta', 'open', 'custom', '2026-07-28', 'modern', 'mcp-live-example'],
      ['broken', 'failed', 'custom', undefined, undefined, undefined],
    ]);
    const broken = h.server('broken');
    expect(broken?.lastError).toBeInstanceOf(ConnectionClosedError);
    expect((broken?.lastError as ConnectionClosedError).data.stderrTail).toBe('missing-server: not found');
    // Events are tagged with the server; each server went new → connecting → open / failed.
    const states = (name: string): string[] =>
      events.filter((e) => e.type === 'state' && e.server === name).map((e) => (e as { state: string }).state);
    expect(states('alpha')).toEqual(['connecting', 'open']);
    expect(states('broken')).toEqual(['connecting', 'failed']);
    const failed = events.find((e) => e.type === 'state' && e.state === 'failed');
    expect(failed).toMatchObject({ server: 'broken', previous: 'connecting', error: broken?.lastError });
    // Both open servers' tools are in the catalog, under their exposed names.
    expect(
      h
        .tools()
        .filter((t) => t.tool.name === 'echo')
        .map((t) => t.exposedName),
    ).toEqual(['alpha__echo', 'beta__echo']);
    expect(h.tools().every((t) => t.server !== 'broken')).toBe(true);
    expect(events.filter((e) => e.type === 'catalog').length).toBeGreaterThan(0);
  });

  it('a second connect() joins the first; an aborted one leaves its servers failed with the reason', async () => {
    const { host: h } = host({ servers: { a: inMemoryExample().location } });
    const [first, second] = await Promise.all([h.connect(), h.connect()]);
    expect(first.map((s) => s.state)).toEqual(['open']);
    expect(second.map((s) => s.state)).toEqual(['open']);

    const { host: aborted } = host({ servers: { b: inMemoryExample().location } });
    const statuses = await aborted.connect({ signal: AbortSignal.abort('user') });
    expect(statuses.map((s) => s.state)).toEqual(['failed']);
    expect(statuses[0]?.lastError).toBeInstanceOf(CancelledError);
  });

  it('fails a stdio entry on the runtime-neutral transport factory, naming what to pass', async () => {
    const { host: h } = host({ servers: { local: { type: 'stdio', command: 'node', args: ['server.js'] } } });
    await h.connect();
    const status = h.server('local');
    expect(status?.state).toBe('failed');
    expect(status?.lastError).toBeInstanceOf(HostConfigError);
    expect(status?.lastError?.message).toContain('nodeTransport');
  });

  it('lists malformed and disabled configuration entries as failed and disabled servers', async () => {
    const example = inMemoryExample();
    const h = McpHost.fromConfig(
      { mcpServers: { good: { command: 'x' }, bad: { command: 7 }, off: { command: 'y', disabled: true } } },
      { clientInfo, createTransport: () => example.location.transport() },
    );
    hosts.push(h);
    expect(h.configErrors.map((e) => e.data.server)).toEqual(['bad']);
    await h.connect();
    expect(h.servers.map((s) => [s.name, s.state, s.type])).toEqual([
      ['good', 'open', 'stdio'],
      ['bad', 'failed', undefined],
      ['off', 'disabled', undefined],
    ]);
    expect(h.server('bad')?.lastError).toBe(h.configErrors[0]);
  });

  it('fromConfig applies per-server options by name: prefix, tool filter, client options', async () => {
    const example = inMemoryExample();
    const h = McpHost.fromConfig(
      { servers: { demo: { type: 'stdio', command: 'x' } } },
      {
        clientInfo,
        createTransport: () => example.location.transport(),
        servers: {
          demo: {
            prefix: 'd',
            tools: { allow: ['echo', 'add'] },
            client: { clientInfo: { name: 'own', version: '1' } },
          },
        },
      },
    );
    hosts.push(h);
    await h.connect();
    expect(h.tools().map((t) => t.exposedName)).toEqual(['d__echo', 'd__add']);
    // Options for a server the file does not have are a mistake, not silently ignored.
    expect(() =>
      McpHost.fromConfig(
        { servers: { demo: { command: 'x' } } },
        { clientInfo, servers: { dmeo: { tools: { deny: ['rm'] } } } },
      ),
    ).toThrow(expect.objectContaining({ name: 'InvalidArgumentError', data: { name: 'servers.dmeo', value: 'dmeo' } }));
  });

  it('leaves no timer behind once closed, whatever was pending', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const example = inMemoryExample();
    const { host: h } = host({ servers: { a: example.location, b: inMemoryExample().location } });
    await h.connect();
    // A change in flight (a live list's debounce timer) and a slow call (its deadline timer).
    const slow = h.callTool('a__slow', { steps: 1, durationMs: 5000 }).catch(() => undefined);
    await h.callTool('a__add_prompt', { name: 'late', text: 'x' });
    expect(timers()).toBeGreaterThan(before);
    await h.close();
    await slow;
    expect(timers()).toBe(before);
  });

  it('closes everything: servers closed, catalog empty, events ended; idempotent; asyncDispose', async () => {
    const example = inMemoryExample();
    const { host: h, events } = host({ servers: { a: example.location } });
    await h.connect();
    await h[Symbol.asyncDispose]();
    expect(h.servers.map((s) => s.state)).toEqual(['closed']);
    expect(h.tools()).toEqual([]);
    const count = events.length;
    await h.close();
    expect(events.length).toBe(count);
    await expect(h.connect()).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(h.callTool('a__echo', { message: 'x' })).rejects.toMatchObject({ data: { reason: 'unknown-tool' } });
  });
});

describe('McpHost: routing', () => {
  let a: InMemoryExample;
  let b: InMemoryExample;
  async function twoServers(options: Omit<McpHostOptions, 'clientInfo' | 'servers'> = {}): Promise<McpHost> {
    a = inMemoryExample();
    b = inMemoryExample();
    const { host: h } = host({
      ...options,
      servers: { alpha: a.location, beta: { ...b.location, tools: { deny: ['add'] } } },
    });
    await h.connect();
    return h;
  }

  it('calls a tool by exposed name; the original name goes on the wire, to that server only', async () => {
    const h = await twoServers();
    const result = await h.callTool('beta__echo', { message: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(b.requests.filter((r) => r.method === 'tools/call').map((r) => r.params['name'])).toEqual(['echo']);
    expect(a.requests.some((r) => r.method === 'tools/call')).toBe(false);
    expect(await h.callTool({ server: 'alpha', name: 'add' }, { a: 2, b: 40 })).toMatchObject({
      structuredContent: { sum: 42 },
    });
  });

  it('refuses unknown names, unknown servers, and tools the filter denies, sending nothing', async () => {
    const h = await twoServers();
    await expect(h.callTool('nope', {})).rejects.toMatchObject({
      name: 'HostRoutingError',
      code: -33051,
      data: { reason: 'unknown-tool', name: 'nope' },
    });
    await expect(h.callTool({ server: 'gamma', name: 'echo' }, {})).rejects.toMatchObject({
      data: { reason: 'unknown-server', name: 'gamma' },
    });
    expect(h.tools().some((t) => t.exposedName === 'beta__add')).toBe(false);
    await expect(h.callTool({ server: 'beta', name: 'add' }, { a: 1, b: 1 })).rejects.toMatchObject({
      data: { reason: 'unknown-tool', server: 'beta' },
    });
    expect(b.requests.some((r) => r.method === 'tools/call')).toBe(false);
  });

  it('gets a prompt and completes its argument under the exposed name', async () => {
    const h = await twoServers();
    const prompt = h.prompts().find((p) => p.server === 'beta');
    expect(prompt).toBeDefined();
    const args = Object.fromEntries((prompt?.prompt.arguments ?? []).map((arg) => [arg.name, 'x']));
    const result = await h.getPrompt(prompt!.exposedName, args);
    expect(result.messages.length).toBeGreaterThan(0);
    expect(b.requests.filter((r) => r.method === 'prompts/get').map((r) => r.params['name'])).toEqual([
      prompt!.prompt.name,
    ]);
    await expect(h.getPrompt('beta__nope')).rejects.toMatchObject({ data: { reason: 'unknown-prompt' } });
  });

  it('reads a resource from the one server that lists it; asks for { server } when two do', async () => {
    a = inMemoryExample();
    const { host: h } = host({ servers: { alpha: a.location } });
    await h.connect();
    const listed = h.resources()[0];
    expect(listed).toBeDefined();
    const read = await h.readResource(listed!.resource.uri);
    expect(read.contents.length).toBeGreaterThan(0);

    const two = await twoServers();
    const uri = two.resources()[0]!.resource.uri;
    const ambiguous = await two.readResource(uri).catch((error: unknown) => error);
    expect(ambiguous).toBeInstanceOf(HostRoutingError);
    expect((ambiguous as HostRoutingError).data).toEqual({
      reason: 'ambiguous-resource',
      uri,
      servers: ['alpha', 'beta'],
    });
    await two.readResource(uri, { server: 'beta' });
    expect(b.requests.filter((r) => r.method === 'resources/read').map((r) => r.params['uri'])).toEqual([uri]);
    await expect(two.readResource('nowhere://x')).rejects.toMatchObject({ data: { reason: 'unknown-resource' } });
  });

  it('reads a URI no server lists from the one server whose resource template matches it', async () => {
    a = inMemoryExample();
    const { host: h } = host({ servers: { alpha: a.location } });
    await h.connect();
    expect(h.resourceTemplates().map((t) => t.resourceTemplate.uriTemplate)).toContain('demo://greeting/{name}');
    expect(h.catalog.resourcesByUri.has('demo://greeting/Ada')).toBe(false);
    const read = await h.readResource('demo://greeting/Ada');
    expect(read.contents[0]).toMatchObject({ uri: 'demo://greeting/Ada' });
    expect(a.requests.filter((r) => r.method === 'resources/read').map((r) => r.params['uri'])).toEqual([
      'demo://greeting/Ada',
    ]);

    const two = await twoServers();
    await expect(two.readResource('demo://greeting/Bob')).rejects.toMatchObject({
      data: { reason: 'ambiguous-resource', uri: 'demo://greeting/Bob', servers: ['alpha', 'beta'] },
    });
    await expect(two.readResource('demo://greeting/Bob', { server: 'alpha' })).resolves.toBeDefined();
    await expect(two.readResource('demo://elsewhere/x')).rejects.toMatchObject({
      data: { reason: 'unknown-resource' },
    });
  });

  it('passes every call option through: progress, timeouts, cancellation, input_required handlers and manual mode', async () => {
    a = inMemoryExample();
    const { host: h } = host({
      servers: {
        alpha: {
          ...a.location,
          client: { handlers: { elicitation: { form: () => ({ action: 'accept', content: { name: 'Ada' } }) } } },
        },
      },
    });
    await h.connect();
    const progress: number[] = [];
    await h.callTool('alpha__slow', { steps: 3, durationMs: 30 }, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3]);
    await expect(h.callTool('alpha__slow', { steps: 1, durationMs: 2000 }, { timeoutMs: 50 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    const controller = new AbortController();
    const cancelled = h.callTool('alpha__slow', { steps: 1, durationMs: 2000 }, { signal: controller.signal });
    controller.abort('user');
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    const filed = await h.callTool('alpha__create_ticket', { title: 'Bug' });
    expect(filed.content).toEqual([{ type: 'text', text: 'Ticket "Bug" filed by Ada (priority normal).' }]);
    await expect(
      h.callTool('alpha__create_ticket', { title: 'Bug' }, { inputRequired: 'manual' }),
    ).rejects.toBeInstanceOf(InputRequiredError);
  });

  it("passes the Tasks extension through: a task in manual mode comes back as its handle, with its server's handlers", async () => {
    const a = inMemoryExample();
    const { host: h } = host({
      servers: {
        alpha: {
          ...a.location,
          client: { handlers: { elicitation: { form: () => ({ action: 'accept', content: { approve: true } }) } } },
        },
      },
    });
    await h.connect();
    const result = await h.callTool('alpha__generate_report', { topic: 'Q3', steps: 2, stepMs: 10 }, { task: 'auto' });
    expect(result.content).toEqual([{ type: 'text', text: 'Report on "Q3": 2 sections written and approved.' }]);
    const outcome = await h.callTool('alpha__generate_report', { topic: 'Q4' }, { task: 'manual' });
    expect(outcome).toBeInstanceOf(ToolTask);
    await (outcome as ToolTask).cancel();
    expect(a.requests.filter((r) => r.method === 'tools/call').map((r) => r.params['name'])).toEqual([
      'generate_report',
      'generate_report',
    ]);
  });
});

describe('McpHost: a live catalog', () => {
  it('a list_changed updates the union, with one catalog event', async () => {
    const a = inMemoryExample();
    const b = inMemoryExample();
    const { host: h, events } = host({ servers: { alpha: a.location, beta: b.location } });
    await h.connect();
    const before = h.prompts();
    events.length = 0;
    const changed = new Promise<HostEvent>((resolve) => {
      const off = h.on((event) => {
        if (event.type === 'catalog') {
          off();
          resolve(event);
        }
      });
    });
    await h.callTool('beta__add_prompt', { name: 'haiku', text: 'Write a haiku about {topic}.' });
    expect(await changed).toEqual({ type: 'catalog', kinds: ['prompts'] });
    expect(h.prompts().map((p) => p.exposedName)).toContain('beta__haiku');
    expect(h.prompts().length).toBe(before.length + 1);
    // Unchanged items keep their wrapper objects.
    expect(h.prompts()[0]).toBe(before[0]);
    expect(events.filter((e) => e.type === 'catalog')).toHaveLength(1);
    expect((await h.getPrompt('beta__haiku', { topic: 'caches' })).messages[0]?.content).toEqual({
      type: 'text',
      text: 'Write a haiku about caches.',
    });
  });

  it('reports a collision of tool names and keeps both tools', async () => {
    const a = inMemoryExample();
    const b = inMemoryExample();
    const { host: h, events } = host({
      servers: { one: { ...a.location, prefix: 'x' }, two: { ...b.location, prefix: 'x' } },
    });
    await h.connect();
    const echoes = h.tools().filter((t) => t.tool.name === 'echo');
    expect(echoes.map((t) => t.server)).toEqual(['one', 'two']);
    expect(echoes[0]?.exposedName).toMatch(/^x__echo_[0-9a-f]{8}$/);
    expect(echoes[1]?.exposedName).toMatch(/^x__echo_[0-9a-f]{8}$/);
    expect(echoes[0]?.exposedName).not.toBe(echoes[1]?.exposedName);
    const collisions = events.filter((e) => e.type === 'collision');
    expect(collisions.map((e) => (e as { collision: { exposedName: string } }).collision.exposedName)).toContain(
      'x__echo',
    );
    expect(h.catalog.toolCollisions.length).toBeGreaterThan(0);
    await h.callTool(echoes[1]!.exposedName, { message: 'to two' });
    expect(b.requests.filter((r) => r.method === 'tools/call').map((r) => r.params['name'])).toEqual(['echo']);
  });

  it('a server that drops out takes its items with it, and calls to it fail at once', async () => {
    const a = inMemoryExample();
    const b = inMemoryExample();
    const { host: h, events } = host({ servers: { alpha: a.location, beta: b.location } });
    await h.connect();
    expect(h.tools().some((t) => t.server === 'beta')).toBe(true);
    const failed = new Promise<void>((resolve) => h.on((e) => e.type === 'state' && e.state === 'failed' && resolve()));
    await b.crash();
    await failed;
    expect(h.server('beta')?.state).toBe('failed');
    expect(h.server('beta')?.lastError).toBeInstanceOf(Error);
    expect(h.tools().some((t) => t.server === 'beta')).toBe(false);
    expect(h.tools().some((t) => t.server === 'alpha')).toBe(true);
    // The catalog changed once the server left (and with it the slash commands, its prompts
    // gone); its client's own events (closed) come with it.
    expect(events.filter((e) => e.type !== 'client').slice(-2)).toMatchObject([
      { type: 'catalog' },
      { type: 'slashCommands' },
    ]);
    expect(events.filter((e) => e.type === 'client').at(-1)).toMatchObject({
      server: 'beta',
      event: { type: 'state', state: 'closed', previous: 'open' },
    });
    await expect(h.callTool({ server: 'beta', name: 'echo' }, { message: 'x' })).rejects.toMatchObject({
      data: { reason: 'server-unavailable', server: 'beta', state: 'failed' },
    });
  });

  it('adds and removes servers at run time', async () => {
    const a = inMemoryExample();
    const { host: h } = host({ servers: { alpha: a.location } });
    await h.connect();
    const b = inMemoryExample();
    const status = await h.add('beta', b.location);
    expect(status.state).toBe('open');
    expect(h.tools().some((t) => t.exposedName === 'beta__echo')).toBe(true);
    await expect(h.add('beta', b.location)).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    await h.remove('alpha');
    expect(h.servers.map((s) => s.name)).toEqual(['beta']);
    expect(h.tools().some((t) => t.server === 'alpha')).toBe(false);
    await expect(h.remove('alpha')).rejects.toMatchObject({ data: { reason: 'unknown-server' } });
  });

  it('a server added before connect() waits for it', async () => {
    const { host: h } = host({});
    const status = await h.add('late', inMemoryExample().location);
    expect(status.state).toBe('new');
    await h.connect();
    expect(h.server('late')?.state).toBe('open');
  });
});

describe('McpHost: one cache store', () => {
  it('shares one store; every key carries its server, and private entries are partitioned per configured credentials', async () => {
    const store = new MemoryCacheStore();
    const keys: string[] = [];
    const set = store.set.bind(store);
    store.set = (key, entry) => {
      keys.push(key);
      return set(key, entry);
    };
    // Two stdio entries for the same command line (same server identity) with different env,
    // and one other server.
    const shared = inMemoryExample('stdio:["same-server"]');
    const other = inMemoryExample('memory:other');
    const { host: h } = host({
      cacheStore: store,
      createTransport: (location) =>
        location.type === 'stdio' && location.command === 'same-server'
          ? shared.location.transport()
          : other.location.transport(),
      servers: {
        ada: { type: 'stdio', command: 'same-server', env: { TOKEN: 'ada-token' } },
        bob: { type: 'stdio', command: 'same-server', env: { TOKEN: 'bob-token' } },
        other: { type: 'stdio', command: 'other-server' },
      },
    });
    await h.connect();
    for (const server of ['ada', 'bob', 'other']) await h.readResource('demo://me/profile', { server });
    const parsed = keys.map((key) => parseCacheKey(key)!);
    expect(keys.some((key) => /ada-token|bob-token/.test(key))).toBe(false);
    const tags = new Set(parsed.map((p) => p.serverTag));
    expect(tags.size).toBe(2); // ada and bob reach the same server; other is another
    const profiles = parsed.filter((p) => p.method === 'resources/read' && p.param === 'demo://me/profile');
    expect(profiles.map((p) => p.partition.startsWith('private:'))).toEqual([true, true, true]);
    expect(new Set(profiles.map((p) => `${p.serverTag} ${p.partition}`)).size).toBe(3);
    // A second read is served from the one store, per partition.
    const reads = shared.requests.filter((r) => r.method === 'resources/read').length;
    await h.readResource('demo://me/profile', { server: 'ada' });
    expect(shared.requests.filter((r) => r.method === 'resources/read').length).toBe(reads);
  });
});

describe('arguments from a model, mapped back before the call', () => {
  it('drops the null OpenAI strict mode sends for an optional property; asIs sends it', async () => {
    const example = inMemoryExample();
    const { host: h } = host({ servers: { a: example.location } });
    await h.connect();
    const [strictTool] = (await import('../../src/host/models/modelTools.js')).toOpenAiChatTools(
      h.tools().filter((t) => t.tool.name === 'add_prompt'),
    );
    expect(strictTool?.function.strict).toBe(true);
    expect(strictTool?.function.parameters.required).toEqual(['name', 'text', 'description']);

    const ok = await h.callTool('a__add_prompt', { name: 'mapped_back', text: 'hi', description: null });
    expect(ok.content).toEqual([{ type: 'text', text: 'added prompt mapped_back' }]);
    const sent = example.requests.filter((r) => r.method === 'tools/call').map((r) => r.params['arguments']);
    expect(sent).toEqual([{ name: 'mapped_back', text: 'hi' }]);

    const raw = await h
      .callTool('a__add_prompt', { name: 'as_is', text: 'hi', description: null }, { modelArguments: 'asIs' })
      .catch((error: unknown) => error);
    expect(example.requests.filter((r) => r.method === 'tools/call').at(-1)?.params['arguments']).toEqual({
      name: 'as_is',
      text: 'hi',
      description: null,
    });
    expect(raw).toBeDefined();
  });
});
