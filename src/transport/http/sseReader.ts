/**
 * Server-Sent Events over a response body (a Web stream or any async iterable of byte chunks),
 * parsed with `eventsource-parser` (WHATWG HTML "Server-sent events", §9.2.6 interpretation).
 * Runtime-neutral: TextDecoder only.
 */
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { ErrorCode } from '../../errors/codes.js';
import { ProtocolError } from '../../errors/errors.js';

/** One dispatched SSE event. */
export interface SseEvent {
  /** The `event:` field, or `"message"` when the event had none. */
  readonly type: string;
  /** The `data:` lines joined with `"\n"` (one leading space after each colon removed). Never empty. */
  readonly data: string;
  /** The `id:` field of this event, if it had one. */
  readonly id: string | undefined;
}

/** Options for {@link SseReader}. */
export interface SseReaderOptions {
  /**
   * Longest event (or unterminated line) kept in memory, in characters. A longer one stops the
   * stream with a `ProtocolError` (code -32700). @default 67108864 (64 Mi characters)
   */
  maxEventChars?: number | undefined;
  /** Called with the text of each comment line (`: keepalive` → `"keepalive"`). */
  onComment?: ((comment: string) => void) | undefined;
}

const DEFAULT_MAX_EVENT_CHARS = 64 * 1024 * 1024;

/**
 * Reads one SSE stream. Lines may end in CR, LF or CRLF, split anywhere across chunks; a BOM
 * is skipped; comment lines are ignored; `data:` lines of one event are joined with `"\n"`.
 *
 * Differences from a browser `EventSource`, all deliberate:
 * - an event whose data is empty (`data:` alone, as in a priming event) is not yielded, but
 *   its `id` is still recorded in {@link lastEventId};
 * - when the stream ends in the middle of an event (no final blank line), the pending event is
 *   yielded instead of being discarded, so a server that closes right after its last `data:`
 *   line still delivers it;
 * - `retry:` is recorded in {@link retryMs}; nothing reconnects here.
 */
export class SseReader {
  /** The last `id:` seen on an event, dispatched or not (empty-data events count). */
  lastEventId: string | undefined;
  /** The last valid `retry:` value, in ms. */
  retryMs: number | undefined;
  private readonly maxEventChars: number;
  private readonly onComment: ((comment: string) => void) | undefined;

  constructor(options: SseReaderOptions = {}) {
    this.maxEventChars = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
    this.onComment = options.onComment;
  }

  /**
   * Yields the events of `body` in order until it ends. Breaking out of the loop cancels the
   * body. Rejects with whatever reading the body rejects with (a network error, the abort
   * reason), or with `ProtocolError` (code -32700) when an event exceeds `maxEventChars`.
   */
  async *read(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
    yield* this.readChunks(streamChunks(body));
  }

  /**
   * {@link read} over any async iterable of UTF-8 byte chunks (a Node `IncomingMessage`, a
   * generator). Leaving the loop early returns the iterator, which drops the rest of the body.
   */
  async *readChunks(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
    const queue: SseEvent[] = [];
    let overflow: ParseError | undefined;
    const parser = createParser({
      onEvent: (event: EventSourceMessage) => {
        if (event.id !== undefined) this.lastEventId = event.id;
        if (event.data === '') return;
        queue.push({ type: event.event ?? 'message', data: event.data, id: event.id });
      },
      onRetry: (ms) => {
        this.retryMs = ms;
      },
      onComment: this.onComment,
      onError: (error) => {
        // Unknown fields and bad `retry:` values are ignored, as the SSE spec says.
        if (error.type === 'max-buffer-size-exceeded') overflow = error;
      },
      maxBufferSize: this.maxEventChars,
    });
    const decoder = new TextDecoder('utf-8');
    const lines = new LineEnds();
    const check = (): void => {
      if (overflow !== undefined) {
        throw new ProtocolError(
          `SSE event longer than ${this.maxEventChars} characters`,
          { value: overflow.message },
          ErrorCode.ParseError,
        );
      }
    };
    for await (const chunk of chunks) {
      parser.feed(lines.normalize(decoder.decode(chunk, { stream: true })));
      check();
      while (queue.length > 0) yield queue.shift()!;
    }
    // Complete a last line and a last event that the stream did not terminate.
    parser.feed(`${lines.normalize(decoder.decode())}\n\n`);
    check();
    while (queue.length > 0) yield queue.shift()!;
  }
}

/**
 * Turns every line end (CRLF, CR or LF: SSE treats them alike) into LF, across chunk
 * boundaries. A CR is a line end as soon as it arrives: the parser never waits for a LF that
 * might follow it, so an event ending in CR CR at the end of a chunk is dispatched at once
 * (on a quiet stream no more bytes may come for a long time).
 */
class LineEnds {
  /** The previous text ended in CR: a LF starting the next one belongs to that line end. */
  private afterCr = false;

  normalize(text: string): string {
    if (text.length === 0) return text;
    const rest = this.afterCr && text.startsWith('\n') ? text.slice(1) : text;
    this.afterCr = text.endsWith('\r');
    return rest.includes('\r') ? rest.replace(/\r\n?/g, '\n') : rest;
  }
}

/** The chunks of a Web stream; returning early cancels it. */
async function* streamChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
