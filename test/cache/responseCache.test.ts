/**
 * ResponseCache policy: cases B14 and B16 (R1–R8) of CASES.md, plus in-flight sharing, the
 * generation guard, the six cache modes, stale-while-revalidate, stale-if-error and bounds.
 * Time is a fake monotonic clock; nothing sleeps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryCacheStore } from '../../src/cache/cacheStore.js';
import { KEY_NAMESPACE, serverTag } from '../../src/cache/cacheKey.js';
import { CACHE_MISS_CODE, CacheMissError, isCacheMissError } from '../../src/cache/errors.js';
import { ResponseCache } from '../../src/cache/responseCache.js';
import { type ResponseCacheOptions } from '../../src/cache/options.js';
import type { CacheEvent, LoadOutcome, Loader } from '../../src/cache/types.js';
import type { CacheMode } from '../../src/wire/callOptions.js';
import { CancelledError, ConnectionClosedError, ProtocolError, RpcError } from '../../src/errors/errors.js';
import type { JsonObject } from '../../src/wire/messages.js';

const V = '2026-07-28';
const SERVER = 'https://mcp.example.com/mcp';

afterEach(() => {
  vi.restoreAllMocks();
});

function fakeClock(start = 1_000) {
  let t = start;
  return {
    clock: { now: () => t },
    advance(ms: number) {
      t += ms;
    },
    get now() {
      return t;
    },
  };
}

/** Lets pending promise chains (background refreshes) run to completion; no timers involved. */
async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A loader that answers with `make()` and records each call and its signal. */
function loader(make: () => JsonObject | Promise<JsonObject>, extra: Partial<LoadOutcome> = {}) {
  const signals: Array<AbortSignal | undefined> = [];
  const load: Loader = async (signal) => {
    signals.push(signal);
    return { result: await make(), storable: true, ...extra };
  };
  return {
    load,
    signals,
    get calls() {
      return signals.length;
    },
  };
}

/** A cache with a fake clock and an event log. */
function setup(options: Partial<ResponseCacheOptions> = {}) {
  const time = fakeClock();
  const events: CacheEvent[] = [];
  const errors: Error[] = [];
  const cache = new ResponseCache({
    serverIdentity: SERVER,
    clock: time.clock,
    onEvent: (e) => events.push(e),
    onError: (e) => errors.push(e),
    ...options,
  });
  return { cache, time, events, errors, types: () => events.map(describeEvent) };
}

function describeEvent(e: CacheEvent): string {
  switch (e.type) {
    case 'hit':
    case 'evict':
    case 'scope-mismatch':
      return e.type;
    case 'miss':
      return `miss:${e.reason}${e.joined ? ':joined' : ''}`;
    case 'stale':
      return `stale:${e.reason}`;
    case 'store':
      return `store:${e.scope}:${e.ttlMs}`;
    case 'skip':
      return `skip:${e.reason}`;
    case 'invalidate':
      return `invalidate:${e.target.kind}:${e.removed}`;
  }
}

const tools = (...names: string[]) => names.map((name) => ({ name, inputSchema: { type: 'object' } }));
const listTools = (mode?: CacheMode) => ({
  method: 'tools/list',
  protocolVersion: V,
  ...(mode !== undefined && { mode }),
});
const read = (uri: string, mode?: CacheMode, signal?: AbortSignal) => ({
  method: 'resources/read',
  uri,
  protocolVersion: V,
  ...(mode !== undefined && { mode }),
  ...(signal !== undefined && { signal }),
});
const contents = (uri: string, text: string, ttlMs: unknown = 60_000, cacheScope: unknown = 'private') => ({
  resultType: 'complete',
  contents: [{ uri, text }],
  ttlMs,
  cacheScope,
});

