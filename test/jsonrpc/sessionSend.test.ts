/**
 * Sends that share one promise (a transport that writes the requests of one turn together, as
 * stdio does): each request still learns its own send's fate.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import { JsonRpcSession } from '../../src/jsonrpc/session.js';
import type { SessionRequestOptions } from '../../src/jsonrpc/sessionOptions.js';
import type { Transport, TransportHandlers } from '../../src/transport/transport.js';
import { systemTimers } from '../../src/util/clock.js';
import type { JsonRpcMessage } from '../../src/wire/messages.js';

const OPTIONS: SessionRequestOptions = { timeoutMs: 10_000, maxTotalTimeoutMs: 10_000, resetTimeoutOnProgress: false };

/** A transport whose sends of one turn share one promise, settled by the test. */
class BatchingTransport implements Transport {
  readonly capabilities = { cancelsByAbortingSend: false };
  readonly serverIdentity = 'memory:batching';
  readonly sent: JsonRpcMessage[] = [];
  handlers: TransportHandlers | undefined;
  private batch: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } | undefined;

  start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    this.sent.push(message);
    if (this.batch === undefined) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.batch = { promise, resolve, reject };
    }
    return this.batch.promise;
  }

  /** Ends the current batch's write. */
  settle(error?: Error): void {
    const batch = this.batch;
    this.batch = undefined;
    if (error === undefined) batch?.resolve();
    else batch?.reject(error);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

async function open(): Promise<{ session: JsonRpcSession; transport: BatchingTransport; errors: Error[] }> {
  const transport = new BatchingTransport();
  const errors: Error[] = [];
  const session = new JsonRpcSession({
    transport,
    timers: systemTimers,
    onNotification: () => {},
    onError: (e) => errors.push(e),
  });
  await session.start();
  return { session, transport, errors };
}

describe('sends that share one promise', () => {
  it('a failed batch rejects every request of it with the send error; the next batch is its own', async () => {
    const { session, transport } = await open();
    const first = [1, 2, 3].map((n) => session.request('tools/call', { n }, OPTIONS).catch((e: unknown) => e));
    const refusal = new ConnectionClosedError('cannot send: pipe broken', { reason: 'broken', outcome: 'unknown' });
    transport.settle(refusal);
    expect(await Promise.all(first)).toEqual([refusal, refusal, refusal]);
    expect(session.pendingCount).toBe(0);

    const second = session.request('tools/call', { n: 4 }, OPTIONS);
    transport.settle();
    transport.handlers?.onMessage({ jsonrpc: '2.0', id: 3, result: { n: 4 } });
    await expect(second).resolves.toEqual({ n: 4 });
    expect(transport.sent.map((m) => ('id' in m ? m.id : undefined))).toEqual([0, 1, 2, 3]);
  });

  it('a batch written in full leaves its requests pending until their responses, in any order', async () => {
    const { session, transport, errors } = await open();
    const calls = [1, 2].map((n) => session.request('tools/call', { n }, OPTIONS));
    transport.settle();
    await Promise.resolve();
    expect(session.pendingCount).toBe(2);
    transport.handlers?.onMessage({ jsonrpc: '2.0', id: 1, result: { n: 2 } });
    transport.handlers?.onMessage({ jsonrpc: '2.0', id: 0, result: { n: 1 } });
    await expect(Promise.all(calls)).resolves.toEqual([{ n: 1 }, { n: 2 }]);
    expect(errors).toEqual([]);
  });

  it('a send error that is not an McpError fails each request of the batch with ConnectionClosedError', async () => {
    const { session, transport } = await open();
    const calls = [1, 2].map((n) => session.request('tools/call', { n }, OPTIONS).catch((e: unknown) => e));
    const cause = new Error('EPIPE');
    transport.settle(cause);
    const failures = await Promise.all(calls);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(ConnectionClosedError);
      expect(failure).toMatchObject({ data: { reason: 'send failed', outcome: 'unknown' }, cause });
    }
  });
});
