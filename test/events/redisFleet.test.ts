/**
 * The fleet parts against a real redis-server: cursors in Redis outlive the process that wrote
 * them, and the lease lets one worker consume a subscription while a second waits, taking over
 * within the lease (plus a third of it) once the first dies without releasing it. Last, the lease
 * inside `subscribe()` for real: two worker processes (test/fakes/children/events-worker.mjs, on
 * the built package) against the example server's `demo.tick`; the consumer is killed with
 * SIGKILL mid-stream and the standby worker takes over from the cursor in Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { startExampleHttpServer } from '../integration/exampleServer.js';
import { Redis } from 'ioredis';
import { RedisCursorStore, RedisLease, RedisWebhookRelay } from '../../src/redis.js';
import { WebhookReceiver } from '../../src/node.js';
import { cursorKey } from '../../src/index.js';
import { sha256Hex } from '../../src/util/sha256.js';
import { systemBinary } from '../setup/systemBinaries.js';
import { startRedisServer, type RedisServer } from '../fakes/redisServer.js';

const redisBinary = systemBinary('redis-server');
let redis: RedisServer;
let client: Redis;

beforeAll(async () => {
  redis = await startRedisServer(redisBinary.path!);
  client = new Redis(redis.url);
});
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

describe.skipIf(redisBinary.path === undefined)('events in a fleet (Redis)', () => {
  it('keeps cursors by a digest of the key, readable by another connection', async () => {
    const key = cursorKey('http://127.0.0.1:1/mcp', 'demo.tick', { b: 1, a: 2 });
    await new RedisCursorStore({ client }).set(key, 'epoch:7');
    const other = new Redis(redis.url);
    expect(
      await new RedisCursorStore({ client: other }).get(
        cursorKey('http://127.0.0.1:1/mcp', 'demo.tick', { a: 2, b: 1 }),
      ),
    ).toBe('epoch:7');
    const keys = await other.keys('mcp-live:events:cursor:*');
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain('demo.tick');
    other.disconnect();
  });

  it('lets one worker hold a subscription; a second takes over within the lease when the first dies', async () => {
    const name = cursorKey('http://127.0.0.1:1/mcp', 'demo.tick', {});
    const first = new RedisLease({ client, name, ttlMs: 600, owner: 'worker-1' });
    const second = new RedisLease({ client, name, ttlMs: 600, owner: 'worker-2' });
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    // worker-1 "dies": it never renews nor releases. worker-2 waits for the lease.
    const diedAt = Date.now();
    const tookOverAt = await second.hold(async () => Date.now());
    expect(tookOverAt - diedAt).toBeLessThanOrEqual(600 + 200 + 100);
    expect(await first.renew()).toBe(false); // the lapsed owner cannot take it back by renewing
    expect(await client.get(`mcp-live:events:lease:${sha256Hex(name)}`)).toBeNull(); // released after work
  });

  it('renews while work runs, so a waiting worker does not take over a live one', async () => {
    const name = 'lease-renewal';
    const live = new RedisLease({ client, name, ttlMs: 300 });
    const waiting = new RedisLease({ client, name, ttlMs: 300 });
    const work = live.hold(async (signal) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return signal.aborted;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const attempts: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      attempts.push(await waiting.acquire());
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(attempts).toEqual([false, false, false, false, false]);
    expect(await work).toBe(false);
    expect(await waiting.acquire()).toBe(true);
    await waiting.release();
  });
});

const WORKER = fileURLToPath(new URL('../fakes/children/events-worker.mjs', import.meta.url));
const RELAY_WORKER = fileURLToPath(new URL('../fakes/children/webhook-relay-worker.mjs', import.meta.url));
type WorkerLine = {
  worker: string;
  event: string;
  n?: number;
  state?: string;
  cursor?: string;
  url?: string;
  webhookId?: string;
  at: number;
};

/** One events-worker process; `lines` is everything it printed, with the time it was read. */
class Worker {
  readonly lines: WorkerLine[] = [];
  private readonly waiters: Array<() => void> = [];
  stderr = '';
  readonly exited: Promise<void>;
  constructor(readonly child: ChildProcess) {
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.lines.push({ ...(JSON.parse(line) as WorkerLine), at: Date.now() });
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }
  static start(config: Record<string, unknown>, script = WORKER): Worker {
    return new Worker(spawn(process.execPath, [script, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] }));
  }
  ticks(): number[] {
    return this.lines.flatMap((line) => (line.event === 'tick' ? [line.n!] : []));
  }
  /** Resolves with the first line `test` accepts (waiting up to `ms`). */
  async until(test: (line: WorkerLine) => boolean, ms = 15_000): Promise<WorkerLine> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.lines.find(test);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no such line; got ${JSON.stringify(this.lines)} ${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

describe.skipIf(redisBinary.path === undefined)('the lease inside subscribe(), two worker processes', () => {
  const TTL_MS = 1_500;
  let folder: string;
  let server: HttpServerProcess;
  const workers: Worker[] = [];
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mcp-live-events-fleet-'));
    const env = { EXAMPLE_EVENT_TICK_MS: '200', EXAMPLE_EVENTS_STATS: join(folder, 'stats.json') };
    for (const [name, value] of Object.entries(env)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    server = await startExampleHttpServer();
  });
  afterAll(async () => {
    for (const worker of workers) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await server?.stop();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  it('one consumes, the other stands by and takes over within the lease when it is killed: no tick lost or twice', async () => {
    const config = { mcpUrl: server.url, redisUrl: redis.url, ttlMs: TTL_MS, mode: 'poll' };
    const one = Worker.start({ ...config, worker: 'w1' });
    workers.push(one);
    await one.until((line) => line.event === 'subscribed');
    const two = Worker.start({ ...config, worker: 'w2' });
    workers.push(two);
    expect((await two.until((line) => line.event === 'subscribed')).state).toBe('standby');

    // w1 consumes a few batches (w2 none), then dies between polls, right after a cursor is in Redis.
    // (the cursor written after the last tick handed on: an earlier batch's cursor would make w2 hand on again what w1 did)
    await one.until(
      (line) =>
        line.event === 'persisted' &&
        one.ticks().length >= 8 &&
        !one.lines.slice(one.lines.indexOf(line)).some((later) => later.event === 'tick'),
    );
    one.child.kill('SIGKILL');
    await one.exited;
    const diedAt = Date.now();
    expect(two.ticks()).toEqual([]);

    const firstTick = await two.until((line) => line.event === 'tick');
    // The lease lapses within ttlMs; w2 tries every third of it; its first poll answers at once.
    expect(firstTick.at - diedAt).toBeLessThanOrEqual(TTL_MS + TTL_MS / 3 + 1_500);
    await two.until(() => two.ticks().length >= 8);
    two.child.kill('SIGTERM');
    await two.exited;

    const all = [...one.ticks(), ...two.ticks()];
    expect(all.length).toBeGreaterThanOrEqual(16);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => all[0]! + i)); // contiguous, none twice
    const counts = JSON.parse(readFileSync(join(folder, 'stats.json'), 'utf8')) as Record<string, number>;
    const sent = Object.entries(counts).filter(([id]) => all.some((n) => id.endsWith(`-${n}`)));
    expect(sent).toHaveLength(all.length);
    expect(sent.every(([, times]) => times === 1)).toBe(true); // the server sent each tick once
  }, 40_000);
});

