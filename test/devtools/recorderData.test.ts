/**
 * The recorder's cache entries, cache actions and approvals answered from the page, against a
 * real McpHost over real stdio servers: the short-TTL fake child (a public entry fresh for
 * 1.5 s, a private one) and the example server (public and private reads). Entries of both
 * scopes with their metadata; a private value never shown, a partition never the auth context;
 * one entry invalidated and the next read reaching the server (counted there); a refetch; a
 * page's allow sending exactly the approved arguments, a page's deny sending nothing, the hook
 * and the page racing.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listCacheEntries } from '../../src/cache/entryListing.js';
import { DevtoolsRecorder } from '../../src/devtools/recorder.js';
import type { DevtoolsApproval, DevtoolsCacheEntry, DevtoolsChange } from '../../src/devtools/snapshot.js';
import { McpHost } from '../../src/host/host.js';
import type { McpHostOptions } from '../../src/host/servers/hostOptions.js';
import { nodeTransport } from '../../src/host/servers/nodeTransport.js';
import { ToolApprovalDeniedError } from '../../src/host/policy/errors.js';
import { argumentsHash } from '../../src/host/policy/argumentsHash.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import type { CallToolResult } from '../../src/wire/protocol.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';

const SHORT_TTL = fileURLToPath(new URL('../fakes/children/short-ttl.mjs', import.meta.url));
const hosts: McpHost[] = [];

function dataHost(options: Partial<McpHostOptions> = {}): McpHost {
  const host = new McpHost({
    clientInfo: { name: 'mcp-live-devtools-tests', version: '0.0.0' },
    createTransport: nodeTransport,
    servers: {
      short: { type: 'stdio', command: process.execPath, args: [SHORT_TTL, '1500'] },
      example: { type: 'stdio', command: process.execPath, args: [EXAMPLE_SERVER] },
    },
    ...options,
  });
  hosts.push(host);
  return host;
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const textOf = (result: unknown): string => ((result as CallToolResult).content[0] as { text: string }).text;

/** The first change `accept` takes, from now on. */
function nextChange(recorder: DevtoolsRecorder, accept: (change: DevtoolsChange) => boolean): Promise<DevtoolsChange> {
  return new Promise((resolve) => {
    const off = recorder.on((change) => {
      if (!accept(change)) return;
      off();
      resolve(change);
    });
  });
}

const find = (cache: readonly DevtoolsCacheEntry[], server: string, about: string) =>
  cache.find((e) => e.server === server && e.about === about);

