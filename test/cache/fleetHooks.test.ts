/**
 * What ResponseCache does with a store's fleet hooks (fence, invalidated, onInvalidation,
 * flight, set refusals), against a scripted in-memory store: the contract any fleet store
 * (Redis or another) relies on, without Redis.
 */
import { describe, expect, it } from 'vitest';
import { MemoryCacheStore, type CacheStore } from '../../src/cache/cacheStore.js';
import type { CacheEntry } from '../../src/cache/types.js';
import { serverTag } from '../../src/cache/cacheKey.js';
import type { FleetInvalidation, FlightTicket, StoreRefusal } from '../../src/cache/fleet.js';
import { ResponseCache } from '../../src/cache/responseCache.js';
import type { CacheEvent, Loader } from '../../src/cache/types.js';
import type { JsonObject } from '../../src/wire/messages.js';

const V = '2026-07-28';
const SERVER = 'https://mcp.example.com/mcp';

/** A store shared "with other processes": memory underneath, fleet hooks recorded and scriptable. */
class FleetFake implements CacheStore {
  readonly memory = new MemoryCacheStore();
  readonly calls: string[] = [];
  readonly fences: unknown[] = [];
  readonly told: FleetInvalidation[] = [];
  refusal: StoreRefusal | undefined;
  ticket: FlightTicket | undefined;
  private readonly listeners = new Set<(notice: FleetInvalidation) => void>();
  private fenceCount = 0;

  get(key: string) {
    return Promise.resolve(this.memory.get(key));
  }
  set(key: string, entry: CacheEntry, fence?: unknown) {
    this.calls.push('set');
    this.fences.push(fence);
    if (this.refusal !== undefined) return Promise.resolve(this.refusal);
    return Promise.resolve(this.memory.set(key, entry));
  }
  delete(key: string) {
    return this.memory.delete(key);
  }
  clear() {
    this.memory.clear();
  }
  keys(prefix: string) {
    this.calls.push('keys');
    return Promise.resolve(this.memory.keys(prefix));
  }
  fence(tag: string, method: string) {
    return `${tag}/${method}#${++this.fenceCount}`;
  }
  invalidated(notice: FleetInvalidation) {
    this.calls.push('invalidated');
    this.told.push(notice);
    for (const listener of this.listeners) listener(notice);
    return Promise.resolve();
  }
  onInvalidation(listener: (notice: FleetInvalidation) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  flight(): Promise<FlightTicket | undefined> {
    return Promise.resolve(this.ticket);
  }
  /** A notice from "another process". */
  hear(notice: FleetInvalidation): void {
    for (const listener of this.listeners) listener(notice);
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const page = (text: string): JsonObject => ({ contents: [{ text }], ttlMs: 60_000, cacheScope: 'public' });

describe('ResponseCache on a fleet store', () => {
  it('passes the fence taken before the load to set, and stamps a wall-clock expiry', async () => {
    const store = new FleetFake();
    const cache = new ResponseCache({
      serverIdentity: SERVER,
      store,
      clock: { now: () => 1_000 },
      wallClock: { now: () => 1_700_000_000_000 },
    });
    await cache.fetch({ method: 'resources/read', uri: 'x://a', protocolVersion: V }, async () => ({
      result: page('a'),
      storable: true,
    }));
    expect(store.fences).toEqual([`${serverTag(SERVER)}/resources/read#1`]);
    const [key] = store.memory.keys('');
    expect(store.memory.get(key!)).toMatchObject({ receivedAt: 1_000, ttlMs: 60_000, expiresAt: 1_700_000_060_000 });
  });

  it('tells the store of an invalidation before it enumerates keys, without the origin leaking to itself', async () => {
    const store = new FleetFake();
    const events: CacheEvent[] = [];
    const cache = new ResponseCache({ serverIdentity: SERVER, store, onEvent: (e) => events.push(e) });
    await cache.invalidateList('tools/list');
    expect(store.calls).toEqual(['invalidated', 'keys']);
    expect(store.told[0]).toMatchObject({
      serverTag: serverTag(SERVER),
      target: { kind: 'list', method: 'tools/list', authContext: 'all' },
    });
    expect(cache.stats().invalidations).toBe(1);
  });

  it("an invalidation heard from another process keeps this process's load in flight from being stored", async () => {
    const store = new FleetFake();
    const events: CacheEvent[] = [];
    const cache = new ResponseCache({ serverIdentity: SERVER, store, onEvent: (e) => events.push(e) });
    const gate = deferred<JsonObject>();
    const load: Loader = async () => ({ result: await gate.promise, storable: true });
    const pending = cache.fetch({ method: 'resources/read', uri: 'x://a/b', protocolVersion: V }, load);
    await Promise.resolve();
    await Promise.resolve();
    store.hear({ serverTag: serverTag(SERVER), target: { kind: 'uri', uri: 'x://a' } });
    gate.resolve(page('old'));
    await pending;
    expect(store.calls).not.toContain('set');
    expect(events).toContainEqual({ type: 'skip', method: 'resources/read', param: 'x://a/b', reason: 'invalidated' });
  });

  it("another server's notice changes nothing here", async () => {
    const store = new FleetFake();
    const cache = new ResponseCache({ serverIdentity: SERVER, store });
    const gate = deferred<JsonObject>();
    const pending = cache.fetch({ method: 'tools/list', protocolVersion: V }, async () => ({
      result: await gate.promise,
      storable: true,
    }));
    await Promise.resolve();
    store.hear({ serverTag: serverTag('https://other.example/mcp'), target: { kind: 'all' } });
    gate.resolve({ tools: [], ttlMs: 60_000, cacheScope: 'public' });
    await pending;
    expect(store.calls).toContain('set');
  });

  it('maps refusals to skip reasons', async () => {
    for (const [refusal, reason] of [
      ['invalidated', 'invalidated'],
      ['unavailable', 'store-unavailable'],
      ['too-large', 'too-large'],
    ] as const) {
      const store = new FleetFake();
      store.refusal = refusal;
      const events: CacheEvent[] = [];
      const cache = new ResponseCache({ serverIdentity: SERVER, store, onEvent: (e) => events.push(e) });
      await cache.fetch({ method: 'tools/list', protocolVersion: V }, async () => ({
        result: { tools: [], ttlMs: 60_000, cacheScope: 'public' },
        storable: true,
      }));
      expect(events.filter((e) => e.type === 'skip')).toEqual([
        { type: 'skip', method: 'tools/list', param: null, reason },
      ]);
      expect(cache.stats().stores).toBe(0);
    }
  });

  it("a flight ticket with another process's entry answers without a load", async () => {
    const store = new FleetFake();
    const entry: CacheEntry = { value: page('theirs'), receivedAt: 0, ttlMs: 60_000, scope: 'public', bytes: 10 };
    store.ticket = { entry };
    const cache = new ResponseCache({ serverIdentity: SERVER, store, clock: { now: () => 10 } });
    let loads = 0;
    const outcome = await cache.fetch({ method: 'resources/read', uri: 'x://a', protocolVersion: V }, async () => {
      loads++;
      return { result: page('mine'), storable: true };
    });
    expect(loads).toBe(0);
    expect(outcome).toMatchObject({ source: 'cache', result: page('theirs') });
    expect(store.calls).not.toContain('set');
  });
});
