/**
 * `acceptLanguage` (SEP-2792, a draft) against a real HTTP server on 127.0.0.1 that answers by
 * language: the preference goes out in `_meta` and as `Accept-Language`, and is part of every
 * cache key, so two languages never serve each other's cached list (in memory, and in Redis
 * when a redis-server is installed).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { RedisCacheStore } from '../../src/cache/redis/redisCacheStore.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { contentLanguage } from '../../src/wire/language.js';
import type { CacheStore } from '../../src/cache/cacheStore.js';
import { answerDiscover, HttpFake, sendJson, type RecordedRequest } from '../fakes/httpFake.js';
import { startRedisServer, type RedisServer } from '../fakes/redisServer.js';
import { systemBinary } from '../setup/systemBinaries.js';

const KEY = 'io.modelcontextprotocol/acceptLanguage';
const DESCRIPTIONS: Record<string, string> = { en: 'Adds two numbers', fr: 'Additionne deux nombres' };

/** tools/list in the first language of the request's `_meta` it knows (else English), cacheable for a minute. */
function byLanguage(request: RecordedRequest, res: Parameters<Parameters<typeof HttpFake.start>[0] & object>[1]) {
  if (answerDiscover(request, res)) return;
  const { id, method, params } = request.json;
  if (method !== 'tools/list')
    return sendJson(res, 200, { jsonrpc: '2.0', id, error: { code: -32601, message: method } });
  const asked = typeof params?._meta?.[KEY] === 'string' ? params._meta[KEY] : '';
  const language = asked
    .split(',')
    .map((range) => range.split(';')[0]!.trim().split('-')[0]!)
    .find((l) => l in DESCRIPTIONS);
  const tools = [{ name: 'add', description: DESCRIPTIONS[language ?? 'en'], inputSchema: { type: 'object' } }];
  sendJson(res, 200, {
    jsonrpc: '2.0',
    id,
    result: {
      resultType: 'complete',
      tools,
      ttlMs: 60_000,
      cacheScope: 'public',
      ...(language !== undefined && { _meta: { 'io.modelcontextprotocol/contentLanguage': language } }),
    },
  });
}

const redisBinary = systemBinary('redis-server');

describe('acceptLanguage over Streamable HTTP', () => {
  let server: HttpFake;
  const open: Array<{ close(): Promise<unknown> }> = [];

  beforeAll(async () => {
    server = await HttpFake.start(byLanguage);
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
    server.requests.length = 0;
  });

  async function client(options: Partial<ClientOptions> = {}): Promise<McpClient> {
    const made = new McpClient({
      transport: new StreamableHttpTransport(server.url, { retry: false }),
      clientInfo: { name: 'lang', version: '1' },
      ...options,
    });
    open.push(made);
    await made.connect();
    return made;
  }

  const lists = () => server.requests.filter((r) => r.json?.method === 'tools/list');

  it('the client-wide preference goes out in _meta and as Accept-Language on every request, byte for byte', async () => {
    const c = await client({ acceptLanguage: 'fr-CA,fr;q=0.9,en;q=0.5' });
    const page = await c.listTools();
    expect(page.tools[0]?.description).toBe('Additionne deux nombres');
    expect(contentLanguage(page)).toBe('fr');
    for (const request of server.requests) {
      expect(request.json.params._meta[KEY]).toBe('fr-CA,fr;q=0.9,en;q=0.5');
      expect(request.headers['accept-language']).toBe('fr-CA,fr;q=0.9,en;q=0.5');
    }
    expect(server.requests.map((r) => r.json.method)).toEqual(['server/discover', 'tools/list']);
  });

  it('without acceptLanguage nothing is sent: no _meta key, no header of ours', async () => {
    const c = await client();
    const page = await c.listTools();
    expect(page.tools[0]?.description).toBe('Adds two numbers');
    expect(contentLanguage(page)).toBeUndefined();
    for (const request of server.requests) {
      expect(Object.hasOwn(request.json.params?._meta ?? {}, KEY)).toBe(false);
      // Node's fetch (undici) sends `Accept-Language: *` when a request has none; the SEP has a
      // server ignore a bare header without the `_meta` key.
      expect([undefined, '*']).toContain(request.headers['accept-language']);
    }
  });

  it('a call replaces the client preference for itself only', async () => {
    const c = await client({ acceptLanguage: 'en' });
    expect((await c.listTools({}, { acceptLanguage: 'fr' })).tools[0]?.description).toBe('Additionne deux nombres');
    expect((await c.listTools()).tools[0]?.description).toBe('Adds two numbers');
    expect(lists().map((r) => [r.json.params._meta[KEY], r.headers['accept-language']])).toEqual([
      ['fr', 'fr'],
      ['en', 'en'],
    ]);
  });

  it('an invalid value is refused with the value, nothing sent', async () => {
    expect(
      () =>
        new McpClient({
          transport: new StreamableHttpTransport(server.url),
          clientInfo: { name: 'lang', version: '1' },
          acceptLanguage: 'fr\r\nX-Evil: 1',
        }),
    ).toThrow(InvalidArgumentError);
    const c = await client();
    const error = await c.listTools({}, { acceptLanguage: 'not a language!' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).data).toEqual({ name: 'options.acceptLanguage', value: 'not a language!' });
    expect(lists()).toEqual([]);
  });

  /** Two calls in two languages through one cache: each language is fetched once and served its own. */
  async function neverMixed(store?: CacheStore): Promise<void> {
    const c = await client(store === undefined ? {} : { cache: { store } });
    const fr = await c.listTools({}, { acceptLanguage: 'fr' });
    const en = await c.listTools({}, { acceptLanguage: 'en' });
    expect(fr.tools[0]?.description).toBe('Additionne deux nombres');
    expect(en.tools[0]?.description).toBe('Adds two numbers');
    expect(lists()).toHaveLength(2);
    // Now both are cached: each language gets its own list back, and nothing more is sent.
    expect((await c.listTools({}, { acceptLanguage: 'fr' })).tools[0]?.description).toBe('Additionne deux nombres');
    expect((await c.listTools({}, { acceptLanguage: 'en' })).tools[0]?.description).toBe('Adds two numbers');
    expect((await c.listAllTools({ acceptLanguage: 'fr' })).items[0]?.description).toBe('Additionne deux nombres');
    expect(lists()).toHaveLength(2);
    // A call without a language is a third entry, not either of the others.
    expect((await c.listTools()).tools[0]?.description).toBe('Adds two numbers');
    expect(lists()).toHaveLength(3);
    expect(Object.hasOwn(lists()[2]!.json.params._meta, KEY)).toBe(false);
    expect(c.cacheStats()).toMatchObject({ hits: 3 });
  }

  it('the memory store: two languages never serve each other’s cached list', async () => {
    await neverMixed();
  });

  describe.skipIf(redisBinary.skipReason !== undefined)('the Redis store (real redis-server)', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedisServer(redisBinary.path!);
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('two languages never serve each other’s cached list, and each has its own key', async () => {
      const store = new RedisCacheStore({ connection: redis.url, prefix: 'lang:' });
      open.push(store);
      await store.ready();
      await neverMixed(store);
      const admin = redis.admin();
      try {
        const keys = (await admin.keys('lang:*')).filter((key) => key.includes('tools/list'));
        expect(keys).toHaveLength(3);
        expect(keys.filter((key) => key.includes('2026-07-28\\u0000fr')).length).toBe(1);
        expect(keys.filter((key) => key.includes('2026-07-28\\u0000en')).length).toBe(1);
      } finally {
        admin.disconnect();
      }
    });
  });
});
