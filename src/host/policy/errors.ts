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

/** `data` of {@link ToolApprovalDeniedError}. */
export interface ToolApprovalDeniedErrorData {
  reason: ToolApprovalDeniedReason;
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
 * sent. `data.reason` says why ({@link ToolApprovalDeniedReason}). `errorToolResult` turns it
 * into a tool result that tells the model the user declined, without `isError` (the tool did
 * not fail: it was not run).
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
 * run and why (`The user declined …`), no `isError`, and the refusal in `_meta` under
 * `mcp-live/approval` (`{ denied: true, reason }`) for a host that looks.
 */
export function deniedToolResult(error: ToolApprovalDeniedError): CallToolResult {
  const { reason, exposedName, message, timeoutMs } = error.data;
  const said = message !== undefined && message !== '' ? `: ${message}` : '';
  const text =
    reason === 'denied'
      ? `The user declined to run ${exposedName}${said}. It was not run.`
      : reason === 'timeout'
        ? `The user declined to run ${exposedName}: no approval came${timeoutMs === undefined ? '' : ` within ${Math.round(timeoutMs / 1000)} s`}. It was not run.`
        : `The user declined to run ${exposedName}: the approval did not apply to this call (${reason}). It was not run.`;
  return {
    content: [{ type: 'text', text }],
    _meta: { 'mcp-live/approval': { denied: true, reason } },
  };
}

function describe(data: ToolApprovalDeniedErrorData): string {
  const tool = `${JSON.stringify(data.exposedName)} (${data.server}/${data.name})`;
  switch (data.reason) {
    case 'denied':
      return `the call of ${tool} was declined${data.message ? `: ${data.message}` : ''}`;
    case 'timeout':
      return `no approval came for ${tool} within ${data.timeoutMs ?? '?'} ms`;
    case 'not-bound':
      return `the approval given was for another call than this one of ${tool}`;
    case 'failed':
      return `the approval of ${tool} failed`;
  }
}
