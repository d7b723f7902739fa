/**
 * Tool approval through the AI SDK's own flow. The SDK asks the user before `execute` (a
 * `tool-approval-request` in the result, a `tool-approval-response` in the next call's
 * messages); the host asks its `approve` hook at its gate, inside `execute`. `AiSdkApproval`
 * joins the two: `toolApproval` tells the SDK which MCP calls to ask about, and `approve`, the
 * host's hook (or the `ask` of an `approvalPreset`), allows at the gate exactly the calls the
 * user approved there, matched by the SDK's tool call id and the exposed name. The host's gate
 * stays the one place a call is allowed; the SDK's flow is how the user is asked.
 */
import type { ModelMessage, ToolApprovalStatus, ToolSet } from 'ai';
import type { ApproveHook } from '../../host/policy/approval.js';
import { approvalGrants } from '../approvalGrants.js';

/** One MCP tool call the SDK is about to ask about (or not). */
export interface AiSdkApprovalCall {
  /** The exposed name the model called. */
  readonly exposedName: string;
  /** Its server. */
  readonly server: string;
  /** The tool's original name on that server. */
  readonly tool: string;
  /** The model's input, as the SDK parsed it. */
  readonly input: unknown;
}

/** Options of {@link aiSdkApproval}. */
export interface AiSdkApprovalOptions {
  /**
   * Whether the SDK asks the user about this call (`'user-approval'`); `false` leaves it to the
   * host's gate alone (`otherwise`, or the rest of the host's policy). @default every MCP tool call
   */
  ask?: ((call: AiSdkApprovalCall) => boolean | PromiseLike<boolean>) | undefined;
  /** The text shown to the approver. @default `Run <exposedName> (<server>/<tool>)?` */
  reason?: ((call: AiSdkApprovalCall) => string) | undefined;
  /**
   * What `approve` answers for a call the user did not approve in the SDK's flow (one `ask`
   * left out, or one from another path to the host). @default a denial, `by: 'policy'`
   */
  otherwise?: ApproveHook | undefined;
}

/** The SDK's side and the host's side of one approval policy (see the module comment). */
export interface AiSdkApproval {
  /**
   * For `generateText`/`streamText`/`ToolLoopAgent`'s `toolApproval`: `'user-approval'` for the
   * MCP tool calls `ask` selects, `'not-applicable'` for the host's built-in tools and any tool
   * that is not an MCP tool of `aiSdkTools`.
   */
  readonly toolApproval: (options: {
    toolCall: { toolName: string; toolCallId: string; input: unknown };
    tools: ToolSet | undefined;
  }) => Promise<ToolApprovalStatus>;
  /**
   * The host's hook (`McpHostOptions.approve`, a server's `approve`, or the `ask` of an
   * `approvalPreset`): allows a call the user approved in the SDK's flow, once; asks `otherwise`
   * about any other.
   */
  readonly approve: ApproveHook;
  /**
   * Records the user's approval of `toolCallId` when `messages` (the SDK's `execute` options)
   * hold one: a `tool-approval-response` with `approved: true` answering a request for that
   * call, whose tool call names `exposedName`. `aiSdkTools` calls it before each call; the grant
   * is used once, or dropped by {@link release}.
   */
  grantFrom(messages: readonly ModelMessage[], toolCallId: string, exposedName: string): void;
  /** Drops a grant the call did not use (it failed before the host's gate). */
  release(toolCallId: string): void;
}

/**
 * The two sides of an approval through the AI SDK's flow:
 *
 * ```ts
 * const approval = aiSdkApproval();
 * const host = new McpHost({ clientInfo, servers, approve: approvalPreset('ask-destructive', approval.approve) });
 * const result = await generateText({ model, tools: aiSdkTools(host, { approval }), toolApproval: approval.toolApproval, messages });
 * ```
 * @throws InvalidArgumentError (-32602) when `ask`, `reason` or `otherwise` is not a function.
 */
export function aiSdkApproval(options: AiSdkApprovalOptions = {}): AiSdkApproval {
  const { ask, reason, otherwise } = options;
  const grants = approvalGrants({ ask, reason, otherwise }, 'the user did not approve this call in the app');
  return {
    async toolApproval({ toolCall, tools }) {
      const metadata = (tools?.[toolCall.toolName] as { metadata?: Record<string, unknown> } | undefined)?.metadata;
      const server = metadata?.['mcpServer'];
      const tool = metadata?.['mcpTool'];
      if (typeof server !== 'string' || typeof tool !== 'string') return 'not-applicable';
      const call: AiSdkApprovalCall = { exposedName: toolCall.toolName, server, tool, input: toolCall.input };
      if (ask !== undefined && !(await ask(call))) return 'not-applicable';
      return { type: 'user-approval', reason: reason?.(call) ?? `Run ${call.exposedName} (${server}/${tool})?` };
    },
    approve: grants.approve,
    grantFrom(messages, toolCallId, exposedName) {
      if (approvedIn(messages, toolCallId, exposedName)) grants.grant(toolCallId, exposedName);
    },
    release: grants.release,
  };
}

/** Whether `messages` approve the call `toolCallId` of `exposedName` (see `grantFrom`). */
function approvedIn(messages: readonly ModelMessage[], toolCallId: string, exposedName: string): boolean {
  let named = false;
  const requests = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' && part.toolCallId === toolCallId) named = part.toolName === exposedName;
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId && part.isAutomatic !== true)
        requests.add(part.approvalId);
    }
  }
  if (!named || requests.size === 0) return false;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-approval-response' && requests.has(part.approvalId)) return part.approved === true;
  }
  return false;
}
