import { describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import { JsonRpcSession } from '../../src/jsonrpc/session.js';
import type { Transport } from '../../src/transport/transport.js';
import { systemTimers } from '../../src/util/clock.js';
import { RestartableFake } from '../fakes/restartable.js';

const OPTIONS = { timeoutMs: 5000, maxTotalTimeoutMs: 5000, resetTimeoutOnProgress: false };

describe('JsonRpcSession over a restartable transport', () => {
  it('says which requests may have reached the server, restarts, and goes on with fresh ids', async () => {
    const transport = new RestartableFake((server, n) => {
      server.on('ping', () => ({ result: { connection: n } }));
      if (n === 1) server.on('slow', () => undefined);
    });
    const closes: string[] = [];
    const session = new JsonRpcSession({
      transport,
      timers: systemTimers,
      onNotification: () => {},
      onError: () => {},
      onClose: (info) => closes.push(info.reason),
    });
    await session.start();
    await expect(session.request('ping', {}, OPTIONS)).resolves.toEqual({ connection: 1 });
    const inFlight = session.request('slow', {}, OPTIONS).catch((e: unknown) => e);
    await Promise.resolve();
    transport.drop();
    const cut = (await inFlight) as ConnectionClosedError;
    expect(cut).toBeInstanceOf(ConnectionClosedError);
    expect(cut.data).toMatchObject({ outcome: 'unknown', exitCode: 1 });
    const refused = (await session.request('ping', {}, OPTIONS).catch((e: unknown) => e)) as ConnectionClosedError;
    expect(refused.data).toMatchObject({ outcome: 'not-sent' });
    expect(session.state).toBe('closed');

    await session.restart();
    expect(session.state).toBe('open');
    await expect(session.request('ping', {}, OPTIONS)).resolves.toEqual({ connection: 2 });
    // Ids go on: the new connection never sees an id of the old one.
    const firstIds = transport.servers[0]!.received.map((m) => m['id'] as number);
    const secondIds = transport.servers[1]!.received.map((m) => m['id'] as number);
    expect(Math.min(...secondIds)).toBeGreaterThan(Math.max(...firstIds));
    await expect(session.restart()).rejects.toThrow('only a closed session restarts');
    await session.close();
    expect(closes).toEqual(['process exited with code 1', 'closed by client']);
  });
});

describe('JsonRpcSession: a send that fails because the connection is ending', () => {
  function open(transport: Transport, errors: Error[] = []): JsonRpcSession {
    return new JsonRpcSession({
      transport,
      timers: systemTimers,
      onNotification: () => {},
      onError: (e) => errors.push(e),
    });
  }

  it('over a restartable transport, waits for the close and gets its info, with the send’s outcome', async () => {
    const transport = new RestartableFake();
    const session = open(transport);
    await session.start();
    transport.breakWrites('not-sent');
    const refused = session.request('ping', {}, OPTIONS).catch((e: unknown) => e);
    transport.breakWrites('unknown');
    const failed = session.request('ping', {}, OPTIONS).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(session.pendingCount).toBe(2);
    transport.drop({
      reason: 'process killed by signal SIGKILL',
      exitCode: null,
      signal: 'SIGKILL',
      stderrTail: 'x\n',
    });
    const data = { reason: 'process killed by signal SIGKILL', exitCode: null, signal: 'SIGKILL', stderrTail: 'x\n' };
    expect(await refused).toMatchObject({ name: 'ConnectionClosedError', data: { ...data, outcome: 'not-sent' } });
    expect(await failed).toMatchObject({ name: 'ConnectionClosedError', data: { ...data, outcome: 'unknown' } });
  });

  it('its own deadline still ends it, and no notifications/cancelled is written to the dying connection', async () => {
    const transport = new RestartableFake();
    const errors: Error[] = [];
    const session = open(transport, errors);
    await session.start();
    transport.breakWrites();
    const sent = vi.spyOn(transport, 'send');
    const result = session.request('ping', {}, { ...OPTIONS, timeoutMs: 20 }).catch((e: unknown) => e);
    expect(await result).toMatchObject({ name: 'TimeoutError' });
    expect(sent).toHaveBeenCalledTimes(1);
    expect(errors).toEqual([]);
    expect(session.pendingCount).toBe(0);
    await session.close();
  });

  it('over a transport that cannot start again, rejects at once with the send’s error', async () => {
    const refusal = new ConnectionClosedError('cannot send: closed', { reason: 'closed' });
    const transport: Transport = {
      capabilities: { cancelsByAbortingSend: false },
      serverIdentity: 'memory:once',
      start: () => Promise.resolve(),
      send: () => Promise.reject(refusal),
      close: () => Promise.resolve(),
    };
    const session = open(transport);
    await session.start();
    await expect(session.request('ping', {}, OPTIONS)).rejects.toBe(refusal);
    expect(session.pendingCount).toBe(0);
  });
});
