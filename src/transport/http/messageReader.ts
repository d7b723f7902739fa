/**
 * What comes back on an HTTP exchange, handed up to the transport's handlers: a JSON-RPC value
 * as a message of the request whose exchange carried it, and the `message` events of an SSE body
 * read until the response to that request arrives (`ssePump.ts`). Runtime-neutral.
 */
import { isObject, type RequestId } from '../../wire/messages.js';
import type { CancelHandle, TransportHandlers } from '../transport.js';
import type { HttpExchange } from './exchange.js';
import { pumpEvents, type PumpResult, type PumpTarget } from './ssePump.js';
import type { HttpStackResponse } from './stack.js';

/** What a {@link MessageReader} hands messages to. */
export interface MessageReaderOptions {
  /** The transport's handlers; `undefined` before `start()` and after `close()`. */
  handlers(): TransportHandlers | undefined;
  /** The transport's exchanges: their abort state, and the data of an `HttpError`. */
  readonly exchange: HttpExchange;
  /** Longest SSE event accepted, in characters. */
  readonly maxEventChars: number | undefined;
}

/** Hands the messages of a transport's exchanges up to its handlers (see the file's opening comment). */
export class MessageReader implements PumpTarget {
  readonly exchange: HttpExchange;
  readonly maxEventChars: number | undefined;

  constructor(private readonly options: MessageReaderOptions) {
    this.exchange = options.exchange;
    this.maxEventChars = options.maxEventChars;
  }

  /**
   * Hands a parsed value up as a message of request `id`'s exchange (or of no request, for the
   * standalone GET stream). True when it is the response to that request (its `id` equals `id`,
   * or is `null` or absent).
   */
  deliver(value: unknown, id: RequestId | undefined, httpStatus: number): boolean {
    const handlers = this.options.handlers();
    if (handlers === undefined) return false;
    try {
      // The status travels only with refusals (4xx): that is where era detection needs it.
      const status = httpStatus >= 200 && httpStatus < 300 ? undefined : httpStatus;
      handlers.onMessage(
        value,
        id === undefined
          ? status === undefined
            ? undefined
            : { httpStatus: status }
          : status === undefined
            ? { relatedRequestId: id }
            : { relatedRequestId: id, httpStatus: status },
      );
    } catch (error) {
      this.emitError(error instanceof Error ? error : new Error(String(error)));
    }
    if (id === undefined) return false;
    return (
      isObject(value) &&
      ('result' in value || 'error' in value) &&
      (value['id'] === id || value['id'] === null || value['id'] === undefined)
    );
  }

  /**
   * Reads an SSE body, handing each JSON-RPC `message` event up (related to `relatedId` when
   * given), until it ends or the response to `relatedId` arrived. A read failure ends it with
   * `failure` set; an abort rejects with the abort reason; an oversized event with ProtocolError.
   */
  pump(
    response: HttpStackResponse,
    method: string,
    relatedId: RequestId | undefined,
    cancel: CancelHandle | undefined,
  ): Promise<PumpResult> {
    return pumpEvents(this, response, method, relatedId, cancel);
  }

  /** Reports a non-fatal problem to `onError`; a throwing `onError` is ignored. */
  emitError(error: Error): void {
    const handlers = this.options.handlers();
    if (handlers === undefined) return;
    try {
      handlers.onError(error);
    } catch {
      // A throwing onError has nowhere left to report to.
    }
  }
}
