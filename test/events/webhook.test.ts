/**
 * Webhook delivery and the receiver, against a scripted server on fake time: the conformance
 * scenario events-client-webhook (a refresh with the same key before each refreshBefore, a
 * null cursor never replayed), then the receiver's rules: challenges echoed only for our
 * subscriptions (also before the subscribe response), 425 for an early delivery, forged and
 * stale deliveries refused, repeats dropped, 2xx only once the cursor is persisted, a secret
 * rotated on refresh still verifying in flight, gap and terminated bodies, unsubscribe on close.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { CURSORLESS, REPLAY, eventsPair, occurrence } from './eventsFakes.js';
import type { Wire } from '../fakes/scriptedServer.js';
import { WebhookReceiver } from '../../src/node.js';
import type { CursorStore, EventSubscriptionEvent } from '../../src/index.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  vi.setSystemTime(new Date('2026-12-03T12:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

const URL_ = 'https://hooks.example.test/mcp';

/** A signed delivery as the server would POST it. */
function delivery(
  secret: string,
  id: string,
  body: unknown,
  options: { webhookId?: string; at?: Date; signature?: string } = {},
): Request {
  const text = JSON.stringify(body);
  const webhookId = options.webhookId ?? `msg_${Math.random().toString(36).slice(2)}`;
  const at = options.at ?? new Date();
  const signature = options.signature ?? new Webhook(secret).sign(webhookId, at, text);
  return new Request(URL_, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
      'x-mcp-subscription-id': id,
    },
    body: text,
  });
}

async function subscribed(grantMs = 2_500) {
  const pair = await eventsPair(['webhook', 'poll']);
  const receiver = new WebhookReceiver();
  const subscribes: Array<{ at: number; request: Wire }> = [];
  pair.server.on('events/subscribe', (request) => {
    subscribes.push({ at: Date.now(), request });
    const name = request['params']['name'];
    const n = subscribes.filter((s) => s.request['params']['name'] === name).length;
    return {
      result: {
        resultType: 'complete',
        id: `sub-${name}`,
        cursor: name === REPLAY ? `w-${n}` : null,
        refreshBefore: new Date(Date.now() + grantMs).toISOString(),
      },
    };
  });
  pair.server.on('events/unsubscribe', () => ({ result: { resultType: 'complete' } }));
  return { ...pair, receiver, subscribes };
}

