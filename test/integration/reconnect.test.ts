/**
 * Reconnecting against real peers: the example server over stdio killed with SIGKILL
 * mid-session; the example server over WebSocket going away (1001) and coming back on the same
 * port; a stdio server that crashes right after every start.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import type { ClientEvent } from '../../src/reconnect/types.js';
import type { LiveListEvent, SubscriptionEvent } from '../../src/subscriptions/types.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { WebSocketTransport } from '../../src/transport/websocket/node.js';
import { createExampleServerFactory, createExampleState } from '../../examples/serverFactory.js';
import { startWebSocketBridge, type WebSocketBridge } from '../fakes/webSocketBridge.js';
import { exampleClient } from './exampleServer.js';

const SCRIPTED = fileURLToPath(new URL('../fakes/children/scripted-modern.mjs', import.meta.url));
const FAST = { jitter: false, minDelayMs: 50 } as const;

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Resolves with the first event `target` emits (from now on) that matches. */
function next<E>(target: { on(listener: (event: E) => void): () => void }, match: (event: E) => boolean): Promise<E> {
  return new Promise((resolve) => {
    const off = target.on((event) => {
      if (!match(event)) return;
      off();
      resolve(event);
    });
  });
}

/**
 * Blocks this thread (no event loop turn) until process `pid` is dead and its pipes closed
 * (Linux: its leader a zombie and every other thread gone, since threads share the open files;
 * elsewhere, a fixed 300 ms). Requests made before it are then written to a dead server before
 * the client can see it exit: the write fails (EPIPE) first, as on a loaded machine where the
 * exit is seen late.
 */
function blockUntilDead(pid: number): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  if (process.platform !== 'linux') {
    Atomics.wait(cell, 0, 0, 300);
    return;
  }
  for (let waited = 0; waited < 5000; waited += 5) {
    try {
      const zombie = /\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (zombie && readdirSync(`/proc/${pid}/task`).length <= 1) return;
    } catch {
      return; // Reaped already.
    }
    Atomics.wait(cell, 0, 0, 5);
  }
  throw new Error(`process ${pid} did not die`);
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe('stdio: the example server killed with SIGKILL mid-session', () => {
  it('reconnects; a pending read resolves, a pending tools/call rejects with outcome unknown; lists and subscriptions resync', async () => {
    const { client, transport } = exampleClient({ reconnect: FAST });
    cleanups.push(() => client.close());
    const events: ClientEvent[] = [];
    client.on((event) => events.push(event));
    await client.connect();
    const prompts = await client.live('prompts');
    const promptEvents: Array<LiveListEvent<unknown>> = [];
    prompts.on((event) => promptEvents.push(event));
    const sub = await client.subscribe({ resourceSubscriptions: ['demo://note'] });
    const subEvents: SubscriptionEvent[] = [];
    sub.on((event) => subEvents.push(event));
    const firstPid = transport.pid!;

    // Freeze the server so that both requests are surely in flight, unanswered, when it dies.
    process.kill(firstPid, 'SIGSTOP');
    const read = client.readResource('demo://items/7');
    const call = client.callTool('echo', { message: 'lost?' }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const back = next(client, (e) => e.type === 'reconnected');
    process.kill(firstPid, 'SIGKILL');

    const error = (await call) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.data).toMatchObject({ signal: 'SIGKILL', outcome: 'unknown' });
    expect(await back).toMatchObject({ type: 'reconnected', attempt: 1, protocolVersion: '2026-07-28', era: 'modern' });
    await expect(read).resolves.toMatchObject({
      contents: [{ uri: 'demo://items/7', text: expect.stringContaining('Item 7') }],
    });
    expect(transport.pid).not.toBe(firstPid);
    expect(gone(firstPid)).toBe(true);
    expect(client.state).toBe('open');
    expect(events.filter((e) => e.type !== 'state').map((e) => e.type)).toEqual(['reconnecting', 'reconnected']);
    expect(events.find((e) => e.type === 'reconnecting')).toMatchObject({
      attempt: 1,
      delayMs: 50,
      cause: { reason: 'process-exit', exitCode: null, signal: 'SIGKILL' },
    });

    // The subscription listened again on the new process, and delivers.
    await vi.waitFor(() => expect(subEvents.map((e) => e.type)).toContain('resync'), { timeout: 5000 });
    expect(subEvents.map((e) => e.type)).toEqual(['subscriptionLost', 'resync']);
    const updated = next(sub, (e) => e.type === 'resourceUpdated');
    await client.callTool('update_note', { text: 'after the crash' });
    expect(await updated).toEqual({ type: 'resourceUpdated', uri: 'demo://note' });

    // The live list resynced, and follows the new process's changes.
    await vi.waitFor(() => expect(promptEvents.map((e) => e.type)).toContain('resync'), { timeout: 5000 });
    const added = next(prompts, (e) => e.type === 'updated' && e.changed);
    await client.callTool('add_prompt', { name: 'after_crash', text: 'hi' });
    await added;
    expect(prompts.items.map((p) => (p as { name: string }).name)).toContain('after_crash');
    expect(prompts.stale).toBe(false);

    const lastPid = transport.pid!;
    await client.close();
    expect(gone(lastPid)).toBe(true);
  }, 30_000);
});

