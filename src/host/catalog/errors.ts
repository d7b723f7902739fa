import { ErrorCode } from '../../errors/codes.js';
import { LocalError, McpError } from '../../errors/errors.js';

/** `data` of {@link HostConfigError}. */
export interface HostConfigErrorData {
  /** The server entry at fault (its key in `mcpServers` / `servers`); `undefined` for the file as a whole. */
  server: string | undefined;
  /** The field at fault, as a path: `command`, `args[2]`, `env.API_KEY`, `headers.Authorization`, `type`... */
  field: string;
  /** What is wrong, in words. */
  reason: string;
  /**
   * The offending value, for fields that do not carry credentials: `type`, `command`, `cwd`,
   * `disabled`, and `url` without its userinfo and query. Never given for `args`, `env` and
   * `headers`, which may.
   */
  value?: unknown;
}

/**
 * An entry of an `McpHost` configuration is malformed: a missing `command` or `url`, an unknown
 * `type`, a `${VAR}` that is not set, a value of the wrong type (code -33050, local). `data`
 * names the server and the field ({@link HostConfigErrorData}); a value that may hold a
 * credential (`env`, `headers`) is never repeated in the message or the data.
 */
export class HostConfigError extends LocalError {
  override name = 'HostConfigError';
  declare readonly data: HostConfigErrorData;

  constructor(data: HostConfigErrorData) {
    const where = data.server === undefined ? data.field : `server ${JSON.stringify(data.server)}, ${data.field}`;
    super(ErrorCode.HostConfigInvalid, `${where}: ${data.reason}`, { data });
  }
}

/** Why {@link HostRoutingError} was thrown. */
export type HostRoutingReason =
  /** No tool has that exposed name (or that original name on that server). */
  | 'unknown-tool'
  /** No prompt has that exposed name (or that original name on that server). */
  | 'unknown-prompt'
  /** No skill has that exposed name (`McpHost.readSkill`). */
  | 'unknown-skill'
  /** No server has that name. */
  | 'unknown-server'
  /** No open server lists the URI, and no resource template matches it. */
  | 'unknown-resource'
  /** More than one server lists the URI, or has a template that matches it. */
  | 'ambiguous-resource'
  /**
   * The server exists but cannot take the call: it failed, closed or is disabled, or it stayed
   * `connecting` / `reconnecting` for the whole of the call's deadline.
   */
  | 'server-unavailable';

/** `data` of {@link HostRoutingError}. */
export interface HostRoutingErrorData {
  reason: HostRoutingReason;
  /** The name asked for (exposed tool or prompt name, or server name). */
  name?: string | undefined;
  /** The URI asked for. */
  uri?: string | undefined;
  /** The server it was routed to, when it was (`server-unavailable`). */
  server?: string | undefined;
  /** `server-unavailable`: that server's state when the call gave up. */
  state?: string | undefined;
  /**
   * `server-unavailable`, while the server reconnects: when its next attempt starts, in ms since
   * the epoch (the client's `retryAt`). A call whose deadline ends before it fails at once.
   */
  retryAt?: number | undefined;
  /** `server-unavailable`: the message of that server's last error, when it has one (the error is the `cause`). */
  lastError?: string | undefined;
  /** `ambiguous-resource`: the servers that could serve the URI. */
  servers?: string[] | undefined;
  /**
   * `unknown-tool`: up to three nearest names ("did you mean"), nearest first: exposed names of
   * model-visible tools, or that server's original names for a `{ server, name }` call.
   */
  suggestions?: string[] | undefined;
}

/**
 * `McpHost` could not route a call to a server (code -33051, local); nothing was sent.
 * `data.reason` says why ({@link HostRoutingReason}). For `server-unavailable` the `cause` is
 * the server's last error, when it has one; for an ambiguous template match it is the
 * matcher's error.
 */
export class HostRoutingError extends LocalError {
  override name = 'HostRoutingError';
  declare readonly data: HostRoutingErrorData;

  constructor(message: string, data: HostRoutingErrorData, cause?: unknown) {
    super(ErrorCode.HostRouting, message, { data, cause });
  }
}

/** True for a {@link HostConfigError}, whichever copy of the package made it. */
export function isHostConfigError(value: unknown): value is HostConfigError {
  return McpError.is(value) && value.local && value.code === ErrorCode.HostConfigInvalid;
}

/** True for a {@link HostRoutingError}, whichever copy of the package made it. */
export function isHostRoutingError(value: unknown): value is HostRoutingError {
  return McpError.is(value) && value.local && value.code === ErrorCode.HostRouting;
}
