/**
 * RedisCacheStore against a real redis-server (its own process, free port, no persistence),
 * every test on both client libraries: ioredis (a `connection` the store opens) and node-redis
 * (a `createClient()` client the host opened and passes as `client`). Each "instance" of a
 * fleet is a ResponseCache on its own RedisCacheStore (its own connections), as separate
 * processes would have; test/integration/fleet.test.ts does it with real child processes
 * over HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createClient } from 'redis';
import { ResponseCache } from '../../src/cache/responseCache.js';
import { type ResponseCacheOptions } from '../../src/cache/options.js';
import type { CacheEvent, LoadOutcome, Loader } from '../../src/cache/types.js';
import type { JsonObject } from '../../src/wire/messages.js';
import { RedisCacheStore, type RedisCacheStoreOptions } from '../../src/cache/redis/redisCacheStore.js';
import { CacheStoreError } from '../../src/cache/redis/errors.js';
import { CacheKeyBuilder, serverTag } from '../../src/cache/cacheKey.js';
import { encodeEntry } from '../../src/cache/redis/entryCodec.js';
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

/** How each library's store is made: what the options say about the connection. */
const LIBRARIES = ['ioredis', 'node-redis'] as const;

describe.skipIf(redisBinary.skipReason !== undefined).each(LIBRARIES)(
  'RedisCacheStore on %s (real redis-server)',
  (library) => {
    let redis: RedisServer;
    /** node-redis clients the tests opened (a host's: the store never closes them). */
    const hostClients: Array<{ destroy(): void; isOpen: boolean }> = [];
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
      for (const client of hostClients.splice(0)) if (client.isOpen) client.destroy();
      if (!redis.running) await redis.restart();
    });

    /** A new fleet prefix per test: tests never see each other's keys. */
    function nextPrefix(): string {
      prefix = `t${++prefixCounter}:`;
      return prefix;
    }

    /**
     * The connection part of a store's options: ioredis through `connection` (the store owns it),
     * node-redis through `client`, opened as the docs advise (no offline queue, so commands fail
     * at once while Redis is away; an error listener, as node-redis requires).
     */
    function connectionOptions(): Pick<RedisCacheStoreOptions, 'client' | 'connection'> {
      if (library === 'ioredis') return { connection: redis.url };
      const client = createClient({ url: redis.url, disableOfflineQueue: true });
      client.on('error', () => {});
      hostClients.push(client);
      void client.connect().catch(() => {});
      return { client };
    }

    async function store(options: Partial<RedisCacheStoreOptions> = {}): Promise<RedisCacheStore> {
      const made = new RedisCacheStore({ ...connectionOptions(), prefix, ...options });
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

    it('[Symbol.asyncDispose]() closes: its own connection ends, the entries stay in Redis', async () => {
      nextPrefix();
      const made = new RedisCacheStore({ ...connectionOptions(), prefix });
      await made.ready();
      const a = cache(made);
      const doc = loader(() => ({ contents: [{ uri: 'x://a', text: 'A' }], ttlMs: 60_000, cacheScope: 'public' }));
      await a.fetch({ method: 'resources/read', uri: 'x://a', protocolVersion: V }, doc.load);
      const before = String(await admin.client('LIST'))
        .split('\n')
        .filter(Boolean).length;
      await made[Symbol.asyncDispose]();
      const after = String(await admin.client('LIST'))
        .split('\n')
        .filter(Boolean).length;
      expect(after).toBeLessThan(before);
      expect((await dump()).keys.length).toBeGreaterThan(0);
    });

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
        expect(events).toContainEqual(
          expect.objectContaining({ type: 'skip', reason: 'private-without-auth-context' }),
        );
        expect((await dump()).keys).toEqual([]);
      });
    });

    describe('freshness across processes: a clock step of either kind only shortens', () => {
      function fakeClock(start: number) {
        let t = start;
        return {
          clock: { now: () => t },
          advance(ms: number) {
            t += ms;
          },
        };
      }

      it("a reader's wall clock ahead of the writer's shortens the entry's life by that much", async () => {
        nextPrefix();
        const writerMono = fakeClock(500);
        const writerWall = fakeClock(1_700_000_000_000);
        const writer = cache(await store({ clock: writerMono.clock, wallClock: writerWall.clock }), {
          clock: writerMono.clock,
          wallClock: writerWall.clock,
        });
        const readerMono = fakeClock(9_000);
        const readerWall = fakeClock(1_700_000_000_000 + 4_000);
        const reader = cache(await store({ clock: readerMono.clock, wallClock: readerWall.clock }), {
          clock: readerMono.clock,
        });
        const doc = loader(() => ({ contents: [], ttlMs: 10_000, cacheScope: 'public' }));
        await writer.fetch({ method: 'resources/read', uri: 'x://w', protocolVersion: V }, doc.load);
        const hit = await reader.fetch({ method: 'resources/read', uri: 'x://w', protocolVersion: V }, doc.load);
        expect(hit.source).toBe('cache');
        expect(readerMono.clock.now() - hit.receivedAt).toBe(4_000); // its age, by the reader's wall clock
        readerMono.advance(6_000);
        readerWall.advance(6_000);
        const later = await reader.fetch({ method: 'resources/read', uri: 'x://w', protocolVersion: V }, doc.load);
        expect(later.source).toBe('network');
      });

      it("a reader's wall clock behind never lengthens: Redis's own expiry bounds what a local tier keeps", async () => {
        nextPrefix();
        const writer = cache(await store());
        // The reader's wall clock is an hour behind; its monotonic clock is the real one.
        const behind = { now: () => Date.now() - 3_600_000 };
        const reader = cache(await store({ wallClock: behind, localTier: true }));
        const doc = loader(() => ({ contents: [], ttlMs: 1_000, cacheScope: 'public' }));
        const written = performance.now();
        await writer.fetch({ method: 'resources/read', uri: 'x://late', protocolVersion: V }, doc.load);
        await sleep(500);
        const read = await reader.fetch({ method: 'resources/read', uri: 'x://late', protocolVersion: V }, doc.load);
        expect(read.source).toBe('cache');
        // Past the server's ttlMs after the write, the reader (and its local tier) must not call it fresh.
        await sleep(Math.max(0, 1_200 - (performance.now() - written)));
        const after = await reader.fetch({ method: 'resources/read', uri: 'x://late', protocolVersion: V }, doc.load);
        expect(after.source).toBe('network');
        expect(doc.calls.count).toBe(2);
      });

      it('with retainStaleMs, a stale entry is never read as fresh, whatever the wall clock says', async () => {
        nextPrefix();
        const writer = cache(await store({ retainStaleMs: 60_000 }));
        const reader = cache(await store({ retainStaleMs: 60_000, wallClock: { now: () => Date.now() - 3_600_000 } }));
        const doc = loader(() => ({ contents: [{ text: 'v' }], ttlMs: 100, cacheScope: 'public' }));
        await writer.fetch({ method: 'resources/read', uri: 'x://kept', protocolVersion: V }, doc.load);
        await sleep(250);
        const forced = await reader.fetch(
          { method: 'resources/read', uri: 'x://kept', protocolVersion: V, mode: 'force-cache' },
          doc.load,
        );
        expect(forced.source).toBe('stale');
        const fresh = await reader.fetch({ method: 'resources/read', uri: 'x://kept', protocolVersion: V }, doc.load);
        expect(fresh.source).toBe('network');
      });

      it('the local tier honours the wall-clock expiry when the monotonic clock steps back', async () => {
        nextPrefix();
        const mono = fakeClock(50_000);
        const wall = fakeClock(1_700_000_000_000);
        const made = await store({ clock: mono.clock, wallClock: wall.clock, localTier: true });
        const a = cache(made, { clock: mono.clock, wallClock: wall.clock });
        const doc = loader(() => ({ contents: [], ttlMs: 10_000, cacheScope: 'public' }));
        await a.fetch({ method: 'resources/read', uri: 'x://m', protocolVersion: V }, doc.load);
        expect(made.get(await keyOf('x://m'))).toMatchObject({ ttlMs: 10_000 }); // synchronous: the local tier
        mono.advance(-40_000);
        wall.advance(11_000);
        expect(made.get(await keyOf('x://m'))).not.toMatchObject({ ttlMs: 10_000 }); // not from the tier any more
      });
    });

    /** The cache key of a public resources/read of SERVER. */
    async function keyOf(uri: string): Promise<string> {
      const { CacheKeyBuilder } = await import('../../src/cache/cacheKey.js');
      return new CacheKeyBuilder(SERVER).key('resources/read', uri, V, 'public');
    }

    describe('invalidation across the fleet', () => {
      const notice = (uri: string) => ({ serverTag: TAG, target: { kind: 'uri' as const, uri } });

      it('an entry is gone for every instance once one instance invalidated it', async () => {
        nextPrefix();
        const a = cache(await store());
        const b = cache(await store());
        let revision = 1;
        const doc = loader(() => ({ contents: [{ text: `r${revision}` }], ttlMs: 60_000, cacheScope: 'public' }));
        await a.fetch({ method: 'resources/read', uri: 'x://n', protocolVersion: V }, doc.load);
        revision = 2;
        expect(await a.invalidateUri('x://n')).toBe(1);
        const read = await b.fetch({ method: 'resources/read', uri: 'x://n', protocolVersion: V }, doc.load);
        expect(read.source).toBe('network');
        expect(read.result).toEqual({ contents: [{ text: 'r2' }], ttlMs: 60_000, cacheScope: 'public' });
      });

      it('Redis refuses a write fenced before an invalidation elsewhere, whether or not the notice arrived', async () => {
        nextPrefix();
        const a = await store();
        const b = await store();
        cache(a);
        const key = await keyOf('x://f');
        await b.get(key); // learns the generation tokens
        const fence = b.fence(TAG, 'resources/read');
        await a.invalidated(notice('x://f'));
        const entry = {
          value: { contents: [] },
          receivedAt: performance.now(),
          ttlMs: 60_000,
          scope: 'public' as const,
          bytes: 10,
        };
        expect(await b.set(key, entry, fence)).toBe('invalidated');
        expect((await dump()).keys.filter((k) => !k.endsWith('gen'))).toEqual([]);
        // The refusal taught b the current token: a load fenced now is written.
        expect(await b.set(key, entry, b.fence(TAG, 'resources/read'))).toBe(true);
        // Another method's fence is untouched by a uri invalidation.
        expect(await b.set(key, entry, fence)).toBe('invalidated');
      });

      it("a response in flight in one instance is not stored after another instance's invalidation", async () => {
        nextPrefix();
        const a = cache(await store());
        const events: CacheEvent[] = [];
        const b = cache(await store(), { onEvent: (event) => events.push(event) });
        // b learns the tokens first (as any instance does on its first lookup).
        await b.fetch(
          { method: 'resources/read', uri: 'x://warm', protocolVersion: V },
          loader(() => ({ contents: [], ttlMs: 60_000, cacheScope: 'public' })).load,
        );
        const gate = deferred<JsonObject>();
        const slow = loader(() => gate.promise);
        const pending = b.fetch({ method: 'resources/read', uri: 'x://in-flight', protocolVersion: V }, slow.load);
        await within(1_000, () => slow.calls.count === 1);
        await a.invalidateUri('x://in-flight');
        gate.resolve({ contents: [{ text: 'old' }], ttlMs: 60_000, cacheScope: 'public' });
        expect((await pending).result).toEqual({ contents: [{ text: 'old' }], ttlMs: 60_000, cacheScope: 'public' });
        expect(events).toContainEqual({
          type: 'skip',
          method: 'resources/read',
          param: 'x://in-flight',
          reason: 'invalidated',
        });
        const fresh = loader(() => ({ contents: [{ text: 'new' }], ttlMs: 60_000, cacheScope: 'public' }));
        expect(
          (await a.fetch({ method: 'resources/read', uri: 'x://in-flight', protocolVersion: V }, fresh.load)).result,
        ).toEqual({
          contents: [{ text: 'new' }],
          ttlMs: 60_000,
          cacheScope: 'public',
        });
      });

      it("a list walk in one instance stores nothing after another instance's list_changed", async () => {
        nextPrefix();
        const a = cache(await store());
        const b = cache(await store());
        const page = loader(() => ({
          tools: [{ name: 't', inputSchema: { type: 'object' } }],
          ttlMs: 60_000,
          cacheScope: 'public',
        }));
        await b.fetch(
          { method: 'resources/read', uri: 'x://warm', protocolVersion: V },
          loader(() => ({ contents: [], ttlMs: 60_000, cacheScope: 'public' })).load,
        );
        const walk = b.walkList({ method: 'tools/list', protocolVersion: V });
        await walk.page(undefined, page.load);
        await a.invalidateList('tools/list');
        expect((await walk.commit()).stored).toBe(0);
        expect((await dump()).keys.filter((k) => k.includes('tools/list'))).toEqual([]);
      });

      it("drops another instance's local-tier entry within one channel delivery", async () => {
        nextPrefix();
        const a = cache(await store());
        const tiered = await store({ localTier: true });
        const b = cache(tiered);
        const doc = loader(() => ({ contents: [], ttlMs: 60_000, cacheScope: 'public' }));
        await b.fetch({ method: 'resources/read', uri: 'x://t', protocolVersion: V }, doc.load);
        const key = await keyOf('x://t');
        expect(tiered.get(key)).toMatchObject({ ttlMs: 60_000 }); // synchronous: from the tier
        const started = performance.now();
        await a.invalidateUri('x://t');
        const took = await within(
          1_000,
          () => tiered.get(key) === undefined || !('ttlMs' in (tiered.get(key) as object)),
        );
        expect(performance.now() - started).toBeLessThan(1_000);
        expect(took).toBeLessThan(1_000);
      });

      it('a local tier that reads Redis the moment it hears the notice finds the entry gone, and keeps nothing old', async () => {
        nextPrefix();
        const a = cache(await store());
        const tiered = await store({ localTier: true });
        const b = cache(tiered);
        const doc = loader(() => ({ contents: [{ text: 'old' }], ttlMs: 60_000, cacheScope: 'public' }));
        await b.fetch({ method: 'resources/read', uri: 'x://race', protocolVersion: V }, doc.load);
        const key = await keyOf('x://race');
        // b reads at once on hearing the notice, as a busy instance may: before the entries were
        // deleted it found the old one in Redis and took it back into its tier for good.
        const heard = deferred<unknown>();
        tiered.onInvalidation(() => heard.resolve(tiered.get(key)));
        expect(await a.invalidateUri('x://race')).toBe(1);
        expect(await heard.promise).toBeUndefined();
        expect(await tiered.get(key)).toBeUndefined();
      });
    });

    describe('Redis away or slow', () => {
      it('killed: calls still succeed, one CacheStoreError, nothing served; restarted: caching resumes', async () => {
        nextPrefix();
        const errors: Error[] = [];
        // A dead Redis, not a slow one (the next test): calls must not wait on the timeout to notice.
        const made = await store({ onError: (error) => errors.push(error), retryMs: 50, timeoutMs: 5_000 });
        const alice = cache(made, { authContext: 'alice' });
        const doc = loader(() => ({ contents: [{ text: 'mine' }], ttlMs: 60_000 }));
        await alice.fetch({ method: 'resources/read', uri: 'x://k', protocolVersion: V }, doc.load);
        expect(
          (await alice.fetch({ method: 'resources/read', uri: 'x://k', protocolVersion: V }, doc.load)).source,
        ).toBe('cache');
        expect(errors).toEqual([]);

        await redis.kill();
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          const outcome = await alice.fetch({ method: 'resources/read', uri: 'x://k', protocolVersion: V }, doc.load);
          expect(outcome.source).toBe('network');
          expect(performance.now() - started).toBeLessThan(1_000);
        }
        expect(doc.calls.count).toBe(6);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toBeInstanceOf(CacheStoreError);
        expect(errors[0]).toMatchObject({ code: ErrorCode.CacheStoreFailed, data: { reason: 'unreachable' } });
        expect(made.state).not.toBe('up');

        await redis.restart();
        await made.ready();
        await alice.fetch({ method: 'resources/read', uri: 'x://k', protocolVersion: V }, doc.load);
        expect(
          (await alice.fetch({ method: 'resources/read', uri: 'x://k', protocolVersion: V }, doc.load)).source,
        ).toBe('cache');
        expect(doc.calls.count).toBe(7);
        expect(errors).toHaveLength(1);
      });

      it('a slow start is not an outage: a probe finding the first connection still opening is not reported', async () => {
        nextPrefix();
        const errors: Error[] = [];
        const made = new RedisCacheStore({
          ...connectionOptions(),
          prefix,
          retryMs: 50,
          timeoutMs: 5_000,
          onError: (error) => errors.push(error),
        });
        stores.push(made);
        // A loaded machine: the loop is late, so the probe timer fires before the connection is ready.
        const until = performance.now() + 200;
        while (performance.now() < until);
        await made.ready();
        expect(errors).toEqual([]);

        // The first outage after it is reported once.
        const doc = loader(() => ({ contents: [{ text: 'mine' }], ttlMs: 60_000 }));
        const alice = cache(made, { authContext: 'alice' });
        await redis.kill();
        await alice.fetch({ method: 'resources/read', uri: 'x://k', protocolVersion: V }, doc.load);
        await alice.fetch({ method: 'resources/read', uri: 'x://k', protocolVersion: V }, doc.load);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ code: ErrorCode.CacheStoreFailed, data: { reason: 'unreachable' } });
      });

      it('slow: a call waits at most about timeoutMs, reported once as a timeout; an invalidation made meanwhile is replayed', async () => {
        nextPrefix();
        const errors: Error[] = [];
        const made = await store({ onError: (error) => errors.push(error), timeoutMs: 100, retryMs: 50 });
        const a = cache(made);
        const other = cache(await store());
        const doc = loader(() => ({ contents: [{ text: 'v1' }], ttlMs: 60_000, cacheScope: 'public' }));
        await a.fetch({ method: 'resources/read', uri: 'x://s', protocolVersion: V }, doc.load);

        await redis.pause(1_000);
        const started = performance.now();
        const outcome = await a.fetch({ method: 'resources/read', uri: 'x://s', protocolVersion: V }, doc.load);
        const took = performance.now() - started;
        expect(outcome.source).toBe('network');
        expect(took).toBeLessThan(600); // timeoutMs 100, once; then no more waiting on Redis
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ code: ErrorCode.CacheStoreFailed, data: { reason: 'timeout' } });
        // Invalidated while Redis cannot be told: replayed when it answers again.
        await a.invalidateUri('x://s');
        await made.ready();
        const fresh = loader(() => ({ contents: [{ text: 'v2' }], ttlMs: 60_000, cacheScope: 'public' }));
        const read = await other.fetch({ method: 'resources/read', uri: 'x://s', protocolVersion: V }, fresh.load);
        expect(read.result).toEqual({ contents: [{ text: 'v2' }], ttlMs: 60_000, cacheScope: 'public' });
        expect(errors).toHaveLength(1);
      });

      it('a key holding something else is a miss and is reported', async () => {
        nextPrefix();
        const errors: Error[] = [];
        const a = cache(await store({ onError: (error) => errors.push(error) }));
        await admin.set(`${prefix}{${TAG}}${await keyOf('x://bad')}`, 'not an entry');
        const doc = loader(() => ({ contents: [], ttlMs: 60_000, cacheScope: 'public' }));
        expect((await a.fetch({ method: 'resources/read', uri: 'x://bad', protocolVersion: V }, doc.load)).source).toBe(
          'network',
        );
        expect(errors[0]).toMatchObject({ code: ErrorCode.CacheStoreFailed, data: { reason: 'malformed-entry' } });
      });

      it('an entry with a valid header but a result of the wrong shape is a malformed-entry miss for the next reader, and is removed', async () => {
        nextPrefix();
        const errors: Error[] = [];
        const a = cache(await store({ onError: (error) => errors.push(error) }));
        const redisKey = `${prefix}{${TAG}}${await keyOf('x://shape')}`;
        const header = { expiresAt: Date.now() + 60_000, ttlMs: 60_000, scope: 'public' as const, bytes: 20 };
        await admin.set(redisKey, encodeEntry({ ...header, value: { contents: 'not an array' } }), 'PX', 60_000);
        const doc = loader(() => ({
          contents: [{ uri: 'x://shape', text: 'ok' }],
          ttlMs: 60_000,
          cacheScope: 'public',
        }));
        const read = await a.fetch({ method: 'resources/read', uri: 'x://shape', protocolVersion: V }, doc.load);
        expect(read.source).toBe('network');
        expect(read.result).toEqual({
          contents: [{ uri: 'x://shape', text: 'ok' }],
          ttlMs: 60_000,
          cacheScope: 'public',
        });
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({
          code: ErrorCode.CacheStoreFailed,
          data: { reason: 'malformed-entry', key: redisKey },
        });
        expect(errors[0]!.message).toContain('contents must be an array');
        // Removed, then replaced by the load: the next reader gets the good one.
        expect(await admin.get(redisKey)).toContain('"text":"ok"');

        // A list page holding an item the page check drops is not served either.
        const listKey = `${prefix}{${TAG}}${new CacheKeyBuilder(SERVER).key('tools/list', null, V, 'public')}`;
        await admin.set(listKey, encodeEntry({ ...header, value: { tools: [{ name: 't' }] } }), 'PX', 60_000);
        const page = loader(() => ({
          tools: [{ name: 't', inputSchema: { type: 'object' } }],
          ttlMs: 60_000,
          cacheScope: 'public',
        }));
        expect((await a.fetch({ method: 'tools/list', protocolVersion: V }, page.load)).source).toBe('network');
        expect(errors).toHaveLength(2);
        expect(errors[1]).toMatchObject({ data: { reason: 'malformed-entry', key: listKey } });
      });

      it('a key of another Redis type (WRONGTYPE) is one malformed-entry miss, not an outage: the store stays up and keeps its local tier', async () => {
        nextPrefix();
        const errors: Error[] = [];
        const made = await store({ onError: (error) => errors.push(error), localTier: true });
        const a = cache(made);
        const good = loader(() => ({ contents: [{ text: 'good' }], ttlMs: 60_000, cacheScope: 'public' }));
        await a.fetch({ method: 'resources/read', uri: 'x://good', protocolVersion: V }, good.load);
        const redisKey = `${prefix}{${TAG}}${await keyOf('x://hash')}`;
        await admin.hset(redisKey, { not: 'an entry' });
        const doc = loader(() => ({ contents: [{ text: 'fresh' }], ttlMs: 60_000, cacheScope: 'public' }));
        const read = await a.fetch({ method: 'resources/read', uri: 'x://hash', protocolVersion: V }, doc.load);
        expect(read.source).toBe('network');
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ data: { reason: 'malformed-entry', key: redisKey } });
        expect(errors[0]!.message).toContain('WRONGTYPE');
        expect(made.state).toBe('up');
        // The local tier still answers the good entry synchronously, and the bad key was replaced.
        expect(made.get(await keyOf('x://good'))).toMatchObject({ ttlMs: 60_000 });
        expect(await admin.type(redisKey)).toBe('string');
        expect(
          (await a.fetch({ method: 'resources/read', uri: 'x://hash', protocolVersion: V }, doc.load)).source,
        ).toBe('cache');
        expect(good.calls.count).toBe(1);
      });

      it('enumerates with SCAN, never KEYS', async () => {
        nextPrefix();
        const a = cache(await store());
        const doc = loader(() => ({ contents: [], ttlMs: 60_000, cacheScope: 'public' }));
        for (const uri of ['x://1', 'x://1/a', 'x://2'])
          await a.fetch({ method: 'resources/read', uri, protocolVersion: V }, doc.load);
        await admin.call('CONFIG', 'RESETSTAT');
        expect(await a.invalidateUri('x://1')).toBe(2);
        expect(await a.invalidateAll()).toBe(1);
        const stats = await admin.info('commandstats');
        expect(stats).toContain('cmdstat_scan:');
        expect(stats).not.toContain('cmdstat_keys:');
      });
    });

    describe('single-flight (off by default)', () => {
      async function burst(singleFlight: boolean): Promise<{ loads: number; sources: string[] }> {
        nextPrefix();
        const instances = await Promise.all([0, 1, 2, 3, 4].map(async () => cache(await store({ singleFlight }))));
        // Every instance has learned the tokens (its first lookup).
        await Promise.all(
          instances.map((c) =>
            c.fetch(
              { method: 'resources/read', uri: 'x://warm', protocolVersion: V },
              loader(() => ({ contents: [], ttlMs: 1 })).load,
            ),
          ),
        );
        const list = loader(async () => {
          await sleep(100);
          return { tools: [], ttlMs: 60_000, cacheScope: 'public' };
        });
        const outcomes = await Promise.all(
          instances.map((c) => c.fetch({ method: 'tools/list', protocolVersion: V }, list.load)),
        );
        return { loads: list.calls.count, sources: outcomes.map((o) => o.source) };
      }

      it('without it, a burst of instances sends one request each', async () => {
        expect((await burst(false)).loads).toBe(5);
      });

      it('with it, a burst of instances sends one request; the others read its entry', async () => {
        const { loads, sources } = await burst(true);
        expect(loads).toBe(1);
        expect(sources.filter((s) => s === 'cache')).toHaveLength(4);
      });
    });
  },
);
