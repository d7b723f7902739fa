/**
 * What a JSON-RPC session is given: its options (transport, timers, hooks) and each request's
 * (timeouts, progress, cancellation, re-issue). Types only.
 */
import type { Clock, Timers } from '../util/clock.js';
import type { RequestCredential, Transport, TransportCloseInfo } from '../transport/transport.js';
import type { InboundRequestHandler } from './inbound.js';
import type { JsonRpcNotification, RequestId } from '../wire/messages.js';
import type { Progress } from '../wire/callOptions.js';

/** Per-request options understood by the session. */
export interface SessionRequestOptions {
  /** Aborting it cancels the request with a `CancelledError`. */
  signal?: AbortSignal | undefined;
  /** Idle timeout in ms: time allowed without a response (or, by default, without progress). */
  timeoutMs: number;
  /** Hard limit in ms on the whole request, whatever progress arrives. */
  maxTotalTimeoutMs: number;
  /** When true, each progress notification restarts the idle timeout. */
  resetTimeoutOnProgress: boolean;
  /** Called for each progress notification addressed to this request. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /**
   * Called for notifications the transport attributes to this request (for example
   * `notifications/message` on an HTTP response stream).
   */
  onRelatedNotification?: ((notification: JsonRpcNotification) => void) | undefined;
  /**
   * Whether a timeout or abort sends `notifications/cancelled`. False only for requests the
   * protocol forbids cancelling (legacy `initialize`). @default true
   */
  cancellable?: boolean | undefined;
  /**
   * Called once, synchronously, with the JSON-RPC id this request is sent under, before the
   * message reaches the transport. For long-lived requests whose later messages name the request
   * by id (`subscriptions/listen`: `_meta["io.modelcontextprotocol/subscriptionId"]`).
   */
  onRequestId?: ((id: RequestId) => void) | undefined;
  /** Extra transport headers for this request (Streamable HTTP: the tool's `Mcp-Param-*`). */
  transportHeaders?: Readonly<Record<string, string>> | undefined;
  /** The credential to send the request with (see `TransportSendOptions.credential`). */
  credential?: RequestCredential | undefined;
  /**
   * Whether the request may run twice without harm; transports retry only such requests after
   * a transient failure. @default the transport's rule (everything but `tools/call`)
   */
  idempotent?: boolean | undefined;
  /**
   * How often to re-issue the request under a new id when its response stream breaks before
   * the response (Streamable HTTP, spec: basic/transports/streamable-http). `onRequestId` is
   * called again with each new id. @default 2 when `idempotent` is true, else 0 (the call then
   * fails with `StreamBrokenError`, -33012: the outcome is unknown)
   */
  reissueOnBrokenStream?: number | undefined;
}

export interface SessionOptions {
  transport: Transport;
  timers: Timers;
  /**
   * The clock request deadlines are measured on (ms). Give the one that matches `timers`: the
   * session keeps one timer for all its requests and, when it fires, reads the clock to tell
   * which deadlines passed (a progress notification only moves a deadline). @default
   * `systemClock` (`performance.now()`, looked up at each call)
   */
  clock?: Clock | undefined;
  /** Notifications other than progress (and other than those routed to a request). */
  onNotification(notification: JsonRpcNotification): void;
  /** Non-fatal problems: malformed messages, responses for unknown ids, failed notifications. */
  onError(error: Error): void;
  /** Called once when the transport closes, after every pending request was rejected. */
  onClose?(info: TransportCloseInfo): void;
  /**
   * Whether to answer server-to-client requests. The 2026-07-28 wire has none (servers ask
   * through `input_required` results), so modern sessions report them instead of replying.
   * @default false
   */
  answerInboundRequests?: boolean;
  /** Handlers for server-to-client requests, by method, when {@link answerInboundRequests} is on. */
  inboundRequestHandlers?: ReadonlyMap<string, InboundRequestHandler>;
  /**
   * Sees every message handed to the transport (`send`) and every value it delivers
   * (`receive`, before any check), for the debug log. It must not throw or mutate them.
   */
  onWire?: ((direction: 'send' | 'receive', message: unknown) => void) | undefined;
  /** Told when a request is re-issued under a new id after its response stream broke. */
  onReissue?: ((method: string, oldId: RequestId, newId: RequestId) => void) | undefined;
}

/** Session state: `new` until started, `open` while messages flow, `closed` for good. */
export type SessionState = 'new' | 'open' | 'closed';
