import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError, McpError, ProtocolError } from '../../../src/errors/errors.js';
import type { JsonRpcMessage } from '../../../src/wire/messages.js';
import { StdioTransport } from '../../../src/transport/stdio/stdio.js';
import { type StdioTransportOptions } from '../../../src/transport/stdio/stdioOptions.js';
import type { TransportCloseInfo, TransportHandlers } from '../../../src/transport/transport.js';

const CHILDREN = fileURLToPath(new URL('../../fakes/children/', import.meta.url));
const child = (name: string): string => join(CHILDREN, name);

interface Recorder {
  handlers: TransportHandlers;
  messages: unknown[];
  errors: Error[];
  closes: TransportCloseInfo[];
  closed: Promise<TransportCloseInfo>;
  /** Resolves with the first message (already received or future) matching `pred`. */
  next(pred: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

function recorder(): Recorder {
  const messages: unknown[] = [];
  const errors: Error[] = [];
  const closes: TransportCloseInfo[] = [];
  const waiters: Array<{
    pred: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }> = [];
  let onClosed!: (info: TransportCloseInfo) => void;
  const closed = new Promise<TransportCloseInfo>((r) => (onClosed = r));
  const handlers: TransportHandlers = {
    onMessage(m) {
      messages.push(m);
      for (const w of [...waiters]) {
        if (typeof m === 'object' && m !== null && w.pred(m as Record<string, unknown>)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m as Record<string, unknown>);
        }
      }
    },
    onError(e) {
      errors.push(e);
    },
    onClose(info) {
      closes.push(info);
      onClosed(info);
    },
  };
  return {
    handlers,
    messages,
    errors,
    closes,
    closed,
    next(pred, timeoutMs = 5000) {
      const found = messages.find((m) => typeof m === 'object' && m !== null && pred(m as Record<string, unknown>));
      if (found !== undefined) return Promise.resolve(found as Record<string, unknown>);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('timed out waiting for a message')), timeoutMs);
        waiters.push({
          pred,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
  };
}

const transports: StdioTransport[] = [];
function nodeChild(script: string, args: string[] = [], extra: Partial<StdioTransportOptions> = {}): StdioTransport {
  const t = new StdioTransport({
    command: process.execPath,
    args: [child(script), ...args],
    closeTimeoutMs: 200,
    ...extra,
  });
  transports.push(t);
  return t;
}

afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

const request = (id: number | string, method = 'echo', params: Record<string, unknown> = {}): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]);
}

/** True while `pid` is a live process (zombies count as gone: nobody may reap them here). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/**
 * The process is gone: `process.kill(pid, 0)` throws ESRCH, or it is a zombie. An orphaned
 * grandchild is reparented to PID 1, and when PID 1 does not reap (as in some containers) a
 * killed grandchild stays a zombie: dead, but `kill(pid, 0)` still succeeds.
 */
function expectGone(pid: number): void {
  let code: string | undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    code = (error as NodeJS.ErrnoException).code;
  }
  if (code === undefined) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    expect(stat.slice(stat.lastIndexOf(')') + 2)[0], `process ${pid} state`).toBe('Z');
  } else {
    expect(code).toBe('ESRCH');
  }
}

async function waitUntilGone(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !isAlive(pid);
}

