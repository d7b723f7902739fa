import { ErrorCode } from '../errors/codes.js';
import { LocalError, McpError } from '../errors/errors.js';

/** Why {@link AppResourceError} was thrown. */
export type AppResourceProblem =
  /** The URI does not start with `ui://`. */
  | 'not-ui-uri'
  /** The contents' `mimeType` is not `text/html;profile=mcp-app`. */
  | 'mime-type'
  /** The HTML is larger than the cap (`data.limit` bytes). */
  | 'too-large'
  /** The result has no contents item for the URI, or the item has neither usable text nor blob. */
  | 'no-contents'
  /** A `blob` whose bytes are not UTF-8 text. */
  | 'not-utf8';

/** `data` of {@link AppResourceError}. */
export interface AppResourceErrorData {
  /** The URI asked for. */
  uri: string;
  reason: AppResourceProblem;
  /** The offending value: the MIME type sent, or the size in bytes. */
  value?: unknown;
  /** `too-large`: the cap, in bytes. */
  limit?: number | undefined;
}

/**
 * A UI resource (MCP Apps) that cannot be rendered: not `ui://`, the wrong MIME type, larger
 * than the cap, or without usable contents (code -33070, local). Nothing is cached as an app.
 */
export class AppResourceError extends LocalError {
  override name = 'AppResourceError';
  declare readonly data: AppResourceErrorData;

  constructor(message: string, data: AppResourceErrorData) {
    super(ErrorCode.AppResourceInvalid, `${message} (${data.uri})`, { data });
  }
}

/** Why {@link AppToolCallDeniedError} was thrown. */
export type AppToolCallDenial =
  /** The app's server lists no tool by that name (another server's tools are never reachable). */
  | 'unknown-tool'
  /** The tool's `visibility` does not include `app`. */
  | 'not-app-callable'
  /** The host's `approve` hook refused the call (or threw). */
  | 'denied'
  /** More app calls are in flight than the bridge allows. */
  | 'too-many-calls';

/** `data` of {@link AppToolCallDeniedError}. */
export interface AppToolCallDeniedErrorData {
  /** The app's server. */
  server: string;
  /** The tool the app asked for. */
  name: string;
  reason: AppToolCallDenial;
}

/**
 * An app-initiated `tools/call` that the host refused before sending it (code -33071, local);
 * the app receives it as a JSON-RPC error with that code and message.
 */
export class AppToolCallDeniedError extends LocalError {
  override name = 'AppToolCallDeniedError';
  declare readonly data: AppToolCallDeniedErrorData;

  constructor(message: string, data: AppToolCallDeniedErrorData) {
    super(ErrorCode.AppToolCallDenied, message, { data });
  }
}

/** True for an {@link AppResourceError}, whichever copy of the package made it. */
export function isAppResourceError(value: unknown): value is AppResourceError {
  return McpError.is(value) && value.local && value.code === ErrorCode.AppResourceInvalid;
}

/** True for an {@link AppToolCallDeniedError}, whichever copy of the package made it. */
export function isAppToolCallDeniedError(value: unknown): value is AppToolCallDeniedError {
  return McpError.is(value) && value.local && value.code === ErrorCode.AppToolCallDenied;
}
