/**
 * Issue 3 against the real example server over stdio: list walks, cache hits driven by the
 * server's own ttlMs/cacheScope, and one input_required round answered by a host handler.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { McpClient } from '../../src/client/client.js';
import { exampleClient } from './exampleServer.js';

describe('example server: cache, pagination and input_required', () => {
  let client: McpClient;
  const form = vi.fn(async (_params: { message: string }) => ({
    action: 'accept' as const,
    content: { name: 'Ada', priority: 'high' },
  }));

  beforeAll(async () => {
    ({ client } = exampleClient({ handlers: { elicitation: { form } } }));
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
  });

  it('walks all 254 resources in 6 pages, then serves the walk from the cache', async () => {
    const first = await client.listAllResources();
    expect(first.items).toHaveLength(254);
    expect(first.pages).toBe(6);
    const hits = client.cacheStats().hits;
    const second = await client.listAllResources();
    expect(second.items.map((r) => r.uri)).toEqual(first.items.map((r) => r.uri));
    expect(client.cacheStats().hits - hits).toBe(6);
  });

  it('serves a fresh read from the cache, and reload goes to the server', async () => {
    const before = client.cacheStats();
    const a = await client.readResource('demo://items/42');
    const b = await client.readResource('demo://items/42');
    expect(b).toBe(a);
    const after = client.cacheStats();
    expect(after.hits - before.hits).toBe(1);
    expect(after.misses - before.misses).toBe(1);
    const c = await client.readResource('demo://items/42', { cacheMode: 'reload' });
    expect(c).not.toBe(a);
    expect(c.contents).toEqual(a.contents);
  });

  it('answers create_ticket input_required through the form handler', async () => {
    const result = await client.callTool('create_ticket', { title: 'Printer on fire' });
    expect(result.content[0]).toMatchObject({
      type: 'text',
      text: 'Ticket "Printer on fire" filed by Ada (priority high).',
    });
    expect(form).toHaveBeenCalledTimes(1);
    expect(form.mock.calls[0]![0]).toMatchObject({ message: 'Who is filing "Printer on fire"?' });
  });
});