describe('B14: private results are partitioned by principal and by server', () => {
  const adminList = {
    resultType: 'complete',
    tools: tools('admin_reset', 'search'),
    ttlMs: 600_000,
    cacheScope: 'private',
  };
  const userList = { resultType: 'complete', tools: tools('search'), ttlMs: 600_000, cacheScope: 'private' };
  const prompts = { resultType: 'complete', prompts: [{ name: 'greet' }], ttlMs: 600_000, cacheScope: 'public' };

  it("B14 A's private tools/list is never served to B; B goes to the wire and sees only search", async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore();
    const a = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'subject-A' });
    const b = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'subject-B' });
    const serverA = loader(() => structuredClone(adminList));
    const serverB = loader(() => structuredClone(userList));

    expect((await a.fetch(listTools(), serverA.load)).source).toBe('network');
    expect((await a.fetch(listTools(), serverA.load)).source).toBe('cache');
    const seenByB = await b.fetch(listTools(), serverB.load);
    expect(seenByB.source).toBe('network');
    expect((seenByB.result['tools'] as Array<{ name: string }>).map((t) => t.name)).toEqual(['search']);
    expect(serverA.calls).toBe(1);
    expect(serverB.calls).toBe(1);
    // and B's own entry serves B afterwards, still without admin_reset
    const again = await b.fetch(listTools(), serverB.load);
    expect(again.source).toBe('cache');
    expect(JSON.stringify(again.result)).not.toContain('admin_reset');
  });

  it("B14 A's public prompts/list may be served to B from the shared store", async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore();
    const a = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'subject-A' });
    const b = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'subject-B' });
    const server = loader(() => structuredClone(prompts));
    await a.fetch({ method: 'prompts/list', protocolVersion: V }, server.load);
    const forB = await b.fetch({ method: 'prompts/list', protocolVersion: V }, server.load);
    expect(forB.source).toBe('cache');
    expect(server.calls).toBe(1);
  });

  it('B14 the same principal on two servers never shares entries', async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore();
    const one = new ResponseCache({
      serverIdentity: SERVER,
      store: shared,
      clock: time.clock,
      authContext: 'subject-A',
    });
    const two = new ResponseCache({
      serverIdentity: 'stdio:node other.js',
      store: shared,
      clock: time.clock,
      authContext: 'subject-A',
    });
    const server = loader(() => structuredClone(adminList));
    const publicServer = loader(() => structuredClone(prompts));
    await one.fetch(listTools(), server.load);
    await one.fetch({ method: 'prompts/list', protocolVersion: V }, publicServer.load);
    expect((await two.fetch(listTools(), server.load)).source).toBe('network');
    expect((await two.fetch({ method: 'prompts/list', protocolVersion: V }, publicServer.load)).source).toBe('network');
    expect(server.calls).toBe(2);
    expect(publicServer.calls).toBe(2);
  });

  it("B14 the principal key is a stable id: a token refresh keeps A's entries, and no token or id is in any key or event", async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore();
    const events: CacheEvent[] = [];
    let token = 'AT_A_first';
    const session = { subject: 'alice@example.com', token: () => token };
    const a = new ResponseCache({
      serverIdentity: SERVER,
      store: shared,
      clock: time.clock,
      authContext: () => session.subject,
      onEvent: (e) => events.push(e),
    });
    const server = loader(() => structuredClone(adminList));
    await a.fetch(listTools(), server.load);
    token = 'AT_A_refreshed';
    expect(session.token()).toBe('AT_A_refreshed');
    expect((await a.fetch(listTools(), server.load)).source).toBe('cache');
    expect(server.calls).toBe(1);
    const visible = JSON.stringify([...shared.keys(''), events]);
    expect(visible).not.toContain('alice');
    expect(visible).not.toContain('AT_A');
  });

  it('B14 a credential as auth context is hashed; a new credential is a new partition', async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore();
    let token = 'AT_A_first';
    const a = new ResponseCache({
      serverIdentity: SERVER,
      store: shared,
      clock: time.clock,
      authContext: () => ({ credential: token }),
    });
    const server = loader(() => structuredClone(adminList));
    await a.fetch(listTools(), server.load);
    expect(shared.keys('').join()).not.toContain('AT_A');
    token = 'AT_A_second';
    expect((await a.fetch(listTools(), server.load)).source).toBe('network');
    expect(server.calls).toBe(2);
  });

  it('B14 with a shared store and no principal configured, private results are not cached', async () => {
    const { cache, types } = setup({ store: new MemoryCacheStore() });
    const server = loader(() => structuredClone(adminList));
    await cache.fetch(listTools(), server.load);
    await cache.fetch(listTools(), server.load);
    expect(server.calls).toBe(2);
    expect(types()).toEqual([
      'miss:absent',
      'skip:private-without-auth-context',
      'miss:absent',
      'skip:private-without-auth-context',
    ]);
    // public results are still cached
    const publicServer = loader(() => structuredClone(prompts));
    await cache.fetch({ method: 'prompts/list', protocolVersion: V }, publicServer.load);
    expect((await cache.fetch({ method: 'prompts/list', protocolVersion: V }, publicServer.load)).source).toBe('cache');
  });

  it('B14 with its own store and no principal, private results are cached in the anonymous partition', async () => {
    const { cache, types } = setup();
    const server = loader(() => structuredClone(adminList));
    await cache.fetch(listTools(), server.load);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('cache');
    expect(types()).toEqual(['miss:absent', 'store:private:600000', 'hit']);
    expect(cache.store.keys('') as string[]).toEqual([
      JSON.stringify([KEY_NAMESPACE, serverTag(SERVER), 'tools/list', null, V, 'private:anonymous']),
    ]);
  });

  it('B14 sharedStore: true forbids the anonymous partition even for the default store', async () => {
    const { cache } = setup({ sharedStore: true });
    const server = loader(() => structuredClone(adminList));
    await cache.fetch(listTools(), server.load);
    await cache.fetch(listTools(), server.load);
    expect(server.calls).toBe(2);
  });
});

