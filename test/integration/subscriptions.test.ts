/**
 * Subscriptions and live lists against the real example server over stdio: the official v2
 * server's listen router acknowledges, stamps every notification with the subscription id,
 * and stops delivering after notifications/cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpClient } from '../../src/client/client.js';
import type { LiveListEvent, Subscription, SubscriptionEvent } from '../../src/subscriptions/types.js';
import type { Prompt } from '../../src/wire/protocol.js';
import { ConnectionClosedError, RpcError } from '../../src/errors/errors.js';
import { exampleClient } from './exampleServer.js';

/** Resolves with the next event of `source` that matches. */
function nextEvent<E extends { type: string }>(
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

describe('example server: subscriptions/listen and live lists', () => {
  let client: McpClient;
  const errors: Error[] = [];

  beforeAll(async () => {
    ({ client } = exampleClient({ onError: (error) => errors.push(error) }));
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
  });

  it('acknowledges every type it advertises; resources/updated drops the cached read before the listener hears of it', async () => {
    const sub = await client.subscribe({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['demo://note'],
    });
    expect(sub.honoured).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['demo://note'],
    });
    expect(sub.notHonoured).toEqual({});
    expect(typeof sub.subscriptionId).toBe('number');
    const before = await client.readResource('demo://note');
    expect(await client.readResource('demo://note')).toBe(before); // cached

    let readInListener: Promise<unknown> | undefined;
    const updated = nextEvent<SubscriptionEvent>(sub, (e) => e.type === 'resourceUpdated');
    sub.on((event) => {
      if (event.type === 'resourceUpdated')
        readInListener = client.readResource(event.uri, { cacheMode: 'only-if-cached' }).catch((e: unknown) => e);
    });
    await client.callTool('update_note', { text: 'changed by the test' });
    expect(await updated).toEqual({ type: 'resourceUpdated', uri: 'demo://note' });
    expect(await readInListener).toMatchObject({ code: -33005 }); // already gone from the cache
    const after = await client.readResource('demo://note');
    expect(after.contents[0]).toMatchObject({ text: 'changed by the test' });

    const promptsChanged = nextEvent<SubscriptionEvent>(sub, (e) => e.type === 'promptsListChanged');
    await client.callTool('add_prompt', { name: 'from_test', text: 'hello {topic}' });
    await promptsChanged;
    const resourcesChanged = nextEvent<SubscriptionEvent>(sub, (e) => e.type === 'resourcesListChanged');
    await client.callTool('add_item', {});
    await resourcesChanged;
    await sub.close();
    expect(await sub.closed).toEqual({ reason: 'closed', reopens: 0 });
    expect(errors).toEqual([]);
  });

  it('two listens coexist; each hears only what it asked for; a closed one hears nothing more', async () => {
    const prompts = await client.subscribe({ promptsListChanged: true });
    const note = await client.subscribe({ resourceSubscriptions: ['demo://note'] });
    const promptEvents: SubscriptionEvent[] = [];
    const noteEvents: SubscriptionEvent[] = [];
    prompts.on((e) => promptEvents.push(e));
    note.on((e) => noteEvents.push(e));
    const heard = nextEvent<SubscriptionEvent>(note, () => true);
    await client.callTool('update_note', { text: 'second' });
    await heard;
    const heardPrompt = nextEvent<SubscriptionEvent>(prompts, () => true);
    await client.callTool('toggle_prompt', { name: 'code_review' });
    await heardPrompt;
    expect(promptEvents).toEqual([{ type: 'promptsListChanged' }]);
    expect(noteEvents).toEqual([{ type: 'resourceUpdated', uri: 'demo://note' }]);

    await note.close();
    const again = nextEvent<SubscriptionEvent>(prompts, () => true);
    await client.callTool('update_note', { text: 'third' });
    await client.callTool('toggle_prompt', { name: 'code_review' });
    await again; // the prompt change came through, after the note update
    expect(noteEvents).toHaveLength(1);
    expect(errors).toEqual([]);
    await prompts.close();
  });

  it('a live prompt list follows add_prompt and toggle_prompt', async () => {
    const live = await client.live('prompts');
    expect(live.watching).toBe(true);
    expect(live.items.map((p) => p.name)).toContain('greet');
    const added = nextEvent<LiveListEvent<Prompt>>(
      live,
      (e) => e.type === 'updated' && e.items.some((p) => p.name === 'live_one'),
    );
    await client.callTool('add_prompt', { name: 'live_one', text: 'x' });
    await added;
    const hidden = nextEvent<LiveListEvent<Prompt>>(
      live,
      (e) => e.type === 'updated' && !e.items.some((p) => p.name === 'greet'),
    );
    await client.callTool('toggle_prompt', { name: 'greet' });
    await hidden;
    expect(live.items.map((p) => p.name)).not.toContain('greet');
    expect(live.stale).toBe(false);
    await live.close();
    expect(errors).toEqual([]);
  });

  it('a listen without a filter is rejected by the server with -32602', async () => {
    const error = await client.request('subscriptions/listen', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602 });
  });
});

describe('example server: the server process goes away', () => {
  it('without reconnecting: subscriptionLost, then closed with transport-closed', async () => {
    // With reconnecting (the default), the subscription resumes: test/integration/reconnect.test.ts.
    const { client, transport } = exampleClient({ reconnect: false });
    await client.connect();
    const sub: Subscription = await client.subscribe({ toolsListChanged: true });
    const lost = nextEvent<SubscriptionEvent>(sub, (e) => e.type === 'subscriptionLost');
    process.kill(transport.pid!, 'SIGKILL');
    expect(await lost).toMatchObject({ type: 'subscriptionLost', reason: 'transport-closed', willReopen: false });
    const closed = await sub.closed;
    expect(closed.reason).toBe('transport-closed');
    expect(closed.error).toBeInstanceOf(ConnectionClosedError);
    await client.close();
  });
});
