/**
 * The cancellation of a send: the session's CancelSource (an AbortSignal only when read), what
 * the session hands a transport that cancels by aborting the send, and the Streamable HTTP
 * transport aborting its request from the handle alone, on both request paths.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CancelledError, TimeoutError } from '../../src/errors/errors.js';
import type { JsonRpcMessage } from '../../src/wire/messages.js';
import { JsonRpcSession } from '../../src/jsonrpc/session.js';
import { CancelSource, cancelHandleOf } from '../../src/transport/cancelHandle.js';
import type {
  Transport,
  TransportCapabilities,
  TransportHandlers,
  TransportSendOptions,
} from '../../src/transport/transport.js';
import { StreamBrokenError } from '../../src/transport/transportErrors.js';
import { systemTimers } from '../../src/util/clock.js';
import { answerDiscover, HttpFake, startSse } from '../fakes/httpFake.js';
import { request } from '../fakes/httpHarness.js';
import { HTTP_PATHS } from '../fakes/httpPaths.js';

describe('CancelSource', () => {
  it('calls each listener once, in order, after aborted and reason are set; removed ones are not called', () => {
    const source = new CancelSource();
    const calls: string[] = [];
    const a = () => calls.push(`a:${String(source.aborted)}:${String(source.reason)}`);
    const b = () => calls.push('b');
    const c = () => calls.push('c');
    source.onAbort(a);
    source.onAbort(b);
    source.onAbort(c);
    source.offAbort(b);
    source.offAbort(() => {});
    source.abort('stop');
    source.abort('again');
    expect(calls).toEqual(['a:true:stop', 'c']);
    expect(source.reason).toBe('stop');
  });

  it('a listener added after the abort is never called', () => {
    const source = new CancelSource();
    source.abort('done');
    let called = false;
    source.onAbort(() => (called = true));
    source.abort('again');
    expect(called).toBe(false);
  });

  it('makes its AbortSignal only when read, and that signal follows the handle', () => {
    const before = new CancelSource();
    const signal = before.signal;
    expect(before.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    before.abort('late');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('late');

    const after = new CancelSource();
    after.abort('early');
    expect(after.signal.aborted).toBe(true);
    expect(after.signal.reason).toBe('early');
  });

  it('a throwing listener does not stop the others; its error goes to onListenerError', () => {
    const source = new CancelSource();
    const errors: unknown[] = [];
    let second = false;
    source.onAbort(() => {
      throw new Error('boom');
    });
    source.onAbort(() => (second = true));
    source.abort('x', (error) => errors.push(error));
    expect(second).toBe(true);
    expect(errors.map((e) => (e as Error).message)).toEqual(['boom']);
  });

  it('cancelHandleOf views a plain AbortSignal as a handle', () => {
    const controller = new AbortController();
    const handle = cancelHandleOf(controller.signal)!;
    const seen: unknown[] = [];
    const removed = () => seen.push('removed');
    handle.onAbort(() => seen.push(handle.reason));
    handle.onAbort(removed);
    handle.offAbort(removed);
    expect(handle.aborted).toBe(false);
    controller.abort('why');
    expect(handle.aborted).toBe(true);
    expect(seen).toEqual(['why']);
    expect(cancelHandleOf(undefined)).toBeUndefined();
  });
});

/** A transport that cancels by aborting the send and records every send. */
class RecordingTransport implements Transport {
  readonly serverIdentity = 'recording:1';
  readonly sends: Array<{ message: JsonRpcMessage; options: TransportSendOptions | undefined }> = [];
  handlers: TransportHandlers | undefined;
  /** Makes send() reject, once per entry. */
  readonly failures: Error[] = [];

  constructor(readonly capabilities: TransportCapabilities) {}

  start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
    return Promise.resolve();
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    this.sends.push({ message, options });
    const failure = this.failures.shift();
    return failure === undefined ? new Promise<void>(() => {}) : Promise.reject(failure);
  }

  close(): Promise<void> {
    this.handlers?.onClose({ reason: 'closed by client', initiatedByClient: true });
    return Promise.resolve();
  }
}