describe('the recorder and the caches', () => {
  it('shows entries of both scopes with their metadata, public values cut, private values never', async () => {
    const host = dataHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    const before = Date.now();
    await host.readResource('demo://clock');
    await host.readResource('demo://mine');
    await host.readResource('demo://me/profile');
    await host.readResource('demo://logo.png');

    expect(recorder.snapshot().cache).toEqual([]); // nobody listens: nothing read, nothing kept
    const { cache } = await recorder.readSnapshot();
    const clock = find(cache, 'short', 'demo://clock')!;
    expect(clock).toMatchObject({
      server: 'short',
      method: 'resources/read',
      scope: 'public',
      partition: 'public',
      protocolVersion: '2026-07-28',
      ttlMs: 1500,
      fresh: true,
    });
    expect(clock.id).toMatch(/^e\d+$/);
    expect(clock.storedAt).toBeGreaterThanOrEqual(before - 5);
    expect(clock.expiresAt).toBe(clock.storedAt + 1500);
    expect(clock.bytes).toBeGreaterThan(0);
    expect(clock.preview).toContain('read 1');

    const mine = find(cache, 'short', 'demo://mine')!;
    expect(mine).toMatchObject({ scope: 'private', partition: 'host', ttlMs: 60_000, preview: undefined });
    const profile = find(cache, 'example', 'demo://me/profile')!;
    expect(profile).toMatchObject({ scope: 'private', preview: undefined });
    expect(find(cache, 'example', 'demo://logo.png')).toMatchObject({ scope: 'public', partition: 'public' });
    expect(cache.some((e) => e.method === 'tools/list' && e.about === 'first page')).toBe(true);
    expect(JSON.stringify(cache)).not.toContain('secret of read');
  });

  it('labels each user partition with a number, never the auth context', async () => {
    const host = dataHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    await host.forUser('alice@example.com').readResource('demo://mine');
    await host.forUser('bob@example.com').readResource('demo://mine');
    await host.readResource('demo://mine');
    const { cache } = await recorder.readSnapshot();
    const mine = cache.filter((e) => e.about === 'demo://mine');
    expect(mine.map((e) => e.partition).sort()).toEqual([
      'host',
      expect.stringMatching(/^user \d+$/),
      expect.stringMatching(/^user \d+$/),
    ]);
    expect(new Set(mine.map((e) => e.partition)).size).toBe(3);
    const partitions = (await listCacheEntries(host.client('short')!.cache!)).map((e) => e.partition);
    const text = JSON.stringify(cache);
    for (const secret of ['alice', 'bob', ...partitions.filter((p) => p.startsWith('private:')).map((p) => p.slice(8))])
      expect(text).not.toContain(secret);
    // Another user's private entry is not refetched by the host; the host's own is.
    const alice = mine.find((e) => e.partition !== 'host')!;
    await expect(recorder.refetchCacheEntry('short', alice.id)).rejects.toMatchObject({ data: { name: 'entry' } });
    expect(await recorder.refetchCacheEntry('short', mine.find((e) => e.partition === 'host')!.id)).toBe(
      'resources/read',
    );
  });

  it('invalidates one entry: the next read goes to the server, its neighbour stays', async () => {
    const host = dataHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    await host.readResource('demo://mine');
    await host.readResource('demo://mine');
    const reads = async () => JSON.parse(textOf(await host.callTool('short__reads', {}))) as Record<string, number>;
    expect(await reads()).toEqual({ 'demo://mine': 1 });
    const { cache } = await recorder.readSnapshot();
    const mine = find(cache, 'short', 'demo://mine')!;
    await host.readResource('demo://clock');
    expect(await recorder.invalidateCacheEntry('short', mine.id)).toBe(1);
    const after = (await recorder.readSnapshot()).cache;
    expect(find(after, 'short', 'demo://mine')).toBeUndefined();
    expect(find(after, 'short', 'demo://clock')).toBeDefined();
    await expect(recorder.invalidateCacheEntry('short', mine.id)).rejects.toMatchObject({
      data: { name: 'entry' },
    });
    await host.readResource('demo://mine');
    expect(await reads()).toEqual({ 'demo://mine': 2, 'demo://clock': 1 });
    await expect(recorder.invalidateCacheEntry('nobody', mine.id)).rejects.toMatchObject({
      data: { name: 'server' },
    });
  });

  it('refetches one entry past the cache, through the middleware, and stores the new value', async () => {
    const host = dataHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    await host.readResource('demo://clock');
    const clock = find((await recorder.readSnapshot()).cache, 'short', 'demo://clock')!;
    expect(await recorder.refetchCacheEntry('short', clock.id)).toBe('resources/read');
    const again = find((await recorder.readSnapshot()).cache, 'short', 'demo://clock')!;
    expect(again.preview).toContain('read 2');
    expect(recorder.snapshot().requests.filter((r) => r.target === 'demo://clock')).toHaveLength(2);
    const list = (await recorder.readSnapshot()).cache.find((e) => e.server === 'short' && e.method === 'tools/list')!;
    expect(await recorder.refetchCacheEntry('short', list.id)).toBe('tools/list');
  });

  it('tells listeners of new entries at a bounded rate, and reads nothing once they are gone', async () => {
    const host = dataHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    const heard = nextChange(
      recorder,
      (change) => change.type === 'cache' && change.cache.some((e) => e.about === 'demo://clock'),
    );
    await host.readResource('demo://clock');
    const change = (await heard) as Extract<DevtoolsChange, { type: 'cache' }>;
    expect(find(change.cache, 'short', 'demo://clock')).toMatchObject({ scope: 'public', fresh: true });
    expect(recorder.snapshot().cache).toEqual([]); // the last listener left: the reading is dropped
  });
});

