/**
 * Tool approval as a LangGraph interrupt. A tool of `langchainTools` whose call `ask` selects
 * calls LangGraph's `interrupt()` with a {@link LangGraphApprovalRequest} before it runs: the
 * graph stops there (its state kept by the checkpointer) until it is resumed with
 * `new Command({ resume: answer })`; the tool then runs again from its start, `interrupt()`
 * returns the answer, and an approval lets that one call through the host's gate
 * (`approval.approve`, matched by call id and exposed name). A refusal is answered to the model
 * as the host answers a refused call, and nothing is sent. The host's gate stays the one place a
 * call is allowed; the interrupt is how the user is asked.
 */
import type { ApproveHook } from '../../host/policy/approval.js';
import { approvalGrants } from '../approvalGrants.js';
import { InvalidArgumentError } from '../../errors/errors.js';

/** What the graph's `interrupt()` is given: the call waiting for the user. */
export interface LangGraphApprovalRequest {
  readonly type: 'mcp-live/approval';
  /** The exposed name the model called. */
  readonly exposedName: string;
  readonly server: string;
  /** The tool's original name on its server. */
  readonly tool: string;
  /** The model's arguments. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The model's id of the call (`tool_call.id`), when it was invoked with one. */
  readonly toolCallId: string | undefined;
  /** The question to show. */
  readonly reason: string;
}

/**
 * The answer a resumed graph gives (`new Command({ resume: answer })`): `true` or
 * `{ approved: true }` allows the call; anything else declines it (`reason` reaches the model).
 */
export type LangGraphApprovalAnswer = boolean | { approved: boolean; reason?: string | undefined };

/** One MCP tool call the interrupt would ask about. */
export interface LangGraphApprovalCall {
  readonly exposedName: string;
  readonly server: string;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** Options of {@link langGraphApproval}. */
export interface LangGraphApprovalOptions {
  /** LangGraph's `interrupt` (`import { interrupt } from '@langchain/langgraph'`). */
  interrupt: (request: LangGraphApprovalRequest) => unknown;
  /** Whether to ask about this call; `false` leaves it to the host's gate alone. @default every MCP tool call */
  ask?: ((call: LangGraphApprovalCall) => boolean | PromiseLike<boolean>) | undefined;
  /** The question shown. @default `Run <exposedName> (<server>/<tool>)?` */
  reason?: ((call: LangGraphApprovalCall) => string) | undefined;
  /** What `approve` answers for a call the user did not approve through the interrupt. @default a denial, `by: 'policy'` */
  otherwise?: ApproveHook | undefined;
}

/** The interrupt's side and the host's side of one approval policy (see the module comment). */
export interface LangGraphApproval {
  /** The host's hook (`McpHostOptions.approve`, or the `ask` of an `approvalPreset`). */
  readonly approve: ApproveHook;
  /**
   * Asks the user about `call` (when `ask` selects it) through the interrupt: `undefined` when
   * the call may go (granted at the gate under `grantId`), else the user's reason for declining.
   * `langchainTools` calls it before each call.
   */
  request(
    call: LangGraphApprovalCall,
    grantId: string,
    toolCallId: string | undefined,
  ): Promise<{ declined: string } | undefined>;
  /** Drops a grant the call did not use. */
  release(grantId: string): void;
}

/**
 * The two sides of an approval through a LangGraph interrupt:
 *
 * ```ts
 * import { interrupt } from '@langchain/langgraph';
 * const approval = langGraphApproval({ interrupt });
 * const host = new McpHost({ clientInfo, servers, approve: approvalPreset('ask-destructive', approval.approve) });
 * const tools = langchainTools(host, { approval }).tools; // run in a graph with a checkpointer
 * ```
 * @throws InvalidArgumentError (-32602) when `interrupt`, `ask`, `reason` or `otherwise` is not a function.
 */
export function langGraphApproval(options: LangGraphApprovalOptions): LangGraphApproval {
  if (typeof options?.interrupt !== 'function')
    throw new InvalidArgumentError('interrupt', options?.interrupt, "expected LangGraph's interrupt function");
  const { interrupt, ask, reason, otherwise } = options;
  const grants = approvalGrants({ ask, reason, otherwise }, 'the user did not approve this call');
  return {
    approve: grants.approve,
    async request(call, grantId, toolCallId) {
      if (ask !== undefined && !(await ask(call))) return undefined;
      const question = reason?.(call) ?? `Run ${call.exposedName} (${call.server}/${call.tool})?`;
      // Throws LangGraph's GraphInterrupt the first time; returns the resume value when resumed.
      const answer = interrupt({ type: 'mcp-live/approval', ...call, toolCallId, reason: question });
      if (answer === true || (isObject(answer) && answer['approved'] === true)) {
        grants.grant(grantId, call.exposedName);
        return undefined;
      }
      const said = isObject(answer) && typeof answer['reason'] === 'string' ? answer['reason'] : '';
      return { declined: said };
    },
    release: grants.release,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
