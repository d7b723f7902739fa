/**
 * Subscriptions and live lists on the legacy wire: implicit list_changed, resources/subscribe
 * per uri (shared, released on close), resources/updated routing, cache invalidation.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpClient } from '../../src/client/client.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';
import { connectedLegacyPair } from '../fakes/legacyScripted.js';
import type { ScriptedServer } from '../fakes/scriptedServer.js';

let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function pair(initialize?: Record<string, unknown>, ttl = 60_000): Promise<ScriptedServer> {
  const connected = await connectedLegacyPair({ legacyTtlMs: ttl }, initialize);
  client = connected.client;
  connected.server.on('resources/subscribe', () => ({ result: {} }));
  connected.server.on('resources/unsubscribe', () => ({ result: {} }));
  return connected.server;
}

const uriOf = (server: ScriptedServer, method: string): string[] =>
  server.requests(method).map((m) => m['params']?.uri as string);

describe('legacy subscriptions', () => {
  it('list-change flags are implicit (nothing sent) and honoured per capability', async () => {
    const server = await pair();
    const sub = await client!.subscribe({ toolsListChanged: true, promptsListChanged: true });
    expect(sub.honoured).toEqual({ toolsListChanged: true });
    expect(sub.notHonoured).toEqual({ promptsListChanged: true });
    expect(sub.subscriptionId).toBeUndefined();
    expect(sub.state).toBe('open');
    expect(server.received.filter((m) => m['method'] === 'subscriptions/listen')).toEqual([]);
  });

  it('resourceSubscriptions: one resources/subscribe per uri, shared, unsubscribed when the last holder closes', async () => {
    const server = await pair();
    const a = await client!.subscribe({ resourceSubscriptions: ['file:///a.json', 'file:///b.json'] });
    const b = await client!.subscribe({ resourceSubscriptions: ['file:///a.json'] });
    expect(uriOf(server, 'resources/subscribe')).toEqual(['file:///a.json', 'file:///b.json']);
    expect(a.honoured).toEqual({ resourceSubscriptions: ['file:///a.json', 'file:///b.json'] });
    await a.close();
    await vi.waitFor(() => expect(uriOf(server, 'resources/unsubscribe')).toEqual(['file:///b.json']));
    await b.close();
    await vi.waitFor(() =>
      expect(uriOf(server, 'resources/unsubscribe')).toEqual(['file:///b.json', 'file:///a.json']),
    );
    expect(await a.closed).toEqual({ reason: 'closed', reopens: 0 });
  });

  it('a uri the server refuses is not honoured; the others are', async () => {
    const server = await pair();
    server.on('resources/subscribe', (request) =>
      request['params']?.uri === 'file:///nope'
        ? { error: { code: -32602, message: 'no such resource' } }
        : { result: {} },
    );
    const sub = await client!.subscribe({ resourceSubscriptions: ['file:///nope', 'file:///ok'] });
    expect(sub.honoured).toEqual({ resourceSubscriptions: ['file:///ok'] });
    expect(sub.notHonoured).toEqual({ resourceSubscriptions: ['file:///nope'] });
  });

  it('without resources.subscribe no request is sent and the uris are not honoured', async () => {
    const server = await pair({ capabilities: { resources: {} }, serverInfo: { name: 'x', version: '1' } });
    const sub = await client!.subscribe({ resourceSubscriptions: ['file:///a'] });
    expect(sub.notHonoured).toEqual({ resourceSubscriptions: ['file:///a'] });
    expect(server.requests('resources/subscribe')).toEqual([]);
  });

  it('resources/updated: the cached read is dropped, and only subscriptions covering the uri hear it', async () => {
    const server = await pair();
    let reads = 0;
    server.on('resources/read', (request) => ({
      result: { contents: [{ uri: request['params']?.uri, text: `v${++reads}` }] },
    }));
    await client!.readResource('file:///dir/a.json');
    await client!.readResource('file:///dir/a.json');
    expect(reads).toBe(1);
    const parent = await client!.subscribe({ resourceSubscriptions: ['file:///dir'] });
    const other = await client!.subscribe({ resourceSubscriptions: ['file:///elsewhere'] });
    const heard: SubscriptionEvent[] = [];
    const otherHeard: SubscriptionEvent[] = [];
    parent.on((e) => heard.push(e));
    other.on((e) => otherHeard.push(e));
    await server.send({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'file:///dir/a.json' },
    });
    await vi.waitFor(() => expect(heard).toEqual([{ type: 'resourceUpdated', uri: 'file:///dir/a.json' }]));
    expect(otherHeard).toEqual([]);
    const { contents } = await client!.readResource('file:///dir/a.json');
    expect(contents[0]).toMatchObject({ text: 'v2' });
  });

  it('a live list refreshes after a legacy list_changed', async () => {
    const server = await pair();
    let version = 1;
    server.on('tools/list', () => ({ result: { tools: [{ name: `t${version}`, inputSchema: { type: 'object' } }] } }));
    const tools = await client!.live('tools', { debounceMs: 0 });
    expect(tools.watching).toBe(true);
    expect(tools.items.map((t) => t.name)).toEqual(['t1']);
    version = 2;
    await server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await vi.waitFor(() => expect(tools.items.map((t) => t.name)).toEqual(['t2']));
    await tools.close();
  });

  it('closing the client closes legacy subscriptions with client-closed, without unsubscribing', async () => {
    const server = await pair();
    const sub = await client!.subscribe({ resourceSubscriptions: ['file:///a'] });
    await client!.close();
    expect(await sub.closed).toMatchObject({ reason: 'client-closed' });
    expect(server.requests('resources/unsubscribe')).toEqual([]);
  });
});