describe.skipIf(redisBinary.path === undefined)('webhook deliveries that reach any worker (RedisWebhookRelay)', () => {
  const SECRET = `whsec_${Buffer.from('a secret only the consumer holds!').toString('base64')}`;
  const workers: Worker[] = [];
  afterAll(async () => {
    for (const worker of workers) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      await worker.exited;
    }
  });

  /** POSTs one delivery for `id` to `url`, signed with `secret`. */
  function post(url: string, id: string, webhookId: string, body: object, secret = SECRET): Promise<Response> {
    const text = JSON.stringify(body);
    const at = new Date();
    return fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-mcp-subscription-id': id,
        'webhook-id': webhookId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(webhookId, at, text),
      },
      body: text,
    });
  }

  it('renews a route in Redis when its subscription is refreshed; one never refreshed lapses', async () => {
    const relay = new RedisWebhookRelay({ client, receiver: new WebhookReceiver(), routeTtlMs: 1_000 });
    await relay.ready();
    const deliver = async (): Promise<void> => {};
    await relay.routeShared('sub-refreshed', SECRET, { deliver });
    await relay.routeShared('sub-stale', SECRET, { deliver });
    const key = (id: string): string => `mcp-live:events:webhook-route:${sha256Hex(id)}`;
    await new Promise((resolve) => setTimeout(resolve, 700));
    relay.refreshed('sub-refreshed');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await client.get(key('sub-refreshed'))).toBe(relay.worker);
    expect(await client.get(key('sub-stale'))).toBeNull();
    await relay.close();
  });

  it('forwards a delivery to the consumer, answers 2xx once it took it, refuses a forged one, never writes the secret', async () => {
    const monitor = await new Redis(redis.url).monitor();
    const commands: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => commands.push(args.join(' ')));
    const consumer = Worker.start(
      { redisUrl: redis.url, worker: 'consumer', routes: [{ id: 'sub-1', secret: SECRET }] },
      RELAY_WORKER,
    );
    const other = Worker.start({ redisUrl: redis.url, worker: 'other', timeoutMs: 1_500 }, RELAY_WORKER);
    workers.push(consumer, other);
    await consumer.until((line) => line.event === 'listening');
    const { url } = await other.until((line) => line.event === 'listening');
    const occurrence = {
      eventId: 'e-1',
      name: 'demo.tick',
      timestamp: new Date().toISOString(),
      data: { n: 1 },
      cursor: 'c:1',
    };

    expect((await post(url!, 'sub-1', 'msg-1', occurrence)).status).toBe(200);
    expect(consumer.lines.filter((line) => line.event === 'delivered').map((line) => line.webhookId)).toEqual([
      'msg-1',
    ]);
    // The server retries the same message: a repeat, answered 200, not handed on again.
    expect((await post(url!, 'sub-1', 'msg-1', occurrence)).status).toBe(200);
    // Forged: signed with another secret. The consumer's verification refuses it; nothing is handed on.
    const forged = `whsec_${Buffer.from('not the secret, guessed by someone').toString('base64')}`;
    expect((await post(url!, 'sub-1', 'msg-2', { ...occurrence, eventId: 'e-2' }, forged)).status).toBe(401);
    // An id no worker routes: 503, so the server retries later.
    expect((await post(url!, 'sub-unknown', 'msg-3', occurrence)).status).toBe(503);
    expect(consumer.lines.filter((line) => line.event === 'delivered').map((line) => line.webhookId)).toEqual([
      'msg-1',
    ]);
    expect(other.lines.filter((line) => line.event === 'delivered')).toEqual([]);

    // The consumer dies: the route still names it, nobody answers, the forwarder says 503 in time.
    consumer.child.kill('SIGKILL');
    await consumer.exited;
    expect((await post(url!, 'sub-1', 'msg-4', { ...occurrence, eventId: 'e-4' })).status).toBe(503);

    monitor.disconnect();
    const secretBytes = SECRET.slice('whsec_'.length);
    expect(commands.some((command) => command.includes(secretBytes) || command.includes(SECRET))).toBe(false);
    expect(commands.some((command) => command.includes('events:webhook-route:'))).toBe(true);
    other.child.kill('SIGTERM');
    await other.exited;
  }, 30_000);
});
