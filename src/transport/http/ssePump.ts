/**
 * The `message` events of an SSE response body, handed up as JSON-RPC messages until the
 * response to the request arrived. Loaded with the first `text/event-stream` response
 * (`MessageReader.pump`), together with the SSE parser. Runtime-neutral.
 */
import { ErrorCode } from '../../errors/codes.js';
import { McpError, ProtocolError } from '../../errors/errors.js';
import { isObject, type JsonObject, type RequestId } from '../../wire/messages.js';
import type { CancelHandle } from '../transport.js';
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

/** What {@link pumpEvents} hands the events to: the transport's `MessageReader`. */
export interface PumpTarget {
  /** The transport's exchanges: their abort state, and the data of an `HttpError`. */
  readonly exchange: HttpExchange;
  /** Longest SSE event accepted, in characters. */
  readonly maxEventChars: number | undefined;
  /** Hands a value up as a message of request `id`; true when it is that request's response. */
  deliver(value: unknown, id: RequestId | undefined, httpStatus: number): boolean;
  /** Reports a non-fatal problem to `onError`. */
  emitError(error: Error): void;
}

/**
 * Reads an SSE body, handing each JSON-RPC `message` event up (related to `relatedId` when
 * given), until it ends or the response to `relatedId` arrived. A read failure ends it with
 * `failure` set; an abort rejects with the abort reason; an oversized event with ProtocolError;
 * a 204 or 205 (no body) with HttpError.
 */
export async function pumpEvents(
  target: PumpTarget,
  response: HttpStackResponse,
  method: string,
  relatedId: RequestId | undefined,
  cancel: CancelHandle | undefined,
): Promise<PumpResult> {
  const { exchange } = target;
  // Statuses that never have a body (the Fetch standard's null-body statuses among 2xx).
  if (response.status === 204 || response.status === 205)
    throw new HttpError(exchange.errorData(response, method, '', 'empty-body'));
  const reader = new SseReader({ maxEventChars: target.maxEventChars });
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
      const value = messageOfEvent(event.data, method, (error) => target.emitError(error));
      if (value !== undefined && target.deliver(value, relatedId, response.status)) return result(true);
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
