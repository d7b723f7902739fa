/**
 * The host state store: the memory store's rules, then two hosts on one real redis-server as two
 * workers of a fleet in one process. An artifact cut on one worker reads back on the other, for
 * the same user only; an approval waiting on one worker is answered on the other (exactly one
 * answer wins); with Redis down the hosts keep serving from memory and say what they lost.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { McpHost, type HostScope } from '../../../src/host/host.js';
import { MemoryHostStateStore, statePartition, type PendingApproval } from '../../../src/host/state/stateStore.js';
import { HostStateError } from '../../../src/host/state/stateErrors.js';
import { RedisHostStateStore } from '../../../src/host/state/redis/redisHostStateStore.js';
import { answerApproval, storedApproval } from '../../../src/host/policy/storedApproval.js';
import { ToolApprovalDeniedError } from '../../../src/host/policy/errors.js';
import { systemBinary } from '../../setup/systemBinaries.js';
import { startRedisServer, type RedisServer } from '../../fakes/redisServer.js';
import { startFleetServers, type FleetServers } from './fleetServers.js';

const redisBinary = systemBinary('redis-server');

function pendingOf(callId: string, argumentsHash = 'h1'): PendingApproval {
  return {
    callId,
    server: 'notes',
    name: 'delete_note',
    exposedName: 'notes__delete_note',
    arguments: { id: 'n1' },
    argumentsHash,
    expiresAt: Date.now() + 60_000,
  };
}

describe('MemoryHostStateStore', () => {
  it('records the first answer of a pending call only, for its arguments, in its partition', async () => {
    const store = new MemoryHostStateStore();
    const alice = statePartition('alice');
    const bob = statePartition('bob');
    expect(alice).toMatch(/^u:[0-9a-f]{32}$/);
    expect(alice).not.toBe(bob);
    expect(statePartition({ credential: 'alice' })).not.toBe(alice);
    store.putPending(alice, pendingOf('c1'), 60_000);
    expect(store.listPending(alice).map((p) => p.callId)).toEqual(['c1']);
    expect(store.listPending(bob)).toEqual([]);
    // Bob cannot answer alice's call; other arguments do not count.
    expect(store.answer(bob, { callId: 'c1', argumentsHash: 'h1', verdict: 'allow' }, 60_000)).toBe(false);
    expect(store.answer(alice, { callId: 'c1', argumentsHash: 'other', verdict: 'allow' }, 60_000)).toBe(false);
    const waiting = store.waitAnswer(alice, 'c1', new AbortController().signal);
    expect(store.answer(alice, { callId: 'c1', argumentsHash: 'h1', verdict: { deny: 'no' } }, 60_000)).toBe(true);
    expect(store.answer(alice, { callId: 'c1', argumentsHash: 'h1', verdict: 'allow' }, 60_000)).toBe(false);
    expect(await waiting).toMatchObject({ verdict: { deny: 'no' } });
    expect(store.listPending(alice)).toEqual([]);
    // An artifact is read back in its partition only.
    store.putArtifact(
      alice,
      { id: 'art_1', server: 's', tool: 't', text: 'x', result: { content: [] }, bytes: 1 },
      60_000,
    );
    expect(store.getArtifact(alice, 'art_1')?.text).toBe('x');
    expect(store.getArtifact(bob, 'art_1')).toBeUndefined();
  });
});

describe('MemoryHostStateStore answers kept for the retry', () => {
  it('spends an answer once, by the waiting call or by a retry of the same call', () => {
    const store = new MemoryHostStateStore();
    const alice = statePartition('alice');
    const call = { server: 'notes', name: 'delete_note', argumentsHash: 'h1' };
    store.putPending(alice, pendingOf('c1'), 60_000);
    expect(store.takeKeptAnswer(alice, call)).toBeUndefined();
    expect(store.answer(alice, { callId: 'c1', argumentsHash: 'h1', verdict: 'allow' }, 60_000)).toBe(true);
    // Other arguments, another tool, another user: nothing kept for them.
    expect(store.takeKeptAnswer(alice, { ...call, argumentsHash: 'h2' })).toBeUndefined();
    expect(store.takeKeptAnswer(alice, { ...call, name: 'delete_all' })).toBeUndefined();
    expect(store.takeKeptAnswer(statePartition('bob'), call)).toBeUndefined();
    expect(store.takeKeptAnswer(alice, call)).toMatchObject({ callId: 'c1', verdict: 'allow' });
    expect(store.takeKeptAnswer(alice, call)).toBeUndefined();
    expect(store.spendAnswer(alice, 'c1')).toBeUndefined(); // the retry spent it: the late waiter does not run
    // Spent by its waiting call: not kept for a retry.
    store.putPending(alice, pendingOf('c2'), 60_000);
    expect(store.answer(alice, { callId: 'c2', argumentsHash: 'h1', verdict: 'allow' }, 60_000)).toBe(true);
    expect(store.spendAnswer(alice, 'c2')).toMatchObject({ callId: 'c2' });
    expect(store.takeKeptAnswer(alice, call)).toBeUndefined();
  });
});

describe.skipIf(redisBinary.skipReason !== undefined)('two workers on one Redis', () => {
  let redis: RedisServer;
  let servers: FleetServers;
  const clients: Redis[] = [];
  const stores: RedisHostStateStore[] = [];
  const hosts: McpHost[] = [];
  const errors: Error[] = [];

  beforeAll(async () => {
    redis = await startRedisServer(redisBinary.path!);
    servers = await startFleetServers({});
  });
  afterAll(async () => {
    await servers?.close();
    await redis?.stop();
  });
  beforeEach(() => {
    errors.length = 0;
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const client of clients.splice(0)) client.disconnect();
    if (!redis.running) await redis.restart();
    servers.notesServed.clear();
  });

  function worker(prefix: string): { host: McpHost; store: RedisHostStateStore } {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    client.on('error', () => {});
    clients.push(client);
    const store = new RedisHostStateStore({ client, prefix, timeoutMs: 300, onError: (e) => errors.push(e) });
    stores.push(store);
    const host = new McpHost({
      clientInfo: { name: 'fleet-worker', version: '0.0.0' },
      servers: { notes: { type: 'http', url: servers.notes.url, client: { reconnect: false } } },
      contextBudget: { maxResultTokens: 200 },
      state: store,
      onError: (error) => errors.push(error),
    });
    hosts.push(host);
    return { host, store };
  }

  async function twoWorkers(prefix: string): Promise<[ReturnType<typeof worker>, ReturnType<typeof worker>]> {
    const a = worker(prefix);
    const b = worker(prefix);
    await Promise.all([a.host.connect(), b.host.connect()]);
    return [a, b];
  }

  async function readWhole(scope: HostScope, id: string): Promise<string> {
    let offset: number | undefined = 0;
    let whole = '';
    while (offset !== undefined) {
      const page = await scope.toolSession().callTool('read_artifact', { id, offset });
      if (page.result.isError === true) throw new Error(JSON.stringify(page.result.content));
      const [body, footer] = page.result.content as Array<{ text: string }>;
      whole += body!.text;
      const next = /"offset":(\d+)/.exec(footer!.text);
      offset = next === null ? undefined : Number(next[1]);
    }
    return whole;
  }

  it('reads an artifact back on another worker, for its user only', async () => {
    const [a, b] = await twoWorkers('t1:');
    const aliceOnA = a.host.forUser('alice');
    const cut = await aliceOnA.toolSession().callTool('notes__big', { tag: 'alice-secret' });
    const id = cut.artifact!.id;
    expect(id).toMatch(/^art_[0-9a-f]{8}_1$/);
    // The write to Redis is not awaited by the call: wait for it to land.
    await expect.poll(async () => (await a.store.getArtifact(statePartition('alice'), id))?.id).toBe(id);
    const aliceOnB = b.host.forUser('alice');
    expect(
      aliceOnB
        .toolSession()
        .tools()
        .loaded.some((t) => t.exposedName === 'notes__big'),
    ).toBe(true);
    expect(await readWhole(aliceOnB, id)).toBe(cut.artifact!.text);
    expect(aliceOnB.artifacts.get(id)?.text).toBe(cut.artifact!.text); // now kept on B too
    // Bob, on either worker, cannot read it: his partition has no such artifact.
    const bobOnB = b.host.forUser('bob');
    const refused = await bobOnB.toolSession().callTool('read_artifact', { id, offset: 0 });
    expect(refused.result.isError).toBe(true);
    expect(JSON.stringify(refused.result)).not.toContain('alice-secret');
    // Nor the host's own session (another partition).
    expect((await b.host.toolSession().callTool('read_artifact', { id, offset: 0 })).result.isError).toBe(true);
    expect(errors).toEqual([]);
  });

  it('answers on worker B an approval waiting on worker A; exactly one answer wins', async () => {
    const [a, b] = await twoWorkers('t2:');
    const notified: PendingApproval[] = [];
    const aliceOnA = a.host.forUser('alice', {
      approve: storedApproval(a.store, { user: 'alice', notify: (p) => notified.push(p) }),
    });
    const call = aliceOnA.callTool('notes__delete_note', { id: 'n7' });
    await expect.poll(() => notified.length).toBe(1);
    // Worker B sees it pending for alice, not for bob.
    const listed = await b.store.listPending(statePartition('alice'));
    expect(listed.map((p) => [p.exposedName, p.arguments])).toEqual([['notes__delete_note', { id: 'n7' }]]);
    expect(await b.store.listPending(statePartition('bob'))).toEqual([]);
    // Bob cannot answer it; two answers from the two workers at once: exactly one wins.
    expect(await answerApproval(b.store, 'bob', listed[0]!, 'allow')).toBe(false);
    const wins = await Promise.all([
      answerApproval(b.store, 'alice', listed[0]!, 'allow'),
      answerApproval(a.store, 'alice', listed[0]!, { deny: 'changed my mind' }),
    ]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    const outcome = await call.then(
      (result) => ({ ran: true, text: (result.content as Array<{ text: string }>)[0]!.text }),
      (error: unknown) => ({ ran: false, error }),
    );
    if (wins[0]) expect(outcome).toEqual({ ran: true, text: 'deleted n7 (#1)' });
    else {
      expect(outcome.ran).toBe(false);
      expect((outcome as { error: unknown }).error).toBeInstanceOf(ToolApprovalDeniedError);
      expect(servers.notesServed.get('tool:delete_note')).toBeUndefined();
    }
    expect(await b.store.listPending(statePartition('alice'))).toEqual([]);
  });

  it("a hook given no user keeps each scope's approvals in that user's partition; one bound to a user refuses another's calls", async () => {
    const [a, b] = await twoWorkers('t5:');
    const notified: PendingApproval[] = [];
    const shared = storedApproval(a.store, { notify: (p) => notified.push(p) });
    const carol = a.host.forUser('carol', { approve: shared });
    const call = carol.callTool('notes__delete_note', { id: 'n9' });
    await expect.poll(() => notified.length).toBe(1);
    // Pending for carol only: not in the host's partition, and no answer without her wins.
    expect(await b.store.listPending('host')).toEqual([]);
    expect((await b.store.listPending(statePartition('carol'))).map((p) => p.arguments)).toEqual([{ id: 'n9' }]);
    expect(await answerApproval(b.store, undefined, notified[0]!, 'allow')).toBe(false);
    expect(await answerApproval(b.store, 'dave', notified[0]!, 'allow')).toBe(false);
    expect(await answerApproval(b.store, 'carol', notified[0]!, { deny: 'no' })).toBe(true);
    await expect(call).rejects.toMatchObject({ data: { deniedBy: 'user', message: 'no' } });
    // A hook bound to alice, used in dave's scope: refused before anything is stored or sent.
    const dave = a.host.forUser('dave', { approve: storedApproval(a.store, { user: 'alice' }) });
    await expect(dave.callTool('notes__delete_note', { id: 'n10' })).rejects.toMatchObject({
      data: { deniedBy: 'policy' },
    });
    expect(await b.store.listPending(statePartition('alice'))).toEqual([]);
    expect(servers.notesServed.get('tool:delete_note')).toBeUndefined();
  });

  it('an answer for other arguments does not apply', async () => {
    const [a, b] = await twoWorkers('t3:');
    const notified: PendingApproval[] = [];
    const alice = a.host.forUser('alice', {
      approve: storedApproval(a.store, { user: 'alice', notify: (p) => notified.push(p) }),
    });
    const call = alice.callTool('notes__delete_note', { id: 'n8' });
    await expect.poll(() => notified.length).toBe(1);
    expect(
      await answerApproval(b.store, 'alice', { callId: notified[0]!.callId, argumentsHash: 'f'.repeat(64) }, 'allow'),
    ).toBe(false);
    expect(await answerApproval(b.store, 'alice', notified[0]!, { deny: 'no' })).toBe(true);
    await expect(call).rejects.toMatchObject({ data: { reason: 'denied', deniedBy: 'user', message: 'no' } });
  });

  it("keeps the answer of a call whose worker is gone for that call's retry: used once, without asking; other arguments are asked", async () => {
    const [a, b] = await twoWorkers('t6:');
    const onA: PendingApproval[] = [];
    const aliceOnA = a.host.forUser('alice', {
      approve: storedApproval(a.store, { notify: (p) => onA.push(p) }),
    });
    const gone = new AbortController(); // worker A's request dies (the process case: workerProcesses.test.ts)
    const lost = aliceOnA
      .callTool('notes__delete_note', { id: 'r1' }, { signal: gone.signal })
      .catch((error: unknown) => error);
    await expect.poll(() => onA.length).toBe(1);
    gone.abort();
    expect(await lost).toBeInstanceOf(Error);
    expect(servers.notesServed.get('tool:delete_note')).toBeUndefined();
    expect(await answerApproval(b.store, 'alice', onA[0]!, 'allow')).toBe(true);
    const onB: PendingApproval[] = [];
    const aliceOnB = b.host.forUser('alice', { approve: storedApproval(b.store, { notify: (p) => onB.push(p) }) });
    // Bob's identical call does not get alice's answer.
    const bobOnB = b.host.forUser('bob', {
      approve: storedApproval(b.store, { notify: (p) => onB.push(p) }),
      approvalTimeoutMs: 300,
    });
    await expect(bobOnB.callTool('notes__delete_note', { id: 'r1' })).rejects.toBeInstanceOf(ToolApprovalDeniedError);
    expect(onB).toHaveLength(1);
    onB.length = 0;
    // Alice's retry of the same call: not asked, sent once.
    expect((await aliceOnB.callTool('notes__delete_note', { id: 'r1' })).content).toEqual([
      { type: 'text', text: 'deleted r1 (#1)' },
    ]);
    expect(onB).toEqual([]);
    // Spent: the next identical call is asked again; so is one with other arguments.
    const again = aliceOnB.callTool('notes__delete_note', { id: 'r1' }).catch((error: unknown) => error);
    const other = aliceOnB.callTool('notes__delete_note', { id: 'r2' }).catch((error: unknown) => error);
    await expect.poll(() => onB.length).toBe(2);
    for (const pending of onB) expect(await answerApproval(b.store, 'alice', pending, { deny: 'no' })).toBe(true);
    expect(await again).toMatchObject({ data: { deniedBy: 'user', message: 'no' } });
    expect(await other).toMatchObject({ data: { deniedBy: 'user', message: 'no' } });
    expect(servers.notesServed.get('tool:delete_note')).toBe(1);
  });

  it('an answer the waiting call used is not kept for a retry', async () => {
    const [a, b] = await twoWorkers('t7:');
    const notified: PendingApproval[] = [];
    const alice = a.host.forUser('alice', { approve: storedApproval(a.store, { notify: (p) => notified.push(p) }) });
    const first = alice.callTool('notes__delete_note', { id: 'u1' });
    await expect.poll(() => notified.length).toBe(1);
    expect(await answerApproval(b.store, 'alice', notified[0]!, 'allow')).toBe(true);
    await first;
    const retry = b.host
      .forUser('alice', { approve: storedApproval(b.store, { notify: (p) => notified.push(p) }) })
      .callTool('notes__delete_note', { id: 'u1' });
    await expect.poll(() => notified.length).toBe(2);
    expect(await answerApproval(a.store, 'alice', notified[1]!, { deny: 'once is enough' })).toBe(true);
    await expect(retry).rejects.toMatchObject({ data: { message: 'once is enough' } });
    expect(servers.notesServed.get('tool:delete_note')).toBe(1);
  });

  it('keeps serving from memory with Redis down for 10 s, and says what it lost', async () => {
    const [a, b] = await twoWorkers('t4:');
    const aliceOnA = a.host.forUser('alice');
    await redis.kill();
    const downUntil = Date.now() + 10_000; // real time: the clients' reconnect loops run on their own timers
    // Down for 10 s: every result is served and cut, each artifact readable here; each loss is named.
    const cutWhileDown: string[] = [];
    while (Date.now() < downUntil) {
      const served = await aliceOnA.toolSession().callTool('notes__big', { tag: `down-${cutWhileDown.length}` });
      expect(served.truncated).toBe(true);
      expect(await readWhole(aliceOnA, served.artifact!.id)).toBe(served.artifact!.text);
      cutWhileDown.push(served.artifact!.id);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(cutWhileDown.length).toBeGreaterThanOrEqual(3);
    await expect
      .poll(() =>
        cutWhileDown.every((id) =>
          errors.some(
            (e) => e instanceof HostStateError && e.data.lost === `artifact ${id} (kept on this worker only)`,
          ),
        ),
      )
      .toBe(true);
    expect(redis.running).toBe(false);
    const cut = await aliceOnA.toolSession().callTool('notes__big', { tag: 'offline' });
    const id = cut.artifact!.id;
    // Served: the cut result, and its artifact on this worker.
    expect(cut.truncated).toBe(true);
    expect(await readWhole(aliceOnA, id)).toBe(cut.artifact!.text);
    const lostOf = (): HostStateError | undefined =>
      errors.find(
        (e): e is HostStateError =>
          e instanceof HostStateError && e.data.lost === `artifact ${id} (kept on this worker only)`,
      );
    await expect.poll(lostOf).toBeDefined();
    const lost = lostOf()!;
    expect(lost.code).toBe(-33063);
    expect(lost.data).toMatchObject({ operation: 'putArtifact', lost: `artifact ${id} (kept on this worker only)` });
    // An approval through the store cannot be asked: the call is denied as failed, nothing sent.
    const asking = a.host.forUser('alice', { approve: storedApproval(a.store, { user: 'alice' }) });
    const failed = await asking.callTool('notes__delete_note', { id: 'down' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ToolApprovalDeniedError);
    expect((failed as ToolApprovalDeniedError).data).toMatchObject({ reason: 'failed', deniedBy: 'error' });
    expect((failed as ToolApprovalDeniedError).cause).toBeInstanceOf(HostStateError);
    expect(servers.notesServed.get('tool:delete_note')).toBeUndefined();
    // Worker B cannot pick it up; its read reports the store error and answers as a miss.
    const aliceOnB = b.host.forUser('alice');
    const missing = await aliceOnB.toolSession().callTool('read_artifact', { id, offset: 0 });
    expect(missing.result.isError).toBe(true);
    // Redis back (empty): new artifacts are shared again.
    await redis.restart();
    await expect
      .poll(
        async () => {
          const next = await aliceOnA.toolSession().callTool('notes__big', { tag: 'back' });
          await new Promise((resolve) => setTimeout(resolve, 50));
          return (await b.store.getArtifact(statePartition('alice'), next.artifact!.id).catch(() => undefined))?.id;
        },
        { timeout: 5000, interval: 200 },
      )
      .toMatch(/^art_/);
  }, 40_000);
});