async function sessionOver(transport: Transport) {
  const errors: Error[] = [];
  const session = new JsonRpcSession({
    transport,
    timers: systemTimers,
    onNotification: () => {},
    onError: (e) => errors.push(e),
  });
  await session.start();
  return { session, errors };
}

const OPTIONS = { timeoutMs: 60_000, maxTotalTimeoutMs: 60_000, resetTimeoutOnProgress: false };

describe('session: the cancellation it hands the transport', () => {
  it('cancelsByAbortingSend: the caller abort aborts the handle; no notifications/cancelled; signal made on read follows', async () => {
    const transport = new RecordingTransport({ cancelsByAbortingSend: true });
    const { session } = await sessionOver(transport);
    const controller = new AbortController();
    const call = session.request(
      'tools/call',
      { name: 'slow' },
      { ...OPTIONS, signal: controller.signal, idempotent: false, transportHeaders: { 'mcp-param-a': '1' } },
    );
    const options = transport.sends[0]?.options;
    expect(options?.cancel?.aborted).toBe(false);
    expect(options?.headers).toEqual({ 'mcp-param-a': '1' });
    expect(options?.idempotent).toBe(false);
    // `signal` is not an own property: nothing made it yet.
    expect(Object.keys(options ?? {})).not.toContain('signal');
    controller.abort('user gave up');
    await expect(call).rejects.toBeInstanceOf(CancelledError);
    expect(options?.cancel?.aborted).toBe(true);
    expect(options?.cancel?.reason).toBe('user gave up');
    expect(options?.signal?.aborted).toBe(true);
    expect(options?.signal?.reason).toBe('user gave up');
    expect(transport.sends.map((s) => s.message)).toHaveLength(1);
    await session.close();
  });

  it('a transport that reads only `signal` sees it abort on a timeout', async () => {
    const transport = new RecordingTransport({ cancelsByAbortingSend: true });
    const seen: unknown[] = [];
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      options?.signal?.addEventListener('abort', () => seen.push(options.signal?.reason));
      return send(message, options);
    };
    const { session } = await sessionOver(transport);
    const error = await session
      .request('tools/call', { name: 'slow' }, { ...OPTIONS, timeoutMs: 20, maxTotalTimeoutMs: 20 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(seen).toEqual(['Request timed out']);
    expect(transport.sends).toHaveLength(1);
    await session.close();
  });

  it('closesStreamOnCancel: notifications/cancelled first, then the handle aborts', async () => {
    const transport = new RecordingTransport({ cancelsByAbortingSend: false, closesStreamOnCancel: true });
    const { session } = await sessionOver(transport);
    const order: string[] = [];
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      order.push('method' in message ? message.method : 'response');
      options?.cancel?.onAbort(() => order.push(`abort:${String(options.cancel?.reason)}`));
      return send(message, options);
    };
    const controller = new AbortController();
    const call = session.request('tools/call', { name: 'slow' }, { ...OPTIONS, signal: controller.signal });
    controller.abort('enough');
    await expect(call).rejects.toBeInstanceOf(CancelledError);
    expect(order).toEqual(['tools/call', 'notifications/cancelled', 'abort:enough']);
    await session.close();
  });

  it('no handle for transports that cancel with notifications/cancelled only', async () => {
    const transport = new RecordingTransport({ cancelsByAbortingSend: false });
    const { session } = await sessionOver(transport);
    void session.request('tools/call', { name: 'x' }, { ...OPTIONS, idempotent: true }).catch(() => {});
    expect(transport.sends[0]?.options).toEqual({ idempotent: true });
    await session.close();
  });

  it('a re-issued request gets a new handle; cancelling then aborts only the live one', async () => {
    const transport = new RecordingTransport({ cancelsByAbortingSend: true });
    transport.failures.push(
      new StreamBrokenError({
        method: 'resources/read',
        requestId: 0,
        phase: 'mid-stream',
        reason: 'the response stream ended before the response',
        eventsReceived: 1,
        outcome: 'unknown',
      }),
    );
    const { session } = await sessionOver(transport);
    const controller = new AbortController();
    const call = session.request(
      'resources/read',
      { uri: 'a' },
      { ...OPTIONS, idempotent: true, signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(transport.sends.map((s) => (s.message as { id: number }).id)).toEqual([0, 1]);
    const [first, second] = transport.sends.map((s) => s.options?.cancel);
    expect(first).not.toBe(second);
    controller.abort('stop');
    await expect(call).rejects.toBeInstanceOf(CancelledError);
    expect(first?.aborted).toBe(false);
    expect(second?.aborted).toBe(true);
    await session.close();
  });
});

describe.each(HTTP_PATHS)(
  'Streamable HTTP ($path path): the handle aborts the HTTP request',
  ({ Transport: StreamableHttpTransport }) => {
    let fake: HttpFake | undefined;
    const closers: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const close of closers.splice(0)) await close();
      await fake?.close();
      fake = undefined;
    });

    /** A fake whose `tools/call` streams never end; resolves `closed` when the client drops one. */
    async function holdingFake() {
      let closed!: () => void;
      const streamClosed = new Promise<void>((resolve) => (closed = resolve));
      fake = await HttpFake.start((req, res) => {
        if (answerDiscover(req, res)) return;
        res.on('close', () => closed());
        startSse(res, [': started\n\n']);
      });
      return { url: fake.url, streamClosed };
    }

    it('through the session, with `cancel` alone (no `signal` on the options)', async () => {
      const { url, streamClosed } = await holdingFake();
      const inner = new StreamableHttpTransport(url, { retry: false });
      closers.push(() => inner.close());
      // A wrapper that forwards only the handle: the transport must not need `signal`.
      const handed: Array<TransportSendOptions | undefined> = [];
      const wrapper: Transport = {
        capabilities: inner.capabilities,
        serverIdentity: inner.serverIdentity,
        start: (handlers) => inner.start(handlers),
        send: (message, options) => {
          handed.push(options);
          return inner.send(
            message,
            options === undefined
              ? undefined
              : { cancel: options.cancel, headers: options.headers, idempotent: options.idempotent },
          );
        },
        close: () => inner.close(),
      };
      const { session } = await sessionOver(wrapper);
      closers.push(() => session.close());
      const controller = new AbortController();
      const call = session.request('tools/call', { name: 'slow' }, { ...OPTIONS, signal: controller.signal });
      await fake!.waitForRequests(1);
      controller.abort('user');
      await expect(call).rejects.toBeInstanceOf(CancelledError);
      await streamClosed;
      expect(handed[0]?.cancel?.aborted).toBe(true);
      expect(fake!.requests.map((r) => r.json.method)).toEqual(['tools/call']);
    });

    it('send() given only a `signal` (no handle) still aborts, and rejects with CancelledError', async () => {
      const { url, streamClosed } = await holdingFake();
      const transport = new StreamableHttpTransport(url, { retry: false });
      closers.push(() => transport.close());
      await transport.start({ onMessage: () => {}, onError: () => {}, onClose: () => {} });
      const controller = new AbortController();
      const sent = transport.send(request(7, 'tools/call', { name: 'slow' }) as JsonRpcMessage, {
        signal: controller.signal,
      });
      await fake!.waitForRequests(1);
      controller.abort('stop');
      const error = (await sent.catch((e: unknown) => e)) as CancelledError;
      expect(error).toBeInstanceOf(CancelledError);
      await streamClosed;
    });

    it('a handle aborted before the send sends nothing', async () => {
      const { url } = await holdingFake();
      const transport = new StreamableHttpTransport(url, { retry: false });
      closers.push(() => transport.close());
      await transport.start({ onMessage: () => {}, onError: () => {}, onClose: () => {} });
      const cancel = new CancelSource();
      cancel.abort('too late');
      const error = await transport
        .send(request(8, 'tools/call', { name: 'slow' }) as JsonRpcMessage, { cancel })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CancelledError);
      expect(fake!.requests).toHaveLength(0);
    });
  },
);