describe('stdio: requests written to a server that died, before the client sees it exit', () => {
  it('a read is held and sent again on the new process; a tools/call rejects with outcome unknown', async () => {
    const transport = new StdioTransport({ command: process.execPath, args: [SCRIPTED, 'plain'], closeTimeoutMs: 300 });
    const client = new McpClient({ transport, clientInfo: { name: 'epipe', version: '0' }, reconnect: FAST });
    cleanups.push(() => client.close());
    await client.connect();
    const firstPid = transport.pid!;
    const back = next(client, (e) => e.type === 'reconnected');
    const list = client.listTools();
    const call = client.callTool('echo', { message: 'lost?' }).catch((e: unknown) => e);
    process.kill(firstPid, 'SIGKILL');
    blockUntilDead(firstPid);

    const error = (await call) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.data).toMatchObject({ signal: 'SIGKILL', outcome: 'unknown' });
    await expect(list).resolves.toMatchObject({ tools: [] });
    expect(await back).toMatchObject({ attempt: 1 });
    expect(transport.pid).not.toBe(firstPid);
    expect(client.state).toBe('open');
  }, 30_000);
});

describe('stdio: close() while the client waits to reconnect', () => {
  it('returns at once; no new process is spawned, and a waiting read rejects', async () => {
    const { client, transport } = exampleClient({
      reconnect: { jitter: false, minDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    cleanups.push(() => client.close());
    await client.connect();
    const firstPid = transport.pid!;
    const reconnecting = next(client, (e) => e.type === 'reconnecting');
    process.kill(firstPid, 'SIGKILL');
    expect(await reconnecting).toMatchObject({ attempt: 1, delayMs: 60_000, cause: { signal: 'SIGKILL' } });
    const waiting = client.readResource('demo://items/1').catch((e: unknown) => e);
    const started = performance.now();
    await client.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await waiting).toMatchObject({ name: 'ConnectionClosedError', data: { outcome: 'not-sent' } });
    expect(client.state).toBe('closed');
    expect(transport.pid).toBe(firstPid);
    expect(gone(firstPid)).toBe(true);
  }, 30_000);
});

describe('WebSocket: the server goes away (1001) and comes back on the same port', () => {
  it('reconnects once the port listens again; a subscription resyncs and calls work', async () => {
    const factory = createExampleServerFactory(createExampleState());
    let bridge: WebSocketBridge = await startWebSocketBridge(factory);
    cleanups.push(() => bridge.close());
    const client = new McpClient({
      transport: new WebSocketTransport(bridge.url),
      clientInfo: { name: 'ws-reconnect', version: '0' },
      reconnect: FAST,
    });
    cleanups.push(() => client.close());
    const events: ClientEvent[] = [];
    client.on((event) => events.push(event));
    await client.connect();
    const sub = await client.subscribe({ toolsListChanged: true, resourceSubscriptions: ['demo://note'] });
    const resync = next(sub, (e) => e.type === 'resync');

    // Down: the first attempts are refused, until the server listens again.
    const refused = next(client, (e) => e.type === 'reconnecting' && e.attempt === 3);
    await bridge.goAway(1001);
    expect(client.state).toBe('reconnecting');
    await refused;
    const back = next(client, (e) => e.type === 'reconnected');
    bridge = await startWebSocketBridge(factory, { port: bridge.port });
    expect(await back).toMatchObject({ type: 'reconnected', attempt: 3, era: 'modern' });
    await resync;

    const reconnecting = events.filter((e) => e.type === 'reconnecting');
    expect(reconnecting[0]).toMatchObject({
      attempt: 1,
      delayMs: 50,
      cause: { reason: 'websocket-close', closeCode: 1001 },
    });
    expect(reconnecting[1]).toMatchObject({ attempt: 2, delayMs: 100, cause: { reason: 'connect-failed' } });
    expect(reconnecting[2]).toMatchObject({ attempt: 3, delayMs: 200, cause: { reason: 'connect-failed' } });
    expect(bridge.sockets).toHaveLength(1);
    await expect(client.callTool('echo', { message: 'back' })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'back' }],
    });
    const updated = next(sub, (e) => e.type === 'resourceUpdated');
    await client.callTool('update_note', { text: 'over the new socket' });
    expect(await updated).toEqual({ type: 'resourceUpdated', uri: 'demo://note' });
  }, 30_000);
});

