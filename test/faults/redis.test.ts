/**
 * The fleet cache over a misbehaving Redis (a real redis-server, or a socket that accepts and
 * never answers), through McpClient over real HTTP: Redis killed mid-traffic, Redis silent, a
 * corrupted entry under the store's key, and users with private results over one store. Every
 * read settles within a bound with the server's answer (a cache fault is never the caller's
 * error); the store reports the documented `CacheStoreError` once; private never crosses; no
 * unhandled rejection and no handle is left after `close()`.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { McpClient, type AuthProvider } from '../../src/index.js';
import { StreamableHttpTransport } from '../../src/node.js';
import { RedisCacheStore, CacheStoreError, type RedisCacheStoreOptions } from '../../src/redis.js';
import { HttpFake, answerDiscover, sendJson, type RecordedRequest } from '../fakes/httpFake.js';
import { startRedisServer, type RedisServer } from '../fakes/redisServer.js';
import { systemBinary } from '../setup/systemBinaries.js';
import { expectNoLeakedHandles, faultProbe, settleWithin } from './harness.js';

const redisBinary = systemBinary('redis-server');
const USERS = ['alice', 'bob', 'carol'] as const;

const userOf = (request: RecordedRequest): string | undefined =>
  /^Bearer tok-(\w+)$/.exec(String(request.headers.authorization ?? ''))?.[1];

/** A server whose `mem://` reads are private to the token's bearer and `pub://` reads public, long-lived. */
function server(): Promise<HttpFake> {
  return HttpFake.start((request, res) => {
    if (answerDiscover(request, res)) return;
    const { id, method, params } = request.json;
    if (method !== 'resources/read') {
      sendJson(res, 200, { jsonrpc: '2.0', id, error: { code: -32601, message: 'no such method' } });
      return;
    }
    const uri = String(params.uri);
    const scope = uri.startsWith('pub://') ? 'public' : 'private';
    const text = scope === 'public' ? `everyone's ${uri}` : `${userOf(request)} owns ${uri}`;
    sendJson(res, 200, {
      jsonrpc: '2.0',
      id,
      result: { resultType: 'complete', contents: [{ uri, text }], ttlMs: 600_000, cacheScope: scope },
    });
  });
}

const textOf = (result: { contents: unknown[] }): string => (result.contents[0] as { text: string }).text;

