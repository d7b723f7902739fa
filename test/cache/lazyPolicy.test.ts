/**
 * The response cache before its policy has loaded (a process's first cache): on a fresh copy of
 * the modules (`vi.resetModules()`), every public method works from the first tick, and once
 * the policy is there the cache behaves as it always does.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../src/wire/messages.js';
import type { Loader } from '../../src/cache/types.js';

const V = '2026-07-28';

type Fresh = typeof import('../../src/cache/responseCache.js');
let fresh: Fresh;

beforeEach(async () => {
  vi.resetModules();
  fresh = await import('../../src/cache/responseCache.js');
  expect(fresh.loadPolicy.value).toBeUndefined();
});

function doc(uri: string, text: string): JsonObject {
  return { contents: [{ uri, text }], ttlMs: 60_000, cacheScope: 'public' };
}

function counting(make: (n: number) => JsonObject) {
  let calls = 0;
  const load: Loader = async () => ({ result: make(++calls), storable: true });
  return {
    load,
    get calls() {
      return calls;
    },
  };
}

describe('a ResponseCache made before its policy has loaded', () => {
  it('answers a fetch made in the same tick, then serves the stored entry synchronously', async () => {
    const cache = new fresh.ResponseCache({ serverIdentity: 'stdio:demo' });
    expect(cache.peekFresh('resources/read', 'file:///a', V)).toBeUndefined();
    expect(cache.stats()).toEqual({ hits: 0, misses: 0, staleServes: 0, evictions: 0, stores: 0, invalidations: 0 });
    const server = counting((n) => doc('file:///a', `v${n}`));
    const first = await cache.fetch({ method: 'resources/read', uri: 'file:///a', protocolVersion: V }, server.load);
    expect(first.source).toBe('network');
    expect(first.result).toEqual(doc('file:///a', 'v1'));
    expect(cache.peekFresh('resources/read', 'file:///a', V)).toBe(first.result);
    const second = await cache.fetch({ method: 'resources/read', uri: 'file:///a', protocolVersion: V }, server.load);
    expect(second.source).toBe('cache');
    expect(server.calls).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 1, stores: 1 });
  });

  it('shares identical fetches made while it loads', async () => {
    const cache = new fresh.ResponseCache({ serverIdentity: 'stdio:demo' });
    const server = counting((n) => doc('file:///a', `v${n}`));
    const [a, b] = await Promise.all([
      cache.fetch({ method: 'resources/read', uri: 'file:///a', protocolVersion: V }, server.load),
      cache.fetch({ method: 'resources/read', uri: 'file:///a', protocolVersion: V }, server.load),
    ]);
    expect(server.calls).toBe(1);
    expect(a.result).toBe(b.result);
  });

  it('walks a list and invalidates it before the policy is there', async () => {
    const cache = new fresh.ResponseCache({ serverIdentity: 'stdio:demo' });
    const walk = cache.walkList({ method: 'tools/list', protocolVersion: V });
    expect(walk.method).toBe('tools/list');
    const page = await walk.page(undefined, async () => ({
      result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }], ttlMs: 60_000 },
      storable: true,
    }));
    expect(page.source).toBe('network');
    expect(await walk.commit()).toMatchObject({ stored: 1 });
    expect(cache.peekFresh('tools/list', null, V)).toEqual(page.result);
    expect(await cache.invalidateList('tools/list')).toBe(1);
    expect(cache.peekFresh('tools/list', null, V)).toBeUndefined();
  });

  it('checks its options and a list method at once, with the same errors as ever', () => {
    expect(() => new fresh.ResponseCache({ serverIdentity: 'x', maxTtlMs: 0 })).toThrow(/maxTtlMs/);
    expect(() => new fresh.ResponseCache({ serverIdentity: 'x', staleIfErrorMs: -1 })).toThrow(/staleIfErrorMs/);
    const cache = new fresh.ResponseCache({ serverIdentity: 'x' });
    expect(() => cache.walkList({ method: 'resources/read' as never, protocolVersion: V })).toThrow(
      expect.objectContaining({ code: -32602 }),
    );
  });

  it('an invalidation made before the policy loaded still drops what another cache stored in a shared store', async () => {
    const { MemoryCacheStore } = await import('../../src/cache/cacheStore.js');
    const store = new MemoryCacheStore();
    const writer = new fresh.ResponseCache({ serverIdentity: 'stdio:demo', store });
    const server = counting((n) => doc('file:///a', `v${n}`));
    await writer.fetch({ method: 'resources/read', uri: 'file:///a', protocolVersion: V }, server.load);
    // A second cache on the same store: its policy is made at once now, so make a third module copy.
    vi.resetModules();
    const again: Fresh = await import('../../src/cache/responseCache.js');
    const other = new again.ResponseCache({ serverIdentity: 'stdio:demo', store });
    expect(await other.invalidateUri('file:///a')).toBe(1);
    expect(writer.peekFresh('resources/read', 'file:///a', V)).toBeUndefined();
  });

  it('dispose() before the policy loaded disposes it when it arrives; entries stay', async () => {
    const cache = new fresh.ResponseCache({ serverIdentity: 'stdio:demo' });
    cache.dispose();
    const server = counting((n) => doc('file:///a', `v${n}`));
    const outcome = await cache.fetch({ method: 'resources/read', uri: 'file:///a', protocolVersion: V }, server.load);
    expect(outcome.source).toBe('network');
  });
});
