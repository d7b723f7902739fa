/**
 * Newline-delimited JSON framing, as the MCP stdio transport uses it: every message is one
 * line of UTF-8 JSON ending in `\n`, and a message never contains an embedded newline.
 *
 * This module is pure (no I/O, no timers). {@link LineFramer} turns byte chunks split at
 * arbitrary offsets into parsed values; {@link serializeMessage} turns a message into a line.
 */

import { ErrorCode } from '../../errors/codes.js';
import { InvalidArgumentError, ProtocolError } from '../../errors/errors.js';
import type { JsonRpcMessage } from '../../wire/messages.js';
import { requestJson } from '../../wire/requestMeta.js';
import { headOf } from '../../util/text.js';

/** Default {@link LineFramerOptions.maxLineBytes}: 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Longest excerpt, in characters, that a {@link FramingProblem} carries. */
export const EXCERPT_CHARS = 200;

const LF = 0x0a;
const CR = 0x0d;

/**
 * A line the framer could not hand up. Never fatal: the framer carries on with the next line.
 *
 * - `invalid-json`: the line is not JSON (a log line on stdout, a truncated write...).
 *   `detail` is the `JSON.parse` error message.
 * - `line-too-long`: the line grew past `maxLineBytes`; its bytes are dropped up to and
 *   including the next `\n`, where framing resumes. Reported once per line, as soon as the
 *   limit is crossed, so `byteLength` is the number of bytes seen so far (> `maxLineBytes`).
 *
 * `excerpt` is the start of the line, decoded as UTF-8 and cut to about 200 characters
 * (with a trailing `…` when cut). `byteLength` counts bytes before the `\n`, in bytes.
 */
export type FramingProblem =
  | { kind: 'invalid-json'; excerpt: string; byteLength: number; detail: string }
  | { kind: 'line-too-long'; excerpt: string; byteLength: number; maxLineBytes: number };

/** Where a {@link LineFramer} delivers its output. Called synchronously from `push`/`end`. */
export interface LineFramerSink {
  /**
   * A line that parsed as JSON. It may be any JSON value (object, array, number...): the
   * framer does not check that it is JSON-RPC.
   */
  onValue(value: unknown): void;
  /** A line that was dropped; see {@link FramingProblem}. */
  onProblem(problem: FramingProblem): void;
}

/** Options for {@link LineFramer}. */
export interface LineFramerOptions {
  /**
   * Longest accepted line in bytes, not counting the `\n` (a trailing `\r` counts).
   * Longer lines are dropped and reported as `line-too-long`. Default 64 MiB
   * ({@link DEFAULT_MAX_LINE_BYTES}). Must be a positive integer.
   */
  maxLineBytes?: number | undefined;
}

type Decode = (bytes: Uint8Array, start: number, end: number) => string;

