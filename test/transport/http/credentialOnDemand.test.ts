/**
 * The id of a credential (pinnedCredential.ts, on `@noble/hashes`) loads with the first
 * credential a transport pins (docs/transports.md, "What loads when"): each test starts from a
 * fresh module graph (`vi.resetModules()`, so nothing is loaded yet). A transport without a
 * credential never needs it and answers `credentialFor()` synchronously; the first credential
 * value resolves once the digest is loaded, with the same id as ever; a digest that cannot be
 * loaded fails what needed it with `ModuleLoadError` (-33042) before anything is sent for it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { credentialId } from '../../../src/transport/http/pinnedCredential.js';
import type { RequestCredential } from '../../../src/transport/transport.js';
import { answerDiscover, HttpFake, sendJson, type RecordedRequest } from '../../fakes/httpFake.js';
import { request, startRecording } from '../../fakes/httpHarness.js';

/** The modules as a program that imported nothing else yet sees them. */
async function fresh() {
  const [{ McpClient }, { StreamableHttpTransport }, { MemoryCacheStore }] = await Promise.all([
    import('../../../src/client/client.js'),
    import('../../../src/transport/http/streamableHttp.js'),
    import('../../../src/cache/cacheStore.js'),
  ]);
  return { McpClient, StreamableHttpTransport, MemoryCacheStore };
}

/** A 2026-07-28 server whose `tools/list` is private for a minute and names the caller's `Authorization`. */
async function privateServer(): Promise<HttpFake> {
  return HttpFake.start((req, res) => {
    if (answerDiscover(req, res)) return;
    const tools = [{ name: `for ${req.headers['authorization'] ?? 'nobody'}`, inputSchema: { type: 'object' } }];
    sendJson(res, 200, {
      jsonrpc: '2.0',
      id: req.json?.id,
      result: { resultType: 'complete', tools, ttlMs: 60_000, cacheScope: 'private' },
    });
  });
}

const lists = (requests: RecordedRequest[]): Array<string | undefined> =>
  requests.filter((r) => r.json?.method === 'tools/list').map((r) => r.headers['authorization']);

describe('the id of a credential, loaded with the first credential', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  beforeEach(() => {
    vi.resetModules();
  });
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  it('a static Authorization header: the first credentialFor() resolves with the id once loaded, later ones are synchronous', async () => {
    const { StreamableHttpTransport } = await fresh();
    const fake = await HttpFake.start((req, res) =>
      sendJson(res, 200, { jsonrpc: '2.0', id: req.json?.id, result: {} }),
    );
    open.push(fake);
    const transport = new StreamableHttpTransport(fake.url, { headers: { Authorization: 'Bearer AT1' }, retry: false });
    open.push(transport);
    const first = transport.credentialFor();
    const credential = await first;
    expect(credential.id).toBe(credentialId('Bearer AT1'));
    expect(credential.id).toMatch(/^credential:[0-9a-f]{32}$/);
    expect(JSON.stringify(credential)).toBe(JSON.stringify({ id: credentialId('Bearer AT1'), replaced: false }));
    expect(Object.values(credential)).not.toContain('Bearer AT1');
    const again = transport.credentialFor();
    expect(again).toBe(credential);
    await startRecording(transport);
    await transport.send(request(1, 'tools/list'), { credential });
    expect(fake.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer AT1']);
  });

  it('an authProvider that answers synchronously: the first value waits for the digest, then each new token is pinned synchronously', async () => {
    const { StreamableHttpTransport } = await fresh();
    let token = 'Bearer AT1';
    const transport = new StreamableHttpTransport('http://127.0.0.1:9/mcp', { authProvider: () => token });
    open.push(transport);
    const first = transport.credentialFor() as Promise<RequestCredential>;
    expect((await first).id).toBe(credentialId('Bearer AT1'));
    token = 'Bearer AT2';
    const second = transport.credentialFor() as RequestCredential;
    expect(second).not.toBeInstanceOf(Promise);
    expect(second.id).toBe(credentialId('Bearer AT2'));
    expect((transport.credentialFor() as RequestCredential).id).toBe(second.id);
  });

  it('without a credential nothing loads: credentialFor() is synchronous with no id, and a client caches and hits without the digest', async () => {
    const { McpClient, StreamableHttpTransport } = await fresh();
    const fake = await privateServer();
    open.push(fake);
    const transport = new StreamableHttpTransport(fake.url, { retry: false });
    const credential = transport.credentialFor() as RequestCredential;
    expect(credential).not.toBeInstanceOf(Promise);
    expect(credential.id).toBeUndefined();
    const client = new McpClient({ transport, clientInfo: { name: 'no-auth', version: '1' }, era: 'modern' });
    open.push(client);
    await client.connect();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['for nobody']);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['for nobody']);
    expect(lists(fake.requests)).toEqual([undefined]);
  });

  it("on first use, a client's private entries go to its credential's partition and never reach another credential", async () => {
    const { McpClient, StreamableHttpTransport, MemoryCacheStore } = await fresh();
    const fake = await privateServer();
    open.push(fake);
    const store = new MemoryCacheStore();
    const clientWith = async (authorization: string) => {
      const client = new McpClient({
        transport: new StreamableHttpTransport(fake.url, { headers: { Authorization: authorization }, retry: false }),
        clientInfo: { name: 'auth', version: '1' },
        era: 'modern',
        cache: { store, sharedStore: true },
      });
      open.push(client);
      await client.connect();
      return client;
    };
    const alice = await clientWith('Bearer alice');
    expect((await alice.listTools()).tools.map((t) => t.name)).toEqual(['for Bearer alice']);
    expect((await alice.listTools()).tools.map((t) => t.name)).toEqual(['for Bearer alice']);
    const bob = await clientWith('Bearer bob');
    expect((await bob.listTools()).tools.map((t) => t.name)).toEqual(['for Bearer bob']);
    const aliceAgain = await clientWith('Bearer alice');
    expect((await aliceAgain.listTools()).tools.map((t) => t.name)).toEqual(['for Bearer alice']);
    expect(lists(fake.requests)).toEqual(['Bearer alice', 'Bearer bob']);
  });
});
