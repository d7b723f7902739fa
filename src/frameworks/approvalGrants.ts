/**
 * The host's side of an approval a framework asked for: a book of grants, one per call the user
 * approved in the framework's own flow (the AI SDK's `toolApproval`, a LangGraph interrupt), kept
 * by the call's id with the exposed name it was given for. `approve`, the host's hook, allows a
 * call that holds a grant once, and asks `otherwise` about every other call.
 */
import type { ApproveHook } from '../host/policy/approval.js';
import { InvalidArgumentError } from '../errors/errors.js';

/** See the module comment. */
export interface ApprovalGrants {
  /** The host's hook: a granted call is allowed (once); any other goes to `otherwise`. */
  readonly approve: ApproveHook;
  /** Grants the call `id` of `exposedName`. */
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
  const otherwise: ApproveHook = hooks.otherwise ?? (() => ({ deny: refusal, by: 'policy' }));
  return {
    approve(call, context) {
      const id = call.toolCallId;
      if (id !== undefined && granted.get(id) === call.exposedName) {
        granted.delete(id);
        return 'allow';
      }
      return otherwise(call, context);
    },
    grant: (id, exposedName) => {
      granted.set(id, exposedName);
    },
    release: (id) => {
      granted.delete(id);
    },
  };
}