describe.skipIf(redisBinary.skipReason !== undefined)('the fleet cache over a misbehaving Redis', () => {
  const probe = faultProbe();
  let redis: RedisServer;
  let prefixCounter = 0;
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    redis = await startRedisServer(redisBinary.path!);
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    if (!redis.running) await redis.restart();
  });

  /** A store (its errors collected), on ioredis (`connection`) or a host's node-redis client. */
  async function store(
    library: 'ioredis' | 'node-redis',
    prefix: string,
    options: Partial<RedisCacheStoreOptions> = {},
  ): Promise<{ store: RedisCacheStore; errors: Error[] }> {
    const errors: Error[] = [];
    let connection: Pick<RedisCacheStoreOptions, 'client' | 'connection'> = { connection: redis.url };
    if (library === 'node-redis') {
      const client = createClient({ url: redis.url, disableOfflineQueue: true });
      client.on('error', () => {});
      await client.connect();
      cleanups.push(() => {
        if (client.isOpen) client.destroy();
      });
      connection = { client };
    }
    const made = new RedisCacheStore({ ...connection, prefix, onError: (error) => errors.push(error), ...options });
    cleanups.push(() => made.close());
    await made.ready();
    return { store: made, errors };
  }

  /** A client of `url` for `user`, its cache on `on`. */
  async function client(url: string, on: RedisCacheStore, user: string): Promise<McpClient> {
    const authProvider: AuthProvider = () => `Bearer tok-${user}`;
    const made = new McpClient({
      transport: new StreamableHttpTransport(url, { authProvider }),
      clientInfo: { name: 'fleet', version: '1.0.0' },
      cache: { store: on },
    });
    cleanups.push(() => made.close());
    await made.connect();
    return made;
  }

  it('Redis killed mid-traffic: every read in flight and after settles with the server answer; one unreachable report', async () => {
    const fake = await server();
    cleanups.push(() => fake.close());
    const { store: shared, errors } = await store('ioredis', `k${++prefixCounter}:`, { retryMs: 50 });
    const alice = await client(fake.url, shared, 'alice');
    await alice.readResource('mem://warm');
    const reads = Array.from({ length: 40 }, (_, i) =>
      alice.readResource(i % 2 === 0 ? `pub://${i % 5}` : `mem://${i % 5}`).then(textOf),
    );
    const killed = redis.kill();
    const settled = await settleWithin(Promise.all(reads), 5000, 'reads across the kill');
    await killed;
    expect(settled.status).toBe('fulfilled');
    const texts = (settled as { value: string[] }).value;
    texts.forEach((text, i) =>
      expect(text).toBe(i % 2 === 0 ? `everyone's pub://${i % 5}` : `alice owns mem://${i % 5}`),
    );
    // After the kill too: answered by the server, without waiting on Redis.
    const after = await settleWithin(alice.readResource('mem://after').then(textOf), 2000, 'a read after the kill');
    expect(after).toMatchObject({ status: 'fulfilled', value: 'alice owns mem://after' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(CacheStoreError);
    expect(errors[0]).toMatchObject({ code: -33030, data: { reason: 'unreachable' } });
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await expectNoLeakedHandles(probe.baseline, 3000); // the HTTP client's sockets close on their own timers
  });

  it('Redis accepting connections but never answering: reads never wait on it and get the server answer; a Redis that goes silent once up is one timeout report', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const port = (silent.address() as { port: number }).port;
    const fake = await server();
    cleanups.push(() => fake.close());
    const errors: Error[] = [];
    const hung = new RedisCacheStore({
      connection: `redis://127.0.0.1:${port}`,
      timeoutMs: 100,
      retryMs: 50,
      onError: (error) => errors.push(error),
    });
    cleanups.push(() => hung.close());
    const alice = await client(fake.url, hung, 'alice');
    const reads = Array.from({ length: 10 }, (_, i) => alice.readResource(`mem://${i}`).then(textOf));
    const settled = await settleWithin(Promise.all(reads), 1000, 'reads against a silent Redis');
    expect(settled).toMatchObject({ status: 'fulfilled', value: reads.map((_, i) => `alice owns mem://${i}`) });
    // Its first connection never gets ready: a slow start (docs/caching.md), nothing reported yet.
    expect(hung.state).toBe('starting');
    expect(errors).toEqual([]);

    // A Redis that was up and stops answering: the read waits about timeoutMs once, one report.
    const { store: shared, errors: sharedErrors } = await store('ioredis', `s${++prefixCounter}:`, {
      timeoutMs: 100,
      retryMs: 50,
    });
    const bob = await client(fake.url, shared, 'bob');
    await bob.readResource('mem://1');
    await redis.pause(600);
    const paused = await settleWithin(
      Promise.all([1, 2, 3].map((n) => bob.readResource(`mem://${n}`).then(textOf))),
      1000,
      'reads against a paused Redis',
    );
    expect(paused).toMatchObject({ status: 'fulfilled', value: [1, 2, 3].map((n) => `bob owns mem://${n}`) });
    expect(sharedErrors).toHaveLength(1);
    expect(sharedErrors[0]).toMatchObject({ code: -33030, data: { reason: 'timeout' } });
    await shared.ready();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await expectNoLeakedHandles(probe.baseline, 3000);
  });

  for (const library of ['ioredis', 'node-redis'] as const) {
    it(`${library}: a corrupted entry under the store's key (truncated, wrong shape, another Redis type) is a miss each, reported; the store stays up`, async () => {
      const fake = await server();
      cleanups.push(() => fake.close());
      const prefix = `c${++prefixCounter}:`;
      const first = await store(library, prefix);
      const second = await store(library, prefix);
      const writer = await client(fake.url, first.store, 'alice');
      const reader = await client(fake.url, second.store, 'alice');
      for (const n of [1, 2, 3]) await writer.readResource(`pub://${n}`);
      const admin = redis.admin();
      cleanups.push(() => admin.disconnect());
      const keyOf = async (uri: string): Promise<string> => {
        const [, keys] = await admin.scan('0', 'MATCH', `${prefix}*${uri}*`, 'COUNT', 1000);
        expect(keys).toHaveLength(1);
        return keys[0]!;
      };
      const [k1, k2, k3] = [await keyOf('pub://1'), await keyOf('pub://2'), await keyOf('pub://3')];
      const good = (await admin.get(k2))!;
      await admin.set(k1, good.slice(0, good.length - 5));
      await admin.set(k2, good.replace(/"contents":\[.*\]/, '"contents":"not an array"'));
      await admin.del(k3);
      await admin.hset(k3, { not: 'an entry' });
      const texts = await settleWithin(
        Promise.all([1, 2, 3].map((n) => reader.readResource(`pub://${n}`).then(textOf))),
        3000,
        'reads of corrupted entries',
      );
      expect(texts).toMatchObject({ status: 'fulfilled', value: [1, 2, 3].map((n) => `everyone's pub://${n}`) });
      expect(second.errors.map((e) => (e as CacheStoreError).data)).toEqual(
        expect.arrayContaining([k1, k2, k3].map((key) => ({ operation: 'GET', reason: 'malformed-entry', key }))),
      );
      expect(second.errors).toHaveLength(3);
      expect(second.store.state).toBe('up');
      // Replaced by good entries: the next reads are hits.
      const hitsBefore = reader.cacheStats().hits;
      for (const n of [1, 2, 3]) await reader.readResource(`pub://${n}`);
      expect(reader.cacheStats().hits - hitsBefore).toBe(3);
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      await expectNoLeakedHandles(probe.baseline);
    });

    it(`${library}: three users with private results over one Redis, two instances: private never crosses, no token in Redis`, async () => {
      const fake = await server();
      cleanups.push(() => fake.close());
      const prefix = `u${++prefixCounter}:`;
      const instances = [await store(library, prefix), await store(library, prefix)];
      const clients = new Map<string, McpClient[]>();
      for (const user of USERS)
        clients.set(user, [
          await client(fake.url, instances[0]!.store, user),
          await client(fake.url, instances[1]!.store, user),
        ]);
      const crossings: string[] = [];
      // Six waves of fifteen interleaved reads: later waves hit what earlier ones stored, on either instance.
      for (let wave = 0; wave < 6; wave++) {
        const reads: Array<Promise<void>> = [];
        for (let i = 0; i < 15; i++) {
          const user = USERS[(i + wave) % 3]!;
          const uri = `mem://${(i * 7 + wave) % 4}`;
          const reader = clients.get(user)![(i + wave) % 2]!;
          reads.push(
            reader.readResource(uri).then((result) => {
              if (textOf(result) !== `${user} owns ${uri}`) crossings.push(`${user} read ${uri}: ${textOf(result)}`);
            }),
          );
        }
        expect((await settleWithin(Promise.all(reads), 3000, 'interleaved reads')).status).toBe('fulfilled');
      }
      expect(crossings).toEqual([]);
      // The shared store was in play (hits across instances), and holds no token or user in clear.
      const hits = [...clients.values()].flat().reduce((sum, c) => sum + c.cacheStats().hits, 0);
      expect(hits).toBeGreaterThan(20);
      const admin = redis.admin();
      cleanups.push(() => admin.disconnect());
      const [, keys] = await admin.scan('0', 'MATCH', `${prefix}*`, 'COUNT', 1000);
      const values = await Promise.all(
        keys.map(async (key) => ((await admin.type(key)) === 'string' ? admin.get(key) : '')),
      );
      for (const text of [...keys, ...values.map((v) => v?.split('\n')[0] ?? '')])
        expect(text).not.toMatch(/tok-|alice|bob|carol/);
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      await expectNoLeakedHandles(probe.baseline);
    });
  }
});
