/**
 * The process group of a stdio server (POSIX): the server leads its own group, and every
 * process it starts stays in it unless it leaves on purpose. Ending the server means ending the
 * group, whichever member exits first. Node only.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { ErrorCode } from '../../errors/codes.js';
import { LocalError } from '../../errors/errors.js';

/** True while any process of group `pgid` exists (a zombie counts: kill(2) cannot tell). */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException | null)?.code === 'EPERM';
  }
}

/**
 * True while a process of group `pgid` is alive. A zombie (dead, waiting for its parent or init
 * to reap it) is not: on Linux the members' states are read from /proc; elsewhere any member
 * counts.
 */
export function groupAlive(pgid: number): boolean {
  if (!groupExists(pgid)) return false;
  const members = memberStates(pgid);
  return members === undefined || members.some(([, state]) => state !== 'Z' && state !== 'X');
}

/** The pids and states (`R`, `S`, `Z`...) of the members of group `pgid` from /proc; `undefined` without /proc. */
function memberStates(pgid: number): [number, string][] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const states: [number, string][] = [];
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid) states.push([Number(entry), fields[0] ?? '']);
  }
  return states;
}

/** Sends `signal` to every process of group `pgid`; false when the group is gone (ESRCH) or may not be signalled. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** How often {@link endGroup} looks whether the group is gone, in ms. */
const POLL_MS = 20;
/** How long {@link endGroup} waits for the group's live members to die after SIGKILL, in ms. */
const AFTER_KILL_MS = 1000;
/**
 * How long {@link endGroup} waits, once no member is alive, for the dead ones (zombies) to be
 * reaped so that the group is gone for kill(2) too, in ms. Orphans are reaped by init (or the
 * nearest subreaper), which may take a second or two; an init that never reaps costs this wait.
 */
const REAP_MS = 3000;

/** What {@link endGroup} left: the pids of the group still alive (none when it ended the group). */
export interface GroupEnd {
  readonly pgid: number;
  /** Members still alive after SIGKILL and {@link AFTER_KILL_MS} (a process stuck in the kernel). */
  readonly alive: readonly number[];
}

/**
 * Ends group `pgid` for good: SIGTERM (unless `termSentAt` says one was sent already), then,
 * while any member is alive once `graceMs` have passed since that SIGTERM, SIGKILL to the whole
 * group (whichever members are left). Resolves once the group is gone for kill(2) (ESRCH: every
 * member dead and reaped), with the dead but unreaped members waited for at most
 * {@link REAP_MS}; members still alive {@link AFTER_KILL_MS} after SIGKILL are given up on and
 * named in the result. Never rejects.
 *
 * @param termSentAt `performance.now()` when the group was last sent SIGTERM, if it was.
 */
export async function endGroup(pgid: number, graceMs: number, termSentAt?: number): Promise<GroupEnd> {
  const ended: GroupEnd = { pgid, alive: [] };
  if (groupAlive(pgid)) {
    let termAt = termSentAt;
    if (termAt === undefined) {
      if (!signalGroup(pgid, 'SIGTERM')) return ended;
      termAt = performance.now();
    }
    if (!(await polled(() => !groupAlive(pgid), termAt + graceMs))) {
      if (!signalGroup(pgid, 'SIGKILL')) return ended;
      if (!(await polled(() => !groupAlive(pgid), performance.now() + AFTER_KILL_MS)))
        return { pgid, alive: aliveMembers(pgid) };
    }
  }
  // Dead members not reaped yet keep the group for kill(2): wait for their reaper, a bounded time.
  await polled(() => !groupExists(pgid), performance.now() + REAP_MS);
  return ended;
}

/** Pids of the live (not zombie) members of group `pgid`; `[pgid]` where /proc cannot tell them. */
function aliveMembers(pgid: number): number[] {
  const members = memberStates(pgid);
  if (members === undefined) return [pgid];
  return members.filter(([, state]) => state !== 'Z' && state !== 'X').map(([pid]) => pid);
}

/** Polls until `done()` (true) or `deadline` (`performance.now()` time) passed (false). */
async function polled(done: () => boolean, deadline: number): Promise<boolean> {
  for (;;) {
    if (done()) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}

/**
 * Resolves when every group ended; rejects with `LocalError` (-32603, `data: { reason:
 * "process-group-survived", survivors: [{ pgid, pids }] }`) naming the members still alive.
 */
export function survivorsError(ends: readonly (GroupEnd | undefined)[]): Promise<void> {
  const survivors = ends.filter((end): end is GroupEnd => end !== undefined && end.alive.length > 0);
  if (survivors.length === 0) return Promise.resolve();
  const pids = survivors.flatMap((end) => end.alive);
  return Promise.reject(
    new LocalError(
      ErrorCode.InternalError,
      `stdio server process${pids.length > 1 ? 'es' : ''} ${pids.join(', ')} still alive after SIGKILL (stuck in the kernel?)`,
      {
        data: {
          reason: 'process-group-survived',
          survivors: survivors.map(({ pgid, alive }) => ({ pgid, pids: alive })),
        },
      },
    ),
  );
}