describe('B16: TTL edge values, page combination, MRTR results', () => {
  const list = (ttlMs: unknown, cacheScope: unknown = 'public') =>
    ttlMs === 'absent' ? { tools: tools('a') } : { resultType: 'complete', tools: tools('a'), ttlMs, cacheScope };

  it.each([
    ['R1 ttlMs 0', list(0)],
    ['R2 no hints (legacy server)', list('absent')],
    ['R3 ttlMs -5', list(-5)],
    ['R4 ttlMs "60000" (string, not parsed)', list('60000')],
  ])('%s is immediately stale: the second call loads again', async (_label, result) => {
    const { cache, types } = setup();
    const server = loader(() => structuredClone(result));
    const first = await cache.fetch(listTools(), server.load);
    expect(first.ttlMs).toBe(0);
    const second = await cache.fetch(listTools(), server.load);
    expect(second.source).toBe('network');
    expect(server.calls).toBe(2);
    const scope = (result as { cacheScope?: string }).cacheScope === 'public' ? 'public' : 'private';
    expect(types()).toEqual(['miss:absent', `store:${scope}:0`, 'miss:stale', `store:${scope}:0`]);
  });

  it('R5 ttlMs 1e15 is capped at 24 h: fresh at 24h-1ms, stale at 24h', async () => {
    const { cache, time } = setup();
    const server = loader(() => structuredClone(list(1e15)));
    const first = await cache.fetch(listTools(), server.load);
    expect(first.ttlMs).toBe(86_400_000);
    time.advance(86_400_000 - 1);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('cache');
    time.advance(1);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('network');
    expect(server.calls).toBe(2);
  });

  it('R5 the cap is configurable (maxTtlMs)', async () => {
    const { cache } = setup({ maxTtlMs: 1_000 });
    const server = loader(() => structuredClone(list(600_000)));
    expect((await cache.fetch(listTools(), server.load)).ttlMs).toBe(1_000);
  });

  it('R6 page1 {300000, public} + page2 {5000, private}: the combined list is private, fresh ≤ 5 s, mismatch reported once', async () => {
    const { cache, time, types, errors } = setup({ authContext: 'subject-A' });
    const page1 = { resultType: 'complete', tools: tools('a'), ttlMs: 300_000, cacheScope: 'public', nextCursor: 'p2' };
    const page2 = { resultType: 'complete', tools: tools('b'), ttlMs: 5_000, cacheScope: 'private' };
    const p1 = loader(() => structuredClone(page1));
    const p2 = loader(() => structuredClone(page2));

    const walkAll = async () => {
      const walk = cache.walkList({ method: 'tools/list', protocolVersion: V });
      const first = await walk.page(undefined, p1.load);
      const second = await walk.page(first.result['nextCursor'] as string, p2.load);
      return { summary: await walk.commit(), sources: [first.source, second.source] };
    };

    const one = await walkAll();
    expect(one.summary).toEqual({
      scope: 'private',
      scopeMismatch: true,
      freshUntil: time.now + 5_000,
      ttlMs: 5_000,
      pages: 2,
      stored: 2,
    });
    expect(types()).toEqual([
      'miss:absent',
      'miss:absent',
      'scope-mismatch',
      'store:private:5000',
      'store:private:5000',
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
    expect(errors[0]).toMatchObject({ data: { method: 'tools/list', value: { publicPages: 1, privatePages: 1 } } });

    time.advance(4_999);
    const two = await walkAll();
    expect(two.sources).toEqual(['cache', 'cache']);
    expect(p1.calls + p2.calls).toBe(2);

    time.advance(1); // 5 s after the first walk: the whole list is stale, page 1 included
    const three = await walkAll();
    expect(three.sources).toEqual(['network', 'network']);
    expect(p1.calls).toBe(2);
    expect(errors).toHaveLength(2); // once per walk that saw the disagreement

    // The public page 1 was stored as private: another principal does not get it.
    const b = new ResponseCache({
      serverIdentity: SERVER,
      store: cache.store,
      sharedStore: true,
      clock: time.clock,
      authContext: 'subject-B',
    });
    expect((await b.fetch(listTools(), p1.load)).source).toBe('network');
  });

  it('R6 a walk whose pages agree stores each page with the list expiry and keeps the scope', async () => {
    const { cache, time, types } = setup();
    const p1 = loader(() => ({
      resultType: 'complete',
      tools: tools('a'),
      ttlMs: 300_000,
      cacheScope: 'public',
      nextCursor: '',
    }));
    const p2 = loader(() => ({ resultType: 'complete', tools: tools('b'), ttlMs: 5_000, cacheScope: 'public' }));
    const walk = cache.walkList({ method: 'tools/list', protocolVersion: V });
    await walk.page(undefined, p1.load);
    time.advance(100);
    await walk.page('', p2.load); // "" is a real cursor
    const summary = await walk.commit();
    expect(summary).toMatchObject({
      scope: 'public',
      scopeMismatch: false,
      freshUntil: 1_000 + 100 + 5_000,
      stored: 2,
    });
    expect(types()).toEqual(['miss:absent', 'miss:absent', 'store:public:5100', 'store:public:5000']);
    // commit is idempotent
    expect(await walk.commit()).toBe(summary);
  });

  it('R6 a walk that reuses cached pages shortens their expiry to the list expiry', async () => {
    const { cache, time, types, events } = setup();
    const p1 = loader(() => ({
      resultType: 'complete',
      tools: tools('a'),
      ttlMs: 300_000,
      cacheScope: 'public',
      nextCursor: 'p2',
    }));
    const p2 = loader(() => ({ resultType: 'complete', tools: tools('b'), ttlMs: 5_000, cacheScope: 'public' }));
    await cache.fetch(listTools(), p1.load); // page 1 alone, stored with its own TTL
    events.length = 0;
    time.advance(1_000);
    const walk = cache.walkList({ method: 'tools/list', protocolVersion: V });
    expect((await walk.page(undefined, p1.load)).source).toBe('cache');
    await walk.page('p2', p2.load);
    const summary = await walk.commit();
    expect(summary.freshUntil).toBe(1_000 + 1_000 + 5_000);
    expect(types()).toEqual(['hit', 'miss:absent', 'store:public:6000', 'store:public:5000']);
  });

  it('R6 with a shared store and no principal, a mixed-scope list leaves no public page behind', async () => {
    const { cache, types } = setup({ store: new MemoryCacheStore() });
    const p1 = loader(() => ({
      resultType: 'complete',
      tools: tools('a'),
      ttlMs: 300_000,
      cacheScope: 'public',
      nextCursor: 'p2',
    }));
    const p2 = loader(() => ({ resultType: 'complete', tools: tools('b'), ttlMs: 5_000, cacheScope: 'private' }));
    await cache.fetch(listTools(), p1.load); // page 1 alone: public, stored
    const walk = cache.walkList({ method: 'tools/list', protocolVersion: V });
    expect((await walk.page(undefined, p1.load)).source).toBe('cache');
    await walk.page('p2', p2.load);
    expect(await walk.commit()).toMatchObject({ scope: 'private', scopeMismatch: true, stored: 0 });
    expect(types()).toEqual([
      'miss:absent',
      'store:public:300000',
      'hit',
      'miss:absent',
      'scope-mismatch',
      'skip:private-without-auth-context',
      'skip:private-without-auth-context',
    ]);
    expect(cache.store.keys('')).toEqual([]);
  });

  it('walk pages in mode no-store are never stored; only-if-cached names the missing cursor', async () => {
    const { cache, types } = setup();
    const p1 = loader(() => ({
      resultType: 'complete',
      tools: tools('a'),
      ttlMs: 300_000,
      cacheScope: 'public',
      nextCursor: 'p2',
    }));
    const walk = cache.walkList({ method: 'tools/list', protocolVersion: V, mode: 'no-store' });
    await walk.page(undefined, p1.load);
    expect(await walk.commit()).toMatchObject({ pages: 1, stored: 0 });
    expect(types()).toEqual(['skip:no-store']);
    await expect(walk.page('p2', p1.load)).rejects.toThrow(/already committed/);
    const cachedOnly = cache.walkList({ method: 'tools/list', protocolVersion: V, mode: 'only-if-cached' });
    await expect(cachedOnly.page('p2', p1.load)).rejects.toMatchObject({
      code: -33005,
      data: { method: 'tools/list', cursor: 'p2' },
    });
    expect(p1.calls).toBe(1);
  });

  it('concurrent walks share page loads; a walk page wait honours its own signal', async () => {
    const { cache } = setup();
    const gate = deferred<JsonObject>();
    const p1 = loader(() => gate.promise);
    const one = cache.walkList({ method: 'prompts/list', protocolVersion: V });
    const two = cache.walkList({ method: 'prompts/list', protocolVersion: V });
    const controller = new AbortController();
    const first = one.page(undefined, p1.load, controller.signal);
    const second = two.page(undefined, p1.load);
    await flushMicrotasks();
    expect(p1.calls).toBe(1);
    controller.abort('bye');
    await expect(first).rejects.toBeInstanceOf(CancelledError);
    expect(p1.signals[0]?.aborted).toBe(false);
    gate.resolve({ resultType: 'complete', prompts: [], ttlMs: 1_000, cacheScope: 'public' });
    expect((await second).source).toBe('network');
    expect(await two.commit()).toMatchObject({ stored: 1, scope: 'public' });
  });

  it('walkList rejects a non-list method with InvalidArgumentError', () => {
    const { cache } = setup();
    expect(() => cache.walkList({ method: 'resources/read' as never, protocolVersion: V })).toThrow(/expected one of/);
  });

  it('R7 a resources/read that completed on an MRTR retry (storable: false) is not cached', async () => {
    const { cache, types } = setup({ authContext: 'subject-A' });
    const server = loader(() => contents('file:///r7', 'x', 600_000), { storable: false });
    await cache.fetch(read('file:///r7'), server.load);
    await cache.fetch(read('file:///r7'), server.load);
    expect(server.calls).toBe(2);
    expect(types()).toEqual(['miss:absent', 'skip:not-storable', 'miss:absent', 'skip:not-storable']);
  });

  it('R7 input_required results are never stored', async () => {
    const { cache, types } = setup();
    const server = loader(() => ({ resultType: 'input_required', inputRequests: {}, ttlMs: 600_000 }));
    const outcome = await cache.fetch(read('file:///ir'), server.load);
    expect(outcome.source).toBe('network');
    expect(types()).toEqual(['miss:absent', 'skip:input-required']);
    expect(Object.isFrozen(outcome.result)).toBe(false);
  });

  it('R8 cacheScope "shared" is treated as private', async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore();
    const a = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'subject-A' });
    const b = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'subject-B' });
    const server = loader(() => ({ resultType: 'complete', tools: tools('a'), ttlMs: 60_000, cacheScope: 'shared' }));
    expect((await a.fetch(listTools(), server.load)).scope).toBe('private');
    expect((await a.fetch(listTools(), server.load)).source).toBe('cache');
    expect((await b.fetch(listTools(), server.load)).source).toBe('network');
    expect(server.calls).toBe(2);
  });

  it("freshness uses the monotonic clock: a wall-clock jump does not extend (or cut) an entry's life", async () => {
    const { cache, time } = setup();
    const server = loader(() => ({ resultType: 'complete', tools: tools('a'), ttlMs: 60_000, cacheScope: 'public' }));
    await cache.fetch(listTools(), server.load);
    const realNow = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(realNow - 86_400_000); // wall clock jumps back a day
    time.advance(60_000);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('network');
    vi.spyOn(Date, 'now').mockReturnValue(realNow + 86_400_000); // and forward a day
    time.advance(59_999);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('cache');
    expect(server.calls).toBe(2);
  });
});

