/**
 * DevtoolsRecorder against a real McpHost over the built example server on stdio: the servers'
 * state, era and capabilities; the catalog; requests with their outcome, duration and (with a
 * listener) bytes in a bounded ring; a list_changed as a catalog change; approvals waiting with
 * redacted arguments; an input_required call's sends; a killed server's reconnect attempt; detach.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DevtoolsRecorder } from '../../src/devtools/recorder.js';
import type { DevtoolsChange, DevtoolsRequest, DevtoolsServer } from '../../src/devtools/snapshot.js';
import { McpHost } from '../../src/host/host.js';
import type { McpHostOptions } from '../../src/host/servers/hostOptions.js';
import { nodeTransport } from '../../src/host/servers/nodeTransport.js';
import type { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';

const FAST = { jitter: false, minDelayMs: 200, maxDelayMs: 400 } as const;
const hosts: McpHost[] = [];

/** A host on the example server over stdio, its stdio transports collected. */
function exampleHost(options: Partial<McpHostOptions> = {}): { host: McpHost; transports: StdioTransport[] } {
  const transports: StdioTransport[] = [];
  const host = new McpHost({
    clientInfo: { name: 'mcp-live-devtools-tests', version: '0.0.0' },
    client: { reconnect: FAST },
    createTransport: (location, context) => {
      const transport = nodeTransport(location, context) as StdioTransport;
      transports.push(transport);
      return transport;
    },
    servers: { example: { type: 'stdio', command: process.execPath, args: [EXAMPLE_SERVER] } },
    ...options,
  });
  hosts.push(host);
  return { host, transports };
}

/** The first change `accept` takes, from now on. */
function nextChange<T extends DevtoolsChange>(
  recorder: DevtoolsRecorder,
  accept: (change: DevtoolsChange) => change is T,
): Promise<T> {
  return new Promise((resolve) => {
    const off = recorder.on((change) => {
      if (!accept(change)) return;
      off();
      resolve(change);
    });
  });
}

const serversWhere =
  (test: (server: DevtoolsServer) => boolean) =>
  (change: DevtoolsChange): change is Extract<DevtoolsChange, { type: 'servers' }> =>
    change.type === 'servers' && change.servers.some(test);

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