describe('approvals answered from the page', () => {
  const waitingOne = (recorder: DevtoolsRecorder): Promise<DevtoolsApproval> =>
    new Promise((resolve) => {
      const off = recorder.on((change) => {
        if (change.type !== 'approvals' || change.approvals.length === 0) return;
        off();
        resolve(change.approvals[0]!);
      });
    });

  it('allow sends exactly the approved arguments; deny sends nothing', async () => {
    const recorder = new DevtoolsRecorder();
    // The hook allows `reads` (the server's count) and leaves `send` to the page.
    const host = dataHost({
      approve: recorder.approve((call) => (call.name === 'reads' ? 'allow' : new Promise(() => {})), {
        fromPage: true,
      }),
    });
    recorder.attach(host);
    await host.connect();
    const args = { to: 'ops', text: 'deploy now' };

    let waiting = waitingOne(recorder);
    const allowed = host.callTool('short__send', args);
    let approval = await waiting;
    expect(approval).toMatchObject({ exposedName: 'short__send', answerable: true, arguments: args });
    expect(approval.argumentsHash).toBe(argumentsHash(args));
    expect(() => recorder.answerApproval(approval.id, argumentsHash({ ...args, to: 'everyone' }), 'allow')).toThrow(
      InvalidArgumentError,
    );
    recorder.answerApproval(approval.id, approval.argumentsHash, 'allow');
    expect(textOf(await allowed)).toBe('sent to ops: deploy now');
    expect(() => recorder.answerApproval(approval.id, approval.argumentsHash, 'deny')).toThrow(InvalidArgumentError);

    const sent = async () =>
      (JSON.parse(textOf(await host.callTool('short__reads', {}))) as Record<string, number>)['tool:send'];
    expect(await sent()).toBe(1);
    waiting = waitingOne(recorder);
    const denied = host.callTool('short__send', { to: 'ops', text: 'rm -rf' });
    approval = await waiting;
    recorder.answerApproval(approval.id, approval.argumentsHash, 'deny');
    const error = await denied.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolApprovalDeniedError);
    expect(error).toMatchObject({ data: { reason: 'denied', deniedBy: 'user' } });
    expect(await sent()).toBe(1); // nothing reached the server
    expect(recorder.snapshot().approvals).toEqual([]);
  });

  it('races the hook and the page: the first answer wins, the hook is told to stop', async () => {
    const recorder = new DevtoolsRecorder();
    let hookSignal: AbortSignal | undefined;
    let answerHook: (verdict: 'deny') => void = () => {};
    const host = dataHost({
      approve: recorder.approve(
        (_call, { signal }) => {
          hookSignal = signal;
          return new Promise((resolve) => (answerHook = resolve));
        },
        { fromPage: true },
      ),
    });
    recorder.attach(host);
    await host.connect();
    const waiting = waitingOne(recorder);
    const call = host.callTool('short__send', { to: 'a', text: 'b' });
    const approval = await waiting;
    recorder.answerApproval(approval.id, approval.argumentsHash, 'allow');
    expect(textOf(await call)).toBe('sent to a: b');
    expect(hookSignal?.aborted).toBe(true);
    answerHook('deny'); // too late: ignored

    // Without fromPage, the page cannot answer.
    const plain = new DevtoolsRecorder();
    const other = dataHost({ approve: plain.approve(() => new Promise(() => {})) });
    plain.attach(other);
    await other.connect();
    const next = waitingOne(plain);
    void other.callTool('short__send', { to: 'a', text: 'b' }, { signal: AbortSignal.timeout(3000) }).catch(() => {});
    const shown = await next;
    expect(shown.answerable).toBe(false);
    expect(() => plain.answerApproval(shown.id, shown.argumentsHash, 'allow')).toThrow(InvalidArgumentError);
  });
});

describe('tasks', () => {
  it('shows a task of the example server with its status history, from working to completed', async () => {
    const recorder = new DevtoolsRecorder();
    const host = new McpHost({
      clientInfo: { name: 'mcp-live-devtools-tests', version: '0.0.0' },
      createTransport: nodeTransport,
      servers: {
        example: {
          type: 'stdio',
          command: process.execPath,
          args: [EXAMPLE_SERVER],
          client: { handlers: { elicitation: { form: () => ({ action: 'accept', content: { approve: true } }) } } },
        },
      },
    });
    hosts.push(host);
    recorder.attach(host);
    await host.connect();
    const result = await host.callTool(
      'example__generate_report',
      { topic: 'Q3', steps: 2, stepMs: 50 },
      { task: 'auto' },
    );
    expect(textOf(result)).toBe('Report on "Q3": 2 sections written and approved.');
    const [task, ...others] = recorder.snapshot().tasks;
    expect(others).toEqual([]);
    expect(task).toMatchObject({ server: 'example', tool: 'generate_report', status: 'completed' });
    expect(task!.taskId).not.toBe('');
    const statuses = task!.history.map((h) => h.status);
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    expect(statuses).toContain('input_required');
    const times = task!.history.map((h) => h.at);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});

describe('subscriptions', () => {
  it("shows each server's listen subscriptions (asked, acknowledged) and the notifications heard, with when", async () => {
    const host = dataHost();
    const recorder = new DevtoolsRecorder();
    recorder.attach(host);
    await host.connect();
    const example = recorder.snapshot().subscriptions.filter((s) => s.server === 'example');
    expect(example.length).toBeGreaterThan(0);
    expect(example.every((s) => s.state === 'open' && s.id !== undefined)).toBe(true);
    const asked = example.flatMap((s) => s.requested);
    expect(asked).toContain('toolsListChanged');
    expect(example.flatMap((s) => s.honoured)).toEqual(expect.arrayContaining(asked));

    const before = Date.now();
    const heard = nextChange(
      recorder,
      (change) =>
        change.type === 'subscriptions' &&
        change.heard.some((h) => h.method === 'notifications/prompts/list_changed' && h.at >= before),
    );
    await host.callTool('example__add_prompt', { name: 'standup', text: 'Summarize {topic}.' });
    const change = (await heard) as Extract<DevtoolsChange, { type: 'subscriptions' }>;
    const listChanged = change.heard.find((h) => h.method === 'notifications/prompts/list_changed')!;
    expect(listChanged).toMatchObject({ server: 'example', uri: undefined });
    expect(example.map((s) => s.id)).toContain(listChanged.subscription);
  });
});
