/**
 * The session hooks a long-lived request needs (src/jsonrpc/session.ts): learning its id
 * (`onRequestId`), disarming its timeouts once established (`disarmTimeouts`), and settling it
 * without a word to the server when the server ended it (`abandon`).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTransport } from '../../src/transport/memory.js';
import { JsonRpcSession } from '../../src/jsonrpc/session.js';
import type { SessionRequestOptions } from '../../src/jsonrpc/sessionOptions.js';
import { CancelledError, TimeoutError } from '../../src/errors/errors.js';
import { systemTimers } from '../../src/util/clock.js';
import { ScriptedServer } from '../fakes/scriptedServer.js';

async function sessionPair(): Promise<{ session: JsonRpcSession; server: ScriptedServer; errors: Error[] }> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair('memory:session');
  const server = new ScriptedServer(serverEnd);
  server.on('subscriptions/listen', () => undefined); // never answers
  await server.start();
  const errors: Error[] = [];
  const session = new JsonRpcSession({
    transport: clientEnd,
    timers: systemTimers,
    onNotification: () => {},
    onError: (e) => errors.push(e),
  });
  await session.start();
  return { session, server, errors };
}

const base: SessionRequestOptions = { timeoutMs: 1000, maxTotalTimeoutMs: 1000, resetTimeoutOnProgress: false };

afterEach(() => {
  vi.useRealTimers();
});

describe('session: long-lived requests', () => {
  it('onRequestId hands over the id synchronously, before the message is sent', async () => {
    const { session, server } = await sessionPair();
    let seen: unknown;
    let sentBefore = -1;
    void session
      .request(
        'subscriptions/listen',
        { notifications: {} },
        {
          ...base,
          onRequestId: (id) => {
            seen = id;
            sentBefore = server.received.length;
          },
        },
      )
      .catch(() => {});
    expect(seen).toBe(0);
    const request = await server.waitFor((m) => m['method'] === 'subscriptions/listen');
    expect(request['id']).toBe(seen);
    expect(sentBefore).toBe(0);
    await session.close();
  });

  it('an abort inside onRequestId cancels before anything is sent', async () => {
    const { session, server } = await sessionPair();
    const controller = new AbortController();
    const outcome = session.request(
      'subscriptions/listen',
      {},
      { ...base, signal: controller.signal, onRequestId: () => controller.abort('stop') },
    );
    await expect(outcome).rejects.toBeInstanceOf(CancelledError);
    await Promise.resolve();
    expect(server.received).toEqual([]);
    await session.close();
  });

  it('disarmTimeouts: the request outlives its timeouts, and progress does not re-arm them', async () => {
    vi.useFakeTimers();
    const { session, server } = await sessionPair();
    let id: unknown;
    const outcome = session.request(
      'subscriptions/listen',
      { _meta: { progressToken: 'p' } },
      { ...base, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 2000, onRequestId: (i) => (id = i) },
    );
    let settled = false;
    outcome.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.advanceTimersByTimeAsync(500);
    expect(session.disarmTimeouts(id as number)).toBe(true);
    await server.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p', progress: 1 },
    });
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(settled).toBe(false);
    expect(session.pendingCount).toBe(1);
    expect(session.disarmTimeouts(12345)).toBe(false);
    await server.send({ jsonrpc: '2.0', id, result: { resultType: 'complete' } });
    await expect(outcome).resolves.toEqual({ resultType: 'complete' });
    await session.close();
  });

  it('without disarming, the same request times out (the timeout covers the wait for the ack)', async () => {
    vi.useFakeTimers();
    const { session } = await sessionPair();
    const outcome = session.request('subscriptions/listen', {}, base);
    const caught = outcome.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await caught).toBeInstanceOf(TimeoutError);
    await session.close();
  });

  it('abandon settles with the given error, sends nothing, and drops a late response quietly', async () => {
    const { session, server, errors } = await sessionPair();
    let id: unknown;
    const outcome = session.request('subscriptions/listen', {}, { ...base, onRequestId: (i) => (id = i) });
    await server.waitFor((m) => m['method'] === 'subscriptions/listen');
    const ended = new Error('server cancelled');
    expect(session.abandon(id as number, ended)).toBe(true);
    await expect(outcome).rejects.toBe(ended);
    expect(session.abandon(id as number, ended)).toBe(false);
    await server.send({ jsonrpc: '2.0', id, result: {} });
    await Promise.resolve();
    expect(server.received.filter((m) => m['method'] === 'notifications/cancelled')).toEqual([]);
    expect(errors).toEqual([]);
    await session.close();
  });
});
