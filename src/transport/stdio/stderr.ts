/**
 * The server's stderr, as the stdio transport drains it: always read to the end (a chatty
 * server never blocks on a full pipe), its last bytes kept for the close report, and each chunk
 * copied on to the host's stderr or a callback when asked. Node only.
 */
import type { Readable } from 'node:stream';
import { shorten } from '../../util/text.js';

/** Bytes of stderr kept for `TransportCloseInfo.stderrTail`. */
export const STDERR_TAIL_BYTES = 4096;

/** Longest {@link stderrHeadline}, in characters. */
const HEADLINE_MAX = 200;

/**
 * The line of a stderr tail that names the cause, for a message: the first line that starts
 * like an error report (`Error: Cannot find module …`, `TypeError [ERR_…]: …`,
 * `ModuleNotFoundError: No module named …`), else the first line that says `error`, `fatal` or
 * `panic` (`npm error 404 …`, `fatal: boom`), else the last line. Trimmed, at most 200
 * characters; `undefined` for a tail with no text. Pure.
 */
export function stderrHeadline(tail: string): string | undefined {
  const lines = tail
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const line =
    lines.find((text) => /^[\w$.]*(?:Error|Exception)(?:\s*\[[\w-]+\])?:/.test(text)) ??
    lines.find((text) => /\b(?:error|fatal|panic)\b/i.test(text)) ??
    lines.at(-1);
  if (line === undefined) return undefined;
  return shorten(line, HEADLINE_MAX);
}

/** Where stderr goes besides the kept tail: nowhere, the host's `process.stderr`, or a callback. */
export type StderrForward = 'pipe' | 'inherit' | ((chunk: string) => void);

/** One server's stderr: the tail kept, and the forwarding. */
export class ServerStderr {
  private chunks: Buffer[] = [];
  private bytes = 0;

  /**
   * @param forward where each chunk also goes (see {@link StderrForward})
   * @param onForwardError told when the callback throws (the chunk is dropped, reading goes on)
   */
  constructor(
    private readonly forward: StderrForward,
    private readonly onForwardError: (error: Error) => void,
  ) {}

  /** Reads `stream` to its end: keeps its tail, forwards it, decodes UTF-8 for a callback without splitting characters. */
  drain(stream: Readable): void {
    const forward = this.forward;
    const decoder = typeof forward === 'function' ? new TextDecoder('utf-8') : undefined;
    stream.on('data', (chunk: Buffer) => {
      this.keep(chunk);
      if (forward === 'inherit') {
        process.stderr.write(chunk);
      } else if (typeof forward === 'function' && decoder !== undefined) {
        const text = decoder.decode(chunk, { stream: true });
        if (text.length > 0) this.call(forward, text);
      }
    });
    stream.on('end', () => {
      if (typeof forward === 'function' && decoder !== undefined) {
        const rest = decoder.decode();
        if (rest.length > 0) this.call(forward, rest);
      }
    });
  }

  /** Forgets the kept tail: a new process starts (the tail of each close is that process's own). */
  clear(): void {
    this.chunks = [];
    this.bytes = 0;
  }

  /** The last bytes (at most {@link STDERR_TAIL_BYTES}) read so far, decoded as UTF-8. */
  get tail(): string {
    return decodeTail(this.buffer());
  }

  private call(forward: (chunk: string) => void, text: string): void {
    try {
      forward(text);
    } catch (error) {
      this.onForwardError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private keep(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes > STDERR_TAIL_BYTES * 2) {
      const tail = this.buffer();
      this.chunks = [tail];
      this.bytes = tail.length;
    }
  }

  private buffer(): Buffer {
    if (this.chunks.length === 0) return Buffer.alloc(0);
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    return all.length > STDERR_TAIL_BYTES ? all.subarray(all.length - STDERR_TAIL_BYTES) : all;
  }
}

/** Decodes a byte tail that may start inside a UTF-8 character. */
function decodeTail(bytes: Buffer): string {
  let start = 0;
  while (start < bytes.length && start < 3 && (bytes[start]! & 0xc0) === 0x80) {
    start += 1;
  }
  return bytes.toString('utf8', start);
}
