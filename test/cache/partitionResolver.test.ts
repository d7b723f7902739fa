/**
 * The partition of each request is resolved before its lookup, from the credential the request
 * will be sent with (spec: server/utilities/caching, `cacheScope: "private"`), and the request
 * is then sent with exactly that credential.
 */
import { describe, expect, it } from 'vitest';
import { PartitionResolver } from '../../src/cache/partitionResolver.js';
import { ResponseCache } from '../../src/cache/responseCache.js';
import { MemoryCacheStore } from '../../src/cache/cacheStore.js';
import type { CacheEvent, Loader } from '../../src/cache/types.js';
import type { RequestCredential } from '../../src/transport/transport.js';

const V = '2026-07-28';

const credential = (id: string | undefined): RequestCredential & { replaced: boolean } => ({ id, replaced: false });

describe('PartitionResolver', () => {
  it('a declared auth context decides; when it yields none, the credential of the request does', () => {
    let declared: string | undefined = 'subject-1';
    let sent = 'credential:aa';
    const resolver = new PartitionResolver({
      authContext: () => declared,
      credentials: () => credential(sent),
      sharedStore: true,
    });
    const byDeclared = resolver.resolve(undefined) as { partition: { privateTag: string }; credential: unknown };
    expect(byDeclared.credential).toBeUndefined();
    declared = undefined;
    const first = resolver.resolve(undefined) as { partition: { privateTag: string }; credential: RequestCredential };
    expect(first.credential.id).toBe('credential:aa');
    expect(first.partition.privateTag).toMatch(/^private:[0-9a-f]{32}$/);
    expect(first.partition.privateTag).not.toBe(byDeclared.partition.privateTag);
    sent = 'credential:bb';
    const second = resolver.resolve(undefined) as { partition: { privateTag: string } };
    expect(second.partition.privateTag).not.toBe(first.partition.privateTag);
  });

  it('no credential: the own anonymous partition, or none with a shared store', () => {
    const own = new PartitionResolver({ credentials: () => credential(undefined), sharedStore: false });
    expect((own.resolve(undefined) as { partition: unknown }).partition).toMatchObject({
      privateTag: 'private:anonymous',
    });
    const shared = new PartitionResolver({ credentials: () => credential(undefined), sharedStore: true });
    expect((shared.resolve(undefined) as { partition: unknown }).partition).toMatchObject({ privateTag: undefined });
  });

  it('answers synchronously when the credential is known synchronously, and resolveNow skips an async source', async () => {
    let calls = 0;
    const sync = new PartitionResolver({ credentials: () => credential('credential:aa'), sharedStore: false });
    expect(sync.resolveNow()).toBeDefined();
    const resolver = new PartitionResolver({
      credentials: async () => (calls++, credential('credential:aa')),
      sharedStore: false,
    });
    expect(resolver.resolveNow()).toBeUndefined(); // asked once, learns it is asynchronous
    expect(calls).toBe(1);
    expect(resolver.resolveNow()).toBeUndefined();
    expect(calls).toBe(1);
    await resolver.resolve(undefined);
    expect(calls).toBe(2);
  });
});

describe('ResponseCache with a credential source', () => {
  function setup(credentials: () => RequestCredential | Promise<RequestCredential>) {
    const events: CacheEvent[] = [];
    const cache = new ResponseCache({
      serverIdentity: 'https://mcp.example.com/mcp',
      credentials,
      store: new MemoryCacheStore(),
      onEvent: (event) => events.push(event),
    });
    return { cache, events };
  }

  it('hands the loader the credential it partitioned by, and serves each credential its own entry', async () => {
    let current = credential('credential:alice');
    const { cache } = setup(async () => current);
    const seen: Array<string | undefined> = [];
    const load: Loader = async (_signal, sentWith) => {
      seen.push(sentWith?.id);
      return {
        result: { contents: [{ text: `for ${sentWith?.id}` }], ttlMs: 60_000, cacheScope: 'private' },
        storable: true,
      };
    };
    const alice = await cache.fetch({ method: 'resources/read', uri: 'mem://x', protocolVersion: V }, load);
    current = credential('credential:bob');
    const bob = await cache.fetch({ method: 'resources/read', uri: 'mem://x', protocolVersion: V }, load);
    expect(bob.result).not.toBe(alice.result);
    current = credential('credential:alice');
    const again = await cache.fetch({ method: 'resources/read', uri: 'mem://x', protocolVersion: V }, load);
    expect(again.source).toBe('cache');
    expect(again.result).toBe(alice.result);
    expect(seen).toEqual(['credential:alice', 'credential:bob']);
  });

  it('does not store a result whose request was sent again with another credential', async () => {
    const pinned = credential('credential:alice');
    const { cache, events } = setup(() => pinned);
    const load: Loader = async () => {
      pinned.replaced = true; // the transport got a 401 and the provider gave another credential
      return { result: { contents: [], ttlMs: 60_000, cacheScope: 'private' }, storable: true };
    };
    await cache.fetch({ method: 'resources/read', uri: 'mem://x', protocolVersion: V }, load);
    expect(events).toContainEqual({
      type: 'skip',
      method: 'resources/read',
      param: 'mem://x',
      reason: 'credential-changed',
    });
    expect(cache.stats().stores).toBe(0);
  });

  it('a list walk resolves its credential once and sends every page with it', async () => {
    let n = 0;
    const { cache } = setup(async () => credential(`credential:${++n}`));
    const walk = cache.walkList({ method: 'tools/list', protocolVersion: V });
    const seen: Array<string | undefined> = [];
    const page =
      (next: string | undefined): Loader =>
      async (_signal, sentWith) => {
        seen.push(sentWith?.id);
        return {
          result: { tools: [], ttlMs: 60_000, cacheScope: 'private', ...(next !== undefined && { nextCursor: next }) },
          storable: true,
        };
      };
    await walk.page(undefined, page('p2'));
    await walk.page('p2', page(undefined));
    expect(seen).toEqual(['credential:1', 'credential:1']);
    expect((await walk.commit()).stored).toBe(2);
  });
});