describe('DevtoolsRecorder on a real host', () => {
  it("while someone listens, the servers' cache counters follow the hits that no event announces", async () => {
    const { host } = exampleHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    await host.readResource('demo://note'); // a miss, stored
    const heard = nextChange(
      recorder,
      serversWhere((s) => s.name === 'example' && (s.cache?.hits ?? 0) >= 3),
    );
    for (let i = 0; i < 3; i++) await host.readResource('demo://note'); // hits: no request, no event
    const change = await heard;
    expect(change.servers.find((s) => s.name === 'example')!.cache!.hits).toBe(
      host.client('example')!.cache!.stats().hits,
    );
    recorder.detach();
  });

  it('shows the server open on the modern era with its capabilities, and the catalog with exposed names', async () => {
    const { host } = exampleHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    const snapshot = recorder.snapshot();
    expect(snapshot.servers).toEqual([
      expect.objectContaining({
        name: 'example',
        state: 'open',
        type: 'stdio',
        era: 'modern',
        protocolVersion: '2026-07-28',
        serverInfo: expect.stringMatching(/^mcp-live-example /),
        lastError: undefined,
        reconnect: undefined,
        reconnectAttempts: 0,
        updates: 'listen',
      }),
    ]);
    expect(snapshot.servers[0]!.capabilities).toEqual(expect.arrayContaining(['prompts', 'resources', 'tools']));
    const tools = snapshot.catalog.items.filter((item) => item.kind === 'tool');
    expect(tools).toHaveLength(host.tools().length);
    expect(tools.find((t) => t.name === 'echo')).toEqual({
      kind: 'tool',
      server: 'example',
      exposedName: 'example__echo',
      name: 'echo',
      availability: 'available',
      description: 'Echo',
    });
    expect(snapshot.catalog.items.some((item) => item.kind === 'resource' && item.exposedName === 'demo://note')).toBe(
      true,
    );
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  }, 30_000);

  it('keeps requests in a ring of maxRequests: method, target, outcome, duration; an error with its code', async () => {
    const { host } = exampleHost();
    const recorder = new DevtoolsRecorder({ maxRequests: 3 });
    recorder.attach(host);
    await host.connect();
    for (const message of ['one', 'two', 'three']) await host.callTool('example__echo', { message });
    await expect(host.client('example')!.request('no/such-method')).rejects.toMatchObject({ code: -32601 });
    const requests = recorder.snapshot().requests;
    expect(requests).toHaveLength(3);
    expect(requests.map((r) => [r.method, r.target, r.outcome])).toEqual([
      ['tools/call', 'echo', 'ok'],
      ['tools/call', 'echo', 'ok'],
      ['no/such-method', undefined, 'error'],
    ]);
    expect(requests[2]!.error).toMatchObject({ code: -32601 });
    expect(requests.map((r) => r.id)).toEqual([...requests.map((r) => r.id)].sort((a, b) => a - b));
    for (const r of requests) {
      expect(r.server).toBe('example');
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
      // No listener: results are not measured.
      expect(r.bytes).toBeUndefined();
    }
  }, 30_000);

  it('keeps the requests that failed although newer ones push them out of the ring', async () => {
    const { host } = exampleHost();
    const recorder = new DevtoolsRecorder({ maxRequests: 2 });
    recorder.attach(host);
    await host.connect();
    await expect(host.client('example')!.request('no/such-method')).rejects.toMatchObject({ code: -32601 });
    for (const message of ['one', 'two', 'three']) await host.callTool('example__echo', { message });
    const requests = recorder.snapshot().requests;
    expect(requests.map((r) => [r.method, r.outcome])).toEqual([
      ['no/such-method', 'error'],
      ['tools/call', 'ok'],
      ['tools/call', 'ok'],
    ]);
    expect(requests.map((r) => r.id)).toEqual([...requests.map((r) => r.id)].sort((a, b) => a - b));
  }, 30_000);

  it('shows the calls the host refused before any server (refused host events), kept like failures', async () => {
    const { host } = exampleHost();
    const recorder = new DevtoolsRecorder({ maxRequests: 2 });
    recorder.attach(host);
    const heard: string[] = [];
    host.on((event) => {
      if (event.type === 'refused') heard.push(`${event.method} ${event.target} ${event.error.data.reason}`);
    });
    await host.connect();
    await expect(host.callTool('example__no_such_tool', {})).rejects.toMatchObject({ code: -33051 });
    await expect(host.readResource('nowhere://x')).rejects.toMatchObject({ code: -33051 });
    for (const message of ['one', 'two']) await host.callTool('example__echo', { message });
    expect(heard).toEqual([
      'tools/call example__no_such_tool unknown-tool',
      'resources/read nowhere://x unknown-resource',
    ]);
    const refused = recorder.snapshot().requests.filter((r) => r.outcome === 'refused');
    expect(refused.map((r) => [r.method, r.target, r.durationMs, r.error?.code])).toEqual([
      ['tools/call', 'example__no_such_tool', 0, -33051],
      ['resources/read', 'nowhere://x', 0, -33051],
    ]);
  }, 30_000);

  it('with a listener: a request is heard when it starts and when it ends (with its bytes); a list_changed is a catalog change', async () => {
    const { host } = exampleHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    const heard: DevtoolsChange[] = [];
    const off = recorder.on((change) => heard.push(change));
    const catalog = nextChange(
      recorder,
      (change): change is Extract<DevtoolsChange, { type: 'catalog' }> =>
        change.type === 'catalog' && change.catalog.items.some((item) => item.name === 'standup'),
    );
    await host.callTool('example__add_prompt', { name: 'standup', text: 'Summarize {topic}.' });
    const heardCatalog = await catalog;
    const prompt = heardCatalog.catalog.items.find((item) => item.name === 'standup');
    expect(prompt).toMatchObject({ kind: 'prompt', server: 'example', exposedName: 'example__standup' });
    // The history says what came, and that its server was open: the server's own list changed.
    expect(heardCatalog.catalogChanges.at(-1)).toEqual({
      at: expect.any(Number),
      added: ['prompt example__standup'],
      removed: [],
      unavailable: [],
      available: [],
      more: 0,
      servers: [{ name: 'example', state: 'open' }],
    });
    const gone = nextChange(
      recorder,
      (change): change is Extract<DevtoolsChange, { type: 'catalog' }> =>
        change.type === 'catalog' && change.catalogChanges.at(-1)!.removed.length > 0,
    );
    await host.callTool('example__toggle_prompt', { name: 'standup' });
    expect((await gone).catalogChanges.at(-1)).toMatchObject({
      added: [],
      removed: ['prompt example__standup'],
      servers: [{ name: 'example', state: 'open' }],
    });
    off();
    const call = heard.filter(
      (c): c is Extract<DevtoolsChange, { type: 'request' }> =>
        c.type === 'request' && c.request.method === 'tools/call',
    );
    expect(call.map((c) => c.request.outcome)).toEqual(['pending', 'ok', 'pending', 'ok']);
    expect(call[0]!.request.id).toBe(call[1]!.request.id);
    expect(call[0]!.request.durationMs).toBeUndefined();
    const result = await host.callTool('example__echo', { message: 'measured' });
    expect(recorder.snapshot().requests.at(-1)!.bytes).toBeUndefined(); // no listener any more
    expect(call[1]!.request.bytes).toBeGreaterThan(10);
    expect(result.content).toEqual([{ type: 'text', text: 'measured' }]);
  }, 30_000);

  it("an input_required call: one request whose sends are the first (input_required) and the round, the user's time between them", async () => {
    let answer: () => void = () => {};
    let formShown: () => void = () => {};
    const shown = new Promise<void>((resolve) => (formShown = resolve));
    const { host } = exampleHost({
      client: {
        reconnect: FAST,
        handlers: {
          elicitation: {
            form: () =>
              new Promise((resolve) => {
                answer = () => resolve({ action: 'accept', content: { name: 'Ada' } });
                formShown();
              }),
          },
        },
      },
    });
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    const heard: DevtoolsRequest[] = [];
    recorder.on((change) => {
      if (change.type === 'request' && change.request.target === 'create_ticket') heard.push(change.request);
    });
    const asked = nextChange(
      recorder,
      (change): change is Extract<DevtoolsChange, { type: 'request' }> =>
        change.type === 'request' && change.request.attempts.length === 1,
    );
    const call = host.callTool('example__create_ticket', { title: 'Printer on fire' });
    const waiting = (await asked).request;
    expect(waiting.outcome).toBe('pending');
    expect(waiting.attempts).toEqual([
      { kind: 'first', offsetMs: expect.any(Number), durationMs: expect.any(Number), outcome: 'input_required' },
    ]);
    await shown;
    answer();
    expect((await call).content).toEqual([
      { type: 'text', text: 'Ticket "Printer on fire" filed by Ada (priority normal).' },
    ]);
    // Heard three times: started, the server asked for input, ended.
    expect(heard.map((request) => [request.outcome, request.attempts.length])).toEqual([
      ['pending', 0],
      ['pending', 1],
      ['ok', 2],
    ]);
    const [first, round] = heard[2]!.attempts;
    expect([first!.kind, first!.outcome, round!.kind, round!.outcome]).toEqual([
      'first',
      'input_required',
      'round',
      'result',
    ]);
    // The round went out after the first send's answer, and ended with the call.
    expect(round!.offsetMs).toBeGreaterThanOrEqual(first!.offsetMs + first!.durationMs!);
    expect(round!.offsetMs + round!.durationMs!).toBeLessThanOrEqual(heard[2]!.durationMs! + 0.001);
    // In the snapshot too, and a plain call has its one send.
    await host.callTool('example__echo', { message: 'once' });
    const requests = recorder.snapshot().requests;
    expect(requests.find((request) => request.target === 'create_ticket')!.attempts).toHaveLength(2);
    expect(requests.at(-1)!.attempts.map((attempt) => `${attempt.kind}:${attempt.outcome}`)).toEqual(['first:result']);
  }, 30_000);

  it('shows a tool call waiting for its approval, credential-like arguments redacted, until the hook answers', async () => {
    const recorder = new DevtoolsRecorder();
    let answer: (verdict: 'deny') => void = () => {};
    const asked = new Promise<void>((resolve) => {
      const { host } = exampleHost({
        approve: recorder.approve(
          () =>
            new Promise((settle) => {
              answer = settle;
              resolve();
            }),
        ),
      });
      recorder.attach(host);
    });
    const host = recorder.host!;
    await host.connect();
    const changes = nextChange(
      recorder,
      (c): c is Extract<DevtoolsChange, { type: 'approvals' }> => c.type === 'approvals' && c.approvals.length === 0,
    );
    const call = host.callTool('example__echo', { message: 'hi', token: 'sk-live-123', nested: { password: 'p' } });
    await asked;
    const [approval] = recorder.snapshot().approvals;
    expect(approval).toMatchObject({
      server: 'example',
      exposedName: 'example__echo',
      name: 'echo',
      arguments: { message: 'hi', token: '[redacted]', nested: { password: '[redacted]' } },
    });
    expect(JSON.stringify(recorder.snapshot())).not.toContain('sk-live-123');
    answer('deny');
    await expect(call).rejects.toMatchObject({ code: -33052 });
    await changes;
    expect(recorder.snapshot().approvals).toEqual([]);
    expect(recorder.snapshot().requests.at(-1)).toMatchObject({ method: 'tools/call', outcome: 'error' });
  }, 30_000);

  it('a killed server: reconnecting with attempt 1 after process-exit, then open again with the attempt counted', async () => {
    const { host, transports } = exampleHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    const down = nextChange(
      recorder,
      serversWhere((s) => s.state === 'reconnecting' && s.reconnect !== undefined),
    );
    process.kill(transports[0]!.pid!, 'SIGKILL');
    const reconnecting = (await down).servers[0]!;
    expect(reconnecting.reconnect).toMatchObject({ attempt: 1, cause: 'process-exit', coolDown: false });
    expect(reconnecting.reconnect!.delayMs).toBeGreaterThanOrEqual(200);
    expect(recorder.snapshot().catalog.items.every((item) => item.availability === 'unavailable')).toBe(true);
    const went = recorder.snapshot().catalogChanges.find((change) => change.unavailable.length > 0);
    expect(went).toMatchObject({ added: [], removed: [], servers: [{ name: 'example', state: 'reconnecting' }] });
    expect(went!.unavailable).toContain('tool example__echo');
    expect(went!.unavailable.length + went!.more).toBe(recorder.snapshot().catalog.items.length);
    const up = nextChange(
      recorder,
      serversWhere((s) => s.state === 'open'),
    );
    const open = (await up).servers[0]!;
    expect(open.reconnect).toBeUndefined();
    expect(open.reconnectAttempts).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('detach stops recording; a second attach is refused; maxRequests is checked', async () => {
    const { host } = exampleHost();
    const recorder = new DevtoolsRecorder();
    const detach = recorder.attach(host);
    expect(() => recorder.attach(host)).toThrow(InvalidArgumentError);
    await host.connect();
    await host.callTool('example__echo', { message: 'seen' });
    detach();
    await host.callTool('example__echo', { message: 'not seen' });
    expect(recorder.snapshot().requests.filter((r) => r.method === 'tools/call')).toHaveLength(1);
    expect(recorder.snapshot().servers).toEqual([]);
    for (const bad of [0, 1.5, 100_001])
      expect(() => new DevtoolsRecorder({ maxRequests: bad })).toThrow(
        expect.objectContaining({ code: -32602, data: expect.objectContaining({ name: 'maxRequests', value: bad }) }),
      );
  }, 30_000);
});
