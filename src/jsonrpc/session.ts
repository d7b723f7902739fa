import {
  abortedError,
  ConnectionClosedError,
  type ConnectionClosedErrorData,
  McpError,
  TimeoutError,
} from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import { systemClock, type Clock } from '../util/clock.js';
import { CancelSource } from '../transport/cancelHandle.js';
import type { Transport, TransportCloseInfo, TransportSendOptions } from '../transport/transport.js';
import { isStreamBrokenError } from '../transport/transportErrors.js';
import { asError, InboundRequests, type InboundRequestHandler } from './inbound.js';
import { IncomingMessages } from './incoming.js';
import { PendingRequests, type DeadlineKind, type PendingRequest } from './pendingRequests.js';
import { sendOptionsOf } from './sendOptions.js';
import {
  isObject,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from '../wire/messages.js';
import type { SessionOptions, SessionRequestOptions, SessionState } from './sessionOptions.js';

/** A send promise of the transport and the requests (with the id each was sent under) waiting on it. */
interface SentBatch {
  readonly promise: Promise<void>;
  readonly entry: PendingRequest;
  readonly id: RequestId;
  /** Further requests handed the same promise: entry, id, entry, id... */
  more: Array<PendingRequest | RequestId> | undefined;
}

/**
 * A JSON-RPC 2.0 client session over one {@link Transport}: allocates ids, keeps the pending
 * map, applies timeouts, routes progress, sends cancellations, and rejects everything pending
 * when the transport closes. It knows nothing of MCP methods beyond `notifications/progress`
 * and `notifications/cancelled`.
 */
export class JsonRpcSession {
  private readonly transport: Transport;
  private readonly clock: Clock;
  private readonly options: SessionOptions;
  /** The requests awaiting a response, and their deadlines. */
  private readonly pending: PendingRequests;
  private nextId = 0;
  private stateValue: SessionState = 'new';
  /** True once the transport's `start()` resolved, until it closes. */
  private transportStarted = false;
  private closeInfo: TransportCloseInfo | undefined;
  private closePromise: Promise<void> | undefined;
  /** Requests from the server (legacy wire), and their handlers. */
  private readonly inbound: InboundRequests;
  /** Routes what the transport hands up. */
  private readonly incoming: IncomingMessages;
  /** The last send's promise and the requests it carries, until it settles. */
  private lastSend: SentBatch | undefined;

  constructor(options: SessionOptions) {
    this.options = options;
    this.transport = options.transport;
    this.clock = options.clock ?? systemClock;
    this.pending = new PendingRequests(options.timers, this.clock, (entry, kind) => this.onTimeout(entry, kind));
    this.inbound = new InboundRequests(
      {
        write: (message) => this.write(message),
        open: () => this.stateValue === 'open',
        onError: (error) => this.options.onError(error),
      },
      options.answerInboundRequests === true ? (options.inboundRequestHandlers ?? new Map()) : undefined,
    );
    this.incoming = new IncomingMessages(this.pending, this.inbound, options);
  }

  /**
   * Starts (a map) or stops (`undefined`) answering server-to-client requests, as after the
   * legacy `initialize` handshake (spec 2025-11-25: client/roots, client/sampling,
   * client/elicitation, basic/utilities/ping). With a map, every inbound request gets exactly
   * one response: the handler's result; its error (an `McpError` code in the JSON-RPC range is
   * kept, anything else is -32603); or -32601 when no handler is registered for the method. A
   * request the server cancels (`notifications/cancelled`) has its handler's signal aborted and
   * gets no response. Without a map, inbound requests are reported to `onError` and never answered.
   */
  setInboundRequestHandlers(handlers: ReadonlyMap<string, InboundRequestHandler> | undefined): void {
    this.inbound.setHandlers(handlers);
  }

  get state(): SessionState {
    return this.stateValue;
  }

  /** How many requests await a response. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Starts the transport. Rejects (and closes the session) if it cannot be started. */
  async start(): Promise<void> {
    if (this.stateValue !== 'new') throw new Error(`session already ${this.stateValue}`);
    this.stateValue = 'open';
    try {
      await this.transport.start({
        onMessage: (message, context) => {
          this.options.onWire?.('receive', message);
          this.incoming.handle(message, context);
        },
        onError: (error) => this.options.onError(error),
        onClose: (info) => this.handleClose(info),
      });
      if (this.stateValue === 'open') this.transportStarted = true;
    } catch (error) {
      this.handleClose({ reason: 'transport failed to start', initiatedByClient: false, cause: error });
      throw error;
    }
  }

  /**
   * Starts the transport again after it closed, for a reconnect (a transport whose
   * `capabilities.restartable` is true: stdio spawns the server again, WebSocket opens a new
   * socket). The session is open again; ids go on from where they were, so a late response
   * from the old connection can never settle a new request. Inbound handlers stay as they were.
   * Rejects as {@link start} (and the session is closed again).
   * @throws Error when the session is not closed.
   */
  restart(): Promise<void> {
    if (this.stateValue !== 'closed')
      return Promise.reject(new Error(`session is ${this.stateValue}: only a closed session restarts`));
    this.stateValue = 'new';
    this.closeInfo = undefined;
    this.closePromise = undefined;
    return this.start();
  }

  /**
   * Sends a request and resolves with its `result` object. Rejects with {@link RpcError} for an
   * error response, {@link TimeoutError}, {@link CancelledError}, {@link ConnectionClosedError},
   * or {@link ProtocolError} for a response that is not a valid JSON-RPC response.
   *
   * `params._meta`, when present, must be an object owned by this call: the session adds
   * `progressToken` to it.
   */
  request(method: string, params: JsonObject | undefined, options: SessionRequestOptions): Promise<JsonObject> {
    if (this.stateValue !== 'open') return Promise.reject(this.closedError(method));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(abortedError(method, signal.reason));

    const id = this.nextId++;
    let progressToken: string | number = id;
    const meta = params?.['_meta'];
    if (isObject(meta)) {
      const given = meta['progressToken'];
      if (typeof given === 'string' || typeof given === 'number') progressToken = given;
      else if (options.onProgress !== undefined || options.resetTimeoutOnProgress) meta['progressToken'] = id;
    }

    const message: JsonRpcRequest =
      params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    const capabilities = this.transport.capabilities;
    const entry: PendingRequest = {
      id,
      message,
      reissuesLeft: options.reissueOnBrokenStream ?? (options.idempotent === true ? 2 : 0),
      method,
      options,
      resolve: unsettled,
      reject: unsettled,
      idleDeadline: 0,
      totalDeadline: 0,
      timed: false,
      abortListener: undefined,
      sendCancel:
        capabilities.cancelsByAbortingSend || capabilities.closesStreamOnCancel === true
          ? new CancelSource()
          : undefined,
      abortOnly: capabilities.cancelsByAbortingSend,
      progressToken,
      sendFailed: undefined,
    };
    // The executor only takes the settle functions: a closure over the entry alone, not over
    // everything this method holds.
    const response = new Promise<JsonObject>((resolve, reject) => {
      entry.resolve = resolve;
      entry.reject = reject;
    });
    try {
      this.begin(entry, signal);
    } catch (error) {
      // As a throw in a promise executor: the request rejects with it.
      entry.reject(error as Error);
    }
    return response;
  }

  /** Registers, times and sends a new request (see {@link request}). */
  private begin(entry: PendingRequest, signal: AbortSignal | undefined): void {
    const { id, method, options } = entry;
    this.pending.add(entry);
    if (options.onRequestId !== undefined) {
      try {
        options.onRequestId(id);
      } catch (error) {
        this.options.onError(asError(error));
      }
      // An abort the hook caused: nothing was sent, so nothing to cancel on the wire.
      if (signal?.aborted) {
        this.pending.settle(entry, abortedError(method, signal.reason));
        return;
      }
    }

    this.pending.time(entry, this.clock.now());
    if (signal !== undefined) {
      entry.abortListener = () => {
        this.pending.settle(entry, abortedError(method, signal.reason));
        this.cancel(entry, typeof signal.reason === 'string' ? signal.reason : 'Request cancelled by the client');
      };
      signal.addEventListener('abort', entry.abortListener, { once: true });
    }

    this.dispatch(entry);
  }

  /** Hands a request to the transport; a stream broken mid-response may re-issue it. */
  private dispatch(entry: PendingRequest): void {
    const id = entry.id;
    const sent = this.write(entry.message, sendOptionsOf(entry.options, entry.sendCancel));
    // A transport may hand the sends of one batch the same promise (stdio: the lines of a turn
    // share one write): its requests then share one pair of reactions.
    const shared = this.lastSend;
    if (shared !== undefined && shared.promise === sent) {
      (shared.more ??= []).push(entry, id);
      return;
    }
    const batch: SentBatch = { promise: sent, entry, id, more: undefined };
    this.lastSend = batch;
    sent.then(
      () => {
        if (this.lastSend === batch) this.lastSend = undefined;
      },
      (error: unknown) => {
        if (this.lastSend === batch) this.lastSend = undefined;
        this.sendFailed(batch.entry, batch.id, error);
        const more = batch.more;
        if (more !== undefined)
          for (let at = 0; at < more.length; at += 2)
            this.sendFailed(more[at] as PendingRequest, more[at + 1] as RequestId, error);
      },
    );
  }

  /** The send of request `id` failed with `error`: sent again, left to the close, or settled with it. */
  private sendFailed(entry: PendingRequest, id: RequestId, error: unknown): void {
    if (this.pending.get(id) !== entry) return;
    if (
      isStreamBrokenError(error) &&
      error.data.phase === 'mid-stream' &&
      entry.reissuesLeft > 0 &&
      this.stateValue === 'open'
    ) {
      entry.reissuesLeft--;
      this.reissue(entry);
      return;
    }
    if (this.awaitsClose(error)) {
      const outcome = (error as ConnectionClosedError).data?.outcome;
      entry.sendFailed = outcome === 'not-sent' ? 'not-sent' : 'unknown';
      return;
    }
    this.pending.settle(
      entry,
      McpError.is(error)
        ? error
        : new ConnectionClosedError(
            `${entry.method}: send failed`,
            { reason: 'send failed', outcome: 'unknown' },
            error,
          ),
    );
  }

  /**
   * Whether a failed send is the connection ending, so that its request waits for the close
   * instead of failing now. A restartable transport (stdio, WebSocket) holds one connection at a
   * time, and a `ConnectionClosedError` from its `send` once started means that connection is
   * going (a dead server's stdin gives EPIPE before its exit is seen): its `onClose` follows and
   * settles the request with what the close says (exit code, signal, stderr tail) and the
   * send's `outcome`, so that a reconnecting client can tell a request cut short by the drop and
   * hold it for the new connection. The request's deadlines and signal still end it sooner.
   */
  private awaitsClose(error: unknown): boolean {
    return (
      this.transportStarted &&
      this.stateValue === 'open' &&
      this.transport.capabilities.restartable === true &&
      McpError.is(error) &&
      error.local &&
      error.code === ErrorCode.ConnectionClosed
    );
  }

  /** Sends the same request again under a new id; deadlines and the caller's signal carry over. */
  private reissue(entry: PendingRequest): void {
    const oldId = entry.id;
    const newId = this.nextId++;
    this.pending.renamed(entry, oldId, newId);
    let params = entry.message.params;
    if (entry.progressToken === oldId) {
      entry.progressToken = newId;
      const meta = params?.['_meta'];
      if (isObject(meta) && meta['progressToken'] === oldId)
        params = { ...params, _meta: { ...meta, progressToken: newId } };
    }
    this.options.onReissue?.(entry.method, oldId, newId);
    entry.message =
      params === undefined
        ? { jsonrpc: '2.0', id: newId, method: entry.method }
        : { jsonrpc: '2.0', id: newId, method: entry.method, params };
    if (entry.sendCancel !== undefined) entry.sendCancel = new CancelSource();
    if (entry.options.onRequestId !== undefined) {
      try {
        entry.options.onRequestId(newId);
      } catch (error) {
        this.options.onError(asError(error));
      }
    }
    this.dispatch(entry);
  }

  /**
   * Ends the idle and total timeouts of a pending request for good: it stays pending until its
   * response, an abort of its signal, {@link abandon}, or the transport closing. Progress no
   * longer moves them. For long-lived requests once they are established: a
   * `subscriptions/listen` after its acknowledgment (spec: basic/patterns/subscriptions), whose
   * timeout covers only the wait for the ack.
   * @returns false when `id` is not pending.
   */
  disarmTimeouts(id: RequestId): boolean {
    const entry = this.pending.get(id);
    if (entry === undefined) return false;
    this.pending.untime(entry);
    return true;
  }

  /**
   * Settles a pending request with `error` without telling the server: the server ended it
   * itself (its `notifications/cancelled` for a `subscriptions/listen`, spec:
   * basic/patterns/cancellation). A response that still arrives for it is dropped quietly.
   * @returns false when `id` is not pending.
   */
  abandon(id: RequestId, error: Error): boolean {
    const entry = this.pending.get(id);
    if (entry === undefined) return false;
    this.pending.rememberCancelled(id);
    this.pending.settle(entry, error);
    return true;
  }

  /** Sends a notification. Rejects with {@link ConnectionClosedError} when the session is closed. */
  notify(method: string, params?: JsonObject): Promise<void> {
    if (this.stateValue !== 'open') return Promise.reject(this.closedError(method));
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return this.write(message);
  }

  /** Hands one message to the transport (through the `onWire` hook when set). */
  private write(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    this.options.onWire?.('send', message);
    return this.transport.send(message, options);
  }

  /**
   * Closes the transport. Every pending request rejects with {@link ConnectionClosedError}.
   * Idempotent; resolves when the transport has closed.
   */
  close(): Promise<void> {
    if (this.closePromise !== undefined) return this.closePromise;
    if (this.stateValue === 'new') {
      this.stateValue = 'closed';
      this.closeInfo = { reason: 'closed by client', initiatedByClient: true };
      this.closePromise = Promise.resolve();
      return this.closePromise;
    }
    this.closePromise = this.transport.close().then(() => {
      // A transport that failed to report its close still leaves nothing pending.
      if (this.stateValue !== 'closed') this.handleClose({ reason: 'closed by client', initiatedByClient: true });
    });
    return this.closePromise;
  }

  private closedError(method: string): ConnectionClosedError {
    const info = this.closeInfo;
    if (info === undefined)
      return new ConnectionClosedError(`${method}: not connected`, { reason: 'not connected', outcome: 'not-sent' });
    return new ConnectionClosedError(
      `${method}: connection closed (${info.reason})`,
      closeData(info, 'not-sent'),
      info.cause,
    );
  }

  /** A request's deadline passed (it is still pending): it times out, and the server is told. */
  private onTimeout(entry: PendingRequest, kind: DeadlineKind): void {
    const timeoutMs = kind === 'idle' ? entry.options.timeoutMs : entry.options.maxTotalTimeoutMs;
    this.pending.settle(entry, new TimeoutError({ method: entry.method, timeoutMs, kind }));
    this.cancel(entry, 'Request timed out');
  }

  /** Tells the server to stop work on a request we gave up on (spec: basic/patterns/cancellation). */
  private cancel(entry: PendingRequest, reason: string): void {
    this.pending.rememberCancelled(entry.id);
    // A request whose send failed waits for the close: the connection cannot carry a cancellation.
    if (entry.options.cancellable === false || this.stateValue !== 'open' || entry.sendFailed !== undefined) return;
    if (entry.abortOnly && entry.sendCancel !== undefined) {
      entry.sendCancel.abort(reason, this.reportListenerError);
      return;
    }
    this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: entry.id, reason } }).catch(
      (error: unknown) => this.options.onError(asError(error)),
    );
    entry.sendCancel?.abort(reason, this.reportListenerError);
  }

  /** A transport's cancel listener threw. */
  private readonly reportListenerError = (error: unknown): void => this.options.onError(asError(error));

  private handleClose(info: TransportCloseInfo): void {
    if (this.stateValue === 'closed') return;
    this.stateValue = 'closed';
    this.transportStarted = false;
    this.closeInfo = info;
    this.inbound.abortAll();
    for (const entry of this.pending.list()) {
      this.pending.settle(
        entry,
        new ConnectionClosedError(
          `${entry.method}: connection closed (${info.reason})`,
          closeData(info, entry.sendFailed ?? 'unknown'),
          info.cause,
        ),
      );
    }
    this.options.onClose?.(info);
  }
}

/** What a pending request's settle functions are until its promise hands it the real ones. */
const unsettled = (): void => {};

/** `ConnectionClosedError.data` for a request the close ended (`unknown`) or refused (`not-sent`). */
function closeData(info: TransportCloseInfo, outcome: 'unknown' | 'not-sent'): ConnectionClosedErrorData {
  return {
    reason: info.reason,
    ...(info.exitCode !== undefined && { exitCode: info.exitCode }),
    ...(info.signal !== undefined && { signal: info.signal }),
    ...(info.stderrTail !== undefined && { stderrTail: info.stderrTail }),
    outcome,
  };
}