describe('in-flight sharing', () => {
  it('two concurrent identical reads go to the wire once and both get the same result', async () => {
    const { cache, types } = setup();
    const gate = deferred<JsonObject>();
    const server = loader(() => gate.promise);
    const first = cache.fetch(read('file:///a'), server.load);
    const second = cache.fetch(read('file:///a'), server.load);
    expect(server.calls).toBe(1);
    gate.resolve(contents('file:///a', 'hello'));
    const [x, y] = await Promise.all([first, second]);
    expect(x.result).toBe(y.result);
    expect(x.source).toBe('network');
    expect(types()).toEqual(['miss:absent', 'miss:absent:joined', 'store:private:60000']);
  });

  it('one caller aborting ends only its own wait; the load is aborted when every waiter has aborted', async () => {
    const { cache } = setup();
    const gate = deferred<JsonObject>();
    const server = loader(() => gate.promise);
    const one = new AbortController();
    const two = new AbortController();
    const first = cache.fetch(read('file:///a', 'default', one.signal), server.load);
    const second = cache.fetch(read('file:///a', 'default', two.signal), server.load);
    const third = cache.fetch(read('file:///a'), server.load); // no signal: never aborts
    one.abort('user left');
    const thrown = await first.catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CancelledError);
    expect(thrown).toMatchObject({ code: -32800, cause: 'user left', data: { method: 'resources/read' } });
    expect(server.signals[0]?.aborted).toBe(false);
    two.abort('also gone');
    await expect(second).rejects.toBeInstanceOf(CancelledError);
    expect(server.signals[0]?.aborted).toBe(false); // the third caller is still waiting
    gate.resolve(contents('file:///a', 'hello'));
    expect((await third).result['contents']).toEqual([{ uri: 'file:///a', text: 'hello' }]);
    expect(server.calls).toBe(1);
  });

  it('the shared load is aborted once its last waiter aborts, and a later caller starts a new load', async () => {
    const { cache } = setup();
    const server = loader(
      () =>
        new Promise<JsonObject>((_resolve, reject) => {
          server.signals
            .at(-1)
            ?.addEventListener('abort', () => reject(new CancelledError('resources/read', 'aborted')));
        }),
    );
    const one = new AbortController();
    const two = new AbortController();
    const first = cache.fetch(read('file:///a', 'default', one.signal), server.load);
    const second = cache.fetch(read('file:///a', 'default', two.signal), server.load);
    one.abort();
    two.abort();
    await expect(first).rejects.toBeInstanceOf(CancelledError);
    await expect(second).rejects.toBeInstanceOf(CancelledError);
    expect(server.signals[0]?.aborted).toBe(true);
    const fresh = loader(() => contents('file:///a', 'new'));
    expect((await cache.fetch(read('file:///a'), fresh.load)).source).toBe('network');
    expect(fresh.calls).toBe(1);
  });

  it('an already-aborted signal rejects at once without a load', async () => {
    const { cache } = setup();
    const server = loader(() => contents('file:///a', 'x'));
    const controller = new AbortController();
    controller.abort('before');
    await expect(cache.fetch(read('file:///a', 'default', controller.signal), server.load)).rejects.toMatchObject({
      code: -32800,
      cause: 'before',
    });
    expect(server.calls).toBe(0);
  });

  it('different principals never share an in-flight load', async () => {
    const time = fakeClock();
    let who = 'A';
    const cache = new ResponseCache({ serverIdentity: SERVER, clock: time.clock, authContext: () => who });
    const gate = deferred<JsonObject>();
    const server = loader(() => gate.promise);
    const a = cache.fetch(listTools(), server.load);
    who = 'B';
    const b = cache.fetch(listTools(), server.load);
    expect(server.calls).toBe(2);
    gate.resolve({ resultType: 'complete', tools: [], ttlMs: 1, cacheScope: 'private' });
    await Promise.all([a, b]);
  });

  it('a failed shared load rejects every waiter with the same error', async () => {
    const { cache } = setup();
    const gate = deferred<JsonObject>();
    const server = loader(() => gate.promise);
    const first = cache.fetch(read('file:///a'), server.load);
    const second = cache.fetch(read('file:///a'), server.load);
    const error = new ConnectionClosedError('gone', { reason: 'closed' });
    gate.reject(error);
    await expect(first).rejects.toBe(error);
    await expect(second).rejects.toBe(error);
  });
});