describe('stdio: a server that crashes right after every start', () => {
  it('the budget stops the attempts, the cause is reported, nothing runs hot and nothing is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-live-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const transport = new StdioTransport({
      command: process.execPath,
      args: [SCRIPTED, 'crash-after-first', join(dir, 'marker')],
      closeTimeoutMs: 300,
    });
    const client = new McpClient({
      transport,
      clientInfo: { name: 'crash-loop', version: '0' },
      reconnect: { ...FAST, maxQuickRetries: 3, coolDownMs: 300, maxCoolDowns: 1, quickPhaseMs: 0 },
    });
    cleanups.push(() => client.close());
    const events: Array<{ at: number; event: ClientEvent }> = [];
    client.on((event) => events.push({ at: performance.now(), event }));
    await client.connect();
    const firstPid = transport.pid!;
    const pending = client.listTools().catch((e: unknown) => e);
    const gaveUp = next(client, (e) => e.type === 'gaveUp');
    process.kill(firstPid, 'SIGKILL');
    // The request goes out only once the server is dead: its write fails before the exit is seen.
    blockUntilDead(firstPid);

    expect(await gaveUp).toMatchObject({
      type: 'gaveUp',
      attempts: 4,
      cause: { reason: 'process-exit', exitCode: 2, signal: null, stderrTail: 'fatal: store locked\n' },
    });
    expect(client.state).toBe('closed');
    const failed = (await pending) as ConnectionClosedError;
    expect(failed).toBeInstanceOf(ConnectionClosedError);
    expect(failed.data).toMatchObject({
      reason: 'gave up reconnecting',
      exitCode: 2,
      stderrTail: 'fatal: store locked\n',
    });
    expect(failed.message).toContain('gave up reconnecting after 4 attempt(s)');

    // The waits the budget named, and no less. The connection died young, so the drop itself is
    // the first quick failure: 50, 100, 200 ms of backoff, then three quick failures are spent
    // and one cool-down (300 ms) is allowed; the next failure gives up.
    const reconnecting = events.filter((e) => e.event.type === 'reconnecting');
    expect(reconnecting.map((e) => (e.event as { delayMs: number }).delayMs)).toEqual([50, 100, 200, 300]);
    const end = events.find((e) => e.event.type === 'gaveUp')!.at;
    expect(end - reconnecting[0]!.at).toBeGreaterThanOrEqual(50 + 100 + 200 + 300 - 20);
    expect(events.map((e) => (e.event.type === 'state' ? e.event.state : e.event.type)).slice(-3)).toEqual([
      'reconnecting',
      'gaveUp',
      'closed',
    ]);
    expect(gone(transport.pid!)).toBe(true);
    expect(gone(firstPid)).toBe(true);
  }, 30_000);
});
