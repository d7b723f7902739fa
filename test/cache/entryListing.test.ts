/**
 * listCacheEntries and ResponseCache.invalidateEntry: what a view reads of a cache (entries of both
 * scopes and two auth contexts, with their partition digest, wall-clock stored/expires times,
 * freshness on the monotonic clock, bytes), the LRU order left as it is, one entry invalidated
 * while its neighbours stay, a list page taking its list with it. Fake clocks; nothing sleeps.
 */
import { describe, expect, it } from 'vitest';
import { MemoryCacheStore } from '../../src/cache/cacheStore.js';
import { ResponseCache } from '../../src/cache/responseCache.js';
import { listCacheEntries } from '../../src/cache/entryListing.js';
import type { CacheEvent, Loader } from '../../src/cache/types.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import type { JsonObject } from '../../src/wire/messages.js';

const V = '2026-07-28';

function clocks() {
  let t = 5_000;
  let wall = 1_800_000_000_000;
  return {
    clock: { now: () => t },
    wallClock: { now: () => wall },
    advance(ms: number) {
      t += ms;
      wall += ms;
    },
  };
}

const answer =
  (result: JsonObject): Loader =>
  () =>
    Promise.resolve({ result, storable: true });

describe('listCacheEntries', () => {
  it('lists entries of both scopes with their partition digest, times, freshness and bytes, never the auth context', async () => {
    const time = clocks();
    let user = 'alice@example.com';
    const cache = new ResponseCache({
      serverIdentity: 'stdio:node server.js',
      clock: time.clock,
      wallClock: time.wallClock,
      authContext: () => user,
    });
    await cache.fetch(
      { method: 'resources/read', uri: 'demo://public', protocolVersion: V },
      answer({ contents: [], ttlMs: 1500, cacheScope: 'public' }),
    );
    time.advance(1);
    await cache.fetch(
      { method: 'resources/read', uri: 'demo://me', protocolVersion: V },
      answer({ contents: [{ uri: 'demo://me', text: 'alice' }], ttlMs: 60_000, cacheScope: 'private' }),
    );
    time.advance(1);
    user = 'bob@example.com';
    await cache.fetch(
      { method: 'resources/read', uri: 'demo://me', protocolVersion: V },
      answer({ contents: [{ uri: 'demo://me', text: 'bob' }], ttlMs: 60_000, cacheScope: 'private' }),
    );
    time.advance(1);
    await cache.fetch({ method: 'tools/list', protocolVersion: V }, answer({ tools: [], ttlMs: 0 }));
    time.advance(1997);

    const entries = await listCacheEntries(cache, time);
    const byWhat = entries.map((e) => [e.method, e.param, e.scope, e.fresh]);
    expect(byWhat).toEqual([
      ['resources/read', 'demo://public', 'public', false],
      ['resources/read', 'demo://me', 'private', true],
      ['resources/read', 'demo://me', 'private', true],
      ['tools/list', null, 'private', false],
    ]);
    const [pub, alice, bob] = entries;
    expect(pub).toMatchObject({
      partition: 'public',
      protocolVersion: V,
      ttlMs: 1500,
      storedAt: 1_800_000_000_000,
      expiresAt: 1_800_000_001_500,
    });
    expect(pub!.bytes).toBeGreaterThan(0);
    expect(alice!.partition).toMatch(/^private:[0-9a-f]{32}$/);
    expect(bob!.partition).toMatch(/^private:[0-9a-f]{32}$/);
    expect(alice!.partition).not.toBe(bob!.partition);
    expect(alice!.value).toEqual({
      contents: [{ uri: 'demo://me', text: 'alice' }],
      ttlMs: 60_000,
      cacheScope: 'private',
    });
    expect(JSON.stringify(entries.map(({ value: _value, ...rest }) => rest))).not.toMatch(/alice|bob/);
    expect(await listCacheEntries(cache, { ...time, limit: 2 })).toHaveLength(2);
    await expect(listCacheEntries(cache, { ...time, limit: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('reads without changing the LRU order of its own store', async () => {
    const time = clocks();
    const store = new MemoryCacheStore({ maxEntries: 2 });
    const cache = new ResponseCache({ serverIdentity: 's', store, sharedStore: false, ...time });
    for (const uri of ['demo://a', 'demo://b'])
      await cache.fetch(
        { method: 'resources/read', uri, protocolVersion: V },
        answer({ contents: [], ttlMs: 60_000, cacheScope: 'public' }),
      );
    await listCacheEntries(cache, time); // a get of each would make demo://a the newest, and evict demo://b next
    await cache.fetch(
      { method: 'resources/read', uri: 'demo://c', protocolVersion: V },
      answer({ contents: [], ttlMs: 60_000, cacheScope: 'public' }),
    );
    expect((await listCacheEntries(cache, time)).map((e) => e.param).sort()).toEqual(['demo://b', 'demo://c']);
  });
});

describe('ResponseCache.invalidateEntry', () => {
  it('removes one entry, leaves its neighbours, and the next read goes to the server', async () => {
    const time = clocks();
    const events: CacheEvent[] = [];
    const cache = new ResponseCache({ serverIdentity: 's', ...time, onEvent: (e) => events.push(e) });
    let loads = 0;
    const load: Loader = () => {
      loads++;
      return Promise.resolve({ result: { contents: [], ttlMs: 60_000, cacheScope: 'public' }, storable: true });
    };
    for (const uri of ['demo://a', 'demo://a/child', 'demo://b']) {
      await cache.fetch({ method: 'resources/read', uri, protocolVersion: V }, load);
      time.advance(1);
    }
    const target = (await listCacheEntries(cache, time)).find((e) => e.param === 'demo://a')!;
    expect(await cache.invalidateEntry(target.key)).toBe(1);
    expect((await listCacheEntries(cache, time)).map((e) => e.param)).toEqual(['demo://a/child', 'demo://b']);
    expect(events.at(-1)).toEqual({ type: 'invalidate', target: { kind: 'uri', uri: 'demo://a' }, removed: 1 });
    expect(await cache.invalidateEntry(target.key)).toBe(0);
    loads = 0;
    expect((await cache.fetch({ method: 'resources/read', uri: 'demo://a', protocolVersion: V }, load)).source).toBe(
      'network',
    );
    expect((await cache.fetch({ method: 'resources/read', uri: 'demo://b', protocolVersion: V }, load)).source).toBe(
      'cache',
    );
    expect(loads).toBe(1);
  });

  it('takes a list page with every page of its list', async () => {
    const time = clocks();
    const cache = new ResponseCache({ serverIdentity: 's', ...time });
    await cache.fetch(
      { method: 'tools/list', protocolVersion: V },
      answer({ tools: [], nextCursor: 'p2', ttlMs: 60_000, cacheScope: 'public' }),
    );
    await cache.fetch(
      { method: 'tools/list', cursor: 'p2', protocolVersion: V },
      answer({ tools: [], ttlMs: 60_000, cacheScope: 'public' }),
    );
    await cache.fetch(
      { method: 'prompts/list', protocolVersion: V },
      answer({ prompts: [], ttlMs: 60_000, cacheScope: 'public' }),
    );
    const first = (await listCacheEntries(cache, time)).find((e) => e.method === 'tools/list' && e.param === null)!;
    expect(await cache.invalidateEntry(first.key)).toBe(2);
    expect((await listCacheEntries(cache, time)).map((e) => e.method)).toEqual(['prompts/list']);
  });

  it('refuses a key of another cache', async () => {
    const time = clocks();
    const mine = new ResponseCache({ serverIdentity: 'one' });
    const theirs = new ResponseCache({ serverIdentity: 'two', store: mine.store, sharedStore: false });
    await theirs.fetch(
      { method: 'resources/read', uri: 'demo://x', protocolVersion: V },
      answer({ contents: [], ttlMs: 60_000, cacheScope: 'public' }),
    );
    const [entry] = await listCacheEntries(theirs, time);
    expect(await listCacheEntries(mine, time)).toEqual([]);
    await expect(mine.invalidateEntry(entry!.key)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(mine.invalidateEntry('not a key')).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
