import type { JsonObject, JsonRpcMessage, RequestId } from '../wire/messages.js';

/**
 * What a transport tells its owner. Handlers are passed once to {@link Transport.start};
 * a transport calls them synchronously and never after `onClose`.
 */
export interface TransportHandlers {
  /**
   * A parsed inbound value. It is JSON but not yet checked to be JSON-RPC: the session
   * validates it (a transport only frames and parses).
   */
  onMessage(message: unknown, context?: MessageContext): void;
  /** A non-fatal problem: an unparsable line, a stray frame, a failed write of a notification. */
  onError(error: Error): void;
  /** The connection is gone for good; every pending request should fail with `info`. */
  onClose(info: TransportCloseInfo): void;
}

/** What the transport knows about where an inbound message came from. */
export interface MessageContext {
  /**
   * The request whose response stream carried this message (Streamable HTTP). Lets the
   * session attribute request-scoped notifications, and an error response whose `id` is
   * `null`, to that request. Absent on single-channel transports (stdio, WebSocket).
   */
  relatedRequestId?: RequestId | undefined;
  /**
   * The HTTP status of a non-2xx response that carried this message (Streamable HTTP: a 4xx
   * whose body is a JSON-RPC error). The session
   * copies it onto the `RpcError` of an error response (`RpcError.httpStatus`), so era
   * detection can tell a modern 404 -32601 from a legacy one. Absent on other transports.
   */
  httpStatus?: number | undefined;
}

/** Why a transport closed. Every field but `reason` is optional. */
export interface TransportCloseInfo {
  /** Short human-readable reason, e.g. `"process exited with code 1"` or `"closed by client"`. */
  reason: string;
  /** True when the owner called `close()`; false when the peer or the OS ended it. */
  initiatedByClient: boolean;
  /** Child process exit code (stdio), or WebSocket close code. */
  exitCode?: number | null | undefined;
  /** Signal that ended the child process (stdio), e.g. `"SIGKILL"`. */
  signal?: string | null | undefined;
  /** The last bytes the server wrote to stderr (stdio), at most a few KiB, for diagnostics. */
  stderrTail?: string | undefined;
  /** The underlying error, if one caused the close (spawn ENOENT, socket reset...). */
  cause?: unknown;
}

/**
 * Static facts about a transport, read by the session instead of sniffing its type.
 */
export interface TransportCapabilities {
  /**
   * True when aborting the send of a request ({@link TransportSendOptions.cancel}, or
   * {@link TransportSendOptions.signal}) is itself the cancellation (Streamable HTTP: closing
   * that request's response stream). False when the session must send
   * `notifications/cancelled` (stdio, WebSocket, in-memory).
   */
  readonly cancelsByAbortingSend: boolean;
  /**
   * True when `x-mcp-header` tool parameters are mirrored into `Mcp-Param-*` headers
   * (Streamable HTTP, by the link it brings: {@link Transport.links}): the client then answers
   * a `HeaderMismatch` (-32020) to a `tools/call` by listing the tools again and sending the
   * call once more. @default false
   */
  readonly mirrorsToolParamHeaders?: boolean | undefined;
  /**
   * True when the session should also abort a request's send ({@link TransportSendOptions.cancel}
   * and `signal`) after it sent `notifications/cancelled` (legacy Streamable HTTP: the
   * notification is the cancellation, and closing the response stream frees the connection).
   * Ignored when {@link cancelsByAbortingSend} is true. @default false
   */
  readonly closesStreamOnCancel?: boolean | undefined;
  /**
   * True when every request gets an answer from the transport itself (Streamable HTTP: an HTTP
   * response, even a refusal), so a silent server is no sign of a legacy one; the era probe then
   * uses the normal timeouts, which also leaves room for an authorization flow inside the
   * request. False for message streams (stdio, WebSocket), where a legacy server may never
   * answer `server/discover`. @default false
   */
  readonly answersEveryRequest?: boolean | undefined;
  /**
   * True when `start()` may be called again once the transport has closed (its `onClose` was
   * called, whether the peer ended it or the owner called `close()`): it opens a new connection
   * to the same server, with the same options and the new handlers (stdio spawns the command
   * again; WebSocket opens a new socket). Each run has its own single `onClose`. `McpClient`
   * reconnects only over such transports (`ClientOptions.reconnect`). Such a transport holds
   * one connection at a time: once started, a `send` that rejects with `ConnectionClosedError`
   * means that connection is ending, and its `onClose` must follow (the session holds the
   * request until then, to settle it with the close's info). @default false
   */
  readonly restartable?: boolean | undefined;
}

