/**
 * RedisCacheStore against a real redis-server (its own process, free port, no persistence).
 * Each "instance" of a fleet is a ResponseCache on its own RedisCacheStore (its own
 * connections), as separate processes would have; test/integration/fleet.test.ts does it with
 * real child processes over HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { ResponseCache, type ResponseCacheOptions } from '../../src/cache/responseCache.js';
import type { CacheEvent, LoadOutcome, Loader } from '../../src/cache/types.js';
import type { JsonObject } from '../../src/jsonrpc/messages.js';
import { RedisCacheStore, type RedisCacheStoreOptions } from '../../src/cache/redis/redisCacheStore.js';
import { CacheStoreError } from '../../src/cache/redis/errors.js';
import { serverTag } from '../../src/cache/cacheKey.js';
import { ErrorCode } from '../../src/errors/codes.js';
import { systemBinary } from '../setup/systemBinaries.js';
import { startRedisServer, type RedisServer } from '../fakes/redisServer.js';

const redisBinary = systemBinary('redis-server');
const V = '2026-07-28';
const SERVER = 'https://mcp.example.com/mcp';
const TAG = serverTag(SERVER);

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

/** A loader answering `make()`, counting calls. */
function loader(make: () => JsonObject | Promise<JsonObject>) {
  const calls = { count: 0 };
  const load: Loader = async () => {
    calls.count++;
    return { result: await make(), storable: true } satisfies LoadOutcome;
  };
  return { load, calls };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every 5 ms until it is true or `ms` pass; returns the time it took. */
async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await sleep(5);
  }
  return performance.now() - start;
}

