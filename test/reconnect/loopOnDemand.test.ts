/**
 * The reconnect loop (reconnect/loop.ts, on p-retry) loads with the first reconnect
 * (docs/transports.md, "Reconnecting"): each test starts from a fresh module graph
 * (`vi.resetModules()`, so nothing is loaded yet), over a restartable wire fake on fake timers.
 * A client that never drops never loads it; the first drop loads it before its first wait, which
 * is then the policy's as ever; a loop that cannot be loaded makes the client give up at once
 * with the ModuleLoadError (-32042) as the cause.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpClient as Client } from '../../src/client/client.js';
import type { ClientEvent } from '../../src/reconnect/types.js';
import type { RestartableFake as Fake } from '../fakes/restartable.js';
import { DISCOVER_RESULT, type ScriptedServer } from '../fakes/scriptedServer.js';

const LOOP = '../../src/reconnect/loop.js';

function standard(server: ScriptedServer): void {
  server.on('server/discover', () => ({ result: DISCOVER_RESULT }));
  server.on('tools/list', () => ({ result: { tools: [] } }));
}

describe('the reconnect loop, loaded with the first reconnect', () => {
  const clients: Client[] = [];
  beforeEach(() => {
    vi.resetModules();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    vi.doUnmock(LOOP);
    vi.useRealTimers();
  });

  /** A connected client of fresh modules over a restartable fake, reconnecting 100 ms after a drop. */
  async function freshClient(): Promise<{ client: Client; transport: Fake; events: ClientEvent[] }> {
    const [{ McpClient }, { RestartableFake }] = await Promise.all([
      import('../../src/client/client.js'),
      import('../fakes/restartable.js'),
    ]);
    const transport = new RestartableFake(standard);
    const client = new McpClient({
      transport,
      clientInfo: { name: 'reconnect-on-demand', version: '0.0.0' },
      reconnect: { jitter: false, minDelayMs: 100 },
    });
    clients.push(client);
    const events: ClientEvent[] = [];
    client.on((event) => events.push(event));
    await client.connect();
    return { client, transport, events };
  }

  it('a drop loads the loop, whose first wait is the policy’s; then the client is open again', async () => {
    const { client, transport, events } = await freshClient();
    // Fake time for the waits only: the load runs on real I/O turns (setImmediate stays real).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    transport.drop({ exitCode: 1, signal: null });
    expect(client.state).toBe('reconnecting');
    for (let turn = 0; turn < 1000 && !events.some((e) => e.type === 'reconnecting'); turn++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(events.find((e) => e.type === 'reconnecting')).toMatchObject({
      attempt: 1,
      delayMs: 100,
      coolDown: false,
      cause: { reason: 'process-exit', exitCode: 1 },
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(transport.starts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(transport.starts).toBe(2);
    expect(client.state).toBe('open');
    expect(events.at(-1)).toMatchObject({ type: 'reconnected', attempt: 1 });
    expect(await client.listTools()).toMatchObject({ tools: [] });
  });

  it('a client that never drops does without it; when it cannot be loaded, a drop gives up at once with ModuleLoadError', async () => {
    vi.doMock(LOOP, () => {
      throw new Error('chunk missing');
    });
    const { client, transport, events } = await freshClient();
    expect(await client.listTools()).toMatchObject({ tools: [] });
    expect(client.state).toBe('open');
    transport.drop({ exitCode: 1, signal: null });
    const waiting = client.listTools().catch((e: unknown) => e);
    await vi.waitFor(() => expect(client.state).toBe('closed'));
    expect(events.some((e) => e.type === 'reconnecting')).toBe(false);
    const gaveUp = events.find((e) => e.type === 'gaveUp') as Extract<ClientEvent, { type: 'gaveUp' }>;
    expect(gaveUp).toMatchObject({ attempts: 0, cause: { reason: 'connect-failed' } });
    expect(gaveUp.cause.error).toMatchObject({ name: 'ModuleLoadError', code: -32042, data: { module: 'reconnect' } });
    expect(await waiting).toMatchObject({ name: 'ConnectionClosedError', data: { reason: 'gave up reconnecting' } });
    expect(((await waiting) as Error).cause).toBe(gaveUp.cause.error);
    expect(transport.starts).toBe(1);
  });
});
