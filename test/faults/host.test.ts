/**
 * McpHost over misbehaving stdio servers (real child processes): a server that crash-loops
 * among healthy ones, one that hangs at connect, and twenty at once. Every scenario settles
 * within a bound with the documented state and error, leaves no unhandled rejection, and after
 * `close()` no process of any server's group and no handle.
 */
import { fileURLToPath } from 'node:url';
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/hostNode.js';
import type { HostServerEntry } from '../../src/host/servers/config.js';
import { expectNoLeakedHandles, expectRejects, faultProbe, groupAlive, settleWithin } from './harness.js';

const SERVER = fileURLToPath(new URL('./children/faulty-server.mjs', import.meta.url));
const clientInfo = { name: 'host-faults', version: '0.0.0' };

/** A stdio entry running the faulty server in `mode`. */
function entry(mode: string, extra: Partial<HostServerEntry> = {}): HostServerEntry {
  return { type: 'stdio', command: process.execPath, args: [SERVER, mode], ...extra } as HostServerEntry;
}

/** Pids of this process's children running the faulty server (from /proc). */
function faultyChildren(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid || fields[0] === 'Z') continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('faulty-server')) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe('McpHost over misbehaving servers', () => {
  const probe = faultProbe();
  const hosts: McpHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });

  function host(servers: Record<string, HostServerEntry>, errors: Error[] = []): McpHost {
    const made = new McpHost({ clientInfo, servers, onError: (error) => errors.push(error) });
    hosts.push(made);
    return made;
  }

  /** close() settles within `bound`; then no server process, no handle is left. */
  async function closeAndCheck(h: McpHost, pgids: number[], bound = 4000): Promise<void> {
    await settleWithin(h.close(), bound, 'close()');
    const deadline = performance.now() + 1000;
    while (performance.now() < deadline && (faultyChildren().length > 0 || pgids.some(groupAlive)))
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(faultyChildren(), 'server processes left after close()').toEqual([]);
    expect(pgids.filter(groupAlive)).toEqual([]);
    await expectNoLeakedHandles(probe.baseline);
  }

  it('a server crash-looping among healthy ones: the healthy ones answer every call, a call to the looping one settles (its answer or a typed error)', async () => {
    const h = host({
      a: entry('ok'),
      loop: entry('crash-loop', { client: { reconnect: { jitter: false, minDelayMs: 30, maxDelayMs: 60 } } }),
      b: entry('ok'),
    });
    const statuses = await settleWithin(h.connect(), 5000, 'connect()');
    expect(statuses.status).toBe('fulfilled');
    const pgids = faultyChildren();
    // Through several of the looping server's crashes, the healthy ones keep answering.
    const until = performance.now() + 600;
    let answered = 0;
    while (performance.now() < until) {
      const results = await Promise.all([h.callTool('a__go', {}), h.callTool('b__go', {})]);
      answered += results.length;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(answered).toBeGreaterThan(4);
    expect(h.server('a')?.state).toBe('open');
    expect(h.server('b')?.state).toBe('open');
    // The looping server is never reported open for long; a call to it settles, never hangs.
    const call = await settleWithin(
      h.callTool('loop__go', {}, { timeoutMs: 1000 }),
      3000,
      'a call to the looping server',
    );
    if (call.status === 'rejected') expect([-32000, -32001, -33051]).toContain((call.error as { code?: number }).code);
    await closeAndCheck(h, pgids);
  });

  it('a server that hangs at connect fails with TimeoutError (-32001) at its client timeoutMs; the others are open', async () => {
    const h = host({
      ok: entry('ok'),
      silent: entry('silent', { client: { timeoutMs: 300 } }),
    });
    const started = performance.now();
    const settled = await settleWithin(h.connect(), 4000, 'connect()');
    expect(settled.status).toBe('fulfilled');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(h.server('ok')?.state).toBe('open');
    const silent = h.server('silent');
    expect(silent?.state).toBe('failed');
    expect(silent?.lastError).toMatchObject({ name: 'TimeoutError', code: -32001 });
    await expectRejects(h.callTool('silent__go', {}), 2000, { name: 'HostRoutingError', code: -33051 });
    await closeAndCheck(h, faultyChildren());
  });

  it('twenty stdio servers at once: all open, all answer, no process left after close()', async () => {
    const servers: Record<string, HostServerEntry> = {};
    for (let i = 0; i < 20; i++) servers[`s${i}`] = entry('ok');
    const h = host(servers);
    const statuses = await settleWithin(h.connect(), 10_000, 'connect()');
    expect(statuses.status).toBe('fulfilled');
    expect(h.servers.filter((s) => s.state === 'open')).toHaveLength(20);
    const pgids = faultyChildren();
    expect(pgids).toHaveLength(20);
    const results = await settleWithin(
      Promise.all(Object.keys(servers).map((name) => h.callTool(`${name}__go`, {}))),
      5000,
      'twenty calls',
    );
    expect(results.status).toBe('fulfilled');
    await closeAndCheck(h, pgids);
  });
});