describe('generation guard and invalidation', () => {
  it('invalidate during a load: the caller gets the value, the store does not', async () => {
    const { cache, types } = setup();
    const gate = deferred<JsonObject>();
    const server = loader(() => gate.promise);
    const pending = cache.fetch(read('file:///doc'), server.load);
    expect(await cache.invalidateUri('file:///doc')).toBe(0);
    gate.resolve(contents('file:///doc', 'old'));
    const outcome = await pending;
    expect(outcome.source).toBe('network');
    expect(outcome.result['contents']).toEqual([{ uri: 'file:///doc', text: 'old' }]);
    expect(types()).toEqual(['miss:absent', 'invalidate:uri:0', 'skip:invalidated']);
    const next = loader(() => contents('file:///doc', 'new'));
    expect((await cache.fetch(read('file:///doc'), next.load)).source).toBe('network');
  });

  it('a request after an invalidation does not join the invalidated load', async () => {
    const { cache } = setup();
    const gate = deferred<JsonObject>();
    const server = loader(() => gate.promise);
    const before = cache.fetch(listTools(), server.load);
    await cache.invalidateMethod('tools/list');
    const after = cache.fetch(listTools(), server.load);
    expect(server.calls).toBe(2);
    gate.resolve({ resultType: 'complete', tools: [], ttlMs: 60_000, cacheScope: 'public' });
    await Promise.all([before, after]);
  });

  it('invalidateUri removes the uri and the uris under it, not siblings that merely share a prefix', async () => {
    const { cache, types } = setup();
    for (const uri of ['file:///a', 'file:///a/b', 'file:///a/b/c', 'file:///ab', 'file:///b']) {
      await cache.fetch(read(uri), loader(() => contents(uri, uri)).load);
    }
    expect(await cache.invalidateUri('file:///a')).toBe(3);
    const server = loader(() => contents('x', 'x'));
    expect((await cache.fetch(read('file:///ab'), server.load)).source).toBe('cache');
    expect((await cache.fetch(read('file:///b'), server.load)).source).toBe('cache');
    expect((await cache.fetch(read('file:///a/b'), server.load)).source).toBe('network');
    expect(types()).toContain('invalidate:uri:3');
    expect(cache.stats().invalidations).toBe(1);
  });

  it('invalidateMethod drops every page of a list for every principal, and nothing else', async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore();
    const a = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'A' });
    const b = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'B' });
    const page = (scope: string) =>
      loader(() => ({ resultType: 'complete', tools: [], ttlMs: 60_000, cacheScope: scope }));
    await a.fetch(listTools(), page('private').load);
    await a.fetch({ ...listTools(), cursor: 'p2' }, page('private').load);
    await b.fetch(listTools(), page('private').load);
    await a.fetch({ method: 'prompts/list', protocolVersion: V }, page('public').load);
    expect(await a.invalidateMethod('tools/list')).toBe(3);
    expect(shared.size).toBe(1);
  });

  it("invalidateList(method, { authContext: 'current' }) drops this principal's and public pages only", async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore();
    const a = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'A' });
    const b = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'B' });
    const page = (scope: string) =>
      loader(() => ({ resultType: 'complete', tools: [], ttlMs: 60_000, cacheScope: scope }));
    await a.fetch(listTools(), page('private').load);
    await a.fetch({ ...listTools(), cursor: 'p2' }, page('public').load);
    await b.fetch(listTools(), page('private').load);
    expect(await a.invalidateList('tools/list', { authContext: 'current' })).toBe(2);
    expect((await b.fetch(listTools(), page('private').load)).source).toBe('cache');
  });

  it('invalidateAll removes this server only', async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore();
    const one = new ResponseCache({ serverIdentity: SERVER, store: shared, clock: time.clock, authContext: 'A' });
    const two = new ResponseCache({
      serverIdentity: `${SERVER}/other`,
      store: shared,
      clock: time.clock,
      authContext: 'A',
    });
    await one.fetch(read('file:///x'), loader(() => contents('file:///x', 'x')).load);
    await one.fetch(
      listTools(),
      loader(() => ({ resultType: 'complete', tools: [], ttlMs: 60_000, cacheScope: 'public' })).load,
    );
    await two.fetch(read('file:///x'), loader(() => contents('file:///x', 'x')).load);
    expect(await one.invalidateAll()).toBe(2);
    expect(shared.size).toBe(1);
  });

  it('a list walk invalidated mid-walk stores nothing; restart() starts clean after an invalid cursor', async () => {
    const { cache, types } = setup();
    const p1 = loader(() => ({
      resultType: 'complete',
      tools: tools('a'),
      ttlMs: 60_000,
      cacheScope: 'public',
      nextCursor: 'p2',
    }));
    const p2 = loader(() => ({ resultType: 'complete', tools: tools('b'), ttlMs: 60_000, cacheScope: 'public' }));
    const walk = cache.walkList({ method: 'tools/list', protocolVersion: V });
    await walk.page(undefined, p1.load);
    await cache.invalidateList('tools/list');
    await walk.page('p2', p2.load);
    expect(await walk.commit()).toMatchObject({ stored: 0 });
    expect(types()).toEqual([
      'miss:absent',
      'invalidate:list:0',
      'miss:absent',
      'skip:invalidated',
      'skip:invalidated',
    ]);

    // R9-style restart: a cursor was rejected, so drop every page and walk again from page one
    await cache.fetch(listTools(), p1.load); // a cached page 1
    const again = cache.walkList({ method: 'tools/list', protocolVersion: V });
    await again.page(undefined, p1.load);
    expect(await again.restart()).toBe(1);
    await again.page(undefined, p1.load);
    await again.page('p2', p2.load);
    expect(await again.commit()).toMatchObject({ pages: 2, stored: 2 });
    expect(p1.calls).toBe(3);
  });

  it('invalidateList rejects a non-list method with InvalidArgumentError', async () => {
    const { cache } = setup();
    await expect(cache.invalidateList('resources/read' as never)).rejects.toMatchObject({ code: -32602 });
  });
});