/**
 * Era control of a transport whose envelope differs on the legacy wire (MCP 2025-11-25 and
 * earlier: `initialize` handshake, sessions). The client calls these around the handshake
 * (spec 2026-07-28: basic/versioning, Backward Compatibility). Transports that frame both
 * eras alike (stdio, WebSocket, in-memory) have none.
 */
export interface LegacyWireControl {
  /** Before `initialize` is sent: speak the legacy envelope from now on and forget any legacy session. */
  enter(): void;
  /** The InitializeResult arrived: `protocolVersion` is sent as `MCP-Protocol-Version` from now on. */
  negotiated(protocolVersion: string): void;
  /**
   * `notifications/initialized` was sent: the handshake is complete (HTTP opens its optional
   * GET stream). The client waits for the returned promise (HTTP: until that GET was answered,
   * so server messages sent right after the handshake have a stream); it never rejects.
   */
  ready(): Promise<void> | void;
  /** The first handshake failed: back to the 2026-07-28 envelope, with no legacy state kept. */
  leave(): void;
  /**
   * No new session will replace an expired one (after `enter()`, without `leave()`): messages
   * the transport held back for it reject with `error`. The returned promise (it never
   * rejects) resolves once each of their sends has settled, so the owner may close after it.
   */
  failed?(error: unknown): Promise<void> | void;
  /**
   * HTTP only, after `enter()`: switches to the deprecated HTTP+SSE transport (2024-11-05) at
   * the same URL (`GET`, then the `endpoint` event; `src/transport/http/legacy/legacySse.ts`).
   * Resolves once the endpoint is known; from then on every message goes over it, until `leave()`. Rejects
   * like `LegacySseTransport.start()` (`SseEndpointError`, `HttpError`, `HttpAuthError`,
   * `TimeoutError`, `ConnectionClosedError`; `CancelledError` when `signal` aborts;
   * `ModuleLoadError` (-33042) when the fallback's code cannot be loaded).
   */
  openSse?(signal: AbortSignal | undefined): Promise<void>;
  /** The legacy HTTP session's id (`Mcp-Session-Id`), once the server assigned one; for telemetry (`mcp.session.id`). */
  sessionId?(): string | undefined;
}

/**
 * The cancellation of one {@link Transport.send}, with the semantics of an `AbortSignal` but
 * without its cost (creating an `AbortSignal` takes several microseconds on Node 20, a sizeable
 * share of a whole request over HTTP). `aborted` turns true once, with `reason`; each listener
 * registered before that is called once, synchronously, with no argument. A listener registered
 * after it is never called, so check `aborted` first, as with a signal.
 */
export interface CancelHandle {
  /** True once the send is cancelled. */
  readonly aborted: boolean;
  /** Why it was cancelled (the session passes a string: `"Request timed out"`, the caller's reason...); `undefined` before. */
  readonly reason: unknown;
  /** Calls `listener` once when the send is cancelled. Registering the same function twice calls it twice. */
  onAbort(listener: () => void): void;
  /** Removes one registration of `listener`; unknown listeners are ignored. */
  offAbort(listener: () => void): void;
}

/**
 * Per-message options for {@link Transport.send}.
 *
 * Cancellation comes in two forms that describe the same thing: {@link signal} and the cheaper
 * {@link cancel}. For transports whose capabilities say that cancelling a request aborts its send
 * ({@link TransportCapabilities.cancelsByAbortingSend}, {@link TransportCapabilities.closesStreamOnCancel}),
 * the session passes both, and `signal` is made on its first read: a transport that reads only
 * `cancel` never pays for an `AbortSignal`. Transports written against `signal` alone keep
 * working unchanged. Other callers of `send()` may pass either; a transport should use `cancel`
 * when present and fall back to `signal`.
 */
