/**
 * `ToolApprovalDeniedError`: a tool call the host's approval refused, and the tool result a model
 * reads for it (a refusal, not a tool failure).
 */
import { ErrorCode } from '../../errors/codes.js';
import { LocalError, McpError } from '../../errors/errors.js';
import type { CallToolResult } from '../../wire/protocol.js';

/**
 * Why an approval refused a call:
 * - `denied`: the `approve` hook (or the user it asked) said no;
 * - `timeout`: no answer within `approvalTimeoutMs` (the approval expired before it came);
 * - `not-bound`: the answer was an approval of another call (other server, tool, arguments or call);
 * - `failed`: the hook threw, or answered something that is not a verdict (the error is the `cause`).
 */
export type ToolApprovalDeniedReason = 'denied' | 'timeout' | 'not-bound' | 'failed';

/**
 * Who refused a call: `user` (a person was asked and said no), `policy` (the host's hook decided
 * without asking anyone), `preset` (an `approvalPreset` refused without asking), `timeout` (no
 * answer in time), `error` (the hook failed, or its answer was for another call).
 */
export type ToolApprovalDeniedBy = 'user' | 'policy' | 'preset' | 'timeout' | 'error';

/** `data` of {@link ToolApprovalDeniedError}. */
export interface ToolApprovalDeniedErrorData {
  reason: ToolApprovalDeniedReason;
  /**
   * Who refused: `user` (a person asked said no), `policy` (the host's hook, nobody asked),
   * `preset` (an `approvalPreset`, nobody asked), `timeout` (no answer in time), `error` (the
   * hook failed, or allowed another call).
   */
  deniedBy: ToolApprovalDeniedBy;
  /** The tool's server. */
  server: string;
  /** The tool's original (wire) name. */
  name: string;
  /** The name the model called. */
  exposedName: string;
  /** `denied`: the reason the hook gave (`{ deny: reason }`), when it gave one. */
  message?: string | undefined;
  /** The id of the call the approval was asked for. */
  callId: string;
  /** `timeout`: how long the host waited, in ms. */
  timeoutMs?: number | undefined;
}

/**
 * `McpHost.callTool` asked for approval and did not get it (code -33052, local); nothing was
 * sent. `data.reason` says why ({@link ToolApprovalDeniedReason}), `data.deniedBy` who.
 * `errorToolResult` turns it into a tool result that tells the model who refused (the user, the
 * host's policy...), without `isError` (the tool did not fail: it was not run).
 */
export class ToolApprovalDeniedError extends LocalError {
  override name = 'ToolApprovalDeniedError';
  declare readonly data: ToolApprovalDeniedErrorData;

  constructor(data: ToolApprovalDeniedErrorData, cause?: unknown) {
    super(ErrorCode.ToolApprovalDenied, describe(data), { data, cause });
  }
}

/** True for a {@link ToolApprovalDeniedError}, whichever copy of the package made it. */
export function isToolApprovalDeniedError(value: unknown): value is ToolApprovalDeniedError {
  return McpError.is(value) && value.local && value.code === ErrorCode.ToolApprovalDenied;
}

/**
 * The tool result a model reads for a refused call: one text block saying the call was not
 * run and who refused (`The user declined …`, `… is not allowed by the host's policy …`), no
 * `isError`, and the refusal in `_meta` under `mcp-live/approval` (`{ denied: true, reason,
 * deniedBy }`) for a host that looks.
 */
export function deniedToolResult(error: ToolApprovalDeniedError): CallToolResult {
  const { reason, deniedBy, exposedName, message, timeoutMs } = error.data;
  const said = message !== undefined && message !== '' ? `: ${message}` : '';
  const text =
    deniedBy === 'user'
      ? `The user declined to run ${exposedName}${said}. It was not run.`
      : deniedBy === 'policy'
        ? `Running ${exposedName} is not allowed by the host's policy${said}. It was not run.`
        : deniedBy === 'preset'
          ? `Running ${exposedName} is not allowed by the host's approval preset${said}. It was not run.`
          : deniedBy === 'timeout'
            ? `${exposedName} was not run: no approval came${timeoutMs === undefined ? '' : timeoutMs < 1000 ? ` within ${timeoutMs} ms` : ` within ${Math.round(timeoutMs / 1000)} s`}.`
            : `${exposedName} was not run: the approval step failed (${reason}).`;
  return {
    content: [{ type: 'text', text }],
    _meta: { 'mcp-live/approval': { denied: true, reason, deniedBy } },
  };
}

function describe(data: ToolApprovalDeniedErrorData): string {
  const tool = `${JSON.stringify(data.exposedName)} (${data.server}/${data.name})`;
  switch (data.reason) {
    case 'denied':
      return `the call of ${tool} was declined by the ${data.deniedBy}${data.message ? `: ${data.message}` : ''}`;
    case 'timeout':
      return `no approval came for ${tool} within ${data.timeoutMs ?? '?'} ms`;
    case 'not-bound':
      return `the approval given was for another call than this one of ${tool}`;
    case 'failed':
      return `the approval of ${tool} failed`;
  }
}
