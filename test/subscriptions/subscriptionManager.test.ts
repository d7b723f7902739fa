/**
 * The manager on its own, over a fake host: routing, reporting, and a listen stream that breaks
 * while the connection stays up (the Streamable HTTP case).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError, ProtocolError } from '../../src/errors/errors.js';
import type { JsonObject, JsonRpcNotification, RequestId } from '../../src/wire/messages.js';
import { SubscriptionManager } from '../../src/subscriptions/subscriptionManager.js';
import type { SubscriptionWireDeps } from '../../src/subscriptions/subscription.js';
import { resolveReopenPolicy } from '../../src/resilience/reopenPolicy.js';
import { UnmatchedNotificationError } from '../../src/subscriptions/errors.js';
import { systemTimers } from '../../src/util/clock.js';
import { ALL_CHANGES, SUB_ID, change, fakeClock, flush, record, settle, types } from './fixtures.js';

interface Pending {
  id: RequestId;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

function fakeHost(): {
  host: SubscriptionWireDeps;
  pending: Pending[];
  disarmed: RequestId[];
  connected: { value: boolean };
} {
  const pending: Pending[] = [];
  const disarmed: RequestId[] = [];
  const connected = { value: true };
  let nextId = 100;
  const host: SubscriptionWireDeps = {
    listen: (_filter, { signal, onRequestId }) =>
      new Promise<JsonObject>((resolve, reject) => {
        const id = nextId++;
        onRequestId(id);
        pending.push({ id, resolve, reject });
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      }),
    disarmTimeouts: (id) => void disarmed.push(id),
    abandon: (id, error) => pending.find((p) => p.id === id)?.reject(error),
    capabilities: () => ALL_CHANGES,
    connected: () => connected.value,
    reconnecting: () => false,
    whenOpen: () => Promise.resolve(),
  };
  return { host, pending, disarmed, connected };
}

function manager(host: SubscriptionWireDeps, errors: Error[]): SubscriptionManager {
  return new SubscriptionManager({
    host,
    cache: undefined,
    walk: () => Promise.resolve({ items: [] }),
    clock: fakeClock,
    timers: systemTimers,
    random: () => 0.5,
    onError: (error) => errors.push(error),
    timeoutMs: 1000,
    reopen: resolveReopenPolicy({ jitter: false }),
    liveDebounceMs: 50,
    liveRetry: { minDelayMs: 1000, maxDelayMs: 60_000, factor: 2, jitter: false },
    poll: { minIntervalMs: 5000, maxIntervalMs: 300_000, defaultIntervalMs: 60_000 },
  });
}

const ack = (id: RequestId, notifications: Record<string, unknown>) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/subscriptions/acknowledged',
  params: { notifications, _meta: { [SUB_ID]: id } },
});

afterEach(() => {
  vi.useRealTimers();
});

describe('SubscriptionManager', () => {
  it('disarms the listen timeouts at the ack, not before', async () => {
    const { host, disarmed } = fakeHost();
    const subs = manager(host, []);
    const opening = subs.subscribe({ toolsListChanged: true });
    await settle();
    expect(disarmed).toEqual([]);
    expect(subs.handleNotification(ack(100, { toolsListChanged: true }))).toBe(true);
    const sub = await opening;
    expect(disarmed).toEqual([100]);
    expect(sub.subscriptionId).toBe(100);
  });

  it('a listen stream that breaks while the connection stays up is reopened (stream-dropped)', async () => {
    vi.useFakeTimers();
    const { host, pending } = fakeHost();
    const subs = manager(host, []);
    const opening = subs.subscribe({ toolsListChanged: true });
    await settle();
    subs.handleNotification(ack(100, { toolsListChanged: true }));
    const sub = await opening;
    const events = record(sub);
    await vi.advanceTimersByTimeAsync(30_000);
    pending[0]!.reject(new ConnectionClosedError('SSE stream ended', { reason: 'stream ended' }));
    await flush();
    expect(events).toMatchObject([
      { type: 'subscriptionLost', reason: 'stream-dropped', willReopen: true, retryInMs: 1000 },
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(pending).toHaveLength(2);
    subs.handleNotification(ack(101, { toolsListChanged: true }));
    await flush();
    expect(types(events)).toEqual(['subscriptionLost', 'resync']);
    expect(sub.subscriptionId).toBe(101);
  });

  it('the same error once the connection is gone closes the subscription (transport-closed)', async () => {
    const { host, pending, connected } = fakeHost();
    const subs = manager(host, []);
    const opening = subs.subscribe({ toolsListChanged: true });
    await settle();
    subs.handleNotification(ack(100, { toolsListChanged: true }));
    const sub = await opening;
    connected.value = false;
    pending[0]!.reject(new ConnectionClosedError('gone', { reason: 'gone' }));
    expect((await sub.closed).reason).toBe('transport-closed');
    expect(subs.size).toBe(0);
  });

  it('reports an ack for nobody, and a resources/updated without a uri; handles neither as a delivery', async () => {
    const { host } = fakeHost();
    const errors: Error[] = [];
    const subs = manager(host, errors);
    const opening = subs.subscribe({ resourceSubscriptions: ['file:///a'] });
    await settle();
    subs.handleNotification(ack(100, { resourceSubscriptions: ['file:///a'] }));
    const sub = await opening;
    const events = record(sub);
    expect(subs.handleNotification(ack(555, {}))).toBe(true);
    expect(subs.handleNotification(change('notifications/resources/updated', 100) as JsonRpcNotification)).toBe(true);
    expect(
      subs.handleNotification(
        change('notifications/resources/updated', undefined, { uri: 'file:///a' }) as JsonRpcNotification,
      ),
    ).toBe(true);
    expect(subs.handleNotification({ jsonrpc: '2.0', method: 'notifications/message', params: {} })).toBe(false);
    await flush();
    expect(events).toEqual([]);
    expect(errors.map((e) => e.constructor)).toEqual([
      UnmatchedNotificationError,
      ProtocolError,
      UnmatchedNotificationError,
    ]);
    expect((errors[2] as UnmatchedNotificationError).data).toMatchObject({
      subscriptionId: undefined,
      invalidated: ['uri file:///a'],
    });
  });
});
