/**
 * connect()'s bounds over the whole negotiation, on fake timers: `timeoutMs` bounds every era's
 * steps together (the probe, `initialize`, the probe again), not each of them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpClient } from '../../src/client/client.js';
import { TimeoutError } from '../../src/errors/errors.js';
import { scriptedPair } from '../fakes/scriptedServer.js';

const clients: McpClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A server that never answers anything. */
function silent(options: Parameters<typeof scriptedPair>[0] = {}) {
  const pair = scriptedPair(options);
  pair.server.on('server/discover', () => undefined);
  pair.server.on('initialize', () => undefined);
  clients.push(pair.client);
  return pair;
}

describe('connect() against a silent server', () => {
  it('connect({ timeoutMs: 3000 }) rejects at 3000 ms with TimeoutError (connect, total), all eras included', async () => {
    vi.useFakeTimers();
    const { client, server } = silent({ probeTimeoutMs: 1000 });
    await server.start();
    const settled = client.connect({ timeoutMs: 3000 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1000);
    // The probe gave up after probeTimeoutMs: initialize is under way, within what is left.
    expect(server.requests('initialize')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1999);
    let done = false;
    void settled.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).code).toBe(-32001);
    expect((error as TimeoutError).data).toEqual({ method: 'connect', timeoutMs: 3000, kind: 'total' });
    // Nothing was tried after the bound: one probe, one initialize.
    expect(server.requests('server/discover')).toHaveLength(1);
    expect(server.requests('initialize')).toHaveLength(1);
  });

  it('the client-wide timeoutMs bounds a connect() given no options the same way', async () => {
    vi.useFakeTimers();
    const { client, server } = silent({ probeTimeoutMs: 500, timeoutMs: 2000 });
    await server.start();
    const settled = client.connect().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(2000);
    const error = await settled;
    expect((error as TimeoutError).data).toEqual({ method: 'connect', timeoutMs: 2000, kind: 'total' });
  });

  it('a shorter maxTotalTimeoutMs still wins', async () => {
    vi.useFakeTimers();
    const { client, server } = silent({ probeTimeoutMs: 500 });
    await server.start();
    const settled = client.connect({ timeoutMs: 3000, maxTotalTimeoutMs: 800 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(800);
    const error = await settled;
    expect((error as TimeoutError).data).toEqual({ method: 'connect', timeoutMs: 800, kind: 'total' });
  });
});
