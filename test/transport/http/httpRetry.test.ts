/**
 * Transient-failure retries: the p-retry policy (resilience/retry.ts) on fake timers, and the
 * HTTP transport against 429/503 with Retry-After, connection resets and refused connections,
 * its waits on fake global timers.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError, InvalidArgumentError } from '../../../src/errors/errors.js';
import { backoffDelay } from '../../../src/resilience/backoff.js';
import {
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  resolveRetryPolicy,
  type RetryPolicy,
} from '../../../src/resilience/retryPolicy.js';
import { withRetry } from '../../../src/resilience/retry.js';
import type { StreamableHttpTransport } from '../../../src/transport/http/streamableHttp.js';
import { HttpError, StreamBrokenError } from '../../../src/transport/transportErrors.js';
import { HttpFake, sendJson } from '../../fakes/httpFake.js';
import { request, startRecording } from '../../fakes/httpHarness.js';
import { HTTP_PATHS } from '../../fakes/httpPaths.js';
import { fakeRetryTimers, type RetryTimers } from '../../fakes/retryTimers.js';

describe('resilience/retry.ts: the retry policy', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('parses Retry-After as delay-seconds or an HTTP-date', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off exponentially up to maxDelayMs, with jitter in [0.5, 1)', () => {
    const policy = resolveRetryPolicy({ minDelayMs: 100, maxDelayMs: 1000, jitter: false });
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(policy, n))).toEqual([100, 200, 400, 800, 1000]);
    const jittered = resolveRetryPolicy({ minDelayMs: 100 });
    expect(backoffDelay(jittered, 1, () => 0)).toBe(50);
    expect(backoffDelay(jittered, 1, () => 0.999)).toBe(100);
  });

  it('checks the policy', () => {
    expect(resolveRetryPolicy(undefined)).toEqual(DEFAULT_RETRY_POLICY);
    expect(resolveRetryPolicy(false).retries).toBe(0);
    expect(() => resolveRetryPolicy({ retries: -1 })).toThrow(InvalidArgumentError);
    expect(() => resolveRetryPolicy({ minDelayMs: Number.NaN })).toThrow(InvalidArgumentError);
    expect(() => resolveRetryPolicy({ factor: 0.5 })).toThrow(InvalidArgumentError);
  });

  it('waits on the timers between attempts (fake timers), honouring a server-requested delay', async () => {
    vi.useFakeTimers();
    const policy = resolveRetryPolicy({ retries: 3, minDelayMs: 1000, jitter: false });
    const attempts: number[] = [];
    const run = withRetry(
      async (n) => {
        attempts.push(Date.now());
        if (n < 3) throw Object.assign(new Error(`fail ${n}`), { retryAfter: n === 2 ? 7000 : undefined });
        return 'done';
      },
      { policy, classify: (error) => ({ retry: true, delayMs: (error as { retryAfter?: number }).retryAfter }) },
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(6999);
    expect(attempts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(run).resolves.toBe('done');
    expect(attempts.map((t) => t - attempts[0]!)).toEqual([0, 1000, 8000]);
  });

  it('stops at once for a final failure, when retries run out, or when Retry-After is too long', async () => {
    vi.useFakeTimers();
    const policy = resolveRetryPolicy({ retries: 2, jitter: false, maxRetryAfterMs: 5000 });
    let calls = 0;
    await expect(
      withRetry(async () => (calls++, Promise.reject(new Error('final'))), {
        policy,
        classify: () => ({ retry: false }),
      }),
    ).rejects.toThrow('final');
    expect(calls).toBe(1);
    calls = 0;
    const again = withRetry(async () => (calls++, Promise.reject(new Error('again'))), {
      policy,
      classify: () => ({ retry: true }),
    });
    const outcome = again.catch((e: unknown) => e);
    // Backoff 500 ms, then 1000 ms; then the two retries are spent.
    await vi.advanceTimersByTimeAsync(1499);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ message: 'again' });
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      withRetry(async () => (calls++, Promise.reject(new Error('later'))), {
        policy,
        classify: () => ({ retry: true, delayMs: 60_000 }),
      }),
    ).rejects.toThrow('later');
    expect(calls).toBe(1);
  });

  it('stops waiting when the signal aborts, rejecting with its reason', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const policy = resolveRetryPolicy({ retries: 5, minDelayMs: 10_000, maxDelayMs: 20_000, jitter: false });
    let calls = 0;
    const run = withRetry(async () => (calls++, Promise.reject(new Error('x'))), {
      policy,
      signal: controller.signal,
      classify: () => ({ retry: true }),
    });
    const outcome = run.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5000);
    controller.abort('stop');
    expect(await outcome).toBe('stop');
    expect(calls).toBe(1);
  });
});

describe.each(HTTP_PATHS)('$path path', ({ Transport: StreamableHttpTransport }) => {
  let fake: HttpFake | undefined;
  const transports: StreamableHttpTransport[] = [];

  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(transports.splice(0).map((t) => t.close()));
    await fake?.close();
    fake = undefined;
  });

  describe('Streamable HTTP: transient failures', () => {
    let timers: RetryTimers;
    beforeEach(() => {
      timers = fakeRetryTimers();
    });

    function transportFor(url: string, retry: RetryPolicy = { jitter: false }): StreamableHttpTransport {
      const transport = new StreamableHttpTransport(url, { retry });
      transports.push(transport);
      return transport;
    }

    it('retries 503 with Retry-After (seconds) and 429 with Retry-After (HTTP-date) on an idempotent request', async () => {
      let n = 0;
      fake = await HttpFake.start((req, res) => {
        n++;
        if (n === 1) res.writeHead(503, { 'Retry-After': '2', 'Content-Type': 'text/plain' }).end('busy');
        else if (n === 2) res.writeHead(429, { 'Retry-After': new Date(Date.now() + 3000).toUTCString() }).end();
        else sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { tools: [] } });
      });
      const transport = transportFor(fake.url);
      const recorded = await startRecording(transport);
      await timers.settle(transport.send(request(1, 'tools/list')));
      expect(fake.requests).toHaveLength(3);
      expect(fake.requests.map((r) => r.json.id)).toEqual([1, 1, 1]);
      expect(timers.delays[0]).toBe(2000);
      expect(timers.delays[1]).toBeGreaterThan(1000);
      expect(timers.delays[1]).toBeLessThanOrEqual(3000);
      expect(recorded.messages.map((m) => m.message.id)).toEqual([1]);
    });

    it('gives up after the retries with HttpError carrying status and retryAfterMs', async () => {
      fake = await HttpFake.start((_req, res) =>
        res.writeHead(502, { 'Retry-After': '1' }).end('<html>Bad gateway</html>'),
      );
      const transport = transportFor(fake.url);
      await startRecording(transport);
      const error = await timers.settle(transport.send(request(1, 'resources/list'))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).data).toMatchObject({
        status: 502,
        retryAfterMs: 1000,
        bodyExcerpt: '<html>Bad gateway</html>',
      });
      expect(fake.requests).toHaveLength(3);
      expect(timers.delays).toEqual([1000, 1000]);
    });

    it('does not retry a 503 on tools/call, but retries a 429 (refused before it ran)', async () => {
      fake = await HttpFake.start((_req, res) => res.writeHead(503).end());
      let transport = transportFor(fake.url);
      await startRecording(transport);
      await expect(transport.send(request(1, 'tools/call', { name: 'write' }))).rejects.toMatchObject({
        name: 'HttpError',
        data: { status: 503 },
      });
      expect(fake.requests).toHaveLength(1);

      let n = 0;
      fake.handle((req, res) =>
        ++n === 1
          ? res.writeHead(429).end()
          : sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { content: [] } }),
      );
      transport = transportFor(fake.url);
      await startRecording(transport);
      await timers.settle(transport.send(request(2, 'tools/call', { name: 'write' })));
      expect(fake.requests).toHaveLength(3);
      // Backoff without jitter: minDelayMs (500 ms).
      expect(timers.delays).toEqual([500]);
    });

    it('retries a tools/call the caller marks idempotent', async () => {
      let n = 0;
      fake = await HttpFake.start((req, res) =>
        ++n === 1
          ? res.writeHead(504).end()
          : sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { content: [] } }),
      );
      const transport = transportFor(fake.url);
      await startRecording(transport);
      await timers.settle(transport.send(request(1, 'tools/call', { name: 'read' }), { idempotent: true }));
      expect(fake.requests).toHaveLength(2);
    });

    it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
      fake = await HttpFake.start((_req, res) => res.writeHead(503, { 'Retry-After': '3600' }).end());
      const transport = transportFor(fake.url);
      await startRecording(transport);
      await expect(transport.send(request(1, 'tools/list'))).rejects.toMatchObject({
        data: { status: 503, retryAfterMs: 3_600_000 },
      });
      expect(fake.requests).toHaveLength(1);
    });

    it('retries a connection reset before any response on an idempotent request, with the same message', async () => {
      let n = 0;
      fake = await HttpFake.start((req, res) =>
        ++n === 1 ? req && res.socket?.destroy() : sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: {} }),
      );
      const transport = transportFor(fake.url);
      await startRecording(transport);
      await timers.settle(transport.send(request(4, 'prompts/list')));
      expect(fake.requests.map((r) => r.json.id)).toEqual([4, 4]);
    });

    it('a connection reset on tools/call is not retried: StreamBrokenError, phase before-response', async () => {
      fake = await HttpFake.start((_req, res) => res.socket?.destroy());
      const transport = transportFor(fake.url);
      await startRecording(transport);
      const error = await transport.send(request(4, 'tools/call', { name: 'write' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamBrokenError);
      expect((error as StreamBrokenError).data).toMatchObject({
        phase: 'before-response',
        requestId: 4,
        outcome: 'unknown',
      });
      expect(fake.requests).toHaveLength(1);
    });

    it('a refused connection is retried for every method, then fails with ConnectionClosedError', async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const transport = transportFor(`http://127.0.0.1:${port}/mcp`);
      const recorded = await startRecording(transport);
      const error = await timers
        .settle(transport.send(request(1, 'tools/call', { name: 'x' })))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect((error as ConnectionClosedError).message).toContain('ECONNREFUSED');
      expect(timers.delays).toEqual([500, 1000]);
      // A refused notification is reported, not thrown.
      await expect(
        timers.settle(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })),
      ).resolves.toBeUndefined();
      expect(recorded.errors).toHaveLength(1);
      expect(recorded.errors[0]).toBeInstanceOf(ConnectionClosedError);
    });

    it.each([
      ['a Retry-After wait', { 'Retry-After': '20' }, { maxRetryAfterMs: 60_000 }],
      ['a backoff wait of p-retry', {}, { jitter: false, minDelayMs: 20_000, maxDelayMs: 60_000 }],
    ])('cancelling during %s rejects at once with CancelledError', async (_label, headers, retry: RetryPolicy) => {
      fake = await HttpFake.start((_req, res) => res.writeHead(503, headers).end());
      const transport = transportFor(fake.url, retry);
      await startRecording(transport);
      const controller = new AbortController();
      const sent = transport.send(request(1, 'tools/list'), { signal: controller.signal });
      await fake.waitForRequests(1);
      await timers.waitFor(() => timers.pending().length === 1);
      expect(timers.pending()).toEqual([20_000]);
      controller.abort('stop');
      await expect(sent).rejects.toMatchObject({ name: 'CancelledError', cause: 'stop' });
      expect(timers.pending()).toEqual([]);
      expect(fake.requests).toHaveLength(1);
    });
  });
});
