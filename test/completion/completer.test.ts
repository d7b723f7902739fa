import { afterEach, describe, expect, it, vi } from 'vitest';
import { CancelledError, InvalidArgumentError, ProtocolError, RpcError } from '../../src/errors/errors.js';
import type { CompletionOutcome } from '../../src/completion/types.js';
import { DISCOVER_RESULT, connectedPair, type Wire } from '../fakes/scriptedServer.js';

const REF = { type: 'ref/prompt', name: 'greet' } as const;

/** A connected client whose server declares `completions` (or not) and answers with `answer`. */
async function setup(
  answer: (request: Wire) => Record<string, unknown> | Promise<Record<string, unknown>> | undefined,
  { completions = true } = {},
) {
  vi.useFakeTimers();
  const errors: Error[] = [];
  const pair = await connectedPair({
    clock: { now: () => Date.now() },
    onError: (error) => errors.push(error),
  });
  const { server } = pair;
  server.on('server/discover', () => ({
    result: {
      ...DISCOVER_RESULT,
      capabilities: { ...DISCOVER_RESULT.capabilities, ...(completions && { completions: {} }) },
    },
  }));
  await pair.client.discover();
  server.on('completion/complete', async (request) => {
    const result = await answer(request);
    return result === undefined ? undefined : { result };
  });
  return { ...pair, errors };
}

const echo = (request: Wire) => ({ completion: { values: [`${request['params']['argument']['value']}!`] } });
const requests = (server: { requests(m: string): Wire[] }) => server.requests('completion/complete');
const cancels = (server: { received: Wire[] }) =>
  server.received.filter((m) => m['method'] === 'notifications/cancelled').map((m) => m['params']['requestId']);

afterEach(() => {
  vi.useRealTimers();
});

describe('client.completer: debounce', () => {
  it('sends one request for a burst of calls, with the last value; the others resolve superseded in order', async () => {
    const { client, server } = await setup(echo);
    const completer = client.completer(REF, { debounceMs: 100 });
    const settled: string[] = [];
    const track = (label: string, p: Promise<CompletionOutcome>) =>
      p.then((o) => {
        settled.push(label);
        return o;
      });
    const a = track('a', completer.complete('name', 'a'));
    await vi.advanceTimersByTimeAsync(60);
    const b = track('b', completer.complete('name', 'al'));
    await vi.advanceTimersByTimeAsync(60);
    const c = track('c', completer.complete('name', 'ali', { style: 'formal' }));
    await vi.advanceTimersByTimeAsync(99);
    expect(requests(server)).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(await a).toEqual({ status: 'superseded' });
    expect(await b).toEqual({ status: 'superseded' });
    expect(await c).toEqual({ status: 'completed', values: ['ali!'], trimmed: 0, source: 'server' });
    expect(settled).toEqual(['a', 'b', 'c']);
    expect(requests(server).map((r) => r['params'])).toEqual([
      expect.objectContaining({
        ref: REF,
        argument: { name: 'name', value: 'ali' },
        context: { arguments: { style: 'formal' } },
      }),
    ]);
  });

  it('debounceMs 0 sends at once, and a newer call cancels the request in flight on the wire', async () => {
    const { client, server } = await setup((request) =>
      request['params']['argument']['value'] === 'a' ? undefined : echo(request),
    );
    const completer = client.completer(REF, { debounceMs: 0 });
    const first = completer.complete('name', 'a');
    await vi.advanceTimersByTimeAsync(0);
    expect(requests(server)).toHaveLength(1);
    const second = completer.complete('name', 'ab');
    expect(await first).toEqual({ status: 'superseded' });
    expect(await second).toMatchObject({ status: 'completed', values: ['ab!'] });
    expect(cancels(server)).toEqual([requests(server)[0]?.['id']]);
  });
});

