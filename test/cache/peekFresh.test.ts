/**
 * ResponseCache.peekFresh: the synchronous fresh-hit path. It must answer exactly like a
 * `fetch` in mode `default` would for a fresh hit (same entry, same partition, same counters
 * and events) and say `undefined` whenever it cannot tell synchronously.
 */
import { describe, expect, it } from 'vitest';
import { MemoryCacheStore, type CacheStore } from '../../src/cache/cacheStore.js';
import type { CacheEntry } from '../../src/cache/types.js';
import { ResponseCache } from '../../src/cache/responseCache.js';
import { type ResponseCacheOptions } from '../../src/cache/options.js';
import type { CacheEvent, Loader } from '../../src/cache/types.js';
import type { JsonObject } from '../../src/wire/messages.js';

const V = '2026-07-28';
const SERVER = 'stdio:node server.js';

function setup(options: Partial<ResponseCacheOptions> = {}) {
  let t = 1_000;
  const events: CacheEvent[] = [];
  const cache = new ResponseCache({
    serverIdentity: SERVER,
    clock: { now: () => t },
    onEvent: (e) => events.push(e),
    ...options,
  });
  return {
    cache,
    events,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const answer =
  (result: JsonObject): Loader =>
  async () => ({ result, storable: true });
const doc = (uri: string, ttlMs: number, cacheScope: string): JsonObject => ({
  resultType: 'complete',
  contents: [{ uri, text: uri }],
  ttlMs,
  cacheScope,
});
const read = (uri: string, extra: object = {}) => ({ method: 'resources/read', uri, protocolVersion: V, ...extra });

describe('ResponseCache.peekFresh', () => {
  it('returns the stored (same, frozen) object of a fresh entry, counts the hit and emits the same event as fetch', async () => {
    const { cache, events, advance } = setup();
    expect(cache.peekFresh('resources/read', 'file:///a', V)).toBeUndefined();
    const loaded = await cache.fetch(read('file:///a'), answer(doc('file:///a', 1_000, 'public')));
    advance(10);
    const viaFetch = await cache.fetch(read('file:///a'), answer(doc('file:///a', 1_000, 'public')));
    const fetchHit = events.at(-1);
    const peeked = cache.peekFresh('resources/read', 'file:///a', V);
    expect(peeked).toBe(loaded.result);
    expect(peeked).toBe(viaFetch.result);
    expect(Object.isFrozen(peeked)).toBe(true);
    expect(events.at(-1)).toEqual(fetchHit);
    expect(events.at(-1)).toMatchObject({ type: 'hit', method: 'resources/read', param: 'file:///a', ageMs: 10 });
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 1, stores: 1 });
  });

  it('is undefined once stale (now >= receivedAt + ttlMs), and counts nothing', async () => {
    const { cache, advance } = setup();
    await cache.fetch(read('file:///a'), answer(doc('file:///a', 100, 'public')));
    advance(99);
    expect(cache.peekFresh('resources/read', 'file:///a', V)).toBeDefined();
    advance(1);
    expect(cache.peekFresh('resources/read', 'file:///a', V)).toBeUndefined();
    expect(cache.stats().hits).toBe(1);
    await cache.fetch(read('file:///b'), answer(doc('file:///b', 0, 'public')));
    expect(cache.peekFresh('resources/read', 'file:///b', V)).toBeUndefined();
  });

  it('keys on method, param and protocol version', async () => {
    const { cache } = setup();
    await cache.fetch(
      { method: 'tools/list', protocolVersion: V },
      answer({ resultType: 'complete', tools: [], ttlMs: 1_000, cacheScope: 'public' }),
    );
    expect(cache.peekFresh('tools/list', null, V)).toBeDefined();
    expect(cache.peekFresh('tools/list', '', V)).toBeUndefined();
    expect(cache.peekFresh('tools/list', null, '2025-11-25')).toBeUndefined();
    expect(cache.peekFresh('prompts/list', null, V)).toBeUndefined();
    expect(cache.peekFresh('tools/call', null, V)).toBeUndefined();
  });

  it('private entries are only visible to the auth context that stored them', async () => {
    let who = 'A';
    const { cache } = setup({ authContext: () => who });
    const a = await cache.fetch(read('file:///p'), answer(doc('file:///p', 1_000, 'private')));
    expect(cache.peekFresh('resources/read', 'file:///p', V)).toBe(a.result);
    who = 'B';
    expect(cache.peekFresh('resources/read', 'file:///p', V)).toBeUndefined();
    const b = await cache.fetch(read('file:///p'), answer(doc('file:///p', 1_000, 'private')));
    expect(b.source).toBe('network');
    expect(cache.peekFresh('resources/read', 'file:///p', V)).toBe(b.result);
    who = 'A';
    expect(cache.peekFresh('resources/read', 'file:///p', V)).toBe(a.result);
  });

  it('public entries are shared by every auth context; a newer public answer supersedes the private one', async () => {
    let who = 'A';
    const { cache } = setup({ authContext: () => who });
    await cache.fetch(read('file:///x'), answer(doc('file:///x', 1_000, 'private')));
    const pub = await cache.fetch(read('file:///x', { mode: 'reload' }), answer(doc('file:///x', 1_000, 'public')));
    expect(cache.peekFresh('resources/read', 'file:///x', V)).toBe(pub.result);
    who = 'B';
    expect(cache.peekFresh('resources/read', 'file:///x', V)).toBe(pub.result);
  });

  it('mixed scopes: probes in the same order as fetch and agrees with it', async () => {
    const { cache } = setup({ authContext: 'A' });
    const pub = await cache.fetch(read('file:///pub'), answer(doc('file:///pub', 1_000, 'public')));
    const priv = await cache.fetch(read('file:///priv'), answer(doc('file:///priv', 1_000, 'private')));
    for (let i = 0; i < 3; i++) {
      expect(cache.peekFresh('resources/read', 'file:///pub', V)).toBe(pub.result);
      expect(cache.peekFresh('resources/read', 'file:///priv', V)).toBe(priv.result);
      expect((await cache.fetch(read('file:///pub'), answer(doc('x', 1, 'public')))).result).toBe(pub.result);
      expect((await cache.fetch(read('file:///priv'), answer(doc('x', 1, 'public')))).result).toBe(priv.result);
    }
  });

  it('with a shared store and no auth context, private results are never cached, so never peeked', async () => {
    const store = new MemoryCacheStore();
    const { cache } = setup({ store });
    await cache.fetch(read('file:///p'), answer(doc('file:///p', 1_000, 'private')));
    expect(cache.peekFresh('resources/read', 'file:///p', V)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('sees entries another cache on the same store wrote, once a fetch found them', async () => {
    const store = new MemoryCacheStore();
    const one = setup({ store, authContext: 'A' }).cache;
    const two = setup({ store, authContext: 'A' }).cache;
    const stored = await one.fetch(read('file:///s'), answer(doc('file:///s', 1_000, 'private')));
    expect(two.peekFresh('resources/read', 'file:///s', V)).toBeUndefined(); // not known yet: the slow path decides
    expect((await two.fetch(read('file:///s'), answer(doc('x', 1, 'public')))).source).toBe('cache');
    expect(two.peekFresh('resources/read', 'file:///s', V)).toBe(stored.result);
    // deleted by the other cache: the index notices and says undefined
    await one.invalidateUri('file:///s');
    expect(two.peekFresh('resources/read', 'file:///s', V)).toBeUndefined();
  });

  it('never mixes servers sharing a store', async () => {
    const store = new MemoryCacheStore();
    const one = setup({ store, authContext: 'A' }).cache;
    const two = new ResponseCache({ serverIdentity: 'stdio:node other.js', store, authContext: 'A' });
    await one.fetch(read('file:///s'), answer(doc('file:///s', 1_000, 'public')));
    expect(two.peekFresh('resources/read', 'file:///s', V)).toBeUndefined();
    expect((await two.fetch(read('file:///s'), answer(doc('file:///s', 1_000, 'public')))).source).toBe('network');
  });

  it('forgets invalidated and evicted entries (nothing kept per uri beyond the store bound)', async () => {
    const store = new MemoryCacheStore({ maxEntries: 2 });
    const { cache } = setup({ store, authContext: 'A' });
    for (const uri of ['u:1', 'u:2', 'u:3']) await cache.fetch(read(uri), answer(doc(uri, 1_000, 'public')));
    expect(cache.peekFresh('resources/read', 'u:1', V)).toBeUndefined(); // evicted
    expect(cache.peekFresh('resources/read', 'u:3', V)).toBeDefined();
    const index = (cache as unknown as { index: { size: number } }).index;
    expect(index.size).toBe(2);
    for (let i = 4; i < 100; i++) await cache.fetch(read(`u:${i}`), answer(doc(`u:${i}`, 1_000, 'public')));
    expect(index.size).toBe(2);
    await cache.invalidateUri('u:99');
    expect(cache.peekFresh('resources/read', 'u:99', V)).toBeUndefined();
    expect(index.size).toBe(1);
    await cache.invalidateAll();
    expect(index.size).toBe(0);
    expect(cache.peekFresh('resources/read', 'u:98', V)).toBeUndefined();
  });

  it('is always undefined with an asynchronous (or any non-memory) store', async () => {
    const inner = new MemoryCacheStore();
    const store: CacheStore = {
      get: async (key) => inner.get(key),
      set: async (key, entry: CacheEntry) => inner.set(key, entry),
      delete: async (key) => inner.delete(key),
      clear: async () => inner.clear(),
      keys: async (prefix) => inner.keys(prefix),
    };
    const { cache } = setup({ store, authContext: 'A' });
    await cache.fetch(read('file:///a'), answer(doc('file:///a', 1_000, 'public')));
    expect((await cache.fetch(read('file:///a'), answer(doc('x', 1, 'public')))).source).toBe('cache');
    expect(cache.peekFresh('resources/read', 'file:///a', V)).toBeUndefined();
  });

  it('an invalid auth context gives undefined (fetch reports it)', async () => {
    const { cache } = setup({ authContext: (() => 42) as never });
    expect(cache.peekFresh('resources/read', 'file:///a', V)).toBeUndefined();
    await expect(cache.fetch(read('file:///a'), answer(doc('x', 1, 'public')))).rejects.toMatchObject({ code: -32602 });
  });

  it('a throwing onEvent listener does not break the hit', async () => {
    const errors: Error[] = [];
    const cache = new ResponseCache({
      serverIdentity: SERVER,
      onEvent: (e) => {
        if (e.type === 'hit') throw new Error('listener');
      },
      onError: (e) => errors.push(e),
    });
    const stored = await cache.fetch(read('file:///a'), answer(doc('file:///a', 60_000, 'public')));
    expect(cache.peekFresh('resources/read', 'file:///a', V)).toBe(stored.result);
    expect(errors.map((e) => e.message)).toEqual(['listener']);
  });

  it('walk pages stored by commit are peekable as single pages', async () => {
    const { cache } = setup();
    const walk = cache.walkList({ method: 'tools/list', protocolVersion: V });
    const page = await walk.page(
      undefined,
      answer({ resultType: 'complete', tools: [], ttlMs: 1_000, cacheScope: 'public' }),
    );
    await walk.commit();
    expect(cache.peekFresh('tools/list', null, V)).toBe(page.result);
  });
});
