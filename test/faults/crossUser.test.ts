/**
 * Private stays private (spec: server/utilities/caching, `cacheScope: "private"`): several users
 * served by one host, their requests interleaved at random, over real HTTP with a per-user
 * `authProvider` and no declared `cache.authContext`. Not one read may return another user's
 * private content, with the client's own store and with one store shared by two clients.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient, MemoryCacheStore, type AuthProvider, type CacheStore } from '../../src/index.js';
import { McpHost } from '../../src/host.js';
import { StreamableHttpTransport } from '../../src/node.js';
import { nodeTransport } from '../../src/hostNode.js';
import { StreamableHttpTransport as FetchHttpTransport } from '../../src/index.js';
import { HttpFake, answerDiscover, sendJson, type RecordedRequest } from '../fakes/httpFake.js';
import { expectNoLeakedHandles, faultProbe } from './harness.js';
import { seededRandom } from '../fakes/seededRandom.js';

const USERS = ['alice', 'bob', 'carol'] as const;
type User = (typeof USERS)[number];
const PRIVATE_URIS = ['mem://x', 'mem://y', 'mem://z'];

/** Seeded: the interleavings are random but each run is reproducible. */
const random = seededRandom;

const userOf = (request: RecordedRequest): string | undefined =>
  /^Bearer tok-(\w+)$/.exec(String(request.headers.authorization ?? ''))?.[1];

/**
 * A 2026-07-28 server whose reads and tool lists are private to the bearer of the token, with a
 * long TTL (so a wrong partition would be served from the cache), answering after a random
 * delay of 0–4 ms. `pub://shared` is public.
 */
async function privateServer(seed: number): Promise<HttpFake> {
  const delay = random(seed);
  return HttpFake.start(async (request, res) => {
    if (answerDiscover(request, res)) return;
    const user = userOf(request);
    if (user === undefined) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.floor(delay() * 5)));
    const { id, method, params } = request.json;
    if (method === 'resources/read') {
      const uri = String(params.uri);
      const scope = uri.startsWith('pub://') ? 'public' : 'private';
      const text = scope === 'public' ? 'for everyone' : `${user} owns ${uri}`;
      sendJson(res, 200, {
        jsonrpc: '2.0',
        id,
        result: { resultType: 'complete', contents: [{ uri, text }], ttlMs: 600_000, cacheScope: scope },
      });
      return;
    }
    if (method === 'tools/list') {
      sendJson(res, 200, {
        jsonrpc: '2.0',
        id,
        result: {
          resultType: 'complete',
          tools: [{ name: `inbox_of_${user}`, inputSchema: { type: 'object' } }],
          ttlMs: 600_000,
          cacheScope: 'private',
        },
      });
      return;
    }
    sendJson(res, 200, { jsonrpc: '2.0', id, error: { code: -32601, message: 'no such method' } });
  });
}

type Op = (client: McpClient, user: User) => Promise<void>;

/** Each operation checks that what it got belongs to `user` (or is the public resource). */
function operations(crossings: string[]): Op[] {
  const read =
    (uri: string): Op =>
    async (client, user) => {
      const { contents } = await client.readResource(uri);
      const text = (contents[0] as { text: string }).text;
      if (text !== `${user} owns ${uri}`) crossings.push(`${user} read ${uri} and got "${text}"`);
    };
  return [
    ...PRIVATE_URIS.map(read),
    async (client) => {
      const { contents } = await client.readResource('pub://shared');
      expect((contents[0] as { text: string }).text).toBe('for everyone');
    },
    async (client, user) => {
      const { items } = await client.listAllTools();
      const names = items.map((tool) => tool.name).join(',');
      if (names !== `inbox_of_${user}`) crossings.push(`${user} listed tools and got ${names}`);
    },
    async (client, user) => {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name).join(',');
      if (names !== `inbox_of_${user}`) crossings.push(`${user} listed a page and got ${names}`);
    },
  ];
}

interface Variant {
  name: string;
  clients: number;
  sharedStore: boolean;
  /** How the host tells the provider whom it serves now. */
  serving: 'async-local-storage' | 'global-variable';
  /** The provider answers with a promise (as an OAuth provider does). */
  asyncProvider: boolean;
  /** The root entry's fetch transport instead of the node:http one. */
  fetchTransport?: boolean;
}

const VARIANTS: Variant[] = [
  {
    name: 'one client, its own store',
    clients: 1,
    sharedStore: false,
    serving: 'global-variable',
    asyncProvider: false,
  },
  {
    name: 'one client, async provider, AsyncLocalStorage',
    clients: 1,
    sharedStore: false,
    serving: 'async-local-storage',
    asyncProvider: true,
  },
  {
    name: 'two clients sharing one store',
    clients: 2,
    sharedStore: true,
    serving: 'async-local-storage',
    asyncProvider: false,
  },
  {
    name: 'two clients sharing one store, async provider, fetch transport',
    clients: 2,
    sharedStore: true,
    serving: 'global-variable',
    asyncProvider: true,
    fetchTransport: true,
  },
];

