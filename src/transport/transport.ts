import type { JsonRpcMessage, RequestId } from '../jsonrpc/messages.js';

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
   * True when aborting {@link TransportSendOptions.signal} of a request's `send` is itself the
   * cancellation (Streamable HTTP: closing that request's response stream). False when the
   * session must send `notifications/cancelled` (stdio, WebSocket, in-memory).
   */
  readonly cancelsByAbortingSend: boolean;
  /**
   * True when `x-mcp-header` tool parameters must be mirrored into `Mcp-Param-*` headers
   * (Streamable HTTP): the client screens `tools/list` and passes the headers of each
   * `tools/call` in {@link TransportSendOptions.headers}. @default false
   */
  readonly mirrorsToolParamHeaders?: boolean | undefined;
}

/** Per-message options for {@link Transport.send}. */
export interface TransportSendOptions {
  /**
   * Aborted when the request this message belongs to is cancelled or timed out. Transports
   * with a per-request stream close it; others may ignore it once the bytes are written.
   */
  signal?: AbortSignal | undefined;
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
}

/**
 * A bidirectional JSON-RPC message channel: the only thing the session needs from
 * stdio, Streamable HTTP, WebSocket or an in-memory peer.
 *
 * Contract:
 * - `start(handlers)` is called once, resolves when messages can be sent, and rejects if the
 *   connection cannot be made (spawn failure, refused socket).
 * - `send(message)` resolves when the message is handed to the OS (or the peer); writes stay
 *   in call order. It rejects if the transport is closed.
 * - `close()` is idempotent, ends the connection and any child process, and resolves after
 *   `handlers.onClose` has been called.
 */
export interface Transport {
  readonly capabilities: TransportCapabilities;
  /**
   * Who the server is, as the client knows it (command line, URL): never what the server says
   * about itself. Used to partition caches and to remember per-server facts.
   */
  readonly serverIdentity: string;
  /**
   * An opaque, stable id of the credential the transport currently sends (a digest, never the
   * credential itself), or `undefined` when it sends none. The client's cache partitions
   * private entries by it unless the host declares its own auth context.
   */
  authContext?(): string | undefined;
  start(handlers: TransportHandlers): Promise<void>;
  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
}
