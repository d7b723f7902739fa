/**
 * JSON-RPC error codes that MCP uses, by their spec names, and the local codes mcp-live uses
 * for errors that never crossed the wire.
 *
 * Wire codes are the spec's: JSON-RPC 2.0's, and those MCP mints in the -32000…-32099 range
 * (-32002, -32020…-32022, and -32042 in 2025-11-25). Local codes never reuse one of them with
 * another meaning: -32000 (connection closed) and -32001 (request timeout) are the official
 * SDK's, with the same meaning; cancellation reuses -32800 as LSP does; every other local code
 * sits in -33000…-33099, below the range JSON-RPC reserves (-32768…-32000), where no revision
 * or extension mints codes. So a host that only looks at `code` can still branch, and the
 * error class (or `local`) says where it came from. docs/errors.md lists the codes.
 */
export const ErrorCode = {
  /** JSON-RPC: invalid JSON was received. */
  ParseError: -32700,
  /** JSON-RPC: the JSON sent is not a valid request object. */
  InvalidRequest: -32600,
  /** JSON-RPC: the method does not exist or is not available. */
  MethodNotFound: -32601,
  /** JSON-RPC: invalid method parameters. Also "resource not found" on `resources/read` (2026-07-28). */
  InvalidParams: -32602,
  /** JSON-RPC: internal error. */
  InternalError: -32603,
  /**
   * MCP 2026-07-28: an HTTP header does not match the body (an `RpcError`; `callTool` lists the
   * tools again and retries once before throwing it).
   */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the server needs a client capability that was not declared; `data.requiredCapabilities`. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: protocol version not supported; `data.supported: string[]`, `data.requested: string`. */
  UnsupportedProtocolVersion: -32022,
  /** MCP 2025-11-25 and earlier: resource not found; `data.uri`. Still accepted from older servers. */
  ResourceNotFoundLegacy: -32002,
  /**
   * MCP 2025-11-25 (`URLElicitationRequiredError`): the server needs the user to complete one or
   * more URL-mode elicitations before it can answer; `data.elicitations` lists them
   * (`UrlElicitationRequiredError`; spec: client/elicitation, "URL Elicitation Required Error").
   */
  UrlElicitationRequired: -32042,

  /** Local: the connection closed (or never opened) before a response arrived. */
  ConnectionClosed: -32000,
  /** Local: the request timed out. */
  RequestTimeout: -32001,
  /** Local: an `input_required` result was not answered (no handler, or manual mode). */
  InputRequired: -33003,
  /** Local: a list walk could not finish (page cap, repeated page, cursor rejected twice). */
  PaginationFailed: -33004,
  /** Local: cache mode `only-if-cached` found no entry; nothing was sent. */
  CacheMiss: -33005,
  /** Local: the `input_required` loop hit its round cap. */
  InputRequiredRoundsExceeded: -33006,
  /** Local: an input request (elicitation, sampling, roots) could not be answered. */
  InputRequestFailed: -33007,
  /**
   * Local: a subscription ended before the server acknowledged it, or was used after it closed
   * (`SubscriptionClosedError`); `data.reason` says why.
   */
  SubscriptionClosed: -33008,
  /**
   * Local, reported to `onError` and never thrown: a change notification that names no open
   * subscription (`UnmatchedNotificationError`); `data` holds the method and subscription id.
   */
  UnmatchedNotification: -33009,
  /** Local: an HTTP status, content type or body the transport cannot use (`HttpError`; `data.status`). */
  Http: -33010,
  /** Local: HTTP 401 or 403 (`HttpAuthError`; `data.challenges`, `data.bearer`). */
  HttpAuth: -33011,
  /** Local: a response stream ended before its response; the outcome is unknown (`StreamBrokenError`). */
  StreamBroken: -33012,
  /** Local: the WebSocket closed (`WebSocketCloseError`; `data.code`). */
  WebSocketClosed: -33013,
  /**
   * Local: a legacy (2025-11-25) Streamable HTTP session ended: the server answered HTTP 404 to a
   * request that carried `Mcp-Session-Id`, and the one new session the client started did not
   * help (`SessionExpiredError`; `data.method`, `data.status`).
   */
  SessionExpired: -33014,
  /**
   * Local: era detection failed: `server/discover` did not identify a 2026-07-28 server and the
   * `initialize` fallback failed too (`EraDetectionError`; `data.probe`, `data.fallback`).
   */
  EraDetectionFailed: -33015,
  /** Local: a `tools/call` result breaks the tool's `outputSchema` (`ToolOutputValidationError`; `data.errors`). */
  ToolOutputInvalid: -33016,
  /** Local: the caller's AbortSignal cancelled the request. */
  RequestCancelled: -32800,
  /** Local: the OAuth flow failed (`OAuthError`); `data.failure` names the step. */
  AuthorizationFailed: -33017,
  /** Local: 403 `insufficient_scope` that re-authorizing cannot fix (`InsufficientScopeError`); `data.requiredScopes`. */
  InsufficientScope: -33018,
  /** Local: the user must authorize in a browser (`AuthorizationRequiredError`); `data.authorizationUrl`. */
  AuthorizationRequired: -33019,
  /**
   * Local: a cache store shared by a fleet (Redis) could not be reached, answered too slowly, or
   * held an entry it could not read; the cache did without it (`CacheStoreError`;
   * `data.operation`, `data.reason`). Reported through the store's `onError`, never thrown from a call.
   */
  CacheStoreFailed: -33030,
  /**
   * Local: a URI matches more than one resource template, or one template in more than one way
   * (`UriTemplateAmbiguityError`; `data.uri`, `data.matches`). Never guessed.
   */
  UriTemplateAmbiguous: -33026,
  /**
   * Local: a task (Tasks extension) outlived its `createdAt + ttlMs` without reaching a terminal
   * status, or was resumed after it (`TaskExpiredError`; `data.taskId`, `data.expiresAt`).
   */
  TaskExpired: -33031,
  /**
   * Local: a task store (Redis) could not be reached, answered too slowly, or failed a command
   * (`TaskStoreError`; `data.operation`, `data.reason`). Thrown from the store's calls: a
   * `resumeTask` fails with it; the record writes of a running task report it to `onError`.
   */
  TaskStoreFailed: -33032,
  /**
   * Local: the client stopped following a task that the server had not ended: its polls kept
   * failing past the retry budget, the call's `maxTotalTimeoutMs` passed, or the client closed
   * or lost its connection (`TaskAbandonedError`; `data.taskId`, `data.reason`, `data.resumable`,
   * `data.status`). With `resumable: true` the task may still be running and its record is kept
   * for `resumeTask`.
   */
  TaskAbandoned: -33033,
  /**
   * Local: a method was called in a client state that does not allow it, e.g. `connect()` twice
   * (`ClientStateError`; `data.method`, `data.state`). Nothing was sent.
   */
  ClientState: -33040,
  /**
   * Local: a request middleware (`client.use()`) failed the request by throwing something that
   * is not an `McpError` (kept as `cause`), or resolved with no result object
   * (`MiddlewareError`; `data.method`, `data.reason`). Only that request fails.
   */
  MiddlewareFailed: -33041,
  /**
   * Local: a part of mcp-live that loads on first use (subscriptions, tasks, the 2025-11-25
   * wire, OAuth, telemetry…) could not be loaded: its dynamic `import()` failed
   * (`ModuleLoadError`; `data.module`, the import's error as `cause`). Nothing was sent; the
   * next call tries again.
   */
  ModuleLoadFailed: -33042,
  /**
   * Local: an entry of an `McpHost` configuration is malformed (`HostConfigError`; `data.server`,
   * `data.field`). That server is left out; the others still start (unless the host is strict).
   */
  HostConfigInvalid: -33050,
  /**
   * Local: `McpHost` could not route a call: no tool, prompt, server or resource by that name, the
   * URI matches more than one server, or the server is not open (`HostRoutingError`;
   * `data.reason`). Nothing was sent.
   */
  HostRouting: -33051,
  /**
   * Local: `McpHost` did not send a `tools/call` because its approval was refused: the `approve`
   * hook denied it, gave no answer in time, or answered for another call
   * (`ToolApprovalDeniedError`; `data.reason`, `data.server`, `data.name`, `data.exposedName`).
   * Nothing was sent; `errorToolResult` turns it into a result the model reads as a refusal.
   */
  ToolApprovalDenied: -33052,
  /**
   * Local: a slash command line could not be used (`SlashCommandError`; `data.reason`,
   * `data.command`, `data.argument`, `data.usage`): not a command, no prompt by that command,
   * a required argument missing, more words than arguments, an unknown or repeated `name=`, an
   * unclosed quote. Nothing was sent.
   */
  SlashCommandInvalid: -33055,
  /**
   * Local: a skill file failed verification against its listing entry (Skills extension,
   * SEP-2640): not listed, wrong size, wrong digest, or a `SKILL.md` whose frontmatter differs
   * (`SkillVerificationError`; `data.reason`, `data.uri`, `data.skill`, `data.differences`).
   * The content was not returned.
   */
  SkillVerificationFailed: -33060,
  /**
   * Local: `skills/list` or `skills/get` returned entries that break SEP-2640's rules
   * (`InvalidSkillEntryError`; `data.entries`: index, uri, reason, value of each).
   */
  SkillEntryInvalid: -33061,
  /**
   * Local: a Skills method was called on a server that does not declare what it needs: the
   * extension itself, or `directoryRead: true` for `resources/directory/read`
   * (`SkillsUnsupportedError`; `data.method`, `data.missing`). Nothing was sent.
   */
  SkillsUnsupported: -33062,
  /**
   * Local: a host state store (`MemoryHostStateStore`, `RedisHostStateStore`) could not read or
   * write (`HostStateError`; `data.operation`, `data.reason`, `data.lost`: what another worker
   * cannot pick up). The host keeps serving from memory.
   */
  HostStateFailed: -33063,
  /**
   * Local: a UI resource (MCP Apps) could not be used: not a `ui://` URI, the wrong MIME type,
   * over the size cap, no usable contents (`AppResourceError`; `data.uri`, `data.reason`).
   */
  AppResourceInvalid: -33070,
  /**
   * Local: an app's `tools/call` was refused before it reached the server: the tool is not the
   * app's server's, is not callable by apps (`visibility`), or the host's `approve` hook said no
   * (`AppToolCallDeniedError`; `data.server`, `data.name`, `data.reason`).
   */
  AppToolCallDenied: -33071,
  /**
   * Local: an `events/*` call to a server that does not declare the Triggers & Events extension
   * (`capabilities.extensions["io.modelcontextprotocol/events"]`); nothing was sent
   * (`EventsUnsupportedError`; `data.method`).
   */
  EventsUnsupported: -33080,
  /**
   * Local: no delivery mode the event type offers is one this client may use (the options' `forbid`
   * or `delivery`, no webhook configured); nothing was sent (`NoCompatibleDeliveryModeError`;
   * `data.name`, `data.offered`, `data.usable`).
   */
  NoCompatibleDeliveryMode: -33081,
  /**
   * Local: an event subscription ended for good: the server terminated it or answered a poll,
   * stream or refresh with an error that a retry cannot mend (`EventSubscriptionEndedError`;
   * `data.name`, `data.mode`, `data.reason`; the server's error as `cause`).
   */
  EventSubscriptionEnded: -33082,
  /**
   * Local: a tool a framework adapter (`mcp-live/ai-sdk`, `mcp-live/langchain`) ran answered with
   * `isError: true`, or could not be run (an unknown tool, a server that went away, a timeout):
   * thrown from the framework tool's `execute`/`invoke` so the framework records a tool error
   * (`ToolResultError`; `data.tool`, `data.result`, the model-facing text as the message).
   */
  ToolResultFailed: -33090,
} as const;

/** A key of {@link ErrorCode}, e.g. `"RequestTimeout"`. */
export type ErrorCodeName = keyof typeof ErrorCode;

/** The `error` member of a JSON-RPC error response (JSON-RPC 2.0 §5.1): what an `RpcError` is made from. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
