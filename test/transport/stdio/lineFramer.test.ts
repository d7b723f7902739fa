import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors/errors.js';
import { McpError } from '../../../src/errors/errors.js';
import {
  EXCERPT_CHARS,
  LineFramer,
  serializeMessage,
  type FramingProblem,
} from '../../../src/transport/stdio/lineFramer.js';
import type { JsonRpcMessage } from '../../../src/wire/messages.js';

function collect(options?: { maxLineBytes?: number }) {
  const values: unknown[] = [];
  const problems: FramingProblem[] = [];
  const framer = new LineFramer({ onValue: (v) => values.push(v), onProblem: (p) => problems.push(p) }, options);
  return { framer, values, problems };
}

const enc = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Feeds `bytes` split at the given offsets and returns what came out. */
function feedSplit(bytes: Buffer, offsets: number[], options?: { maxLineBytes?: number }) {
  const c = collect(options);
  let prev = 0;
  for (const off of offsets) {
    c.framer.push(bytes.subarray(prev, off));
    prev = off;
  }
  c.framer.push(bytes.subarray(prev));
  c.framer.end();
  return { values: c.values, problems: c.problems };
}

/** Small deterministic PRNG so random splits are reproducible. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// A stream with everything awkward in it: a 4-byte emoji, 2- and 3-byte characters, CRLF,
// blank lines, lone "\r" lines, a whitespace-only line, a non-JSON line, non-object JSON.
const MIXED = [
  '{"jsonrpc":"2.0","id":1,"result":{"text":"rocket \u{1F680} caf\u00e9 \u20ac"}}\r\n',
  '\n',
  '\r\n',
  '\r\n',
  '{"jsonrpc":"2.0","method":"notifications/progress","params":{"p":"\u{1F600}\u{1F600}"}}\n',
  '   \n',
  'not json \u{1F680} at all\r\n',
  '42\n',
  '{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"nope \u00fc"}}\r\n',
  '\r\n',
].join('');
const MIXED_VALUES: unknown[] = [
  { jsonrpc: '2.0', id: 1, result: { text: 'rocket \u{1F680} caf\u00e9 \u20ac' } },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { p: '\u{1F600}\u{1F600}' } },
  42,
  { jsonrpc: '2.0', id: 'x', error: { code: -32601, message: 'nope \u00fc' } },
];

describe('LineFramer', () => {
  it('parses one complete line per chunk (fast path) and holds nothing back', () => {
    const { framer, values, problems } = collect();
    framer.push(enc('{"jsonrpc":"2.0","id":1,"result":{}}\n'));
    framer.push(enc('{"jsonrpc":"2.0","id":2,"result":{}}\n'));
    expect(values).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(problems).toEqual([]);
    expect(framer.bufferedBytes).toBe(0);
  });

  it('B18: CR of a CRLF at the end of one chunk, LF + lone CR line + next message in the next', () => {
    const { framer, values, problems } = collect();
    framer.push(enc('{"jsonrpc":"2.0","id":1,"result":{}}\r'));
    expect(values).toEqual([]);
    framer.push(enc('\n\r\n{"jsonrpc":"2.0","id":2,"result":{}}\r\n'));
    expect(values).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(problems).toEqual([]);
    expect(framer.bufferedBytes).toBe(0);
  });

  it('strips one trailing CR (CRLF) and skips blank, lone-CR and whitespace-only lines silently', () => {
    const { framer, values, problems } = collect();
    framer.push(enc('\n\r\n\r\n{"a":1}\r\n  \t \n\r\n{"b":"x\\r"}\n\n'));
    expect(values).toEqual([{ a: 1 }, { b: 'x\r' }]);
    expect(problems).toEqual([]);
  });

  it('hands up JSON that is not an object (numbers, strings, null, arrays): the session decides', () => {
    const { framer, values, problems } = collect();
    framer.push(enc('42\n"str"\nnull\n[1,2]\ntrue\n'));
    expect(values).toEqual([42, 'str', null, [1, 2], true]);
    expect(problems).toEqual([]);
  });

  it('reports non-JSON lines with an excerpt (cut to ~200 chars) and keeps going', () => {
    const { framer, values, problems } = collect();
    const long = `ERROR ${'y'.repeat(500)}`;
    framer.push(enc(`hello\n{"ok":1}\n${long}\n{"ok":2}\n{"truncated":\n`));
    expect(values).toEqual([{ ok: 1 }, { ok: 2 }]);
    expect(problems.map((p) => p.kind)).toEqual(['invalid-json', 'invalid-json', 'invalid-json']);
    expect(problems[0]).toMatchObject({ kind: 'invalid-json', excerpt: 'hello', byteLength: 5 });
    const p1 = problems[1]!;
    expect(p1.excerpt.length).toBe(EXCERPT_CHARS + 1);
    expect(p1.excerpt.endsWith('…')).toBe(true);
    expect(p1.excerpt.startsWith('ERROR yyy')).toBe(true);
    expect(p1.byteLength).toBe(long.length);
    expect(p1.kind === 'invalid-json' && p1.detail.length > 0).toBe(true);
    expect(problems[2]!.excerpt).toBe('{"truncated":');
  });

  it('B17 (framer level): log lines are problems, a JSON log object is handed up as a value', () => {
    const { framer, values, problems } = collect();
    framer.push(
      enc(
        'Server v1.2 starting...\n' +
          '{"jsonrpc":"2.0","id":"s1","method":"ping"}\n' +
          '[INFO] ready\n' +
          '{"level":"info","msg":"listening"}\n' +
          '\u{1F680} up\n' +
          '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n' +
          '{"jsonrpc":"2.0","id":7,"result":{}}\n',
      ),
    );
    expect(values).toEqual([
      { jsonrpc: '2.0', id: 's1', method: 'ping' },
      { level: 'info', msg: 'listening' },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', id: 7, result: {} },
    ]);
    expect(problems.map((p) => p.excerpt)).toEqual(['Server v1.2 starting...', '[INFO] ready', '\u{1F680} up']);
  });

  it('gives the same result for a split at every possible byte offset (inside emoji, inside CRLF)', () => {
    const bytes = enc(MIXED);
    const whole = feedSplit(bytes, []);
    expect(whole.values).toEqual(MIXED_VALUES);
    expect(whole.problems.map((p) => p.excerpt)).toEqual(['not json \u{1F680} at all']);
    // Make sure the interesting offsets are really covered.
    const emoji = bytes.indexOf(Buffer.from('\u{1F680}'));
    expect(emoji).toBeGreaterThan(0);
    for (let off = 0; off <= bytes.length; off++) {
      const got = feedSplit(bytes, [off]);
      expect(got.values, `split at ${off}`).toEqual(whole.values);
      expect(got.problems, `split at ${off}`).toEqual(whole.problems);
    }
  });

  it('gives the same result for every pair of split offsets and for one-byte chunks', () => {
    const bytes = enc(MIXED);
    const whole = feedSplit(bytes, []);
    for (let a = 1; a < bytes.length; a += 1) {
      for (let b = a; b < bytes.length; b += 3) {
        const got = feedSplit(bytes, [a, b]);
        expect(got.values).toEqual(whole.values);
        expect(got.problems).toEqual(whole.problems);
      }
    }
    const ones = feedSplit(
      bytes,
      Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
    );
    expect(ones).toEqual(whole);
  });

  it('gives the same result for random multi-way splits of a long stream', () => {
    const bytes = enc(MIXED.repeat(50));
    const whole = feedSplit(bytes, []);
    expect(whole.values.length).toBe(MIXED_VALUES.length * 50);
    const rand = prng(1234);
    for (let round = 0; round < 200; round++) {
      const offsets: number[] = [];
      let at = 0;
      while (true) {
        at += 1 + Math.floor(rand() * 40);
        if (at >= bytes.length) break;
        offsets.push(at);
      }
      expect(feedSplit(bytes, offsets)).toEqual(whole);
    }
  });

  it('decodes multi-byte characters split across chunks (never U+FFFD)', () => {
    const { framer, values } = collect();
    const bytes = enc('{"s":"\u{1F680}\u{1F680}"}\n');
    const at = bytes.indexOf(0xf0) + 2; // inside the first 4-byte sequence
    framer.push(bytes.subarray(0, at));
    framer.push(bytes.subarray(at, at + 3)); // ends inside the second emoji
    framer.push(bytes.subarray(at + 3));
    expect(values).toEqual([{ s: '\u{1F680}\u{1F680}' }]);
    expect(JSON.stringify(values)).not.toContain('\ufffd');
  });

  it('accepts plain Uint8Array chunks (not only Buffers)', () => {
    const { framer, values } = collect();
    const bytes = new TextEncoder().encode('{"a":"\u00e9"}\r\n{"b":2}');
    framer.push(bytes.subarray(0, 7));
    framer.push(bytes.subarray(7));
    framer.end();
    expect(values).toEqual([{ a: '\u00e9' }, { b: 2 }]);
  });

  it('parses a 20 MB line fed in 64 KiB chunks', () => {
    const text = 'z'.repeat(20 * 1024 * 1024);
    const bytes = enc(`{"jsonrpc":"2.0","id":1,"result":{"text":"${text}"}}\n{"jsonrpc":"2.0","method":"after"}\n`);
    const { framer, values, problems } = collect();
    for (let off = 0; off < bytes.length; off += 65536) {
      framer.push(bytes.subarray(off, Math.min(off + 65536, bytes.length)));
    }
    expect(problems).toEqual([]);
    expect(values.length).toBe(2);
    expect((values[0] as { result: { text: string } }).result.text.length).toBe(text.length);
    expect(values[1]).toEqual({ jsonrpc: '2.0', method: 'after' });
  });

  it('keeps a long line fed in many small chunks whole (8192 chunks of 1 KiB)', () => {
    const text = 'q'.repeat(8 * 1024 * 1024);
    const bytes = enc(`"${text}"\n`);
    const { framer, values } = collect();
    for (let off = 0; off < bytes.length; off += 1024) {
      framer.push(bytes.subarray(off, Math.min(off + 1024, bytes.length)));
      // Nothing is parsed or copied into a string before the newline arrives.
      if (off + 1024 < bytes.length) expect(values).toHaveLength(0);
    }
    expect((values[0] as string).length).toBe(text.length);
  });

  it('drops and reports a line longer than maxLineBytes, then resyncs at the next newline', () => {
    const line = `{"big":"${'b'.repeat(300)}"}`;
    const input = enc(`{"a":1}\n${line}\n{"a":2}\n`);
    for (const chunkSize of [input.length, 64, 7, 1]) {
      const { framer, values, problems } = collect({ maxLineBytes: 100 });
      for (let off = 0; off < input.length; off += chunkSize) {
        framer.push(input.subarray(off, off + chunkSize));
      }
      framer.end();
      expect(values, `chunk ${chunkSize}`).toEqual([{ a: 1 }, { a: 2 }]);
      expect(problems.length, `chunk ${chunkSize}`).toBe(1);
      const p = problems[0]!;
      expect(p.kind).toBe('line-too-long');
      expect(p.byteLength).toBeGreaterThan(100);
      expect(p.excerpt.startsWith('{"big":"bbb')).toBe(true);
      expect(p.kind === 'line-too-long' && p.maxLineBytes).toBe(100);
    }
  });

  it('accepts a line of exactly maxLineBytes bytes', () => {
    const { framer, values, problems } = collect({ maxLineBytes: 10 });
    framer.push(enc('"12345678"\n')); // 10 bytes + LF
    framer.push(enc('"1234'));
    framer.push(enc('5678"\n'));
    expect(values).toEqual(['12345678', '12345678']);
    expect(problems).toEqual([]);
  });

  it('end(): parses a final line without newline, reports a truncated one, forgets a dropped one', () => {
    const a = collect();
    a.framer.push(enc('{"a":1}\n{"last":tr'));
    a.framer.push(enc('ue}'));
    a.framer.end();
    expect(a.values).toEqual([{ a: 1 }, { last: true }]);

    const b = collect();
    b.framer.push(enc('{"cut":'));
    b.framer.end();
    expect(b.problems.map((p) => p.kind)).toEqual(['invalid-json']);

    const c = collect({ maxLineBytes: 4 });
    c.framer.push(enc('123456789'));
    c.framer.end();
    c.framer.push(enc('1\n'));
    expect(c.problems.map((p) => p.kind)).toEqual(['line-too-long']);
    expect(c.values).toEqual([1]);
  });

  it('ignores a UTF-8 byte order mark and replaces invalid UTF-8 instead of throwing', () => {
    const { framer, values, problems } = collect();
    framer.push(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), enc('{"bom":1}\n')]));
    framer.push(Buffer.concat([enc('{"bad":"'), Buffer.from([0xff, 0xfe]), enc('"}\n')]));
    expect(values).toEqual([{ bom: 1 }, { bad: '\ufffd\ufffd' }]);
    expect(problems).toEqual([]);
  });

  it('rejects an invalid maxLineBytes with InvalidArgumentError', () => {
    const sink = { onValue: () => {}, onProblem: () => {} };
    expect(() => new LineFramer(sink, { maxLineBytes: 0 })).toThrow(InvalidArgumentError);
    expect(() => new LineFramer(sink, { maxLineBytes: 1.5 })).toThrow(InvalidArgumentError);
  });
});

describe('serializeMessage', () => {
  it('writes one line ending in "\\n", with newlines inside strings escaped', () => {
    const line = serializeMessage({ jsonrpc: '2.0', id: 1, method: 'x', params: { s: 'a\nb\r\u2028\u{1F680}' } });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(line.includes('\r')).toBe(false);
    expect(JSON.parse(line)).toEqual({ jsonrpc: '2.0', id: 1, method: 'x', params: { s: 'a\nb\r\u2028\u{1F680}' } });
  });

  it('round-trips through the framer', () => {
    const msgs: JsonRpcMessage[] = [
      { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'no' } },
    ];
    const { framer, values } = collect();
    framer.push(enc(msgs.map(serializeMessage).join('')));
    expect(values).toEqual(msgs);
  });

  it('throws InvalidArgumentError (code -32602) for values JSON cannot carry', () => {
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'x' };
    cyclic['params'] = cyclic;
    for (const bad of [cyclic, { jsonrpc: '2.0', method: 'x', params: { n: 1n } }, null, 7]) {
      let caught: unknown;
      try {
        serializeMessage(bad as unknown as JsonRpcMessage);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidArgumentError);
      expect(McpError.is(caught) && caught.code).toBe(-32602);
    }
  });
});
