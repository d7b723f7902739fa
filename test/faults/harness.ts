/**
 * What every fault test asserts, whatever the fault: the call settles within a bound with the
 * documented class and code; no unhandled rejection; after `close()` no active handle is left
 * and no process of the server's group is alive; memory stays bounded.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, beforeEach, expect } from 'vitest';

/** How a call settled, and how long it took (ms). */
export type Settled<T> =
  | { readonly status: 'fulfilled'; readonly value: T; readonly ms: number }
  | { readonly status: 'rejected'; readonly error: unknown; readonly ms: number };

/**
 * Waits for `promise` at most `boundMs`, failing the test when it is still pending then.
 * Resolves with how it settled.
 */
export async function settleWithin<T>(promise: Promise<T>, boundMs: number, what = 'the call'): Promise<Settled<T>> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), boundMs);
  });
  const settled = promise.then(
    (value) => ({ status: 'fulfilled' as const, value, ms: performance.now() - started }),
    (error: unknown) => ({ status: 'rejected' as const, error, ms: performance.now() - started }),
  );
  const first = await Promise.race([settled, bound]);
  clearTimeout(timer);
  if (first === 'late') throw new Error(`${what} did not settle within ${boundMs} ms`);
  return first;
}

/**
 * Asserts that `promise` rejects within `boundMs` with an error of class `name` (checked along
 * the prototype chain) and JSON-RPC `code`; returns the error.
 */
export async function expectRejects(
  promise: Promise<unknown>,
  boundMs: number,
  expected: { name: string; code: number; data?: Record<string, unknown> },
): Promise<Error & { code: number; data?: any }> {
  const settled = await settleWithin(promise, boundMs);
  if (settled.status === 'fulfilled')
    throw new Error(`expected ${expected.name} (${expected.code}), got a result: ${JSON.stringify(settled.value)}`);
  const error = settled.error as Error & { code: number; data?: any };
  expect(classNames(error), String(error)).toContain(expected.name);
  expect(error.code, String(error)).toBe(expected.code);
  if (expected.data !== undefined) expect(error.data).toMatchObject(expected.data);
  return error;
}

/** The class names along an error's prototype chain. */
export function classNames(value: unknown): string[] {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const name = (proto as { constructor?: { name?: string } }).constructor?.name;
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** Counts of `process.getActiveResourcesInfo()` by resource type. */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/**
 * Waits up to `ms` for the process to hold no more active resources of any type than it did in
 * `baseline` (sockets, servers, child processes, timers, pipes); fails listing the extras.
 */
export async function expectNoLeakedHandles(baseline: Map<string, number>, ms = 1500): Promise<void> {
  const deadline = performance.now() + ms;
  let extra: string[];
  for (;;) {
    extra = [];
    for (const [type, count] of activeResources()) {
      const before = baseline.get(type) ?? 0;
      if (count > before) extra.push(`${type} ×${count - before}`);
    }
    if (extra.length === 0 || performance.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(extra, 'active handles left after close()').toEqual([]);
}

/** True while process group `pgid` has a member that is not a zombie (POSIX). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // Zombies (exited, not yet reaped by their parent) keep the group "alive" to kill(2).
  return groupMembers(pgid).some((pid) => !isZombie(pid));
}

/** Pids whose process group is `pgid`, from /proc (Linux); empty where /proc is missing. */
export function groupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return members;
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
  } catch {
    return true;
  }
}

/** Fails unless no process of group `pgid` is alive within `ms`. */
export async function expectGroupGone(pgid: number, ms = 500): Promise<void> {
  const deadline = performance.now() + ms;
  while (groupAlive(pgid) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(groupAlive(pgid), `a process of group ${pgid} survived: ${groupMembers(pgid).join(', ')}`).toBe(false);
}

/** The JavaScript heap plus the memory of ArrayBuffers and Buffers (body chunks live there), in bytes. */
function usedMemory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * Samples memory (heap and buffers) while `run` runs, every 10 ms, and fails when it grew by
 * more than `maxMiB` over its start at any sample. Returns what `run` returned.
 */
export async function withBoundedHeap<T>(maxMiB: number, run: () => Promise<T>): Promise<T> {
  const start = usedMemory();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, usedMemory());
  }, 10);
  try {
    return await run();
  } finally {
    clearInterval(sampler);
    peak = Math.max(peak, usedMemory());
    const grewMiB = (peak - start) / (1024 * 1024);
    expect(grewMiB, `memory grew by ${grewMiB.toFixed(1)} MiB`).toBeLessThan(maxMiB);
  }
}

/**
 * Per test: records unhandled rejections and the active resources at the start; after the test
 * (its own cleanup done), asserts there was no unhandled rejection. Tests call
 * {@link expectNoLeakedHandles} with `probe.baseline` once they closed what they opened.
 */
export function faultProbe(): { readonly unhandled: unknown[]; baseline: Map<string, number> } {
  const probe = { unhandled: [] as unknown[], baseline: new Map<string, number>() };
  const onUnhandled = (reason: unknown): void => {
    probe.unhandled.push(reason);
  };
  beforeEach(() => {
    probe.unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
    probe.baseline = activeResources();
  });
  afterEach(async () => {
    // Rejections are reported after the microtask queue drains: give them a turn.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onUnhandled);
    expect(probe.unhandled.map(String), 'unhandled rejections').toEqual([]);
  });
  return probe;
}