describe('client.completer: cache', () => {
  it('reuses an answer for the same argument, value and context until cacheTtlMs passes', async () => {
    const { client, server } = await setup(echo);
    const completer = client.completer(REF, { debounceMs: 0, cacheTtlMs: 1000 });
    expect(await completer.complete('name', 'b')).toMatchObject({ source: 'server', values: ['b!'] });
    expect(await completer.complete('name', 'b')).toMatchObject({ source: 'cache', values: ['b!'] });
    expect(await completer.complete('name', 'b', { style: 'x' })).toMatchObject({ source: 'server' });
    expect(await completer.complete('style', 'b')).toMatchObject({ source: 'server' });
    expect(requests(server)).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await completer.complete('name', 'b')).toMatchObject({ source: 'server' });
    expect(requests(server)).toHaveLength(4);
  });

  it('answers a cached value at once, without waiting for the debounce', async () => {
    const { client, server } = await setup(echo);
    const completer = client.completer(REF, { debounceMs: 200 });
    const first = completer.complete('name', 'x');
    await vi.advanceTimersByTimeAsync(200);
    await first;
    expect(await completer.complete('name', 'x')).toMatchObject({ source: 'cache' });
    expect(requests(server)).toHaveLength(1);
  });

  it('cacheTtlMs 0 turns the cache off; maxCacheEntries drops the oldest', async () => {
    const { client, server } = await setup(echo);
    const off = client.completer(REF, { debounceMs: 0, cacheTtlMs: 0 });
    await off.complete('name', 'q');
    expect(await off.complete('name', 'q')).toMatchObject({ source: 'server' });
    const small = client.completer(REF, { debounceMs: 0, maxCacheEntries: 1 });
    await small.complete('name', 'q');
    await small.complete('name', 'r');
    expect(await small.complete('name', 'q')).toMatchObject({ source: 'server' });
    expect(requests(server)).toHaveLength(5);
  });
});

describe('client.completer: ordering under random response delays', () => {
  /** A small seeded generator (mulberry32), so a failure names its seed. */
  function random(seed: number): () => number {
    let t = seed >>> 0;
    return () => {
      t = (t + 0x6d2b79f5) >>> 0;
      let r = Math.imul(t ^ (t >>> 15), 1 | t);
      r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
      return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
    };
  }

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'seed %i: settles in call order, each answer its own, the last one answered',
    async (seed) => {
      const next = random(seed);
      const { client, server } = await setup(
        (request) => new Promise((resolve) => setTimeout(() => resolve(echo(request)), Math.floor(next() * 400))),
      );
      const completer = client.completer(REF, { debounceMs: Math.floor(next() * 3) * 50, cacheTtlMs: 0 });
      const order: number[] = [];
      const calls: Array<Promise<CompletionOutcome>> = [];
      let value = '';
      for (let i = 0; i < 25; i++) {
        value += 'abc'[Math.floor(next() * 3)];
        const index = i;
        const typed = value;
        calls.push(
          completer.complete('name', typed).then((outcome) => {
            order.push(index);
            if (outcome.status === 'completed') expect(outcome.values).toEqual([`${typed}!`]);
            return outcome;
          }),
        );
        await vi.advanceTimersByTimeAsync(Math.floor(next() * 250));
      }
      await vi.advanceTimersByTimeAsync(1000);
      const outcomes = await Promise.all(calls);
      expect(order).toEqual(outcomes.map((_, i) => i));
      expect(outcomes.at(-1)).toMatchObject({ status: 'completed', values: [`${value}!`] });
      expect(outcomes.filter((o) => o.status === 'superseded').length).toBeGreaterThan(0);
      // Each request was either answered (for its own call) or cancelled on the wire when superseded.
      const sent = requests(server).map((r) => r['id']);
      const answered = outcomes.filter((o) => o.status === 'completed' && o.source === 'server').length;
      const cancelled = cancels(server);
      expect(new Set(cancelled).size).toBe(cancelled.length);
      expect(cancelled.every((id) => sent.includes(id))).toBe(true);
      expect(answered + cancelled.length).toBe(sent.length);
    },
  );
});

