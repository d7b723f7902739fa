/**
 * Misbehaving stdio servers (real child processes), through the public API: each call settles
 * within a bound with the documented class and code; no unhandled rejection; after `close()`
 * no active handle and no process of the server's group is left; memory stays bounded.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient, type ClientOptions } from '../../src/index.js';
import { StdioTransport } from '../../src/node.js';
import {
  expectGroupGone,
  expectNoLeakedHandles,
  expectRejects,
  faultProbe,
  groupAlive,
  groupMembers,
  settleWithin,
  withBoundedHeap,
} from './harness.js';

const SERVER = fileURLToPath(new URL('./children/faulty-server.mjs', import.meta.url));

interface Started {
  client: McpClient;
  transport: StdioTransport;
  /** Everything reported to `onError`. */
  errors: Error[];
  /** The server's process group id (its pid). */
  pgid: number;
}

describe('misbehaving stdio servers', () => {
  const probe = faultProbe();
  const open: Started[] = [];

  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.client.close()));
  });

  async function start(mode: string, options: Partial<ClientOptions> = {}, closeTimeoutMs = 300): Promise<Started> {
    const transport = new StdioTransport({ command: process.execPath, args: [SERVER, mode], closeTimeoutMs });
    const errors: Error[] = [];
    const client = new McpClient({
      transport,
      clientInfo: { name: 'faults', version: '0.0.0' },
      onError: (error) => errors.push(error),
      ...options,
    });
    const started: Started = { client, transport, errors, pgid: 0 };
    open.push(started);
    await client.connect({ timeoutMs: 5000 });
    started.pgid = transport.pid!;
    return started;
  }

  /** close() settles within `bound`; then no group member, no handle is left. */
  async function closeAndCheck(started: Started, bound = 3000): Promise<void> {
    await settleWithin(started.client.close(), bound, 'close()');
    await expectGroupGone(started.pgid);
    await expectNoLeakedHandles(probe.baseline);
  }

  it('crash: exit with a code fails the pending call with ConnectionClosedError, exit code and stderr tail', async () => {
    const s = await start('exit-on-call');
    const error = await expectRejects(s.client.callTool('go', {}), 3000, {
      name: 'ConnectionClosedError',
      code: -32000,
      data: { exitCode: 3 },
    });
    expect(error.data.stderrTail).toContain('fatal: crash');
    await closeAndCheck(s);
  });

  it('crash: SIGKILL fails the pending call with ConnectionClosedError naming the signal', async () => {
    const s = await start('sigkill-on-call');
    await expectRejects(s.client.callTool('go', {}), 3000, {
      name: 'ConnectionClosedError',
      code: -32000,
      data: { signal: 'SIGKILL' },
    });
    await closeAndCheck(s);
  });

  it('hang with a timeout: TimeoutError at the idle bound, and the server is told', async () => {
    const s = await start('hang');
    const error = await expectRejects(s.client.callTool('go', {}, { timeoutMs: 200 }), 2000, {
      name: 'TimeoutError',
      code: -32001,
    });
    expect(error.data.kind).toBe('idle');
    await closeAndCheck(s);
  });

  it('hang with a total bound: TimeoutError kind total, whatever the idle timeout', async () => {
    const s = await start('hang');
    const error = await expectRejects(
      s.client.callTool('go', {}, { timeoutMs: 60_000, maxTotalTimeoutMs: 250 }),
      2000,
      { name: 'TimeoutError', code: -32001 },
    );
    expect(error.data.kind).toBe('total');
    await closeAndCheck(s);
  });

  it('hang without timeouts: an abort ends it with CancelledError, close() with ConnectionClosedError', async () => {
    const s = await start('hang');
    const controller = new AbortController();
    const aborted = s.client.callTool('go', {}, { signal: controller.signal });
    const pending = s.client.callTool('go', {});
    setTimeout(() => controller.abort('user gave up'), 50);
    await expectRejects(aborted, 2000, { name: 'CancelledError', code: -32800 });
    const closing = s.client.close();
    await expectRejects(pending, 2000, { name: 'ConnectionClosedError', code: -32000 });
    await settleWithin(closing, 3000, 'close()');
    await closeAndCheck(s);
  });

  it('garbage on stdout: each line reported as ProtocolError -32700, the call still answered', async () => {
    const s = await start('garbage');
    const result = await settleWithin(s.client.callTool('go', {}), 5000);
    expect(result.status).toBe('fulfilled');
    const parseErrors = s.errors.filter((e) => (e as { code?: number }).code === -32700);
    expect(parseErrors).toHaveLength(1000);
    await closeAndCheck(s);
  });

  it('a 10 MiB line of garbage is dropped and reported; the call is answered, memory bounded', async () => {
    const s = await start('huge-line');
    await withBoundedHeap(120, async () => {
      const result = await settleWithin(s.client.callTool('go', {}), 8000);
      expect(result.status).toBe('fulfilled');
    });
    expect(s.errors.some((e) => (e as { code?: number }).code === -32700)).toBe(true);
    await closeAndCheck(s);
  });

  it('a 10 MiB answer arrives whole, memory bounded', async () => {
    const s = await start('huge-answer');
    await withBoundedHeap(160, async () => {
      const result = await settleWithin(s.client.callTool('go', {}), 8000);
      expect(result.status).toBe('fulfilled');
      const text = (result as { value: { content: Array<{ text: string }> } }).value.content[0]!.text;
      expect(text).toHaveLength(10 * 1024 * 1024);
    });
    await closeAndCheck(s);
  });

  it('a flood of 20000 notifications before the answer: answered, memory bounded', async () => {
    let logs = 0;
    const s = await start('flood', { onLog: () => logs++ });
    await withBoundedHeap(80, async () => {
      const result = await settleWithin(s.client.callTool('go', {}), 10_000);
      expect(result.status).toBe('fulfilled');
    });
    expect(logs).toBe(20_000);
    await closeAndCheck(s);
  });

  it('unknown and duplicate ids: reported, never delivered twice; the call gets one answer', async () => {
    const s = await start('unknown-ids');
    const result = await settleWithin(s.client.callTool('go', {}), 3000);
    expect(result.status).toBe('fulfilled');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Two strays and the duplicate answer are reported, not crashed on.
    expect(s.errors.length).toBeGreaterThanOrEqual(3);
    const again = await settleWithin(s.client.listTools(), 3000);
    expect(again.status).toBe('fulfilled');
    await closeAndCheck(s);
  });

  it('close() leaves no process of the group, when the server exits first and a helper ignores SIGTERM', async () => {
    const s = await start('group-helper');
    // The server and its helper, both alive, both in the server's group.
    const deadline = performance.now() + 3000;
    while (groupMembers(s.pgid).length < 2 && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const members = groupMembers(s.pgid);
    expect(members).toHaveLength(2);
    const closed = await settleWithin(s.client.close(), 3000, 'close()');
    expect(closed.status).toBe('fulfilled');
    // Nothing of the group survives close(): not the server, not its helper.
    expect(groupAlive(s.pgid), `left: ${groupMembers(s.pgid).join(', ')}`).toBe(false);
    await expectNoLeakedHandles(probe.baseline);
  });

  it('close() ends a server that ignores stdin EOF and SIGTERM and its helper that ignores SIGTERM: the group is gone (ESRCH)', async () => {
    const s = await start('stubborn-group');
    const deadline = performance.now() + 3000;
    while (groupMembers(s.pgid).length < 2 && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(groupMembers(s.pgid)).toHaveLength(2);
    // closeTimeoutMs 300: stdin EOF, SIGTERM 300 ms later, SIGKILL 300 ms after that; then the reaping.
    const closed = await settleWithin(s.client.close(), 5000, 'close()');
    expect(closed.status).toBe('fulfilled');
    // No member left at all, not even a zombie: kill(2) on the group finds nothing.
    let code: string | undefined;
    try {
      process.kill(-s.pgid, 0);
    } catch (error) {
      code = (error as NodeJS.ErrnoException).code;
    }
    expect(code, `left: ${groupMembers(s.pgid).join(', ')}`).toBe('ESRCH');
    await expectNoLeakedHandles(probe.baseline);
  });

  it('a reconnect after the server was killed ends what its group left (a helper that ignores SIGTERM)', async () => {
    const s = await start('group-helper', { reconnect: { jitter: false, minDelayMs: 50 } });
    const deadline = performance.now() + 3000;
    while (groupMembers(s.pgid).length < 2 && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(groupMembers(s.pgid)).toHaveLength(2);
    const back = new Promise<void>((resolve) => s.client.on((event) => event.type === 'reconnected' && resolve()));
    process.kill(s.pgid, 'SIGKILL'); // the server only: its helper stays
    await settleWithin(back, 5000, 'the reconnect');
    const second = s.transport.pid!;
    expect(second).not.toBe(s.pgid);
    // The old group is ended while the new server runs: SIGTERM, then SIGKILL closeTimeoutMs later.
    await expectGroupGone(s.pgid, 3000);
    expect(groupAlive(second)).toBe(true);
    await closeAndCheck(s);
    await expectGroupGone(second);
  });
});