// Buffer#toString is about twice as fast as TextDecoder for short lines in Node; fall back to
// TextDecoder elsewhere. Both replace invalid UTF-8 with U+FFFD.
const makeDecoder = (): Decode => {
  const B = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (B !== undefined) {
    return (bytes, start, end) =>
      (B.isBuffer(bytes) ? bytes : B.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString(
        'utf8',
        start,
        end,
      );
  }
  const decoder = new TextDecoder('utf-8');
  return (bytes, start, end) => decoder.decode(bytes.subarray(start, end));
};
const decode: Decode = makeDecoder();

function excerptOf(text: string): string {
  return text.length > EXCERPT_CHARS ? `${headOf(text, EXCERPT_CHARS)}…` : text;
}

/**
 * Splits a byte stream into lines and parses each as JSON.
 *
 * - Chunks may be split anywhere, including inside a multi-byte UTF-8 character or between
 *   `\r` and `\n`: bytes are decoded only once a whole line is known.
 * - Work is linear in the input: each byte is scanned for `\n` once, and a line that spans
 *   several chunks is joined with a single copy when its `\n` arrives.
 * - One trailing `\r` is stripped (CRLF). Empty lines, lone `\r` lines and whitespace-only
 *   lines are skipped silently. A UTF-8 byte order mark at the start of a line is ignored.
 * - The framer keeps references to the tail of the last pushed chunk until its line ends, so
 *   callers must not reuse or mutate a chunk after pushing it (Node stream chunks are fresh).
 *
 * Exceptions thrown by the sink propagate out of `push`/`end`; the lines after the throwing
 * one in the same chunk are then lost. Sinks should not throw.
 */
export class LineFramer {
  private readonly sink: LineFramerSink;
  private readonly maxLineBytes: number;
  /** Bytes of the current, unfinished line. None of them contains `\n`. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** True while dropping the rest of an over-long line. */
  private discarding = false;

  /**
   * @throws InvalidArgumentError (code -32602) when `maxLineBytes` is not a positive integer.
   */
  constructor(sink: LineFramerSink, options: LineFramerOptions = {}) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isInteger(max) || max <= 0) {
      throw new InvalidArgumentError('maxLineBytes', max, 'must be a positive integer');
    }
    this.sink = sink;
    this.maxLineBytes = max;
  }

  /** Bytes held for an unfinished line (0 between lines, and while discarding). */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /** Feeds the next chunk of the stream. Empty chunks are fine. */
  push(chunk: Uint8Array): void {
    const length = chunk.length;
    let start = 0;

    // An unfinished line or a discarded one: the first `\n` of this chunk ends it.
    if (this.pendingBytes > 0 || this.discarding) {
      const nl = chunk.indexOf(LF);
      if (nl === -1) {
        this.appendPartial(chunk);
        return;
      }
      if (this.discarding) {
        this.discarding = false;
      } else {
        const total = this.pendingBytes + nl;
        if (total > this.maxLineBytes) {
          this.reportTooLong(total, chunk.subarray(0, nl));
        } else {
          this.pending.push(chunk.subarray(0, nl));
          const joined = concat(this.pending, total);
          this.clearPending();
          this.handleLine(joined, 0, total);
        }
      }
      start = nl + 1;
    }

    // Fast path: lines wholly inside this chunk are decoded straight from it, no copies.
    while (start < length) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) {
        this.appendPartial(start === 0 ? chunk : chunk.subarray(start));
        return;
      }
      if (nl - start > this.maxLineBytes) {
        this.reportTooLong(nl - start, chunk.subarray(start, nl));
      } else {
        this.handleLine(chunk, start, nl);
      }
      start = nl + 1;
    }
  }

  /**
   * Signals the end of the stream. A final line without `\n` is parsed as if it had one (a
   * truncated write is then reported as `invalid-json`). The framer is reusable afterwards.
   */
  end(): void {
    if (this.discarding) {
      this.discarding = false;
      this.clearPending();
      return;
    }
    if (this.pendingBytes === 0) {
      return;
    }
    const total = this.pendingBytes;
    const joined = concat(this.pending, total);
    this.clearPending();
    this.handleLine(joined, 0, total);
  }

  private appendPartial(part: Uint8Array): void {
    if (part.length === 0) {
      return;
    }
    if (this.discarding) {
      return;
    }
    const total = this.pendingBytes + part.length;
    this.pending.push(part);
    if (total > this.maxLineBytes) {
      this.discarding = true;
      this.reportTooLong(total, undefined);
      return;
    }
    this.pendingBytes = total;
  }

  private clearPending(): void {
    if (this.pending.length > 0) {
      this.pending = [];
    }
    this.pendingBytes = 0;
  }

  /**
   * `pending` (plus `tail`, when given) holds the start of the over-long line. Clears `pending`
   * before calling the sink, so a throwing sink leaves the framer consistent.
   */
  private reportTooLong(byteLength: number, tail: Uint8Array | undefined): void {
    const parts = tail === undefined ? this.pending : [...this.pending, tail];
    // Enough bytes for EXCERPT_CHARS characters of up to 4 bytes each.
    const head = headBytes(parts, EXCERPT_CHARS * 4);
    this.clearPending();
    this.sink.onProblem({
      kind: 'line-too-long',
      excerpt: excerptOf(decode(head, 0, head.length)),
      byteLength,
      maxLineBytes: this.maxLineBytes,
    });
  }

  private handleLine(bytes: Uint8Array, start: number, end: number): void {
    if (end > start && bytes[end - 1] === CR) {
      end -= 1;
    }
    if (end === start) {
      return;
    }
    let text = decode(bytes, start, end);
    if (text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (text.trim() === '') {
        return;
      }
      this.sink.onProblem({
        kind: 'invalid-json',
        excerpt: excerptOf(text),
        byteLength: end - start,
        detail: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    this.sink.onValue(value);
  }
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) {
    const only = parts[0]!;
    if (only.length === total) {
      return only;
    }
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function headBytes(parts: readonly Uint8Array[], max: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (const part of parts) {
    if (total >= max) {
      break;
    }
    const take = part.length <= max - total ? part : part.subarray(0, max - total);
    chunks.push(take);
    total += take.length;
  }
  return concat(chunks, total);
}

/**
 * Encodes one message as a line for a newline-delimited JSON stream: `JSON.stringify(message)`
 * (made faster by {@link requestJson} for a request whose `_meta` is a `RequestMeta`)
 * followed by `"\n"`. The result never contains another newline (JSON escapes them inside
 * strings), so it is always exactly one frame.
 *
 * @throws InvalidArgumentError (code -32602, `data.name` = `"message"`) when the value cannot be
 *   serialized as a JSON object: a cycle, a BigInt, or a value that is not an object.
 */
export function serializeMessage(message: JsonRpcMessage): string {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new InvalidArgumentError('message', message, 'a JSON-RPC message must be an object');
  }
  let json: string;
  try {
    json = requestJson(message) ?? JSON.stringify(message);
  } catch (error) {
    throw new InvalidArgumentError(
      'message',
      message,
      `not serializable as JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return `${json}\n`;
}

/** A {@link FramingProblem} as the error a transport reports: `ProtocolError` with code -32700 and the problem as `data.value`. */
export function framingError(problem: FramingProblem): ProtocolError {
  const reason =
    problem.kind === 'invalid-json'
      ? `stdout line is not JSON (${problem.detail}): ${problem.excerpt}`
      : `stdout line longer than ${problem.maxLineBytes} bytes dropped: ${problem.excerpt}`;
  return new ProtocolError(reason, { value: problem }, ErrorCode.ParseError);
}