describe('cache modes', () => {
  const fresh = { resultType: 'complete', tools: tools('a'), ttlMs: 10_000, cacheScope: 'public' };

  async function primed(options: Partial<ResponseCacheOptions> = {}) {
    const ctx = setup(options);
    const server = loader(() => structuredClone(fresh));
    await ctx.cache.fetch(listTools(), server.load);
    ctx.events.length = 0;
    return { ...ctx, server };
  }

  it('default: fresh hit returns the stored frozen object; stale loads', async () => {
    const { cache, server, time, types } = await primed();
    const hit = await cache.fetch(listTools(), server.load);
    const again = await cache.fetch(listTools(), server.load);
    expect(hit.source).toBe('cache');
    expect(hit.result).toBe(again.result);
    expect(Object.isFrozen(hit.result)).toBe(true);
    expect(Object.isFrozen((hit.result['tools'] as object[])[0])).toBe(true);
    time.advance(10_000);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('network');
    expect(types()).toEqual(['hit', 'hit', 'miss:stale', 'store:public:10000']);
    expect(server.calls).toBe(2);
  });

  it('no-store: neither reads nor writes, and does not share in-flight loads', async () => {
    const { cache, server, types } = await primed();
    const outcome = await cache.fetch(listTools('no-store'), server.load);
    expect(outcome.source).toBe('network');
    expect(Object.isFrozen(outcome.result)).toBe(false);
    expect(server.calls).toBe(2);
    expect(types()).toEqual(['skip:no-store']);
    const gate = deferred<JsonObject>();
    const slow = loader(() => gate.promise);
    const x = cache.fetch(listTools('no-store'), slow.load);
    const y = cache.fetch(listTools('no-store'), slow.load);
    expect(slow.calls).toBe(2);
    gate.resolve(structuredClone(fresh));
    await Promise.all([x, y]);
  });

  it("no-store passes the caller's own signal to the load", async () => {
    const { cache, server } = await primed();
    const controller = new AbortController();
    await cache.fetch({ ...listTools('no-store'), signal: controller.signal }, server.load);
    expect(server.signals.at(-1)).toBe(controller.signal);
  });

  it.each(['reload', 'no-cache'] as const)('%s: always loads, then stores', async (mode) => {
    const { cache, server, types } = await primed();
    expect((await cache.fetch(listTools(mode), server.load)).source).toBe('network');
    expect(server.calls).toBe(2);
    expect(types()).toEqual(['miss:mode', 'store:public:10000']);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('cache');
  });

  it('force-cache: any entry, fresh or stale; loads only when there is none', async () => {
    const { cache, server, time, types } = await primed();
    time.advance(1_000_000);
    const stale = await cache.fetch(listTools('force-cache'), server.load);
    expect(stale.source).toBe('stale');
    expect(server.calls).toBe(1);
    const other = loader(() => contents('file:///new', 'x'));
    expect((await cache.fetch(read('file:///new', 'force-cache'), other.load)).source).toBe('network');
    expect(types()).toEqual(['stale:mode', 'miss:absent', 'store:private:60000']);
  });

  it('only-if-cached: any entry, else CacheMissError (-33005) without a load', async () => {
    const { cache, server, time, types } = await primed();
    expect((await cache.fetch(listTools('only-if-cached'), server.load)).source).toBe('cache');
    time.advance(1_000_000);
    expect((await cache.fetch(listTools('only-if-cached'), server.load)).source).toBe('stale');
    const thrown = await cache.fetch(read('file:///none', 'only-if-cached'), server.load).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CacheMissError);
    expect(isCacheMissError(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: CACHE_MISS_CODE,
      local: true,
      data: { method: 'resources/read', uri: 'file:///none' },
    });
    expect(CACHE_MISS_CODE).toBe(-33005);
    const page = await cache
      .fetch({ ...listTools('only-if-cached'), cursor: '' }, server.load)
      .catch((e: unknown) => e);
    expect(page).toMatchObject({ data: { method: 'tools/list', cursor: '' } });
    expect(server.calls).toBe(1);
    expect(types()).toEqual(['hit', 'stale:mode', 'miss:absent', 'miss:absent']);
    expect(cache.stats()).toEqual({ hits: 1, misses: 3, staleServes: 1, evictions: 0, stores: 1, invalidations: 0 });
  });

  it('methods outside the cacheable set go straight to the load', async () => {
    const { cache, types } = setup();
    const server = loader(() => ({ content: [], ttlMs: 60_000, cacheScope: 'public' }));
    await cache.fetch({ method: 'tools/call', protocolVersion: V }, server.load);
    await cache.fetch({ method: 'tools/call', protocolVersion: V }, server.load);
    expect(server.calls).toBe(2);
    expect(types()).toEqual(['skip:not-cacheable', 'skip:not-cacheable']);
  });
});

