/**
 * What a session does with each message its transport hands up: a response settles its pending
 * request (an `error` member as `RpcError`), `notifications/progress` moves that request's idle
 * deadline and reaches its `onProgress`, `notifications/cancelled` stops a server request's
 * handler, a notification about a request goes to that request's listener, any other to the
 * session's; a request from the server goes to the inbound handlers. What is not JSON-RPC 2.0 is
 * reported and ignored.
 */
import { ProtocolError, RpcError } from '../errors/errors.js';
import type { MessageContext } from '../transport/transport.js';
import {
  isObject,
  isRequestId,
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcNotification,
} from '../wire/messages.js';
import { asError, type InboundRequests } from './inbound.js';
import type { PendingRequests } from './pendingRequests.js';
import type { SessionOptions } from './sessionOptions.js';

/** See the file's opening comment. */
export class IncomingMessages {
  constructor(
    private readonly pending: PendingRequests,
    private readonly inbound: InboundRequests,
    private readonly options: Pick<SessionOptions, 'onError' | 'onNotification'>,
  ) {}

  handle(message: unknown, context: MessageContext | undefined): void {
    if (!isObject(message) || message['jsonrpc'] !== '2.0') {
      this.options.onError(new ProtocolError('not a JSON-RPC 2.0 message; ignored', { value: message }));
      return;
    }
    const method = message['method'];
    if (typeof method === 'string') {
      if ('id' in message) this.inbound.handle(message, method);
      else this.notification(message as unknown as JsonRpcNotification, context);
      return;
    }
    if ('result' in message || 'error' in message) {
      this.response(message, context);
      return;
    }
    this.options.onError(
      new ProtocolError('JSON-RPC message is neither request, notification nor response; ignored', { value: message }),
    );
  }

  private response(message: JsonObject, context: MessageContext | undefined): void {
    // Over HTTP the exchange itself names the request, even when the body's id is null.
    const id = message['id'] ?? context?.relatedRequestId;
    const entry = isRequestId(id) ? this.pending.get(id) : undefined;
    if (entry === undefined) {
      if (isRequestId(id) && this.pending.forgetCancelled(id)) return;
      this.options.onError(new ProtocolError('response for no pending request; ignored', { value: message }));
      return;
    }
    if ('error' in message) {
      const error = message['error'];
      if (isObject(error) && Number.isInteger(error['code']) && typeof error['message'] === 'string') {
        this.pending.settle(
          entry,
          new RpcError(error as unknown as JsonRpcErrorObject, entry.method, context?.httpStatus),
        );
      } else {
        this.pending.settle(
          entry,
          new ProtocolError('malformed error response', { method: entry.method, value: message }),
        );
      }
      return;
    }
    const result = message['result'];
    if (isObject(result)) this.pending.settle(entry, result);
    else
      this.pending.settle(entry, new ProtocolError('result is not an object', { method: entry.method, value: result }));
  }

  private notification(notification: JsonRpcNotification, context: MessageContext | undefined): void {
    if (notification.method === 'notifications/progress') {
      this.progress(notification);
      return;
    }
    if (notification.method === 'notifications/cancelled') {
      // The server gave up on its own request: stop the handler and send no response.
      const params = notification.params;
      if (this.inbound.cancel(params?.['requestId'], params?.['reason'] ?? 'cancelled by the server')) return;
    }
    const related = context?.relatedRequestId;
    const entry = related === undefined ? undefined : this.pending.get(related);
    if (entry?.options.onRelatedNotification !== undefined) {
      try {
        entry.options.onRelatedNotification(notification);
      } catch (error) {
        this.options.onError(asError(error));
      }
      return;
    }
    this.options.onNotification(notification);
  }

  private progress(notification: JsonRpcNotification): void {
    const params = notification.params;
    const token = params?.['progressToken'];
    const progress = params?.['progress'];
    if ((typeof token !== 'string' && typeof token !== 'number') || typeof progress !== 'number') {
      this.options.onError(
        new ProtocolError('malformed progress notification; ignored', {
          method: notification.method,
          value: notification,
        }),
      );
      return;
    }
    const entry = this.pending.forProgressToken(token);
    if (entry === undefined) return;
    // Only the deadline moves: the session timer, due earlier, finds it later and re-arms.
    this.pending.touched(entry);
    const onProgress = entry.options.onProgress;
    if (onProgress !== undefined) {
      const total = params?.['total'];
      const text = params?.['message'];
      try {
        onProgress({
          progress,
          ...(typeof total === 'number' && { total }),
          ...(typeof text === 'string' && { message: text }),
        });
      } catch (error) {
        this.options.onError(asError(error));
      }
    }
  }
}
