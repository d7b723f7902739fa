/** SseReader: SSE framing over a byte stream split at arbitrary points. */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src/errors/codes.js';
import { ProtocolError } from '../../../src/errors/errors.js';
import { SseReader, type SseEvent } from '../../../src/transport/http/sseReader.js';

/** A body that yields `chunks` (strings or bytes) one by one. */
function body(chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) {
        const chunk = chunks[i++]!;
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      } else {
        controller.close();
      }
    },
  });
}

async function readAll(reader: SseReader, chunks: Array<string | Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of reader.read(body(chunks))) events.push(event);
  return events;
}

/** Every way to split `text` in two, plus one chunk per character. */
function splits(text: string): Array<Array<string | Uint8Array>> {
  const bytes = new TextEncoder().encode(text);
  const out: Array<Array<string | Uint8Array>> = [[text], Array.from(bytes, (b) => new Uint8Array([b]))];
  for (let i = 1; i < bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
  return out;
}

const B23_BODY =
  'data: {"jsonrpc":"2.0","id":2,\n' +
  'data: "result":{"resultType":"complete","content":[{"type":"text","text":"ok"}]}}\n' +
  '\n';
const B23_DATA =
  '{"jsonrpc":"2.0","id":2,\n"result":{"resultType":"complete","content":[{"type":"text","text":"ok"}]}}';

describe('SseReader', () => {
  it('B23: joins the data lines of one event with \\n, whatever the chunking', async () => {
    for (const chunks of splits(B23_BODY)) {
      const events = await readAll(new SseReader(), chunks);
      expect(events).toEqual([{ type: 'message', data: B23_DATA, id: undefined }]);
      expect(JSON.parse(events[0]!.data)).toEqual({
        jsonrpc: '2.0',
        id: 2,
        result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] },
      });
    }
  });

  it('B23: `data:` without a space, and only one leading space removed', async () => {
    const events = await readAll(new SseReader(), ['data:{"a":1}\n\n', 'data:  two spaces\n\n']);
    expect(events.map((e) => e.data)).toEqual(['{"a":1}', ' two spaces']);
  });

  it('B23: an event the stream ends without a blank line for is still dispatched', async () => {
    expect(await readAll(new SseReader(), ['data: {"x":1}\n'])).toEqual([
      { type: 'message', data: '{"x":1}', id: undefined },
    ]);
    expect(await readAll(new SseReader(), ['data: {"x":1}'])).toEqual([
      { type: 'message', data: '{"x":1}', id: undefined },
    ]);
    expect(await readAll(new SseReader(), ['data: {"x":1}\r'])).toEqual([
      { type: 'message', data: '{"x":1}', id: undefined },
    ]);
    expect(await readAll(new SseReader(), ['data: a\ndata: b'])).toEqual([
      { type: 'message', data: 'a\nb', id: undefined },
    ]);
  });

  it('splits lines on CR, LF and CRLF, even when CRLF is cut between chunks', async () => {
    const text = 'data: one\r\n\r\ndata: two\r\rdata: three\n\ndata: four\r\n\r\n';
    for (const chunks of splits(text)) {
      expect((await readAll(new SseReader(), chunks)).map((e) => e.data)).toEqual(['one', 'two', 'three', 'four']);
    }
  });

  it('an event ending in CR CR at the end of a chunk is dispatched at once, on a stream that then stays quiet', async () => {
    for (const ending of ['\r\r', '\n\r', '\r\n\r']) {
      let release!: () => void;
      const quiet = new Promise<void>((resolve) => (release = resolve));
      async function* chunks(): AsyncGenerator<Uint8Array> {
        yield new TextEncoder().encode(`event: message\ndata: {"list":"changed"}${ending}`);
        await quiet; // no more bytes for now: a quiet listen stream
        yield new TextEncoder().encode('\ndata: next\n\n');
      }
      const iterator = new SseReader().readChunks(chunks());
      const first = await Promise.race([
        iterator.next(),
        new Promise((resolve) => setTimeout(() => resolve('held back'), 200)),
      ]);
      expect(first, JSON.stringify(ending)).toEqual({
        done: false,
        value: { type: 'message', data: '{"list":"changed"}', id: undefined },
      });
      release();
      // The LF that follows a chunk-final CR belongs to that line end, not to a new blank line.
      expect((await iterator.next()).value).toEqual({ type: 'message', data: 'next', id: undefined });
      expect((await iterator.next()).done).toBe(true);
    }
  });

  it('B24: ignores comments, records the id of an empty-data event without dispatching it, keeps event types', async () => {
    const comments: string[] = [];
    const reader = new SseReader({ onComment: (c) => comments.push(c) });
    const events = await readAll(reader, [
      ': keepalive\n\n',
      'id: evt-0\ndata:\n\n',
      'event: ping\ndata: 2026-09-01 00:00:00\n\n',
      'event: keepalive\ndata: {}\n\n',
      'data: {"type":"heartbeat"}\n\n',
      'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}\n\n',
    ]);
    expect(comments).toEqual(['keepalive']);
    expect(reader.lastEventId).toBe('evt-0');
    expect(events).toEqual([
      { type: 'ping', data: '2026-09-01 00:00:00', id: undefined },
      { type: 'keepalive', data: '{}', id: undefined },
      { type: 'message', data: '{"type":"heartbeat"}', id: undefined },
      {
        type: 'message',
        data: '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}',
        id: undefined,
      },
    ]);
  });

  it('records retry: and skips a byte-order mark and unknown fields', async () => {
    const reader = new SseReader();
    const events = await readAll(reader, ['\uFEFFretry: 500\nfoo: bar\ndata: x\n\n']);
    expect(reader.retryMs).toBe(500);
    expect(events.map((e) => e.data)).toEqual(['x']);
  });

  it('decodes UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode('data: 世界\n\n');
    const events = await readAll(new SseReader(), [bytes.subarray(0, 8), bytes.subarray(8)]);
    expect(events.map((e) => e.data)).toEqual(['世界']);
  });

  it('stops with ProtocolError (-32700) on an event longer than maxEventChars', async () => {
    const reader = new SseReader({ maxEventChars: 64 });
    await expect(readAll(reader, [`data: ${'x'.repeat(100)}`, '\n\n'])).rejects.toSatisfy(
      (error: unknown) => error instanceof ProtocolError && error.code === ErrorCode.ParseError,
    );
  });

  it('cancels the body when the consumer stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of new SseReader().read(stream)) {
      expect(event.data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
