/**
 * Push delivery against a scripted server (the in-memory pair routes by
 * `_meta.subscriptionId`, as on stdio), on fake time: the conformance scenario events-client-push
 * (a silent stream is taken for dead and opened again with the last heartbeat's cursor; a null
 * cursor is never replayed), a gap (`active` with `truncated`) reaching the app, `terminated`
 * ending the subscription, and `notifications/cancelled` on close.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURSORLESS, REPLAY, eventsPair, occurrence } from './eventsFakes.js';
import type { ScriptedServer, Wire } from '../fakes/scriptedServer.js';
import { EventForbiddenError, type EventSubscriptionEvent } from '../../src/index.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const META = 'io.modelcontextprotocol/subscriptionId';

function note(server: ScriptedServer, request: Wire, method: string, params: Record<string, unknown>): Promise<void> {
  return server.send({ jsonrpc: '2.0', method, params: { ...params, _meta: { [META]: request['id'] } } });
}

describe('push delivery', () => {
  it('reconnects a stream silent for twice the heartbeat with its last cursor, and never replays null', async () => {
    const { client, server } = await eventsPair(['push']);
    const streams: Wire[] = [];
    server.on('events/stream', (request) => {
      streams.push(request);
      const replay = request['params']['name'] === REPLAY;
      const first = streams.filter((s) => s['params']['name'] === request['params']['name']).length === 1;
      void (async () => {
        await note(server, request, 'notifications/events/active', { cursor: replay ? 'p-0' : null, truncated: false });
        await note(
          server,
          request,
          'notifications/events/event',
          occurrence(`${request['params']['name']}-1`, replay ? 'p-0' : null),
        );
        // The first stream of each type beats four times, 200 ms apart, then goes silent without closing.
        if (first)
          for (let n = 1; n <= 4; n++)
            setTimeout(
              () => void note(server, request, 'notifications/events/heartbeat', { cursor: replay ? `p-${n}` : null }),
              200 * n,
            );
      })();
      return undefined;
    });
    const replay = await client.events.subscribe(REPLAY, {}, { push: { heartbeatTimeoutMs: 1_000 } });
    const cursorless = await client.events.subscribe(CURSORLESS, {}, { push: { heartbeatTimeoutMs: 1_000 } });
    expect(replay.mode).toBe('push');
    await vi.advanceTimersByTimeAsync(2_500);
    const ticks = streams.filter((s) => s['params']['name'] === REPLAY);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks[0]!['params']['cursor']).toBeNull();
    expect(ticks[1]!['params']['cursor']).toBe('p-4');
    const later = streams.filter((s) => s['params']['name'] === CURSORLESS).slice(1);
    expect(later.length).toBeGreaterThanOrEqual(1);
    expect(later.map((s) => s['params']['cursor'])).toEqual(later.map(() => null));
    // The silent stream was cancelled (stdio-style: notifications/cancelled with its id).
    const cancelled = server.received
      .filter((m) => m['method'] === 'notifications/cancelled')
      .map((m) => m['params']['requestId']);
    expect(cancelled).toContain(ticks[0]!['id']);
    await replay.close();
    await cursorless.close();
    await client.close();
  });

  it('hands a mid-stream gap to the app, drops a repeated eventId, and ends on terminated', async () => {
    const { client, server } = await eventsPair(['push']);
    let stream: Wire | undefined;
    server.on('events/stream', (request) => {
      stream = request;
      void note(server, request, 'notifications/events/active', { cursor: 'a', truncated: false });
      return undefined;
    });
    const subscription = await client.events.subscribe(REPLAY);
    const seen: EventSubscriptionEvent[] = [];
    subscription.on((event) => seen.push(event));
    await note(server, stream!, 'notifications/events/event', occurrence('e1', 'b'));
    await note(server, stream!, 'notifications/events/event', occurrence('e1', 'b'));
    await note(server, stream!, 'notifications/events/active', { cursor: 'fresh', truncated: true });
    await note(server, stream!, 'notifications/events/terminated', {
      error: { code: -32012, message: 'Forbidden', data: { reason: 'Access revoked' } },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.filter((e) => e.type === 'occurrence')).toHaveLength(1);
    expect(seen.find((e) => e.type === 'truncated')).toEqual({ type: 'truncated', cursor: 'fresh', via: 'active' });
    const closed = await subscription.closed;
    expect(closed.reason).toBe('ended');
    expect(closed.error?.code).toBe(-33082);
    expect(closed.error?.cause).toBeInstanceOf(EventForbiddenError);
    expect(subscription.cursor).toBe('fresh');
    await client.close();
  });

  it('iterates occurrences and gaps in order, and close() cancels the stream', async () => {
    const { client, server } = await eventsPair(['push', 'poll']);
    let stream: Wire | undefined;
    server.on('events/stream', (request) => {
      stream = request;
      void note(server, request, 'notifications/events/active', { cursor: 'a', truncated: false });
      return undefined;
    });
    const subscription = await client.events.subscribe(REPLAY, {}, { prefer: ['push'] });
    await note(server, stream!, 'notifications/events/event', occurrence('e1', 'b'));
    await note(server, stream!, 'notifications/events/event', occurrence('e2', 'c'));
    const iterator = subscription[Symbol.asyncIterator]();
    const first = await iterator.next();
    const second = await iterator.next();
    expect([first.value, second.value].map((m) => m.type === 'occurrence' && m.occurrence.eventId)).toEqual([
      'e1',
      'e2',
    ]);
    await subscription.close();
    expect((await iterator.next()).done).toBe(true);
    const cancels = server.received.filter((m) => m['method'] === 'notifications/cancelled');
    expect(cancels.map((m) => m['params']['requestId'])).toEqual([stream!['id']]);
    await client.close();
  });

  it('picks poll when push is forbidden', async () => {
    const { client, server } = await eventsPair(['push', 'poll']);
    server.on('events/poll', () => ({
      result: { resultType: 'complete', events: [], cursor: 'x', hasMore: false, nextPollMs: 1000 },
    }));
    const subscription = await client.events.subscribe(REPLAY, {}, { forbid: ['push'] });
    expect(subscription.mode).toBe('poll');
    await expect(client.events.subscribe(REPLAY, {}, { delivery: 'webhook' })).rejects.toMatchObject({ code: -33081 });
    await subscription.close();
    await client.close();
  });
});
