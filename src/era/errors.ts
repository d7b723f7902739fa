import { ErrorCode } from '../errors/codes.js';
import { LocalError } from '../errors/errors.js';

/** One failed step of era detection, as {@link EraDetectionError} reports it. */
export interface EraStepFailure {
  /**
   * The method sent: `server/discover` or `initialize`; `GET` when the HTTP+SSE fallback failed
   * opening its stream (before its `initialize`).
   */
  method: string;
  /** The error's class name, e.g. `"HttpError"`, `"RpcError"`, `"TimeoutError"`, `"SseEndpointError"`. */
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
  /** Why `server/discover` did not identify a 2026-07-28 server; `undefined` when no probe was sent (`era: "legacy"`). */
  probe: EraStepFailure | undefined;
  /** Why `initialize` over the client's transport failed. */
  fallback: EraStepFailure;
  /**
   * Why the last fallback over HTTP, the deprecated HTTP+SSE transport (`GET` for the
   * `endpoint` event, then `initialize`), failed; `undefined` when it was not tried (not HTTP,
   * or `initialize` did not fail with 400, 404 or 405).
   */
  sse: EraStepFailure | undefined;
}

/**
 * The client could not tell which era the server speaks (code -33015): the `server/discover`
 * probe got no recognised modern answer, the `initialize` fallback failed, and over HTTP the
 * deprecated HTTP+SSE transport (2024-11-05), tried after a 400/404/405, failed too (spec
 * 2026-07-28: basic/versioning and basic/transports/streamable-http, Backward Compatibility).
 * The server may not be an MCP endpoint at all. `data` is {@link EraDetectionErrorData}; the
 * message names each attempt; `cause` is the last attempt's error.
 */
export class EraDetectionError extends LocalError {
  override name = 'EraDetectionError';
  declare readonly data: EraDetectionErrorData;

  constructor(data: EraDetectionErrorData, cause: unknown) {
    const steps = [
      ...(data.probe === undefined ? [] : [`server/discover failed (${describe(data.probe)})`]),
      `initialize failed (${describe(data.fallback)})`,
      data.sse === undefined ? undefined : `the HTTP+SSE fallback failed (${data.sse.method}: ${describe(data.sse)})`,
    ].filter((step): step is string => step !== undefined);
    super(
      ErrorCode.EraDetectionFailed,
      `${data.serverIdentity}: not an MCP server this client can speak to: ${steps.join('; ')}`,
      { data, cause },
    );
  }
}

function describe(step: EraStepFailure): string {
  const status = step.status === undefined ? '' : `HTTP ${step.status}, `;
  return `${status}${step.error}${step.code === undefined ? '' : ` ${step.code}`}: ${step.message}`;
}