describe('stale-while-revalidate', () => {
  it('serves a recently stale entry at once and refreshes it once in the background', async () => {
    const { cache, time, types } = setup({ staleWhileRevalidateMs: 10_000 });
    let version = 0;
    const gate = deferred<void>();
    const server = loader(async () => {
      version++;
      if (version > 1) await gate.promise;
      return { resultType: 'complete', tools: tools(`v${version}`), ttlMs: 1_000, cacheScope: 'public' };
    });
    await cache.fetch(listTools(), server.load);
    time.advance(1_500);
    const a = await cache.fetch(listTools(), server.load);
    const b = await cache.fetch(listTools(), server.load);
    expect([a.source, b.source]).toEqual(['stale', 'stale']);
    expect(a.result['tools']).toEqual(tools('v1'));
    expect(server.calls).toBe(2); // one background refresh for both
    expect(server.signals[1]?.aborted).toBe(false);
    gate.resolve();
    await flushMicrotasks();
    expect(types().filter((t) => t === 'store:public:1000')).toHaveLength(2);
    const c = await cache.fetch(listTools(), server.load);
    expect(c.source).toBe('cache');
    expect(c.result['tools']).toEqual(tools('v2'));
    expect(types()).toEqual([
      'miss:absent',
      'store:public:1000',
      'stale:revalidate',
      'stale:revalidate',
      'store:public:1000',
      'hit',
    ]);
    expect(cache.stats()).toMatchObject({ hits: 1, staleServes: 2, misses: 1, stores: 2 });
  });

  it('past the window, a stale entry is reloaded in the foreground', async () => {
    const { cache, time } = setup({ staleWhileRevalidateMs: 10_000 });
    const server = loader(() => ({ resultType: 'complete', tools: [], ttlMs: 1_000, cacheScope: 'public' }));
    await cache.fetch(listTools(), server.load);
    time.advance(1_000 + 10_000);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('network');
  });

  it('a failed background refresh goes to onError and leaves the entry', async () => {
    const { cache, time, errors } = setup({ staleWhileRevalidateMs: 10_000 });
    let fail = false;
    const server = loader(() => {
      if (fail) throw new ConnectionClosedError('down', { reason: 'down' });
      return { resultType: 'complete', tools: [], ttlMs: 1_000, cacheScope: 'public' };
    });
    await cache.fetch(listTools(), server.load);
    fail = true;
    time.advance(1_500);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('stale');
    await flushMicrotasks();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ConnectionClosedError);
    expect((await cache.fetch(listTools(), server.load)).source).toBe('stale');
  });

  it('dispose() aborts a background refresh', async () => {
    const { cache, time } = setup({ staleWhileRevalidateMs: 10_000 });
    const gate = deferred<JsonObject>();
    let first = true;
    const server = loader(() => {
      if (first) {
        first = false;
        return { resultType: 'complete', tools: [], ttlMs: 1_000, cacheScope: 'public' };
      }
      return gate.promise;
    });
    await cache.fetch(listTools(), server.load);
    time.advance(1_500);
    await cache.fetch(listTools(), server.load);
    cache.dispose();
    expect(server.signals[1]?.aborted).toBe(true);
  });

  it('[Symbol.asyncDispose]() disposes: a background refresh is aborted', async () => {
    const { cache, time } = setup({ staleWhileRevalidateMs: 10_000 });
    const gate = deferred<JsonObject>();
    let first = true;
    const server = loader(() => {
      if (first) {
        first = false;
        return { resultType: 'complete', tools: [], ttlMs: 1_000, cacheScope: 'public' };
      }
      return gate.promise;
    });
    await cache.fetch(listTools(), server.load);
    time.advance(1_500);
    await cache.fetch(listTools(), server.load);
    expect(server.signals[1]?.aborted).toBe(false);
    await cache[Symbol.asyncDispose]();
    expect(server.signals[1]?.aborted).toBe(true);
  });
});

describe('stale-if-error', () => {
  async function primed(staleIfErrorMs: number) {
    const ctx = setup({ staleIfErrorMs });
    let failure: { error: unknown } | undefined;
    const server = loader(() => {
      if (failure !== undefined) throw failure.error;
      return { resultType: 'complete', tools: tools('good'), ttlMs: 1_000, cacheScope: 'public' };
    });
    await ctx.cache.fetch(listTools(), server.load);
    ctx.events.length = 0;
    return {
      ...ctx,
      server,
      failWith: (e: unknown) => {
        failure = { error: e };
      },
    };
  }

  it('a failed load serves the last good value, flagged stale with the error attached', async () => {
    const { cache, time, failWith, types } = await primed(60_000);
    const error = new ConnectionClosedError('down', { reason: 'down' });
    failWith(error);
    time.advance(2_000);
    const outcome = await cache.fetch(listTools(), loaderOf(error));
    expect(outcome).toMatchObject({ source: 'stale', error, result: { tools: tools('good') } });
    expect(types()).toEqual(['miss:stale', 'stale:error']);
    expect(cache.stats()).toMatchObject({ misses: 2, staleServes: 1 });
  });

  it('server errors other than -32603 are not hidden', async () => {
    const { cache, time } = await primed(60_000);
    time.advance(2_000);
    const invalid = new RpcError({ code: -32602, message: 'Invalid params' }, 'tools/list');
    await expect(cache.fetch(listTools(), loaderOf(invalid))).rejects.toBe(invalid);
    const internal = new RpcError({ code: -32603, message: 'Internal error' }, 'tools/list');
    expect((await cache.fetch(listTools(), loaderOf(internal))).source).toBe('stale');
  });

  it('outside the window, or when off, the error is thrown', async () => {
    const { cache, time } = await primed(5_000);
    time.advance(1_000 + 5_000);
    const error = new ConnectionClosedError('down', { reason: 'down' });
    await expect(cache.fetch(listTools(), loaderOf(error))).rejects.toBe(error);
    const off = await primed(0);
    off.time.advance(2_000);
    await expect(off.cache.fetch(listTools(), loaderOf(error))).rejects.toBe(error);
  });

  it("the caller's own abort is never turned into a stale answer", async () => {
    const { cache, time } = await primed(60_000);
    time.advance(2_000);
    const controller = new AbortController();
    const pending = cache.fetch(
      { ...listTools(), signal: controller.signal },
      () => new Promise<LoadOutcome>(() => {}),
    );
    controller.abort('stop');
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
  });
});

