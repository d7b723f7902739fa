import { describe, expect, it } from 'vitest';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import { JsonRpcSession } from '../../src/jsonrpc/session.js';
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