export interface TransportSendOptions {
  /**
   * Aborted when the request this message belongs to is cancelled or timed out. Transports
   * with a per-request stream close it; others may ignore it once the bytes are written. When
   * {@link cancel} is present too, this is the same cancellation, created on first read by a
   * getter on the options object's prototype: a spread copy (`{ ...options }`) keeps `cancel`
   * but not `signal`, so a wrapper that forwards a copy to a transport reading only `signal`
   * must copy it by name (`{ ...options, signal: options.signal }`).
   */
  signal?: AbortSignal | undefined;
  /**
   * The same cancellation as {@link signal}, as a {@link CancelHandle}: cheaper to make, and
   * what `StreamableHttpTransport` reads (its `node:http` path destroys the request from the
   * handle's listener). The session passes one with every send it may cancel by aborting (spec
   * 2026-07-28: basic/patterns/cancellation, basic/transports/streamable-http).
   */
  cancel?: CancelHandle | undefined;
  /** The id of the request this message answers or belongs to, when it is not itself a request. */
  relatedRequestId?: RequestId | undefined;
  /**
   * Extra envelope headers for this message only (Streamable HTTP: the `Mcp-Param-{Name}`
   * headers of a `tools/call`, already encoded). Names and values must be valid HTTP field
   * names and values. Transports without an envelope ignore them.
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Whether the message may be sent again after a transient failure (connection reset, HTTP
   * 429/502/503/504) without a visible side effect. Transports that retry use it; others
   * ignore it. @default true for every method except `tools/call`
   */
  idempotent?: boolean | undefined;
  /**
   * The credential to send this request with on its first try, as {@link Transport.credentialFor}
   * resolved it before the request (the response cache looked up its private partition with it).
   * Transports that did not make it, and transports without credentials, ignore it.
   */
  credential?: RequestCredential | undefined;
}

/**
 * The credential of one request, resolved before the request is sent (see
 * {@link Transport.credentialFor}). Opaque: the credential itself cannot be read from it, and it
 * prints as its `id` only.
 */
export interface RequestCredential {
  /**
   * A stable, opaque id of the credential: `"credential:<32 hex>"`, the first 128 bits of a
   * domain-separated SHA-256 of the `Authorization` value; never the value. `undefined` when the
   * request carries no credential.
   */
  readonly id: string | undefined;
  /**
   * True once a later try of a request sent with it carried another credential (the server
   * refused this one and the auth provider gave a new one): the response then belongs to that
   * other credential, and the response cache does not store it under this one's partition.
   */
  readonly replaced: boolean;
}

/**
 * One request as a transport's link ({@link TransportLink}) sees it: the client's request context
 * after the user's middleware, so `params` are the (possibly rewritten) ones that will be sent.
 */
export interface LinkRequest {
  /** The MCP method, e.g. `tools/call`. */
  readonly method: string;
  /** The params that will be sent (without `_meta`); never mutated. */
  readonly params: JsonObject;
  /** Extra envelope headers of every attempt ({@link TransportSendOptions.headers}); a link may add to them. */
  readonly headers: Record<string, string>;
  /**
   * Whether the request may be sent again after a transient failure
   * ({@link TransportSendOptions.idempotent}): the caller's `CallOptions.idempotent`, or
   * `undefined` when it set none. A link may set it then (Streamable HTTP: a `tools/call` of a
   * tool `tools/list` annotated `readOnlyHint` or `idempotentHint`). When it stays `undefined`,
   * the client sends `true`, except for `tools/call` (`false`).
   */
  idempotent: boolean | undefined;
}

/**
 * Middleware a transport contributes to every client it serves ({@link Transport.links}). Its
 * place in the client's chain is fixed: after the user's middleware and the client's `logging`
 * link, in the order the transport lists them, right before the send (docs/design.md, "Request
 * middleware"). So a link sees what the user's middleware made of the request, and what it does
 * (a new session, a header) stays below them.
 */
export interface TransportLink {
  /**
   * Whether the link has work on `request`, asked when its turn comes: `false` means it would
   * only call `next()`, and the chain steps over it without calling {@link run}.
   */
  applies(request: LinkRequest): boolean;
  /**
   * Runs the request: calls `next()` (at most twice, for one more try) and resolves with its
   * result, or a rewritten one; rejects with what `next()` rejected with unless it handles it.
   */
  run(request: LinkRequest, next: () => Promise<JsonObject>): Promise<JsonObject>;
  /** Told the method of each notification the server sends (`notifications/tools/list_changed`...), before the client handles it. */
  notified?(method: string): void;
}