function loaderOf(error: unknown): Loader {
  return () => Promise.reject(error);
}

describe('bounds and evictions', () => {
  it('entry bound: the least recently used entry is evicted, with an evict event and counter', async () => {
    const { cache, types } = setup({ store: new MemoryCacheStore({ maxEntries: 2 }), authContext: 'A' });
    for (const uri of ['file:///1', 'file:///2', 'file:///3'])
      await cache.fetch(read(uri), loader(() => contents(uri, 'x')).load);
    expect(types()).toEqual([
      'miss:absent',
      'store:private:60000',
      'miss:absent',
      'store:private:60000',
      'miss:absent',
      'evict',
      'store:private:60000',
    ]);
    expect(cache.stats().evictions).toBe(1);
    const evicted = (cache as unknown as { store: MemoryCacheStore }).store.keys('');
    expect(evicted.some((k) => k.includes('file:///1'))).toBe(false);
  });

  it('byte bound: the caller-supplied size counts; an entry larger than the bound is skipped as too-large', async () => {
    const { cache, types } = setup({ store: new MemoryCacheStore({ maxBytes: 100 }), authContext: 'A' });
    await cache.fetch(read('file:///1'), loader(() => contents('file:///1', 'x'), { bytes: 60 }).load);
    await cache.fetch(read('file:///2'), loader(() => contents('file:///2', 'x'), { bytes: 60 }).load);
    await cache.fetch(read('file:///3'), loader(() => contents('file:///3', 'x'), { bytes: 101 }).load);
    expect(types()).toEqual([
      'miss:absent',
      'store:private:60000',
      'miss:absent',
      'evict',
      'store:private:60000',
      'miss:absent',
      'skip:too-large',
    ]);
    expect(cache.stats()).toMatchObject({ evictions: 1, stores: 2 });
  });

  it('without a caller-supplied size the estimate is used', async () => {
    const { cache, events } = setup();
    await cache.fetch(read('file:///1'), loader(() => contents('file:///1', 'x'.repeat(1000))).load);
    const store = events.find((e) => e.type === 'store');
    expect(store?.type === 'store' && store.bytes).toBeGreaterThan(1000);
    expect(store?.type === 'store' && store.bytes).toBeLessThan(1200);
  });

  it("evictions of another server's entries in a shared store are not counted", async () => {
    const time = fakeClock();
    const shared = new MemoryCacheStore({ maxEntries: 1 });
    const events: CacheEvent[] = [];
    const one = new ResponseCache({
      serverIdentity: SERVER,
      store: shared,
      clock: time.clock,
      authContext: 'A',
      onEvent: (e) => events.push(e),
    });
    const two = new ResponseCache({
      serverIdentity: 'stdio:other',
      store: shared,
      clock: time.clock,
      authContext: 'A',
    });
    await two.fetch(read('file:///1'), loader(() => contents('file:///1', 'x')).load);
    await one.fetch(read('file:///1'), loader(() => contents('file:///1', 'x')).load);
    expect(events.map((e) => e.type)).toEqual(['miss', 'store']);
    expect(one.stats().evictions).toBe(0);
    expect(two.stats().evictions).toBe(1);
  });
});

describe('robustness', () => {
  it('a throwing onEvent is reported to onError and does not break the call', async () => {
    const errors: Error[] = [];
    const cache = new ResponseCache({
      serverIdentity: SERVER,
      clock: fakeClock().clock,
      onEvent: () => {
        throw new Error('listener bug');
      },
      onError: (e) => errors.push(e),
    });
    const outcome = await cache.fetch(listTools(), loader(() => ({ tools: [] })).load);
    expect(outcome.source).toBe('network');
    expect(errors.map((e) => e.message)).toEqual(['listener bug', 'listener bug']);
  });

  it('an async store works the same way', async () => {
    const inner = new MemoryCacheStore();
    const asyncStore = {
      get: async (k: string) => inner.get(k),
      set: async (k: string, e: Parameters<MemoryCacheStore['set']>[1]) => inner.set(k, e),
      delete: async (k: string) => inner.delete(k),
      clear: async () => inner.clear(),
      keys: async (p: string) => inner.keys(p),
    };
    const { cache } = setup({ store: asyncStore, authContext: 'A' });
    const server = loader(() => contents('file:///a', 'x'));
    await cache.fetch(read('file:///a'), server.load);
    expect((await cache.fetch(read('file:///a'), server.load)).source).toBe('cache');
    expect(await cache.invalidateUri('file:///a')).toBe(1);
    expect((await cache.fetch(read('file:///a'), server.load)).source).toBe('network');
  });

  it('a failing store is reported and the call still succeeds', async () => {
    const failing = {
      get: () => {
        throw new Error('get failed');
      },
      set: () => Promise.reject(new Error('set failed')),
      delete: () => undefined,
      clear: () => undefined,
      keys: () => [],
    };
    const { cache, errors, types } = setup({ store: failing, authContext: 'A' });
    const outcome = await cache.fetch(read('file:///a'), loader(() => contents('file:///a', 'x')).load);
    expect(outcome.source).toBe('network');
    expect(errors.map((e) => e.message)).toEqual(['get failed', 'get failed', 'set failed']);
    expect(types()).toEqual(['miss:absent', 'skip:store-error']);
  });

  it('rejects bad options with InvalidArgumentError', () => {
    expect(() => new ResponseCache({ serverIdentity: undefined as never })).toThrow(/serverIdentity/);
    expect(() => new ResponseCache({ serverIdentity: SERVER, maxTtlMs: 0 })).toThrow(/maxTtlMs/);
    expect(() => new ResponseCache({ serverIdentity: SERVER, staleIfErrorMs: -1 })).toThrow(/staleIfErrorMs/);
  });
});
