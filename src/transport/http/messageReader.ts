/**
 * What comes back on an HTTP exchange, handed up to the transport's handlers: a JSON-RPC value
 * as a message of the request whose exchange carried it, and the `message` events of an SSE body
 * read until the response to that request arrives. Runtime-neutral.
 */
import { ErrorCode } from '../../errors/codes.js';
import { McpError, ProtocolError } from '../../errors/errors.js';
import { isObject, type JsonObject, type RequestId } from '../../wire/messages.js';
import type { CancelHandle, TransportHandlers } from '../transport.js';
import { bodyExcerpt, HttpError } from '../transportErrors.js';
import { parseJson } from './body.js';
import type { HttpExchange } from './exchange.js';
import { SseReader } from './sseReader.js';
import type { HttpStackResponse } from './stack.js';

/** What one SSE response body carried, as the transport's reader saw it. */
export interface PumpResult {
  /** The JSON-RPC response to the request the stream belongs to arrived (and was handed up). */
  responded: boolean;
  /** SSE events received, empty priming events included. */
  events: number;
  /** The last `id:` seen, if any: the `Last-Event-ID` of a reconnect. */
  lastEventId: string | undefined;
  /** The last `retry:` value, in ms, if any. */
  retryMs: number | undefined;
  /** Why reading stopped early (a network error), when it did. */
  failure?: unknown;
}

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
export class MessageReader {
  constructor(private readonly options: MessageReaderOptions) {}

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
  async pump(
    response: HttpStackResponse,
    method: string,
    relatedId: RequestId | undefined,
    cancel: CancelHandle | undefined,
  ): Promise<PumpResult> {
    const { exchange } = this.options;
    // Statuses that never have a body (the Fetch standard's null-body statuses among 2xx).
    if (response.status === 204 || response.status === 205)
      throw new HttpError(exchange.errorData(response, method, '', 'empty-body'));
    const reader = new SseReader({ maxEventChars: this.options.maxEventChars });
    let events = 0;
    const result = (responded: boolean, failure?: unknown): PumpResult => ({
      responded,
      events,
      lastEventId: reader.lastEventId,
      retryMs: reader.retryMs,
      ...(failure !== undefined && { failure }),
    });
    try {
      for await (const event of reader.readChunks(response.chunks())) {
        events++;
        // `ping`, `keepalive` and other event types carry nothing for JSON-RPC.
        if (event.type !== 'message') continue;
        const value = messageOfEvent(event.data, method, (error) => this.emitError(error));
        if (value !== undefined && this.deliver(value, relatedId, response.status)) return result(true);
      }
    } catch (error) {
      if (exchange.isAborted(cancel)) throw exchange.abortReason(cancel);
      if (McpError.is(error)) throw error;
      return result(false, error);
    }
    if (exchange.isAborted(cancel)) throw exchange.abortReason(cancel);
    // Priming events carry no data, so they are not counted above; their id still makes the stream resumable.
    if (events === 0 && reader.lastEventId !== undefined) events = 1;
    return result(false);
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

/**
 * The JSON-RPC message an SSE `message` event's data holds, or `undefined` after `report` was
 * told why it holds none: a `ProtocolError` for data that is not JSON (-32700) or not a JSON-RPC
 * object (-32600). `method` names the exchange in the error.
 */
export function messageOfEvent(data: string, method: string, report: (error: Error) => void): JsonObject | undefined {
  const value = parseJson(data);
  if (value === undefined) {
    report(
      new ProtocolError(
        'SSE event data is not JSON; skipped',
        { method, value: bodyExcerpt(data) },
        ErrorCode.ParseError,
      ),
    );
    return undefined;
  }
  if (!isObject(value) || value['jsonrpc'] !== '2.0') {
    report(new ProtocolError('SSE event data is not a JSON-RPC message; skipped', { method, value }));
    return undefined;
  }
  return value;
}