describe('private cache entries never cross users (random interleavings over HTTP)', () => {
  const probe = faultProbe();
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  for (const variant of VARIANTS) {
    it(variant.name, async () => {
      const seed = 0x5eed + variant.name.length;
      const server = await privateServer(seed);
      cleanups.push(() => server.close());
      const storage = new AsyncLocalStorage<User>();
      let current: User = 'alice';
      const serving = (): User => (variant.serving === 'global-variable' ? current : (storage.getStore() ?? 'alice'));
      const authProvider: AuthProvider = variant.asyncProvider
        ? async () => `Bearer tok-${serving()}`
        : () => `Bearer tok-${serving()}`;
      const store: CacheStore | undefined = variant.sharedStore ? new MemoryCacheStore() : undefined;
      const clients: McpClient[] = [];
      for (let i = 0; i < variant.clients; i++) {
        const Transport = variant.fetchTransport === true ? FetchHttpTransport : StreamableHttpTransport;
        const client = new McpClient({
          transport: new Transport(server.url, { authProvider }),
          clientInfo: { name: 'host', version: '1.0.0' },
          cache: store === undefined ? {} : { store },
        });
        clients.push(client);
        cleanups.push(() => client.close());
        await client.connect();
      }

      const crossings: string[] = [];
      const ops = operations(crossings);
      const next = random(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const run = (user: User, client: McpClient, op: Op): Promise<void> => {
        if (variant.serving === 'global-variable') {
          // The host switches to the user, then starts the call; the call is not awaited first.
          current = user;
          return op(client, user);
        }
        return storage.run(user, () => op(client, user));
      };
      for (let wave = 0; wave < 12; wave++) {
        const calls: Array<Promise<void>> = [];
        for (let i = 0; i < 16; i++) {
          const user = pick(USERS);
          const client = pick(clients);
          const op = pick(ops);
          // Random starts: same turn, next microtask, or a few ms later.
          const start = next();
          if (start < 0.4) calls.push(run(user, client, op));
          else if (start < 0.7) calls.push(Promise.resolve().then(() => run(user, client, op)));
          else
            calls.push(
              new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 4))).then(() => run(user, client, op)),
            );
        }
        await Promise.all(calls);
      }
      expect(crossings).toEqual([]);
      // The cache was in play: private entries were served from it to their owners.
      const hits = clients.reduce((sum, client) => sum + client.cacheStats().hits, 0);
      expect(hits).toBeGreaterThan(20);

      // A hit costs no request: each user reads every uri again, nothing reaches the server.
      const before = server.requests.length;
      for (const user of USERS) {
        for (const uri of PRIVATE_URIS) {
          for (const client of clients) await run(user, client, ops[PRIVATE_URIS.indexOf(uri)]!);
        }
      }
      expect(crossings).toEqual([]);
      expect(server.requests.length).toBe(before);

      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      await expectNoLeakedHandles(probe.baseline);
    });
  }

  it('McpHost: one http entry whose authProvider serves whichever user the host serves', async () => {
    const server = await privateServer(2);
    cleanups.push(() => server.close());
    const storage = new AsyncLocalStorage<User>();
    const host = new McpHost({
      clientInfo: { name: 'host', version: '1.0.0' },
      createTransport: nodeTransport,
      servers: {
        api: { type: 'http', url: server.url, authProvider: () => `Bearer tok-${storage.getStore() ?? 'alice'}` },
      },
    });
    cleanups.push(() => host.close());
    await host.connect();
    const crossings: string[] = [];
    const next = random(7);
    for (let wave = 0; wave < 6; wave++) {
      await Promise.all(
        Array.from({ length: 12 }, () => {
          const user = USERS[Math.floor(next() * USERS.length)]!;
          const uri = PRIVATE_URIS[Math.floor(next() * PRIVATE_URIS.length)]!;
          return storage.run(user, async () => {
            const { contents } = await host.readResource(uri, { server: 'api' });
            const text = (contents[0] as { text: string }).text;
            if (text !== `${user} owns ${uri}`) crossings.push(`${user} read ${uri} and got "${text}"`);
          });
        }),
      );
    }
    expect(crossings).toEqual([]);
    expect(server.requests.filter((r) => r.json?.method === 'resources/read').length).toBeLessThan(72);
  });

  it('the issue case: Alice reads, then Bob reads, one client, no authContext declared', async () => {
    const server = await privateServer(1);
    cleanups.push(() => server.close());
    let user: User = 'alice';
    const client = new McpClient({
      transport: new StreamableHttpTransport(server.url, { authProvider: () => `Bearer tok-${user}` }),
      clientInfo: { name: 'host', version: '1.0.0' },
    });
    cleanups.push(() => client.close());
    await client.connect();
    const alice = await client.readResource('mem://x');
    user = 'bob';
    const bob = await client.readResource('mem://x');
    expect((alice.contents[0] as { text: string }).text).toBe('alice owns mem://x');
    expect((bob.contents[0] as { text: string }).text).toBe('bob owns mem://x');
    user = 'alice';
    const again = await client.readResource('mem://x');
    expect(again).toBe(alice); // Alice's own entry, from the cache
    expect(server.requests.filter((r) => r.json?.method === 'resources/read')).toHaveLength(2);
  });
});