describe('webhook delivery', () => {
  it('refreshes with the same key before each refreshBefore, never replaying a null cursor', async () => {
    const { client, receiver, subscribes } = await subscribed();
    const refreshed: string[] = [];
    Object.assign(receiver, { refreshed: (id: string) => refreshed.push(id) }); // as a fleet's route table hears it
    const replay = await client.events.subscribe(REPLAY, {}, { webhook: { url: URL_, receiver } });
    const cursorless = await client.events.subscribe(CURSORLESS, {}, { webhook: { url: URL_, receiver } });
    expect(replay.mode).toBe('webhook');
    expect(replay.webhookId).toBe(`sub-${REPLAY}`);
    await vi.advanceTimersByTimeAsync(8_000);
    const ticks = subscribes.filter((s) => s.request['params']['name'] === REPLAY);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < ticks.length; i++) {
      expect(ticks[i]!.at).toBeLessThan(ticks[i - 1]!.at + 2_500);
      expect(ticks[i]!.request['params']['delivery']['url']).toBe(URL_);
      expect(ticks[i]!.request['params']['cursor']).toBe(`w-${i}`);
    }
    const secrets = ticks.map((t) => t.request['params']['delivery']['secret'] as string);
    expect(new Set(secrets).size).toBe(secrets.length); // rotated on every refresh
    for (const secret of secrets) expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(refreshed.filter((id) => id === `sub-${REPLAY}`)).toHaveLength(ticks.length - 1); // each refresh, not the first subscribe
    const later = subscribes.filter((s) => s.request['params']['name'] === CURSORLESS).slice(1);
    expect(later.map((s) => s.request['params']['cursor'])).toEqual(later.map(() => null));
    await replay.close();
    await cursorless.close();
    await client.close();
  });

  it('answers a challenge signed by a subscribe under way, 425 for an early event, 404 for strangers', async () => {
    const pair = await eventsPair(['webhook']);
    const receiver = new WebhookReceiver();
    const answers: Array<[number, unknown]> = [];
    pair.server.on('events/subscribe', async (request) => {
      const secret = request['params']['delivery']['secret'] as string;
      const challenge = await receiver.handle(
        delivery(secret, 'sub-1', { type: 'verification', challenge: 'nonce-1' }),
      );
      answers.push([challenge.status, await challenge.json()]);
      const early = await receiver.handle(delivery(secret, 'sub-1', occurrence('e0', 'c0')));
      answers.push([early.status, null]);
      const stranger = await receiver.handle(
        delivery(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, 'sub-1', { type: 'verification', challenge: 'x' }),
      );
      answers.push([stranger.status, null]);
      return {
        result: {
          resultType: 'complete',
          id: 'sub-1',
          cursor: 'c',
          refreshBefore: new Date(Date.now() + 60_000).toISOString(),
        },
      };
    });
    pair.server.on('events/unsubscribe', () => ({ result: { resultType: 'complete' } }));
    const subscription = await pair.client.events.subscribe(REPLAY, {}, { webhook: { url: URL_, receiver } });
    expect(answers).toEqual([
      [200, { challenge: 'nonce-1' }],
      [425, null],
      [404, null],
    ]);
    await subscription.close();
    await pair.client.close();
  });

  it('hands on verified deliveries once persisted, refuses forged and stale ones, drops repeats', async () => {
    const { client, receiver, subscribes } = await subscribed(60_000);
    let release: (() => void) | undefined;
    const writes: string[] = [];
    const store: CursorStore = {
      get: () => undefined,
      set: (_key, cursor) =>
        new Promise<void>((resolve) => {
          writes.push(cursor);
          release = resolve;
        }),
      delete: () => undefined,
    };
    const subscription = await client.events.subscribe(
      REPLAY,
      {},
      { webhook: { url: URL_, receiver }, cursorStore: store },
    );
    release?.();
    const secret = subscribes[0]!.request['params']['delivery']['secret'] as string;
    const seen: EventSubscriptionEvent[] = [];
    subscription.on((event) => seen.push(event));

    let settled = false;
    const answer = receiver.handle(delivery(secret, `sub-${REPLAY}`, occurrence('e1', 'c1'), { webhookId: 'e1' }));
    void answer.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.filter((e) => e.type === 'occurrence')).toHaveLength(1);
    expect(settled).toBe(false); // not 2xx before the cursor is persisted
    release?.();
    expect((await answer).status).toBe(200);
    expect(writes).toEqual(['w-1', 'c1']);

    expect(
      (await receiver.handle(delivery(secret, `sub-${REPLAY}`, occurrence('e1', 'c1'), { webhookId: 'e1' }))).status,
    ).toBe(200);
    expect(seen.filter((e) => e.type === 'occurrence')).toHaveLength(1); // the repeat was dropped

    const forged = delivery(secret, `sub-${REPLAY}`, occurrence('e2', 'c2'), { signature: 'v1,AAAA' });
    expect((await receiver.handle(forged)).status).toBe(401);
    const stale = delivery(secret, `sub-${REPLAY}`, occurrence('e3', 'c3'), { at: new Date(Date.now() - 6 * 60_000) });
    expect((await receiver.handle(stale)).status).toBe(401);
    const otherKey = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect((await receiver.handle(delivery(otherKey, `sub-${REPLAY}`, occurrence('e4', 'c4')))).status).toBe(401);
    expect(seen.filter((e) => e.type === 'occurrence')).toHaveLength(1);

    void receiver.handle(delivery(secret, `sub-${REPLAY}`, { type: 'gap', cursor: 'fresh' }));
    await vi.advanceTimersByTimeAsync(0);
    release?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.find((e) => e.type === 'truncated')).toEqual({ type: 'truncated', cursor: 'fresh', via: 'gap' });

    const closing = subscription.close();
    await closing;
    expect(subscribes).toHaveLength(1);
    expect((await receiver.handle(delivery(secret, `sub-${REPLAY}`, occurrence('e5', 'c5')))).status).toBe(410);
    await client.close();
  });

  it('keeps verifying the old secret for the grace window after a rotation (mid-delivery)', async () => {
    const { client, server, receiver, subscribes } = await subscribed(2_000);
    const subscription = await client.events.subscribe(
      REPLAY,
      {},
      { webhook: { url: URL_, receiver, secretGraceMs: 60_000 } },
    );
    const old = subscribes[0]!.request['params']['delivery']['secret'] as string;
    await vi.advanceTimersByTimeAsync(1_700); // one refresh: a new secret
    expect(subscribes).toHaveLength(2);
    const fresh = subscribes[1]!.request['params']['delivery']['secret'] as string;
    const id = `sub-${REPLAY}`;
    expect((await receiver.handle(delivery(old, id, occurrence('in-flight', 'c1')))).status).toBe(200);
    expect((await receiver.handle(delivery(fresh, id, occurrence('next', 'c2')))).status).toBe(200);
    await vi.advanceTimersByTimeAsync(61_000);
    expect((await receiver.handle(delivery(old, id, occurrence('late', 'c3')))).status).toBe(401);
    await subscription.close();
    expect(server.requests('events/unsubscribe')).toHaveLength(1);
    const { _meta, ...params } = server.requests('events/unsubscribe')[0]!['params'];
    expect(params).toEqual({ name: REPLAY, arguments: {}, delivery: { url: URL_ } });
    expect(_meta['io.modelcontextprotocol/clientCapabilities'].extensions).toHaveProperty([
      'io.modelcontextprotocol/events',
    ]);
    await client.close();
  });

  it('ends on a terminated body and refuses a non-https callback before sending', async () => {
    const { client, receiver, subscribes } = await subscribed(60_000);
    const subscription = await client.events.subscribe(REPLAY, {}, { webhook: { url: URL_, receiver } });
    const secret = subscribes[0]!.request['params']['delivery']['secret'] as string;
    const body = { type: 'terminated', error: { code: -32012, message: 'Forbidden', data: { reason: 'revoked' } } };
    expect((await receiver.handle(delivery(secret, `sub-${REPLAY}`, body))).status).toBe(200);
    const closed = await subscription.closed;
    expect(closed).toMatchObject({ reason: 'ended', error: { data: { reason: 'terminated' } } });
    await expect(
      client.events.subscribe(REPLAY, {}, { webhook: { url: 'http://hooks.example.test/', receiver } }),
    ).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});
