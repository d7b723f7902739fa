/**
 * A fleet for real: two client processes (test/fakes/children/fleet-client.mjs, on the built
 * package) against one example server over Streamable HTTP, sharing one redis-server through
 * RedisCacheStore. Requests are counted on the server side (the `Mcp-Method` / `Mcp-Name`
 * headers of each POST).
 *
 * The invalidation bound stated in docs/caching.md: once the instance that hears
 * `notifications/resources/updated` has invalidated, the entry is gone from Redis for everyone,
 * and another instance's local tier drops it one pub/sub delivery later (milliseconds on one
 * host; the test checks that it happens, not how fast: that is for bench/).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleServerFactory, createExampleState } from '../../examples/serverFactory.js';
import { startHttpExampleServer, type HttpExampleServer } from '../fakes/httpExampleServer.js';
import { startRedisServer, type RedisServer } from '../fakes/redisServer.js';
import { systemBinary } from '../setup/systemBinaries.js';

const redisBinary = systemBinary('redis-server');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('../fakes/children/fleet-client.mjs', import.meta.url));
const README = 'demo://readme';
const NOTE = 'demo://note';
const PROFILE = 'demo://me/profile';

interface Reply {
  id: number;
  text?: string | null;
  source?: 'cache' | 'network';
  error?: string;
}

/** One fleet instance: a child process driven by JSON lines. */
class Instance {
  private nextId = 0;
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  readonly events: Array<Record<string, unknown>> = [];
  private constructor(private readonly child: ChildProcess) {}

  static async start(config: Record<string, unknown>): Promise<Instance> {
    const child = spawn(process.execPath, [CHILD, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
    const instance = new Instance(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const started = new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`fleet client exited (${code}): ${stderr}`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (message['event'] === 'started') resolve();
        if (typeof message['id'] === 'number') {
          instance.waiting.get(message['id'])?.(message as unknown as Reply);
          instance.waiting.delete(message['id']);
        } else instance.events.push(message);
      });
    });
    await started;
    return instance;
  }

  send(command: Record<string, unknown>): Promise<Reply> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (reply) => (reply.error === undefined ? resolve(reply) : reject(new Error(reply.error))));
      this.child.stdin!.write(`${JSON.stringify({ ...command, id })}\n`);
    });
  }

  read(user: string, uri: string): Promise<Reply> {
    return this.send({ op: 'read', user, uri });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.send({ op: 'close' }).catch(() => {});
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  }
}

describe.skipIf(redisBinary.skipReason !== undefined)('a fleet of two client processes on one Redis', () => {
  let redis: RedisServer;
  let server: HttpExampleServer;
  let one: Instance;
  let two: Instance;

  /** resources/read requests the server received for `uri`. */
  const readsOf = (uri: string): number =>
    server.requests.filter((r) => r.headers['mcp-method'] === 'resources/read' && r.headers['mcp-name'] === uri).length;

  beforeAll(async () => {
    // The children run the built package.
    const built = spawnSync(process.execPath, ['bench/ensure-build.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building dist/ failed');
    redis = await startRedisServer(redisBinary.path!);
    const state = createExampleState();
    let notify: HttpExampleServer['notify'] | undefined;
    server = await startHttpExampleServer(createExampleServerFactory(state, { notifier: () => notify! }));
    notify = server.notify;
    // A generous timeoutMs: a loaded machine must not look like a slow Redis (an outage of its own).
    const config = {
      mcpUrl: server.url,
      redisUrl: redis.url,
      prefix: 'fleet:',
      users: ['alice', 'bob'],
      timeoutMs: 5_000,
    };
    [one, two] = await Promise.all([Instance.start(config), Instance.start({ ...config, localTier: true })]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await server?.close();
    await redis?.stop();
  });

  it("shares public entries: the second process's read sends no resources/read", async () => {
    const first = await one.read('alice', README);
    expect(first.source).toBe('network');
    expect(readsOf(README)).toBe(1);
    const second = await two.read('bob', README);
    expect(second.source).toBe('cache');
    expect(second.text).toBe(first.text);
    expect(readsOf(README)).toBe(1);
  });

  it("keeps two users' private entries apart, within and across processes", async () => {
    const alice = await one.read('alice', PROFILE);
    const bob = await two.read('bob', PROFILE);
    expect(alice.source).toBe('network');
    expect(bob.source).toBe('network');
    expect(alice.text).toContain('fleet-alice');
    expect(bob.text).toContain('fleet-bob');
    expect(readsOf(PROFILE)).toBe(2);
    // Each user's entry is a hit for that user in the other process, never for the other user.
    const aliceThere = await two.read('alice', PROFILE);
    const bobThere = await one.read('bob', PROFILE);
    expect(aliceThere).toMatchObject({ source: 'cache', text: alice.text });
    expect(bobThere).toMatchObject({ source: 'cache', text: bob.text });
    expect(readsOf(PROFILE)).toBe(2);
  });

  it('a resources/updated heard by one process invalidates the entry in the other', async () => {
    await one.send({ op: 'subscribe', user: 'alice', uris: [NOTE] });
    const before = await two.read('bob', NOTE);
    expect((await two.read('bob', NOTE)).source).toBe('cache'); // from its local tier
    await two.send({ op: 'call', user: 'bob', name: 'update_note', args: { text: 'changed by bob' } });
    // A correctness wait, not a timing target (how fast it spreads is measured in bench/): the
    // deadline only keeps a lost invalidation from hanging the suite on a loaded machine.
    const started = performance.now();
    let seen: Reply | undefined;
    while (performance.now() - started < 15_000) {
      seen = await two.read('bob', NOTE);
      if (seen.text !== before.text) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(seen?.text).toBe('changed by bob');
    // It was process one that heard the notification and invalidated.
    expect(one.events).toContainEqual(
      expect.objectContaining({ event: 'cache', type: 'invalidate', target: { kind: 'uri', uri: NOTE } }),
    );
  });

  it('Redis killed mid-run: calls still succeed; restarted: caching resumes', async () => {
    // The outage under test starts at the kill: both stores use Redis until then.
    await Promise.all([one.send({ op: 'ready' }), two.send({ op: 'ready' })]);
    const from = [one.events.length, two.events.length] as const;
    const reportsOf = (instance: Instance, index: 0 | 1) =>
      instance.events.slice(from[index]).filter((e) => e['event'] === 'store-error');
    const once = [expect.objectContaining({ event: 'store-error', code: -33030, reason: 'unreachable' })];

    await redis.kill();
    const during = [await one.read('alice', 'demo://items/1'), await one.read('alice', 'demo://items/1')];
    expect(during.map((r) => r.source)).toEqual(['network', 'network']);
    expect(during[1]!.text).toBe(during[0]!.text);
    await two.read('bob', 'demo://items/1');
    expect(readsOf('demo://items/1')).toBe(3);
    // Reported once for the whole outage, however many calls it saw.
    expect(reportsOf(one, 0)).toEqual(once);
    expect(reportsOf(two, 1)).toEqual(once);

    await redis.restart();
    await Promise.all([one.send({ op: 'ready' }), two.send({ op: 'ready' })]);
    expect((await one.read('alice', 'demo://items/1')).source).toBe('network');
    expect((await two.read('bob', 'demo://items/1')).source).toBe('cache');
    expect(readsOf('demo://items/1')).toBe(4);
    expect(reportsOf(one, 0)).toEqual(once);
    expect(reportsOf(two, 1)).toEqual(once);
  });
});
