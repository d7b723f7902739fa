import { ErrorCode } from '../errors/codes.js';
import { LocalError } from '../errors/errors.js';

/** One failed step of era detection, as {@link EraDetectionError} reports it. */
export interface EraStepFailure {
  /** The method sent: `server/discover` or `initialize`. */
  method: string;
  /** The error's class name, e.g. `"HttpError"`, `"RpcError"`, `"TimeoutError"`. */
  error: string;
  /** Its JSON-RPC code (a wire code, or an mcp-live local one). */
  code: number | undefined;
  /** The HTTP status, when the step ran over HTTP and got one. */
  status: number | undefined;
  /** Its message. */
  message: string;
}

/** `data` of an {@link EraDetectionError}. */
export interface EraDetectionErrorData {
  /** The transport's `serverIdentity`. */
  serverIdentity: string;
  /** Why `server/discover` did not identify a 2026-07-28 server. */
  probe: EraStepFailure;
  /** Why the `initialize` fallback failed (also the `cause`). */
  fallback: EraStepFailure;
}

/**
 * The client could not tell which era the server speaks (code -32015): the `server/discover`
 * probe got no recognised modern answer, and the `initialize` fallback failed too (spec
 * 2026-07-28: basic/versioning, Backward Compatibility). Such a server may speak only the
 * deprecated HTTP+SSE transport (2024-11-05), which mcp-live does not implement, or not be an
 * MCP endpoint at all. `data` is {@link EraDetectionErrorData}; `cause` is the fallback's error.
 */
export class EraDetectionError extends LocalError {
  override name = 'EraDetectionError';
  declare readonly data: EraDetectionErrorData;

  constructor(data: EraDetectionErrorData, cause: unknown) {
    super(
      ErrorCode.EraDetectionFailed,
      `${data.serverIdentity}: not an MCP server this client can speak to: server/discover failed (${describe(data.probe)}) and initialize failed (${describe(data.fallback)}); the deprecated HTTP+SSE transport is not supported`,
      { data, cause },
    );
  }
}

function describe(step: EraStepFailure): string {
  const status = step.status === undefined ? '' : `HTTP ${step.status}, `;
  return `${status}${step.error}${step.code === undefined ? '' : ` ${step.code}`}: ${step.message}`;
}
