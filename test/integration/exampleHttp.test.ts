/**
 * The example server over Streamable HTTP (`server.js --http 0`, a child process), driven by
 * mcp-live's StreamableHttpTransport: every request is served by a fresh server instance, so
 * this also checks that the server's state is shared across instances and that its change
 * notifications reach subscriptions/listen streams.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import { viewContents } from '../../src/index.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { startExampleHttpServer } from './exampleServer.js';
import { HTTP_PATHS } from '../fakes/httpPaths.js';

describe.each(HTTP_PATHS)('$path path', ({ Transport: StreamableHttpTransport }) => {
  /** Resolves with the next event of `source` that matches. */
  function nextEvent<E>(
    source: { on(listener: (event: E) => void): () => void },
    match: (event: E) => boolean,
  ): Promise<E> {
    return new Promise((resolve) => {
      const off = source.on((event) => {
        if (!match(event)) return;
        off();
        resolve(event);
      });
    });
  }

  describe('example server over Streamable HTTP', () => {
    let server: HttpServerProcess | undefined;
    let client: McpClient | undefined;
    const errors: Error[] = [];
    const form = vi.fn(async (_params: { message: string }) => ({
      action: 'accept' as const,
      content: { name: 'Ada', priority: 'low' },
    }));

    beforeAll(async () => {
      server = await startExampleHttpServer();
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      client = new McpClient({
        transport: new StreamableHttpTransport(server.url),
        clientInfo: { name: 'mcp-live-tests', version: '0.0.0' },
        handlers: { elicitation: { form } },
        onError: (error) => errors.push(error),
      });
      await client.connect();
    });
    afterAll(async () => {
      await client?.close().catch(() => {});
      await server?.stop();
    });

    it('discovers the server and its tools', async () => {
      expect(client!.protocolVersion).toBe('2026-07-28');
      expect(client!.serverInfo).toMatchObject({ name: 'mcp-live-example', version: '0.1.0' });
      expect(client!.serverIdentity).toBe(server!.url);
      expect(Object.keys(client!.serverCapabilities ?? {})).toEqual(
        expect.arrayContaining(['tools', 'prompts', 'resources']),
      );
      const { items } = await client!.listAllTools();
      expect(items.map((t) => t.name).sort()).toEqual([
        'add',
        'add_item',
        'add_prompt',
        'create_ticket',
        'echo',
        'generate_report',
        'get_item_link',
        'slow',
        'toggle_prompt',
        'update_note',
      ]);
    });

    it('walks all 254 resources in 6 pages and reads one', async () => {
      const walk = await client!.listAllResources();
      expect(walk.items).toHaveLength(254);
      expect(walk.pages).toBe(6);
      expect(walk.items[0]?.uri).toBe('demo://readme');
      expect(walk.items.at(-1)?.uri).toBe('demo://items/250');

      const logo = await client!.readResource('demo://logo.png');
      const view = viewContents(logo.contents[0]!);
      expect(view.kind).toBe('blob');
      if (view.kind === 'blob') {
        expect(view.mimeType).toBe('image/png');
        expect(view.bytes()).toHaveLength(70);
      }
    });

    it('answers create_ticket input_required through the form handler', async () => {
      const result = await client!.callTool('create_ticket', { title: 'Printer on fire' });
      expect(result.content[0]).toMatchObject({
        type: 'text',
        text: 'Ticket "Printer on fire" filed by Ada (priority low).',
      });
      expect(form).toHaveBeenCalledTimes(1);
      expect(form.mock.calls[0]![0]).toMatchObject({ message: 'Who is filing "Printer on fire"?' });
    });

    it('delivers resourceUpdated for demo://note on the listen stream after update_note, and later requests see the change', async () => {
      const sub = await client!.subscribe({ promptsListChanged: true, resourceSubscriptions: ['demo://note'] });
      try {
        expect(sub.honoured).toEqual({ promptsListChanged: true, resourceSubscriptions: ['demo://note'] });
        const before = await client!.readResource('demo://note');
        expect(before.contents[0]).toMatchObject({
          text: 'Initial note. Change it with the update_note tool.',
          _meta: { revision: 1 },
        });

        const updated = nextEvent<SubscriptionEvent>(sub, (e) => e.type === 'resourceUpdated');
        await client!.callTool('update_note', { text: 'changed over HTTP' });
        expect(await updated).toEqual({ type: 'resourceUpdated', uri: 'demo://note' });
        const after = await client!.readResource('demo://note'); // the cached read was dropped
        expect(after.contents[0]).toMatchObject({ text: 'changed over HTTP', _meta: { revision: 2 } });

        const promptsChanged = nextEvent<SubscriptionEvent>(sub, (e) => e.type === 'promptsListChanged');
        await client!.callTool('add_prompt', { name: 'from_http', text: 'hello {topic}' });
        await promptsChanged;
        const prompts = await client!.listAllPrompts();
        expect(prompts.items.map((p) => p.name)).toEqual(['greet', 'summarize_item', 'code_review', 'from_http']);
        const got = await client!.getPrompt('from_http', { topic: 'world' });
        expect(got.messages[0]?.content).toMatchObject({ type: 'text', text: 'hello world' });
      } finally {
        await sub.close();
      }
      expect((await sub.closed).reason).toBe('closed');
      expect(errors).toEqual([]);
    });
  });
});
