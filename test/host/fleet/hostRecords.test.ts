/**
 * The host's own state in the host state store, across two workers on one real redis-server: a
 * manual-mode `input_required` round started on worker A and answered on worker B (once, by its
 * user only), and a lazy server's last catalog read by a cold worker without connecting.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { McpHost } from '../../../src/host/host.js';
import { MemoryCacheStore } from '../../../src/cache/cacheStore.js';
import type { McpHostOptions } from '../../../src/host/servers/hostOptions.js';
import { InputRequiredError, InvalidArgumentError } from '../../../src/errors/errors.js';
import { RedisHostStateStore } from '../../../src/host/state/redis/redisHostStateStore.js';
import { MemoryHostStateStore, statePartition } from '../../../src/host/state/stateStore.js';
import { keepInputRound, resumeInputRound } from '../../../src/host/state/inputRounds.js';
import { systemBinary } from '../../setup/systemBinaries.js';
import { startRedisServer, type RedisServer } from '../../fakes/redisServer.js';
import { inMemoryExample } from '../inMemoryExample.js';
import type { HostCompletion } from '../../../src/host/userInput/completionCandidates.js';
import { lazyGeneratedServer } from '../generatedToolsServer.js';

const redisBinary = systemBinary('redis-server');

describe('MemoryHostStateStore records', () => {
  it('keeps records per partition and kind; a take is had once', () => {
    const store = new MemoryHostStateStore();
    const alice = statePartition('alice');
    store.putRecord(alice, 'input', 'r1', { n: 1 }, 60_000);
    expect(store.getRecord(alice, 'input', 'r1')).toEqual({ n: 1 });
    expect(store.getRecord(alice, 'catalog', 'r1')).toBeUndefined();
    expect(store.getRecord(statePartition('bob'), 'input', 'r1')).toBeUndefined();
    expect(store.takeRecord(statePartition('bob'), 'input', 'r1')).toBeUndefined();
    expect(store.takeRecord(alice, 'input', 'r1')).toEqual({ n: 1 });
    expect(store.takeRecord(alice, 'input', 'r1')).toBeUndefined();
  });
});

describe.skipIf(redisBinary.skipReason !== undefined)('host records on one Redis', () => {
  let redis: RedisServer;
  const clients: Redis[] = [];
  const stores: RedisHostStateStore[] = [];
  const hosts: McpHost[] = [];

  beforeAll(async () => {
    redis = await startRedisServer(redisBinary.path!);
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const client of clients.splice(0)) client.disconnect();
  });

  function store(prefix: string): RedisHostStateStore {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    clients.push(client);
    const made = new RedisHostStateStore({ client, prefix, timeoutMs: 500 });
    stores.push(made);
    return made;
  }

  async function worker(state: RedisHostStateStore, servers: McpHostOptions['servers']): Promise<McpHost> {
    // Each worker its own cache store: only the state store is shared.
    const host = new McpHost({
      clientInfo: { name: 'fleet-worker', version: '0.0.0' },
      servers,
      cacheStore: new MemoryCacheStore(),
      completion: { debounceMs: 0 },
      state,
    });
    hosts.push(host);
    await host.connect();
    return host;
  }

  it('a manual-mode input_required round started on worker A is answered on worker B, once, by its user only', async () => {
    const example = inMemoryExample();
    const entry = {
      ...example.location,
      client: { inputRequired: 'manual' as const, capabilities: { elicitation: { form: {} } } },
    };
    const [stateA, stateB] = [store('ir:'), store('ir:')];
    const [a, b] = [await worker(stateA, { example: entry }), await worker(stateB, { example: entry })];
    const args = { title: 'Printer on fire' };
    const error = await a
      .forUser('alice')
      .callTool('example__create_ticket', args)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequiredError);
    const round = await keepInputRound(stateA, 'alice', { tool: 'example__create_ticket', arguments: args, error });
    expect(Object.keys(round.inputRequests)).toEqual(['owner']);
    // Bob cannot take it, on either worker; alice's answer lands on worker B.
    const bob = b.forUser('bob');
    await expect(
      resumeInputRound(bob, stateB, 'bob', round.id, { owner: { action: 'accept', content: { name: 'Mallory' } } }),
    ).rejects.toBeInstanceOf(InvalidArgumentError);
    // Nor by naming alice as the user on his own scope (or on the host): refused before anything is taken or sent.
    for (const wrong of [bob, b])
      await expect(
        resumeInputRound(wrong, stateB, 'alice', round.id, {
          owner: { action: 'accept', content: { name: 'Mallory' } },
        }),
      ).rejects.toMatchObject({ code: -32602, data: { name: 'user' } });
    const alice = b.forUser('alice');
    const done = await resumeInputRound(alice, stateB, 'alice', round.id, {
      owner: { action: 'accept', content: { name: 'Ada' } },
    });
    expect(done.content[0]).toMatchObject({ text: 'Ticket "Printer on fire" filed by Ada (priority normal).' });
    // Answered: a second answer (the same user, on worker A) finds no round.
    await expect(
      resumeInputRound(a.forUser('alice'), stateA, 'alice', round.id, {
        owner: { action: 'accept', content: { name: 'Ada' } },
      }),
    ).rejects.toMatchObject({ code: -32602, data: { value: round.id } });
  });

  it('completion state survives a worker switch, for its user only', async () => {
    const example = inMemoryExample();
    const [stateA, stateB] = [store('cs:'), store('cs:')];
    const [a, b] = [
      await worker(stateA, { example: example.location }),
      await worker(stateB, { example: example.location }),
    ];
    const asked = (): number => example.requests.filter((r) => r.method === 'completion/complete').length;
    const values = (completion: HostCompletion): string[] =>
      completion.status === 'completed' ? completion.candidates.map((c) => c.value) : [completion.status];
    expect(values(await a.forUser('alice').completeSlashCommand('/mcp__example__greet c'))).toEqual(['carol']);
    expect(asked()).toBe(1);
    // The next keystroke of alice lands on worker B: answered from the store, the server not asked.
    await expect
      .poll(async () => {
        const scope = b.forUser('alice');
        const got = values(await scope.completeSlashCommand('/mcp__example__greet c'));
        await scope.close();
        return [got, asked()];
      })
      .toEqual([['carol'], 1]);
    // Bob's completion is his own: the server is asked.
    expect(values(await b.forUser('bob').completeSlashCommand('/mcp__example__greet c'))).toEqual(['carol']);
    expect(asked()).toBe(2);
  });

  it("a lazy server's last catalog is read by a cold worker without connecting", async () => {
    const lazy = lazyGeneratedServer('lazy', 1);
    const state = store('lazy:');
    const first = await worker(state, { lazy: lazy.entry });
    expect(first.server('lazy')?.state).toBe('open');
    // The list is kept in the background: a cold worker started until it finds it.
    const cold = store('lazy:');
    let second: McpHost | undefined;
    await expect
      .poll(async () => {
        await second?.close();
        second = new McpHost({
          clientInfo: { name: 'fleet-worker', version: '0.0.0' },
          servers: { lazy: lazy.entry },
          cacheStore: new MemoryCacheStore(),
          state: cold,
        });
        await second.connect();
        return second.server('lazy')?.state;
      })
      .toBe('new');
    hosts.push(second!);
    expect(lazy.connections).toBe(1);
    expect(second!.tools().map((t) => [t.exposedName, t.availability])).toEqual([
      ['lazy__lazy_create_0', 'unavailable'],
      ['lazy__lazy_dump', 'unavailable'],
    ]);
    // Another prefix (another fleet) has no such list: its worker connects.
    const other = await worker(store('other:'), { lazy: lazy.entry });
    expect(other.server('lazy')?.state).toBe('open');
    expect(lazy.connections).toBe(2);
  });
});
