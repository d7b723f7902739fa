/**
 * The approval step of `McpHost.callTool`: which hook applies to a server's call (its own
 * `approve`, else the host's), and the request that hook is asked, bound to this one call.
 * Asking it is approval.ts.
 */
import type { AuthContext } from '../../cache/authContext.js';
import type { JsonObject } from '../../wire/messages.js';
import type { Clock, Timers } from '../../util/clock.js';
import type { HostTool } from '../catalog/catalog.js';
import { argumentsHash } from './argumentsHash.js';
import { askApproval, type ApproveHook, type ToolCallApproval } from './approval.js';
import { ToolApprovalDeniedError } from './errors.js';
import type { ToolOverride } from '../catalog/overrides.js';
import { trustedHints } from './presets.js';

/** How long a call waits for its approval by default, in ms. */
const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/** What the approval of one call needs to know. */
export interface ToolApprovalSetting {
  /** The server's `approve`, else the host's; none: the call goes without asking. */
  approve: ApproveHook | undefined;
  /** Whether the configuration marks the server `trusted`. */
  trusted: boolean;
  /** The server's override of the tool, if any. */
  override: ToolOverride | undefined;
  /** @default 120 000 */
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  /** Aborts (with a ConnectionClosedError) when the host or scope that made the call closes. */
  closed?: AbortSignal | undefined;
  /** The model's id of the call, when its caller gave one (`HostCallToolOptions.toolCallId`). */
  toolCallId?: string | undefined;
  /** The user scope's auth context whose call this is (`host.forUser`); `undefined` for the host's own calls. */
  user?: AuthContext | undefined;
  clock: Clock;
  timers: Timers;
}

/**
 * Asks for the approval of calling `target` with `args`, when a hook applies; resolves when the
 * call may go. `args` is the frozen snapshot that will be sent (toolGate.ts): the hook is given
 * that very object, and the binding its hash.
 * @throws ToolApprovalDeniedError (-33052), CancelledError (-32800), ConnectionClosedError (-32000,
 *   `reason: 'host closed'`) when the host closes while the call waits: see `askApproval`.
 */
export async function approveToolCall(target: HostTool, args: JsonObject, setting: ToolApprovalSetting): Promise<void> {
  if (setting.approve === undefined) return;
  const timeoutMs = setting.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const request = approvalRequest(target, args, setting, timeoutMs);
  const denial = await askApproval(setting.approve, request, {
    timeoutMs,
    signal: setting.signal,
    closed: setting.closed,
    timers: setting.timers,
  });
  if (denial === undefined) return;
  throw new ToolApprovalDeniedError(
    {
      reason: denial.reason,
      deniedBy: denial.deniedBy,
      server: request.server,
      name: request.name,
      exposedName: request.exposedName,
      callId: request.binding.callId,
      ...(denial.message !== undefined && { message: denial.message }),
      ...(denial.reason === 'timeout' && { timeoutMs }),
    },
    denial.cause,
  );
}

/** The frozen request an `approve` hook is asked about, bound to a fresh call id. */
function approvalRequest(
  target: HostTool,
  args: JsonObject,
  setting: ToolApprovalSetting,
  timeoutMs: number,
): ToolCallApproval {
  const frozen = args;
  const listed = target.tool;
  const annotations = Object.freeze({ ...listed.annotations, ...setting.override?.annotations });
  return Object.freeze({
    server: target.server,
    name: listed.name,
    exposedName: target.exposedName,
    arguments: frozen,
    annotations,
    hints: trustedHints(listed, setting.trusted, setting.override?.annotations),
    trusted: setting.trusted,
    tool: listed,
    ...(setting.toolCallId !== undefined && { toolCallId: setting.toolCallId }),
    ...(setting.user !== undefined && { user: setting.user }),
    binding: Object.freeze({
      server: target.server,
      name: listed.name,
      argumentsHash: argumentsHash(frozen),
      callId: crypto.randomUUID(),
      expiresAt: setting.clock.now() + timeoutMs,
    }),
  });
}