describe('client.completer: results, capability, errors', () => {
  it('keeps at most 100 values, reports the rest, and keeps total and hasMore as sent', async () => {
    const values = Array.from({ length: 120 }, (_, i) => `v${i}`);
    const { client, errors } = await setup(() => ({ completion: { values, total: 500, hasMore: true } }));
    const outcome = await client.completer(REF, { debounceMs: 0 }).complete('name', '');
    expect(outcome).toMatchObject({ status: 'completed', total: 500, hasMore: true, trimmed: 20 });
    expect(outcome.status === 'completed' && outcome.values).toEqual(values.slice(0, 100));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
    // client.complete trims too.
    const direct = await client.complete(REF, { name: 'name', value: '' });
    expect(direct.completion).toEqual({ values: values.slice(0, 100), total: 500, hasMore: true });
  });

  it('sends nothing to a server without the completions capability, and says why', async () => {
    const { client, server } = await setup(echo, { completions: false });
    const outcome = await client.completer(REF).complete('name', 'a');
    expect(outcome).toEqual({
      status: 'unsupported',
      values: [],
      reason: 'the server does not declare the completions capability',
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests(server)).toHaveLength(0);
  });

  it('rejects the latest call with the server error; superseded calls never reject', async () => {
    const { client, server } = await setup(() => {
      throw new Error('unused');
    });
    server.on('completion/complete', () => ({ error: { code: -32602, message: 'no such argument' } }));
    const completer = client.completer(REF, { debounceMs: 10 });
    const early = completer.complete('nope', 'a');
    const late = completer.complete('nope', 'ab').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    expect(await early).toEqual({ status: 'superseded' });
    expect(await late).toBeInstanceOf(RpcError);
  });

  it('a result without values rejects with ProtocolError', async () => {
    const { client } = await setup(() => ({ completion: { values: [1, 2] } }));
    await expect(client.completer(REF, { debounceMs: 0 }).complete('name', 'a')).rejects.toBeInstanceOf(ProtocolError);
  });

  it("the caller's signal rejects with CancelledError and cancels the request on the wire", async () => {
    const { client, server } = await setup(() => undefined);
    const completer = client.completer(REF, { debounceMs: 0 });
    const controller = new AbortController();
    const call = completer.complete('name', 'a', {}, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(0);
    controller.abort('user left the field');
    await expect(call).rejects.toBeInstanceOf(CancelledError);
    expect(cancels(server)).toEqual([requests(server)[0]?.['id']]);
    // Aborted during the debounce: nothing is sent.
    const waiting = client.completer(REF, { debounceMs: 50 });
    const controller2 = new AbortController();
    const call2 = waiting.complete('name', 'b', {}, { signal: controller2.signal });
    controller2.abort();
    await expect(call2).rejects.toBeInstanceOf(CancelledError);
    await vi.advanceTimersByTimeAsync(100);
    expect(requests(server)).toHaveLength(1);
  });

  it('close() supersedes the pending call, and later calls send nothing', async () => {
    const { client, server } = await setup(echo);
    const completer = client.completer(REF, { debounceMs: 50 });
    const pending = completer.complete('name', 'a');
    completer.close();
    completer.close();
    expect(await pending).toEqual({ status: 'superseded' });
    expect(await completer.complete('name', 'b')).toEqual({ status: 'superseded' });
    await vi.advanceTimersByTimeAsync(100);
    expect(requests(server)).toHaveLength(0);
  });

  it('rejects bad input and bad options with InvalidArgumentError', async () => {
    const { client } = await setup(echo);
    expect(() => client.completer({ type: 'ref/prompt', name: '' })).toThrow(InvalidArgumentError);
    expect(() => client.completer(REF, { debounceMs: -1 })).toThrow(InvalidArgumentError);
    expect(() => client.completer(REF, { maxCacheEntries: 0 })).toThrow(InvalidArgumentError);
    const completer = client.completer(REF);
    await expect(completer.complete('', 'a')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(completer.complete('name', 1 as never)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(completer.complete('name', 'a', { x: 1 as never })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
