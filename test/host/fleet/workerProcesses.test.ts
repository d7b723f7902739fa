/**
 * Workers as processes on one real redis-server (the built package in a child, a host in this
 * process as the other worker): a worker SIGKILLed while its call waits for an approval, and
 * while a user pages through an artifact it cut. What was acknowledged (written to the store)
 * is picked up by the other worker; the waiting call dies with its worker and sends nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { McpHost } from '../../../src/host/host.js';
import { RedisHostStateStore } from '../../../src/host/state/redis/redisHostStateStore.js';
import { statePartition, type PendingApproval } from '../../../src/host/state/stateStore.js';
import { answerApproval, storedApproval } from '../../../src/host/policy/storedApproval.js';
import { systemBinary } from '../../setup/systemBinaries.js';
import { startRedisServer, type RedisServer } from '../../fakes/redisServer.js';
import { startFleetServers, type FleetServers } from './fleetServers.js';
import { RedisTaskStore } from '../../../src/tasks/redis/redisTaskStore.js';
import type { HttpServerProcess } from '../../../examples/httpServerProcess.js';
import { startExampleHttpServer } from '../../integration/exampleServer.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const WORKER = fileURLToPath(new URL('../../fakes/children/fleet-host-worker.mjs', import.meta.url));
const redisBinary = systemBinary('redis-server');

interface Worker {
  readonly child: ChildProcess;
  send(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  next(event: string): Promise<Record<string, unknown>>;
  kill(): Promise<void>;
}

function startWorker(config: Record<string, unknown>): Promise<Worker> {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: Interface = createInterface({ input: child.stdout });
  const answers = new Map<unknown, (message: Record<string, unknown>) => void>();
  const events: Array<Record<string, unknown>> = [];
  const eventWaiters: Array<() => void> = [];
  lines.on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    if (message['event'] !== undefined) {
      events.push(message);
      for (const wake of eventWaiters.splice(0)) wake();
    } else answers.get(message['id'])?.(message);
  });
  let id = 0;
  const next = async (event: string): Promise<Record<string, unknown>> => {
    for (;;) {
      const at = events.findIndex((e) => e['event'] === event);
      if (at >= 0) return events.splice(at, 1)[0]!;
      await new Promise<void>((resolve) => eventWaiters.push(resolve));
    }
  };
  const worker: Worker = {
    child,
    send: (command) =>
      new Promise((resolve) => {
        const own = ++id;
        answers.set(own, resolve);
        child.stdin.write(`${JSON.stringify({ id: own, ...command })}\n`);
      }),
    next,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      lines.close();
    },
  };
  return next('ready').then(() => worker);
}

describe.skipIf(redisBinary.skipReason !== undefined)('worker processes on one Redis', () => {
  let redis: RedisServer;
  let servers: FleetServers;
  let example: HttpServerProcess;
  let client: Redis;
  let store: RedisHostStateStore;
  let host: McpHost;
  const workers: Worker[] = [];

  beforeAll(async () => {
    const built = spawnSync(process.execPath, ['bench/ensure-build.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building dist/ failed');
    redis = await startRedisServer(redisBinary.path!);
    servers = await startFleetServers({});
    example = await startExampleHttpServer();
    client = new Redis(redis.url);
    store = new RedisHostStateStore({ client, prefix: 'procs:' });
    host = new McpHost({
      clientInfo: { name: 'fleet-worker-b', version: '0.0.0' },
      servers: { notes: { type: 'http', url: servers.notes.url, client: { reconnect: false } } },
      contextBudget: { maxResultTokens: 200 },
      state: store,
    });
    await host.connect();
  }, 600_000);
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.kill()));
  });
  afterAll(async () => {
    await host?.close();
    await store?.close();
    client?.disconnect();
    await servers?.close();
    await example?.stop();
    await redis?.stop();
  });

  const config = (): Record<string, unknown> => ({
    notesUrl: servers.notes.url,
    redisUrl: redis.url,
    prefix: 'procs:',
  });

  it("a worker killed mid-approval: the pending call is listed on the other worker, nothing was sent, the answer is kept for the call's retry there", async () => {
    const a = await startWorker(config());
    workers.push(a);
    void a.send({ op: 'call', user: 'alice', tool: 'notes__delete_note', args: { id: 'k1' } });
    const { pending } = (await a.next('pending')) as { pending: PendingApproval };
    await a.kill();
    const listed = await store.listPending(statePartition('alice'));
    expect(listed.map((p) => p.callId)).toEqual([pending.callId]);
    // The answer is recorded once; the call it was for died with its worker, and sent nothing.
    expect(await answerApproval(store, 'alice', pending, 'allow')).toBe(true);
    expect(await answerApproval(store, 'alice', pending, 'allow')).toBe(false);
    expect(servers.notesServed.get('tool:delete_note')).toBeUndefined();
    // The user's turn retried on this worker: the same call uses the kept answer, without asking, once.
    const notified: PendingApproval[] = [];
    const alice = host.forUser('alice', {
      approve: storedApproval(store, { user: 'alice', notify: (p) => notified.push(p) }),
    });
    expect((await alice.callTool('notes__delete_note', { id: 'k1' })).content).toEqual([
      { type: 'text', text: 'deleted k1 (#1)' },
    ]);
    expect(notified).toEqual([]);
    // A retry with other arguments is a new call: asked again.
    const other = alice.callTool('notes__delete_note', { id: 'k2' });
    await expect.poll(() => notified.length).toBe(1);
    expect(notified[0]!.callId).not.toBe(pending.callId);
    expect(notified[0]!.arguments).toEqual({ id: 'k2' });
    expect(await answerApproval(store, 'alice', notified[0]!, 'allow')).toBe(true);
    expect((await other).content).toEqual([{ type: 'text', text: 'deleted k2 (#2)' }]);
    await alice.close();
  }, 30_000);

  it('a worker killed mid-task: the other worker finds the task in the Redis task store and resumes it', async () => {
    const a = await startWorker({ ...config(), exampleUrl: example.url, taskPrefix: 'procs-tasks:' });
    workers.push(a);
    void a.send({ op: 'task', user: 'alice', args: { topic: 'handover', steps: 8, stepMs: 150 } });
    // Approved on A, back at work: A dies (SIGKILL: no goodbye, no cleanup).
    let taskId: string | undefined;
    for (let asked = false; ;) {
      const event = (await a.next('task')) as { taskId: string; status: string };
      taskId = event.taskId;
      if (event.status === 'input_required') asked = true;
      else if (asked && event.status === 'working') break;
    }
    await a.kill();
    const tasks = new RedisTaskStore({ client, prefix: 'procs-tasks:' });
    const form = vi.fn(async () => ({ action: 'accept' as const, content: { approve: true, note: 'never asked' } }));
    const b = new McpHost({
      clientInfo: { name: 'fleet-worker-b', version: '0.0.0' },
      servers: {
        example: {
          type: 'http',
          url: example.url,
          client: {
            reconnect: false,
            tasks: { store: tasks, poll: { minMs: 10 } },
            handlers: { elicitation: { form } },
          },
        },
      },
    });
    try {
      await b.connect();
      const client = b.client('example')!;
      expect((await client.storedTasks()).map((t) => [t.taskId, t.toolName])).toEqual([[taskId, 'generate_report']]);
      const task = await client.resumeTask(taskId);
      await expect(task.result()).resolves.toEqual({
        content: [{ type: 'text', text: 'Report on "handover": 8 sections written and approved (from A).' }],
      });
      expect(form).not.toHaveBeenCalled();
      expect(await client.storedTasks()).toEqual([]);
    } finally {
      await b.close();
      await tasks.close();
    }
  }, 30_000);

  it('a worker killed mid-artifact paging: the next page comes from the other worker', async () => {
    const a = await startWorker(config());
    workers.push(a);
    const { artifact } = (await a.send({ op: 'cut', user: 'bob', tag: 'bob-report' })) as { artifact: string };
    expect(artifact).toMatch(/^art_[0-9a-f]{8}_1$/);
    const first = (await a.send({ op: 'page', user: 'bob', artifact, offset: 0 })) as { text: string; footer: string };
    const offset = Number(/"offset":(\d+)/.exec(first.footer)?.[1]);
    expect(offset).toBeGreaterThan(0);
    await a.kill();
    const bob = host.forUser('bob');
    let whole = first.text;
    let at: number | undefined = offset;
    while (at !== undefined) {
      const page = await bob.toolSession().callTool('read_artifact', { id: artifact, offset: at });
      expect(page.result.isError).toBeUndefined();
      const [body, footer] = page.result.content as Array<{ text: string }>;
      whole += body!.text;
      const next = /"offset":(\d+)/.exec(footer!.text);
      at = next === null ? undefined : Number(next[1]);
    }
    expect(whole).toBe('bob-report:'.padEnd(4000, 'x'));
    // Another user cannot continue it.
    const carol = host.forUser('carol');
    expect((await carol.toolSession().callTool('read_artifact', { id: artifact, offset })).result.isError).toBe(true);
    await Promise.all([bob.close(), carol.close()]);
  }, 30_000);
});
