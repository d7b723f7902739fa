/**
 * Approvals any worker can answer: an `approve` hook that records the call as pending in a host
 * state store, tells the app (which shows it to its user wherever the user is connected), and
 * waits for the answer in the store; {@link answerApproval} gives that answer from any worker.
 * The first answer for a call wins (the store records it once); one for other arguments, or
 * for a call that is not pending, does not count.
 */
import type { AuthContext } from '../../cache/authContext.js';
import { systemWallClock, type WallClock } from '../../util/clock.js';
import { statePartition, type ApprovalAnswer, type HostStateStore, type PendingApproval } from '../state/stateStore.js';
import type { ApprovalBinding, ApproveHook, ApprovalVerdict } from './approval.js';

/** Options of {@link storedApproval}. */
export interface StoredApprovalOptions {
  /**
   * The user whose approvals these are (a scope's principal or auth context). @default the user
   * of each call (`call.user`: the scope that made it), else the host's own partition. When
   * given, a call of another user is refused (`deniedBy: 'policy'`) and nothing is stored.
   */
  user?: AuthContext | undefined;
  /** Called once the call is pending in the store: show it to the user (push it to their browser...). */
  notify?: ((pending: PendingApproval) => void) | undefined;
  /**
   * How long a pending approval and its answer are kept, in ms; use the host's
   * `approvalTimeoutMs` (the call stops waiting then anyway). @default 120 000
   */
  ttlMs?: number | undefined;
  /** @default the system wall clock */
  wallClock?: WallClock | undefined;
}

/**
 * An `approve` hook whose answers come through `store` (docs/fleet.md, "State across workers").
 * The call waits where it runs; the answer may be given on any worker with {@link answerApproval}.
 * An `allow` applies to exactly the call the user saw (its call id and arguments hash); a
 * `deny` reaches the model with its reason, `deniedBy: 'user'`. No answer before the host's
 * `approvalTimeoutMs` is a denial (`timeout`), as with any hook.
 * An answer is used once: by the call that waited for it or, when that call's worker died before
 * it came, by the first retry of the same call (same user, server, tool and arguments hash) on
 * any worker, which is then not asked again; a retry with other arguments is asked. The answer
 * is kept for the retry as long as the pending approval (`ttlMs`). A store that fails makes the
 * call fail as a hook that throws does (`failed`): nothing is sent without an answer.
 */
export function storedApproval(store: HostStateStore, options: StoredApprovalOptions = {}): ApproveHook {
  const bound = options.user === undefined ? undefined : statePartition(options.user);
  const ttlMs = options.ttlMs ?? 120_000;
  const wallClock = options.wallClock ?? systemWallClock;
  return async (call, { signal }) => {
    const own = statePartition(call.user);
    if (bound !== undefined && call.user !== undefined && bound !== own)
      return { deny: "this approval hook answers for another user's calls", by: 'policy' };
    const partition = bound ?? own;
    // The answer given for this very call (same user, tool, arguments) after its worker died: used once, not asked again.
    const kept = await store.takeKeptAnswer(partition, {
      server: call.server,
      name: call.name,
      argumentsHash: call.binding.argumentsHash,
    });
    if (kept !== undefined) return verdictFor(kept, call.binding);
    const pending: PendingApproval = Object.freeze({
      callId: call.binding.callId,
      server: call.server,
      name: call.name,
      exposedName: call.exposedName,
      arguments: call.arguments,
      argumentsHash: call.binding.argumentsHash,
      expiresAt: wallClock.now() + ttlMs,
    });
    await store.putPending(partition, pending, ttlMs);
    options.notify?.(pending);
    const answer = await store.waitAnswer(partition, pending.callId, signal);
    if (answer === undefined) return { deny: 'no answer', by: 'user' };
    if (answer.argumentsHash !== call.binding.argumentsHash)
      return { allow: { ...call.binding, argumentsHash: answer.argumentsHash } }; // not this call: not-bound
    // Exactly once: a retry of this call on another worker may have spent the answer first.
    const spent = await store.spendAnswer(partition, pending.callId);
    if (spent === undefined) return { deny: 'the answer was used by a retry of this call', by: 'user' };
    return verdictFor(spent, call.binding);
  };
}

function verdictFor(answer: ApprovalAnswer, binding: ApprovalBinding): ApprovalVerdict {
  return answer.verdict === 'allow' ? { allow: binding } : { deny: answer.verdict.deny, by: 'user' };
}

/**
 * Answers a pending approval of `user` from any worker: true when this answer won (the first
 * for the call, with the arguments hash the user saw), false when the call was answered already,
 * is not pending (expired, never asked, another user's) or was for other arguments.
 * @throws HostStateError (-33063) when the store cannot record it (as the store throws).
 */
export async function answerApproval(
  store: HostStateStore,
  user: AuthContext | undefined,
  pending: Pick<PendingApproval, 'callId' | 'argumentsHash'>,
  verdict: 'allow' | { deny: string },
  options: { ttlMs?: number | undefined } = {},
): Promise<boolean> {
  return store.answer(
    statePartition(user),
    { callId: pending.callId, argumentsHash: pending.argumentsHash, verdict },
    options.ttlMs ?? 120_000,
  );
}
