/**
 * Requests the server sends to the client, on the legacy wire (spec 2025-11-25: client/roots,
 * client/sampling, client/elicitation, basic/utilities/ping): each gets exactly one response
 * from its handler, none when the server cancels it, and its handler's signal aborts when the
 * server cancels it or the connection closes. The 2026-07-28 wire has none; they are reported.
 */
import { ErrorCode } from '../errors/codes.js';
import { McpError, ProtocolError } from '../errors/errors.js';
import {
  isObject,
  isRequestId,
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type RequestId,
} from '../wire/messages.js';

/**
 * Handles a request the server sent to the client (legacy wire only) and returns its result.
 * `signal` aborts when the server cancels the request or the connection closes; `id` is the
 * request's JSON-RPC id.
 */
export type InboundRequestHandler = (
  params: JsonObject | undefined,
  signal: AbortSignal,
  id: RequestId,
) => Promise<JsonObject> | JsonObject;

/** What {@link InboundRequests} answers through. */
export interface InboundDeps {
  /** Hands a response to the transport. */
  write(message: JsonRpcMessage): Promise<void>;
  /** True while the session is open (no response is written after it closed). */
  open(): boolean;
  /** Non-fatal problems: a request that is not allowed, a response that could not be sent. */
  onError(error: Error): void;
}

/** The server's requests in flight, and the handlers that answer them. */
export class InboundRequests {
  private readonly controllers = new Map<RequestId, AbortController>();

  /** `undefined`: inbound requests are reported and never answered. */
  constructor(
    private readonly port: InboundDeps,
    private handlers: ReadonlyMap<string, InboundRequestHandler> | undefined,
  ) {}

  /** Starts (a map) or stops (`undefined`) answering; see `JsonRpcSession.setInboundRequestHandlers`. */
  setHandlers(handlers: ReadonlyMap<string, InboundRequestHandler> | undefined): void {
    this.handlers = handlers;
  }

  /** Runs the handler of one inbound request (`message` has a string `method` and an `id`). */
  handle(message: JsonObject, method: string): void {
    const id = message['id'];
    if (!isRequestId(id)) {
      this.port.onError(new ProtocolError('request with an invalid id; ignored', { value: message }));
      return;
    }
    if (method === 'notifications/cancelled') return;
    const handlers = this.handlers;
    if (handlers === undefined) {
      this.port.onError(
        new ProtocolError('server sent a request, which this protocol version does not allow; ignored', {
          method,
          value: message,
        }),
      );
      return;
    }
    const handler = handlers.get(method);
    if (handler === undefined) {
      void this.respondError(id, { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` });
      return;
    }
    const controller = new AbortController();
    this.controllers.set(id, controller);
    // Exactly one response: the first settlement wins; a cancelled request gets none.
    let answered = false;
    const answer = (reply: { result: JsonObject } | { error: JsonRpcErrorObject }): Promise<void> => {
      if (answered || this.controllers.get(id) !== controller) return Promise.resolve();
      answered = true;
      this.controllers.delete(id);
      if ('error' in reply) return this.respondError(id, reply.error);
      return this.port.write({ jsonrpc: '2.0', id, result: reply.result }).catch((error: unknown) => {
        if (this.port.open()) this.port.onError(asError(error));
      });
    };
    const params = message['params'];
    Promise.resolve()
      .then(() => handler(isObject(params) ? params : undefined, controller.signal, id))
      .then(
        (result) => {
          if (!isObject(result))
            return answer({
              error: { code: ErrorCode.InternalError, message: `${method}: the handler returned no result object` },
            });
          return answer({ result });
        },
        (error: unknown) => {
          const rpc = McpError.is(error) && error.code > -33000 && error.code < -31000;
          return answer({
            error: {
              code: rpc ? error.code : ErrorCode.InternalError,
              message: error instanceof Error ? error.message : String(error),
            },
          });
        },
      )
      .catch((error: unknown) => this.port.onError(asError(error)));
  }

  /**
   * The server cancelled its request `requestId` (`notifications/cancelled`): its handler's
   * signal aborts with `reason`, and it gets no response. False when no such request runs.
   */
  cancel(requestId: unknown, reason: unknown): boolean {
    const controller = isRequestId(requestId) ? this.controllers.get(requestId) : undefined;
    if (controller === undefined) return false;
    this.controllers.delete(requestId as RequestId);
    controller.abort(reason);
    return true;
  }

  /** The connection closed: every handler's signal aborts. */
  abortAll(): void {
    for (const controller of this.controllers.values()) controller.abort();
    this.controllers.clear();
  }

  private respondError(id: RequestId, error: JsonRpcErrorObject): Promise<void> {
    if (!this.port.open()) return Promise.resolve();
    return this.port.write({ jsonrpc: '2.0', id, error }).catch((sendError: unknown) => {
      if (this.port.open()) this.port.onError(asError(sendError));
    });
  }
}

/** `value` if it is an Error, else an Error saying what it is: for what a handler or listener threw. */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