/** What a client lends the links of its transport ({@link Transport.links}). */
export interface TransportLinkDeps {
  /**
   * Legacy wire (2025-11-25): starts a new session after `expired` (a `SessionExpiredError`) and
   * resolves once it is ready; `undefined` while the client has no legacy session to renew.
   * Read on each use. Rejects with what the new `initialize` rejects with.
   */
  readonly renewSession: ((expired: unknown) => Promise<unknown>) | undefined;
  /** True while the client is reconnecting: a request that waits for it is sent again by the client. */
  reconnecting(): boolean;
  /** Reports a problem that does not fail the request (the client's `onError`). */
  warn(error: Error): void;
  /** One line for the client's debug log (`debug` option), under `type: "reconnect"`; absent when the log is off. */
  readonly debug: ((message: string) => void) | undefined;
}

/**
 * A bidirectional JSON-RPC message channel: the only thing the session needs from
 * stdio, Streamable HTTP, WebSocket or an in-memory peer.
 *
 * Contract:
 * - `start(handlers)` is called once, resolves when messages can be sent, and rejects if the
 *   connection cannot be made (spawn failure, refused socket). A transport whose
 *   `capabilities.restartable` is true may be started again after it closed.
 * - `send(message)` resolves when the message is handed to the OS (or the peer); writes stay
 *   in call order. It rejects if the transport is closed.
 * - `close()` is idempotent, ends the connection and any child process, and resolves after
 *   `handlers.onClose` has been called.
 * - `links(deps)`, when present, is called once by each client the transport serves, and its
 *   middleware run innermost in that client's chain ({@link TransportLink}). A transport that
 *   wraps another forwards it.
 */
export interface Transport {
  /** What the transport can do (per-request streams, resumption...); fixed for its lifetime. */
  readonly capabilities: TransportCapabilities;
  /**
   * Who the server is, as the client knows it (command line, URL): never what the server says
   * about itself. Used to partition caches and to remember per-server facts.
   */
  readonly serverIdentity: string;
  /**
   * Resolves the credential the next request would be sent with (asking the auth provider, if
   * any, for its first try), without sending anything. Passed back in
   * {@link TransportSendOptions.credential}, that request is sent with exactly this credential.
   * The client's response cache partitions private entries by its `id`, resolved before each
   * lookup, unless the host declares its own auth context (spec: server/utilities/caching,
   * `cacheScope: "private"`). Transports that send no per-request credential leave it out.
   * Rejects with whatever the auth provider rejects with.
   */
  credentialFor?(signal?: AbortSignal): RequestCredential | Promise<RequestCredential>;
  /**
   * The version of the network protocol it speaks, when it knows it (OpenTelemetry
   * `network.protocol.version`): `1.1` for Streamable HTTP on `node:http`; unset on `fetch`,
   * which does not say.
   */
  readonly networkProtocolVersion?: string | undefined;
  /**
   * The middleware this transport brings to the client that owns it (see {@link TransportLink}
   * for their fixed place in the chain): Streamable HTTP brings the legacy session's renewal and
   * the `Mcp-Param-*` headers of `tools/call`. Called once per client, when the client is made;
   * the links it returns serve that client only. Transports without links leave it out.
   */
  links?(deps: TransportLinkDeps): readonly TransportLink[];
  /** Present when the legacy wire needs the transport's help (Streamable HTTP); see {@link LegacyWireControl}. */
  readonly legacyWire?: LegacyWireControl | undefined;
  /**
   * Opens the connection; called once (again after a close when `capabilities.restartable`).
   * Rejects when it cannot be made (spawn failure, refused socket).
   */
  start(handlers: TransportHandlers): Promise<void>;
  /** Hands one message to the peer, in call order. Rejects once the transport is closed. */
  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void>;
  /** Ends the connection (and any child process); idempotent; resolves after `handlers.onClose`. */
  close(): Promise<void>;
}
