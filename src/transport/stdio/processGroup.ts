/**
 * The process group of a stdio server (POSIX): the server leads its own group, and every
 * process it starts stays in it unless it leaves on purpose. Ending the server means ending the
 * group, whichever member exits first. Node only.
 */
import { readFileSync, readdirSync } from 'node:fs';

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
  const states = memberStates(pgid);
  return states === undefined || states.some((state) => state !== 'Z' && state !== 'X');
}

/** The states (`R`, `S`, `Z`...) of the members of group `pgid` from /proc; `undefined` without /proc. */
function memberStates(pgid: number): string[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const states: string[] = [];
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
    if (Number(fields[2]) === pgid) states.push(fields[0] ?? '');
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
/** How long {@link endGroup} waits for the group to vanish after SIGKILL, in ms. */
const AFTER_KILL_MS = 1000;

/**
 * Ends group `pgid` for good: SIGTERM (unless `termSentAt` says one was sent already), then,
 * while any member is alive once `graceMs` have passed since that SIGTERM, SIGKILL. Resolves
 * when no member is alive (zombies are dead), or at most {@link AFTER_KILL_MS} after SIGKILL (a
 * process stuck in the kernel cannot be waited for). Never rejects.
 *
 * @param termSentAt `performance.now()` when the group was last sent SIGTERM, if it was.
 */
export async function endGroup(pgid: number, graceMs: number, termSentAt?: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  let termAt = termSentAt;
  if (termAt === undefined) {
    if (!signalGroup(pgid, 'SIGTERM')) return;
    termAt = performance.now();
  }
  if (await vanishes(pgid, termAt + graceMs)) return;
  if (!signalGroup(pgid, 'SIGKILL')) return;
  await vanishes(pgid, performance.now() + AFTER_KILL_MS);
}

/** Polls until group `pgid` is gone (true) or `deadline` (`performance.now()` time) passed (false). */
async function vanishes(pgid: number, deadline: number): Promise<boolean> {
  for (;;) {
    if (!groupAlive(pgid)) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}