describe('StdioTransport', () => {
  it('exchanges requests and responses with a real child; identity and capabilities are static', async () => {
    const t = nodeChild('echo.mjs');
    expect(t.capabilities.cancelsByAbortingSend).toBe(false);
    expect(t.serverIdentity).toBe(`stdio:${JSON.stringify([process.execPath, child('echo.mjs')])}`);
    const r = recorder();
    await t.start(r.handlers);
    expect(typeof t.pid).toBe('number');
    await t.send(request(1, 'echo', { hello: 'wörld \u{1F680}' }));
    expect(await r.next((m) => m['id'] === 1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { echo: { hello: 'wörld \u{1F680}' } },
    });
    await t.close();
    expect(r.closes).toHaveLength(1);
    expect(r.closes[0]).toMatchObject({
      reason: 'closed by client',
      initiatedByClient: true,
      exitCode: 0,
      signal: null,
    });
    expect(r.errors).toEqual([]);
  });

  it('serverIdentity includes cwd when given and never the env', () => {
    const t = new StdioTransport({ command: 'npx', args: ['-y', 'srv'], cwd: '/srv', env: { API_KEY: 'secret' } });
    expect(t.serverIdentity).toBe('stdio:["npx","-y","srv"] cwd="/srv"');
    expect(t.serverIdentity).not.toContain('secret');
  });

  it('B17: stdout noise goes to onError, JSON-RPC (and a JSON log object) to onMessage, transport stays open', async () => {
    const t = nodeChild('noisy.mjs');
    const r = recorder();
    await t.start(r.handlers);
    await r.next((m) => m['id'] === 7);
    expect(r.messages).toEqual([
      { jsonrpc: '2.0', id: 's1', method: 'ping' },
      { level: 'info', msg: 'listening' },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', id: 7, result: {} },
    ]);
    expect(r.errors).toHaveLength(3);
    for (const e of r.errors) {
      expect(e).toBeInstanceOf(ProtocolError);
      expect((e as ProtocolError).code).toBe(-32700);
    }
    const excerpts = r.errors.map((e) => ((e as ProtocolError).data as { value: { excerpt: string } }).value.excerpt);
    expect(excerpts).toEqual(['Server v1.2 starting...', '[INFO] ready', '\u{1F680} up']);
    // Still open: a request after the noise gets its answer.
    await t.send(request(8, 'tools/list'));
    expect(await r.next((m) => m['id'] === 8)).toEqual({ jsonrpc: '2.0', id: 8, result: { ok: true } });
    expect(r.closes).toEqual([]);
  });

  it('B18: CRLF split across pipe writes, a lone "\\r" line: two messages, no error', async () => {
    const t = nodeChild('split-crlf.mjs');
    const r = recorder();
    await t.start(r.handlers);
    await r.next((m) => m['id'] === 2);
    expect(r.messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(r.errors).toEqual([]);
  });

  it('B20: child reads a line, writes "fatal: boom" to stderr, exits 1 → onClose with code and stderr tail', async () => {
    const t = nodeChild('fatal.mjs');
    const r = recorder();
    await t.start(r.handlers);
    const sent = Date.now();
    await t.send(request(1, 'initialize'));
    const info = await within(r.closed, 1000, 'onClose');
    expect(Date.now() - sent).toBeLessThan(1000);
    expect(info).toMatchObject({
      initiatedByClient: false,
      exitCode: 1,
      signal: null,
      reason: 'process exited with code 1: fatal: boom',
    });
    expect(info.stderrTail).toContain('fatal: boom');
    // Closed for good: sends fail at once, close() resolves at once, onClose was called once.
    await expect(t.send(request(2))).rejects.toBeInstanceOf(ConnectionClosedError);
    await t.close();
    expect(r.closes).toHaveLength(1);
  });

  it('B20: child killed with SIGKILL → onClose with signal SIGKILL', async () => {
    const t = nodeChild('echo.mjs');
    const r = recorder();
    await t.start(r.handlers);
    process.kill(t.pid!, 'SIGKILL');
    const info = await within(r.closed, 1000, 'onClose');
    expect(info).toMatchObject({
      initiatedByClient: false,
      exitCode: null,
      signal: 'SIGKILL',
      reason: 'process killed by signal SIGKILL',
    });
  });

  it('B20: a command that does not exist → start() rejects quickly with ConnectionClosedError (ENOENT), no onClose', async () => {
    const t = new StdioTransport({ command: 'mcp-live-no-such-command-xyz', args: ['--stdio'] });
    transports.push(t);
    const r = recorder();
    const started = Date.now();
    const error = await t.start(r.handlers).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    const e = error as ConnectionClosedError;
    expect(e.code).toBe(-32000);
    expect(e.message).toContain('ENOENT');
    expect((e.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect((e.data as { reason: string }).reason).toContain('mcp-live-no-such-command-xyz');
    expect(e.data).toMatchObject({ connectFailure: 'spawn', errorCode: 'ENOENT' });
    await t.close();
    await expect(t.send(request(1))).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(r.closes).toEqual([]);
  });

  it('B20: a missing cwd is reported like a missing command, naming the cwd', async () => {
    const t = new StdioTransport({ command: process.execPath, cwd: '/no/such/dir/mcp-live' });
    transports.push(t);
    await expect(t.start(recorder().handlers)).rejects.toThrow(/no\/such\/dir/);
  });

  it('B20: a child that exits 0 at once → start resolves, onClose with exit code 0', async () => {
    const t = nodeChild('exit0.mjs');
    const r = recorder();
    await t.start(r.handlers);
    const info = await within(r.closed, 2000, 'onClose');
    expect(info).toMatchObject({
      initiatedByClient: false,
      exitCode: 0,
      signal: null,
      reason: 'process exited with code 0',
      stderrTail: '',
    });
  });

  it('B20: after close, send() rejects at once and nothing is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-live-stdio-'));
    try {
      const log = join(dir, 'received.log');
      const t = nodeChild('echo.mjs', [log]);
      const r = recorder();
      await t.start(r.handlers);
      await t.send(request(1));
      await r.next((m) => m['id'] === 1);
      const closing = t.close();
      // Rejected while closing and after closed, synchronously settled (no write attempted).
      const whileClosing = t.send(request(2));
      await expect(whileClosing).rejects.toBeInstanceOf(ConnectionClosedError);
      await closing;
      let settled = false;
      const after = t.send(request(3)).catch((e: unknown) => {
        settled = true;
        throw e;
      });
      await Promise.resolve();
      await Promise.resolve();
      expect(settled).toBe(true);
      await expect(after).rejects.toThrow(/transport closed/);
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
      expect(existsSync(log)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('B20: close() on a child that ignores stdin EOF and SIGTERM ends with SIGKILL', async () => {
    const t = nodeChild('stubborn.mjs');
    const r = recorder();
    await t.start(r.handlers);
    await r.next((m) => m['method'] === 'ready');
    const started = Date.now();
    await within(t.close(), 3000, 'close()');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(350); // 200 ms to SIGTERM + 200 ms to SIGKILL
    expect(r.closes).toHaveLength(1);
    expect(r.closes[0]).toMatchObject({
      initiatedByClient: true,
      signal: 'SIGKILL',
      exitCode: null,
      reason: 'closed by client',
    });
    expect(await waitUntilGone(t.pid!)).toBe(true);
  });

  it('B20: close() kills a grandchild too (node child spawning node, ignoring stdin EOF)', async () => {
    const t = nodeChild('grandparent.mjs', ['stay']);
    const r = recorder();
    await t.start(r.handlers);
    const note = await r.next((m) => m['method'] === 'grandchild');
    const grandchild = (note['params'] as { pid: number }).pid;
    expect(isAlive(grandchild)).toBe(true);
    await within(t.close(), 3000, 'close()');
    expect(r.closes[0]).toMatchObject({ initiatedByClient: true, signal: 'SIGTERM' });
    expect(await waitUntilGone(t.pid!)).toBe(true);
    expect(await waitUntilGone(grandchild)).toBe(true);
    expectGone(grandchild);
  });

  it("B20: close() kills a grandchild of `sh -c 'sleep 1000 & wait'`", async () => {
    const script = `sleep 1000 & echo "{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"pid\\",\\"params\\":{\\"pid\\":$!}}"; wait`;
    const t = new StdioTransport({ command: 'sh', args: ['-c', script], closeTimeoutMs: 200 });
    transports.push(t);
    const r = recorder();
    await t.start(r.handlers);
    const note = await r.next((m) => m['method'] === 'pid');
    const sleeper = (note['params'] as { pid: number }).pid;
    expect(isAlive(sleeper)).toBe(true);
    await within(t.close(), 3000, 'close()');
    expect(await waitUntilGone(sleeper)).toBe(true);
    expectGone(sleeper);
  });

  it('close() resolves promptly when the child exits on EOF but a grandchild holds its stdout/stderr', async () => {
    const t = nodeChild('grandparent.mjs', ['exit-on-eof']);
    const r = recorder();
    await t.start(r.handlers);
    const note = await r.next((m) => m['method'] === 'grandchild');
    const grandchild = (note['params'] as { pid: number }).pid;
    await within(t.close(), 2000, 'close()');
    expect(r.closes[0]).toMatchObject({ initiatedByClient: true, exitCode: 0 });
    expect(await waitUntilGone(grandchild)).toBe(true);
  });

  it('a child that closes stdout but keeps running is shut down; onClose says why', async () => {
    const t = nodeChild('close-stdout.mjs');
    const r = recorder();
    await t.start(r.handlers);
    const info = await within(r.closed, 3000, 'onClose');
    expect(info.initiatedByClient).toBe(false);
    expect(info.signal).toBe('SIGTERM');
    expect(info.reason).toBe('server closed stdout; process killed by signal SIGTERM');
    expect(r.messages).toEqual([{ jsonrpc: '2.0', method: 'bye' }]);
    expect(await waitUntilGone(t.pid!)).toBe(true);
  });

  it('hands up a last message written without a newline before onClose', async () => {
    const t = nodeChild('no-newline.mjs');
    const r = recorder();
    await t.start(r.handlers);
    await within(r.closed, 2000, 'onClose');
    expect(r.messages).toEqual([{ jsonrpc: '2.0', method: 'last' }]);
  });

  it('receives a 20 MB line through the pipe', async () => {
    const t = nodeChild('big-line.mjs', ['20']);
    const r = recorder();
    await t.start(r.handlers);
    const after = await r.next((m) => m['method'] === 'after', 15_000);
    expect(after).toEqual({ jsonrpc: '2.0', method: 'after' });
    const big = r.messages[0] as { id: number; result: { text: string } };
    expect(big.id).toBe(1);
    expect(big.result.text.length).toBe(20 * 1024 * 1024);
    expect(r.errors).toEqual([]);
  });

  it('keeps writes in call order under backpressure (child not reading while the pipe fills)', async () => {
    const t = nodeChild('sink.mjs', ['300']);
    const r = recorder();
    await t.start(r.handlers);
    const pad = 'p'.repeat(2000);
    const sends: Promise<void>[] = [];
    for (let seq = 0; seq < 2000; seq++) {
      sends.push(t.send({ jsonrpc: '2.0', method: 'data', params: { seq, pad } }));
    }
    sends.push(t.send(request('done', 'done')));
    await within(Promise.all(sends), 10_000, 'all sends');
    const done = await r.next((m) => m['id'] === 'done');
    expect(done['result']).toEqual({ count: 2000, inOrder: true });
  });

  it('a dead pipe (EPIPE) never crashes the host: every send settles, onClose is called', async () => {
    const t = nodeChild('echo.mjs');
    const r = recorder();
    await t.start(r.handlers);
    const big = 'x'.repeat(256 * 1024);
    // Settle each send at once (allSettled), so waiting between sends leaves no rejection unhandled.
    const sends: Promise<PromiseSettledResult<void>[]>[] = [
      Promise.allSettled([t.send(request(1, 'exit', { code: 3 }))]),
    ];
    for (let i = 0; i < 40; i++) {
      sends.push(Promise.allSettled([t.send({ jsonrpc: '2.0', method: 'data', params: { big } })]));
      await new Promise((res) => setTimeout(res, 5));
    }
    const results = (await within(Promise.all(sends), 5000, 'sends')).flat();
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(ConnectionClosedError);
    }
    expect(results.some((x) => x.status === 'rejected')).toBe(true);
    const info = await within(r.closed, 2000, 'onClose');
    expect(info.exitCode).toBe(3);
  });

  it('a server that closed its stdin but runs on: the failed write is outcome unknown, and the transport closes', async () => {
    const t = new StdioTransport({
      command: process.execPath,
      args: [
        '-e',
        'require("fs").closeSync(0); console.log(JSON.stringify({ jsonrpc: "2.0", method: "ready" })); setInterval(() => {}, 1000);',
      ],
      closeTimeoutMs: 200,
    });
    transports.push(t);
    const r = recorder();
    await t.start(r.handlers);
    await r.next((m) => m['method'] === 'ready');
    const failed = (await t.send(request(1, 'ping')).catch((e: unknown) => e)) as ConnectionClosedError;
    expect(failed).toBeInstanceOf(ConnectionClosedError);
    expect(failed.data).toMatchObject({ outcome: 'unknown' });
    expect(failed.message).toContain('EPIPE');
    // Nothing can reach it any more: it is shut down as one that closed its stdout would be.
    const info = await within(r.closed, 3000, 'onClose');
    expect(info).toMatchObject({ initiatedByClient: false, signal: 'SIGTERM' });
    expect(info.reason).toMatch(/^stdin write failed: .*EPIPE; process killed by signal SIGTERM$/);
    await expect(t.send(request(2, 'ping'))).rejects.toMatchObject({ data: { outcome: 'not-sent' } });
  });

  it('stderr callback gets UTF-8 text with characters never split; the tail is kept too', async () => {
    const chunks: string[] = [];
    const t = nodeChild('stderr-writer.mjs', ['split'], { stderr: (c) => chunks.push(c) });
    const r = recorder();
    await t.start(r.handlers);
    await r.next((m) => m['method'] === 'stderr-done');
    await t.close();
    expect(chunks.join('')).toBe('caf\u00e9\n');
    expect(chunks.join('')).not.toContain('\ufffd');
    expect(r.closes[0]!.stderrTail).toBe('caf\u00e9\n');
  });

  it('stderr "inherit" copies to process.stderr and keeps the tail', async () => {
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const t = nodeChild('fatal.mjs', [], { stderr: 'inherit' });
      const r = recorder();
      await t.start(r.handlers);
      await t.send(request(1));
      const info = await r.closed;
      const written = spy.mock.calls.map((c) => Buffer.from(c[0] as Uint8Array).toString()).join('');
      expect(written).toContain('fatal: boom');
      expect(info.stderrTail).toContain('fatal: boom');
    } finally {
      spy.mockRestore();
    }
  });

  it('stderr "ignore" gives no tail', async () => {
    const t = nodeChild('fatal.mjs', [], { stderr: 'ignore' });
    const r = recorder();
    await t.start(r.handlers);
    await t.send(request(1));
    const info = await r.closed;
    expect(info.exitCode).toBe(1);
    expect(info.stderrTail).toBeUndefined();
  });

  it('stderr is always drained (1 MiB flood does not block the child) and the tail is bounded to 4 KiB', async () => {
    const flood = nodeChild('stderr-writer.mjs', ['flood']);
    const r1 = recorder();
    await flood.start(r1.handlers);
    await within(
      r1.next((m) => m['method'] === 'stderr-done'),
      5000,
      'flood',
    );

    const tail = nodeChild('stderr-writer.mjs', ['tail']);
    const r2 = recorder();
    await tail.start(r2.handlers);
    await r2.next((m) => m['method'] === 'stderr-done');
    await tail.close();
    const text = r2.closes[0]!.stderrTail!;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text.endsWith('END\n')).toBe(true);
    expect(text.length).toBeGreaterThan(4000);
  });

  it('close() is idempotent (same promise), onClose exactly once; close before start; start twice', async () => {
    const t = nodeChild('echo.mjs');
    const r = recorder();
    await t.start(r.handlers);
    await expect(t.start(r.handlers)).rejects.toBeInstanceOf(McpError);
    const a = t.close();
    const b = t.close();
    expect(a).toBe(b);
    await a;
    await t.close();
    expect(r.closes).toHaveLength(1);

    // Closed before it ever started: it never starts.
    const never = new StdioTransport({ command: process.execPath });
    await never.close();
    await expect(never.start(recorder().handlers)).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('starts again after a close (restartable): a new process, its own onClose and stderr tail; no event of the old one leaks', async () => {
    const t = nodeChild('echo.mjs');
    expect(t.capabilities.restartable).toBe(true);
    const first = recorder();
    await t.start(first.handlers);
    const firstPid = t.pid!;
    await t.send(request(1, 'stderr', { text: 'first run\n' }));
    await first.next((m) => m['id'] === 1);
    process.kill(firstPid, 'SIGKILL');
    expect(await within(first.closed, 1000, 'onClose')).toMatchObject({ signal: 'SIGKILL', stderrTail: 'first run\n' });

    // After a close by the peer.
    const second = recorder();
    await t.start(second.handlers);
    expect(t.pid).not.toBe(firstPid);
    await t.send(request(2));
    expect(await second.next((m) => m['id'] === 2)).toEqual({ jsonrpc: '2.0', id: 2, result: { echo: {} } });
    await t.send(request(3, 'exit', { code: 4 }));
    const info = await within(second.closed, 1000, 'onClose');
    expect(info).toMatchObject({ exitCode: 4, signal: null, initiatedByClient: false });
    expect(info.stderrTail).toBe('');

    // After the owner's close().
    const third = recorder();
    await t.start(third.handlers);
    const thirdPid = t.pid!;
    await t.close();
    expect(third.closes).toEqual([expect.objectContaining({ initiatedByClient: true })]);
    expect(await waitUntilGone(thirdPid)).toBe(true);
    expect(first.closes).toHaveLength(1);
    expect(second.closes).toHaveLength(1);
    expect(first.messages).toHaveLength(1);
    expect(second.errors).toEqual([]);
  });

  it('close() while start() is pending: start rejects, the child is stopped, no onClose', async () => {
    const t = nodeChild('echo.mjs');
    const r = recorder();
    const starting = t.start(r.handlers);
    const closing = t.close();
    await expect(starting).rejects.toBeInstanceOf(ConnectionClosedError);
    await within(closing, 2000, 'close()');
    expect(r.closes).toEqual([]);
    if (t.pid !== undefined) expect(await waitUntilGone(t.pid)).toBe(true);
  });

  it('leaves no listeners on process and no timers behind', async () => {
    const exitListeners = process.listenerCount('exit');
    const timers = (): number => process.getActiveResourcesInfo().filter((x) => x === 'Timeout').length;
    const timersBefore = timers();
    const t = nodeChild('echo.mjs');
    const r = recorder();
    await t.start(r.handlers);
    expect(process.listenerCount('exit')).toBe(exitListeners + 1);
    await t.send(request(1));
    await r.next((m) => m['id'] === 1);
    await t.close();
    expect(process.listenerCount('exit')).toBe(exitListeners);
    expect(timers()).toBeLessThanOrEqual(timersBefore);

    const stubborn = nodeChild('stubborn.mjs');
    const r2 = recorder();
    await stubborn.start(r2.handlers);
    await r2.next((m) => m['method'] === 'ready');
    await stubborn.close();
    expect(process.listenerCount('exit')).toBe(exitListeners);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('a throwing onMessage is reported to onError and later messages still arrive', async () => {
    const t = nodeChild('noisy.mjs');
    const r = recorder();
    const boom = new Error('handler bug');
    let first = true;
    const handlers: TransportHandlers = {
      ...r.handlers,
      onMessage(m) {
        if (first) {
          first = false;
          throw boom;
        }
        r.handlers.onMessage(m);
      },
    };
    await t.start(handlers);
    await r.next((m) => m['id'] === 7);
    expect(r.errors).toContain(boom);
    expect(r.messages).toHaveLength(3);
  });

  it('maxLineBytes: an over-long stdout line is dropped and reported, the next message arrives', async () => {
    const t = nodeChild('big-line.mjs', ['2'], { maxLineBytes: 1024 * 1024 });
    const r = recorder();
    await t.start(r.handlers);
    await r.next((m) => m['method'] === 'after');
    expect(r.messages).toEqual([{ jsonrpc: '2.0', method: 'after' }]);
    expect(r.errors).toHaveLength(1);
    const problem = ((r.errors[0] as ProtocolError).data as { value: { kind: string; excerpt: string } }).value;
    expect(problem.kind).toBe('line-too-long');
    expect(problem.excerpt.startsWith('{"jsonrpc":"2.0","id":1')).toBe(true);
  });

  it('rejects a bad message with InvalidArgumentError and stays open', async () => {
    const t = nodeChild('echo.mjs');
    const r = recorder();
    await t.start(r.handlers);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    await expect(t.send({ jsonrpc: '2.0', method: 'x', params: cyclic })).rejects.toMatchObject({ code: -32602 });
    await t.send(request(5));
    await r.next((m) => m['id'] === 5);
  });
});

describe('StdioTransport write coalescing', () => {
  it('lines sent in one turn go out in one stdin.write, in call order, and every send resolves', async () => {
    const t = nodeChild('echo.mjs');
    const r = recorder();
    await t.start(r.handlers);
    const stdin = (t as unknown as { child: { stdin: NodeJS.WritableStream } }).child.stdin;
    const write = vi.spyOn(stdin, 'write');
    const sends = [1, 2, 3, 4].map((id) => t.send(request(id, 'echo', { id })));
    expect(write).not.toHaveBeenCalled(); // flushed from a microtask
    await within(Promise.all(sends), 5000, 'sends');
    expect(write).toHaveBeenCalledTimes(1);
    expect(
      String(write.mock.calls[0]![0])
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).id),
    ).toEqual([1, 2, 3, 4]);
    await r.next((m) => m['id'] === 4);
    expect(r.messages.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3, 4]);
    // the next turn is a new batch
    await t.send(request(5));
    expect(write).toHaveBeenCalledTimes(2);
  });

  it('close() right after send() in the same turn still writes the line before stdin ends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-live-coalesce-'));
    try {
      const log = join(dir, 'lines.log');
      // A long close timeout: the child must get to read the line before any SIGTERM.
      const t = nodeChild('echo.mjs', [log], { closeTimeoutMs: 10_000 });
      const r = recorder();
      await t.start(r.handlers);
      await t.send(request(1));
      await r.next((m) => m['id'] === 1); // the child is up and reading
      const sent = t.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
      const closing = t.close();
      await sent;
      await closing;
      expect(
        readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).method),
      ).toEqual(['echo', 'notifications/cancelled']);
      await expect(t.send(request(2))).rejects.toBeInstanceOf(ConnectionClosedError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