describe.skipIf(redisBinary.skipReason !== undefined)('RedisCacheStore (real redis-server)', () => {
  let redis: RedisServer;
  let admin: Redis;
  const stores: RedisCacheStore[] = [];
  const caches: ResponseCache[] = [];
  let prefixCounter = 0;
  let prefix = '';

  beforeAll(async () => {
    redis = await startRedisServer(redisBinary.path!);
    admin = redis.admin();
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.stop();
  });
  afterEach(async () => {
    for (const cache of caches.splice(0)) cache.dispose();
    await Promise.all(stores.splice(0).map((store) => store.close()));
    if (!redis.running) await redis.restart();
  });

  /** A new fleet prefix per test: tests never see each other's keys. */
  function nextPrefix(): string {
    prefix = `t${++prefixCounter}:`;
    return prefix;
  }

  async function store(options: Partial<RedisCacheStoreOptions> = {}): Promise<RedisCacheStore> {
    const made = new RedisCacheStore({ connection: redis.url, prefix, ...options });
    stores.push(made);
    await made.ready();
    return made;
  }

  function cache(on: RedisCacheStore, options: Partial<ResponseCacheOptions> = {}): ResponseCache {
    const made = new ResponseCache({ serverIdentity: SERVER, store: on, ...options });
    caches.push(made);
    return made;
  }

  /** Every key under the test's prefix, and every value, as text. */
  async function dump(): Promise<{ keys: string[]; values: string[] }> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    const values: string[] = [];
    for (const key of keys) {
      const type = await admin.type(key);
      values.push(type === 'string' ? ((await admin.get(key)) ?? '') : JSON.stringify(await admin.hgetall(key)));
    }
    return { keys, values };
  }

  describe('sharing', () => {
    it("one instance's public entry is a hit in another, and the value is frozen", async () => {
      nextPrefix();
      const a = cache(await store());
      const b = cache(await store());
      const doc = loader(() => ({ contents: [{ uri: 'x://a', text: 'A' }], ttlMs: 60_000, cacheScope: 'public' }));
      const first = await a.fetch({ method: 'resources/read', uri: 'x://a', protocolVersion: V }, doc.load);
      expect(first.source).toBe('network');
      const second = await b.fetch({ method: 'resources/read', uri: 'x://a', protocolVersion: V }, doc.load);
      expect(doc.calls.count).toBe(1);
      expect(second.source).toBe('cache');
      expect(second.result).toEqual(first.result);
      expect(Object.isFrozen(second.result)).toBe(true);
      expect(Object.isFrozen((second.result['contents'] as JsonObject[])[0])).toBe(true);
      expect(second.ttlMs).toBe(60_000);
      expect(b.stats()).toMatchObject({ hits: 1, misses: 0 });
    });

    it('Redis drops an entry when it goes stale (PX from ttlMs)', async () => {
      nextPrefix();
      const a = cache(await store());
      const doc = loader(() => ({ contents: [], ttlMs: 5_000, cacheScope: 'public' }));
      await a.fetch({ method: 'resources/read', uri: 'x://px', protocolVersion: V }, doc.load);
      const { keys } = await dump();
      expect(keys).toHaveLength(1);
      const pttl = await admin.pttl(keys[0]!);
      expect(pttl).toBeGreaterThan(4_000);
      expect(pttl).toBeLessThanOrEqual(5_000);

      const short = loader(() => ({ contents: [], ttlMs: 40, cacheScope: 'public' }));
      await a.fetch({ method: 'resources/read', uri: 'x://short', protocolVersion: V }, short.load);
      expect((await dump()).keys).toHaveLength(2);
      await within(2_000, async () => (await dump()).keys.length === 1);
    });

    it("two auth contexts never see each other's private entries, and Redis holds no id or token in clear", async () => {
      nextPrefix();
      const shared = await store();
      const other = await store();
      let aliceToken = 'tok-alice-s3cret';
      const alice = cache(shared, { authContext: () => ({ credential: aliceToken }) });
      const bob = cache(other, { authContext: 'user-bob-42' });
      const aliceAgain = cache(other, { authContext: () => ({ credential: aliceToken }) });
      const profile = (who: string) => loader(() => ({ contents: [{ text: who }], ttlMs: 60_000 }));
      const forAlice = profile('alice');
      const forBob = profile('bob');
      await alice.fetch({ method: 'resources/read', uri: 'x://me', protocolVersion: V }, forAlice.load);
      const bobs = await bob.fetch({ method: 'resources/read', uri: 'x://me', protocolVersion: V }, forBob.load);
      expect(bobs.source).toBe('network');
      expect(bobs.result).toEqual({ contents: [{ text: 'bob' }], ttlMs: 60_000 });
      const alices = await aliceAgain.fetch(
        { method: 'resources/read', uri: 'x://me', protocolVersion: V },
        forAlice.load,
      );
      expect(alices.source).toBe('cache');
      expect(alices.result).toEqual({ contents: [{ text: 'alice' }], ttlMs: 60_000 });
      expect(forAlice.calls.count).toBe(1);
      // A new token is a new partition: nothing of the old one is served.
      aliceToken = 'tok-alice-rotated';
      const rotated = await aliceAgain.fetch(
        { method: 'resources/read', uri: 'x://me', protocolVersion: V },
        forAlice.load,
      );
      expect(rotated.source).toBe('network');

      const { keys, values } = await dump();
      expect(keys.length).toBeGreaterThanOrEqual(3);
      for (const text of [...keys, ...values]) {
        expect(text).not.toContain('tok-alice');
        expect(text).not.toContain('user-bob');
        expect(text).not.toContain(SERVER);
      }
    });

    it('without an auth context, private results are not kept in the shared store', async () => {
      nextPrefix();
      const a = cache(await store());
      const events: CacheEvent[] = [];
      const b = cache(await store(), { onEvent: (event) => events.push(event) });
      const doc = loader(() => ({ contents: [], ttlMs: 60_000, cacheScope: 'private' }));
      await a.fetch({ method: 'resources/read', uri: 'x://p', protocolVersion: V }, doc.load);
      await b.fetch({ method: 'resources/read', uri: 'x://p', protocolVersion: V }, doc.load);
      expect(doc.calls.count).toBe(2);
      expect(events).toContainEqual(expect.objectContaining({ type: 'skip', reason: 'private-without-auth-context' }));
      expect((await dump()).keys).toEqual([]);
    });
  });
});
