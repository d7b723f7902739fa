/**
 * The host's side of an approval a framework asked for: a book of grants, one per call the user
 * approved in the framework's own flow (the AI SDK's `toolApproval`, a LangGraph interrupt), kept
 * by the call's id with the exposed name it was given for. `approve`, the host's hook, allows a
 * call that holds a grant once, and asks `otherwise` about every other call. A grant once used is
 * spent for good: the same call id is never granted again (the AI SDK rebuilds a grant from the
 * messages, so a conversation sent again with its old approval would otherwise run the call
 * twice); the book remembers the last {@link SPENT_IDS} spent ids.
 */
import type { ApproveHook } from '../host/policy/approval.js';
import { InvalidArgumentError } from '../errors/errors.js';

/** How many spent call ids a book remembers (oldest forgotten first). */
export const SPENT_IDS = 10_000;

/** See the module comment. */
export interface ApprovalGrants {
  /** The host's hook: a granted call is allowed (once); any other goes to `otherwise`. */
  readonly approve: ApproveHook;
  /** Grants the call `id` of `exposedName`; nothing when that id's grant was used already. */
  readonly grant: (id: string, exposedName: string) => void;
  /** Drops a grant the call did not use. */
  readonly release: (id: string) => void;
}

/**
 * A grant book whose `approve` answers `otherwise` for a call without a grant (default: a denial
 * by `policy` saying `refusal`).
 * @throws InvalidArgumentError (-32602) when one of `hooks` is given and is not a function.
 */
export function approvalGrants(
  hooks: Readonly<Record<string, unknown>> & { otherwise?: ApproveHook | undefined },
  refusal: string,
): ApprovalGrants {
  for (const [key, value] of Object.entries(hooks))
    if (value !== undefined && typeof value !== 'function')
      throw new InvalidArgumentError(key, value, 'expected a function');
  const granted = new Map<string, string>();
  const spent = new Set<string>();
  const otherwise: ApproveHook = hooks.otherwise ?? (() => ({ deny: refusal, by: 'policy' }));
  return {
    approve(call, context) {
      const id = call.toolCallId;
      if (id !== undefined && granted.get(id) === call.exposedName) {
        granted.delete(id);
        spent.add(id);
        if (spent.size > SPENT_IDS) spent.delete(spent.values().next().value as string);
        return 'allow';
      }
      return otherwise(call, context);
    },
    grant: (id, exposedName) => {
      if (!spent.has(id)) granted.set(id, exposedName);
    },
    release: (id) => {
      granted.delete(id);
    },
  };
}
