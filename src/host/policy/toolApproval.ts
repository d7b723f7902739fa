/**
 * The approval step of `McpHost.callTool`: which hook applies to a server's call (its own
 * `approve`, else the host's), and the request that hook is asked, bound to this one call.
 */
import type { JsonObject } from '../../wire/messages.js';
import type { Clock, Timers } from '../../util/clock.js';
import type { HostTool } from '../catalog.js';
import { argumentsHash } from './argumentsHash.js';
import { askApproval, DEFAULT_APPROVAL_TIMEOUT_MS, type ApproveHook, type ToolCallApproval } from './approval.js';
import type { ToolOverride } from './overrides.js';
import { trustedHints } from './presets.js';

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
  clock: Clock;
  timers: Timers;
}

/**
 * Asks for the approval of calling `target` with `args` (as they will be sent), when a hook
 * applies; resolves when the call may go.
 * @throws ToolApprovalDeniedError (-32052), CancelledError (-32800): see `askApproval`.
 */
export async function approveToolCall(target: HostTool, args: JsonObject, setting: ToolApprovalSetting): Promise<void> {
  if (setting.approve === undefined) return;
  const timeoutMs = setting.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  await askApproval(setting.approve, approvalRequest(target, args, setting, timeoutMs), {
    timeoutMs,
    signal: setting.signal,
    timers: setting.timers,
  });
}

/** The frozen request an `approve` hook is asked about, bound to a fresh call id. */
function approvalRequest(
  target: HostTool,
  args: JsonObject,
  setting: ToolApprovalSetting,
  timeoutMs: number,
): ToolCallApproval {
  const frozen = deepFreeze(structuredClone(args));
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
    binding: Object.freeze({
      server: target.server,
      name: listed.name,
      argumentsHash: argumentsHash(frozen),
      callId: crypto.randomUUID(),
      expiresAt: setting.clock.now() + timeoutMs,
    }),
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
