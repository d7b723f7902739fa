/**
 * 2025-11-25 servers send no `ttlMs`, so their results are not served from the cache by
 * default. A list whose changes an open subscription hears (the server declared `listChanged`)
 * is the exception: it is kept until its `list_changed` arrives, as hosts treat these servers.
 * Against the official v1 SDK server over stdio, whose `touch` tool adds a tool and sends
 * `notifications/tools/list_changed`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';
import { nodeStdio, V1_SDK_SERVER } from '../fakes/publishedServers.js';

let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
});

async function connect(): Promise<McpClient> {
  client = new McpClient({ transport: nodeStdio(V1_SDK_SERVER), clientInfo: { name: 'held-lists', version: '0' } });
  await client.connect();
  expect(client.era).toBe('legacy');
  return client;
}

describe('a legacy list held until list_changed', () => {
  it('without a subscription: every listing asks the server (no ttlMs, legacyTtlMs 0)', async () => {
    const c = await connect();
    const first = await c.listAllTools();
    const second = await c.listAllTools();
    expect(second.results[0]).not.toBe(first.results[0]);
    expect(c.cacheStats().hits).toBe(0);
  });

  it('while a subscription hears tools list changes: served from the cache until the notification', async () => {
    const c = await connect();
    const sub = await c.subscribe({ toolsListChanged: true });
    expect(sub.honoured).toEqual({ toolsListChanged: true });
    const first = await c.listAllTools();
    const again = await c.listAllTools();
    expect(again.results[0]).toBe(first.results[0]);
    expect(c.cacheStats().hits).toBeGreaterThan(0);
    const heard = new Promise<SubscriptionEvent>((resolve) => sub.on(resolve));
    await c.callTool('touch', {});
    expect(await heard).toMatchObject({ type: 'toolsListChanged' });
    const changed = await c.listAllTools();
    expect(changed.items.map((tool) => tool.name)).toContain('added_1');
    expect(changed.results[0]).not.toBe(first.results[0]);
    expect((await c.listAllTools()).results[0]).toBe(changed.results[0]);

    // Nobody hears the changes any more: the held list is dropped and no longer kept.
    await sub.close();
    const afterClose = await c.listAllTools();
    expect(afterClose.results[0]).not.toBe(changed.results[0]);
    expect((await c.listAllTools()).results[0]).not.toBe(afterClose.results[0]);
  });

  it('legacyTtlMs still applies to what is not held', async () => {
    client = new McpClient({
      transport: nodeStdio(V1_SDK_SERVER),
      clientInfo: { name: 'held-lists', version: '0' },
      legacyTtlMs: 60_000,
    });
    await client.connect();
    const first = await client.readResource('demo://note');
    expect(await client.readResource('demo://note')).toBe(first);
  });
});
