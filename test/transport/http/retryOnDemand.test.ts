/**
 * The retry loop of an HTTP exchange (resilience/retry.ts, on p-retry) on a transport's first
 * failure the policy may retry: each test starts a transport from a fresh module graph (`vi.resetModules()`, so nothing is loaded yet), its waits
 * on fake global timers. The first attempt goes out without it; the loop then goes on from
 * attempt 2 with the policy's budget, waits and `Retry-After` as ever.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RetryPolicy } from '../../../src/resilience/retryPolicy.js';
import type { StreamableHttpTransport } from '../../../src/transport/http/streamableHttp.js';
import { HttpFake, sendJson, type HttpHandler } from '../../fakes/httpFake.js';
import { request, startRecording, type Recorded } from '../../fakes/httpHarness.js';
import { fakeRetryTimers, type RetryTimers } from '../../fakes/retryTimers.js';

/** Answers 503 to the first `busy` requests (with `headers` for each, by index), then the result. */
function busyFirst(busy: number, headers: Array<Record<string, string>> = []): HttpHandler {
  let n = 0;
  return (req, res) => {
    const index = n++;
    if (index < busy) return void res.writeHead(503, headers[index] ?? {}).end('busy');
    sendJson(res, 200, { jsonrpc: '2.0', id: req.json?.id, result: { tools: [] } });
  };
}

describe('the retry loop of an HTTP exchange, loaded with the first retryable failure', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  let timers: RetryTimers;
  beforeEach(() => {
    vi.resetModules();
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    for (const item of open.splice(0).reverse()) await item.close();
  });

  /** A started transport of `url` from fresh modules, with `retry`, its waits on fake timers. */
  async function freshTransport(
    url: string,
    retry: RetryPolicy,
  ): Promise<{ transport: StreamableHttpTransport; recorded: Recorded }> {
    const { StreamableHttpTransport } = await import('../../../src/transport/http/streamableHttp.js');
    timers = fakeRetryTimers();
    const transport = new StreamableHttpTransport(url, { retry });
    open.push(transport);
    return { transport, recorded: await startRecording(transport) };
  }

  it("a 503 on a fresh transport is sent again after the policy's first wait, with the same message", async () => {
    const fake = await HttpFake.start(busyFirst(1));
    open.push(fake);
    const { transport, recorded } = await freshTransport(fake.url, { retries: 2, minDelayMs: 1000, jitter: false });
    const sent = transport.send(request(1, 'tools/list'));
    await fake.waitForRequests(1);
    await vi.dynamicImportSettled();
    await timers.waitFor(() => timers.pending().length === 1);
    expect(timers.pending()).toEqual([1000]);
    expect(fake.requests).toHaveLength(1);
    await timers.settle(sent);
    expect(timers.delays).toEqual([1000]);
    expect(fake.requests.map((r) => r.json.id)).toEqual([1, 1]);
    expect(recorded.messages.map((m) => m.message.id)).toEqual([1]);
  });

  it('the jittered first wait is the same share of minDelayMs as ever', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const fake = await HttpFake.start(busyFirst(1));
    open.push(fake);
    const { transport } = await freshTransport(fake.url, { minDelayMs: 1000 });
    await timers.settle(transport.send(request(1, 'tools/list')));
    // p-retry's factor 1 + 0.5 times minTimeout (half of minDelayMs).
    expect(timers.delays).toEqual([750]);
    expect(fake.requests).toHaveLength(2);
  });

  it('the loop keeps its budget and its Retry-After: a wait the server names, one backoff wait, then HttpError', async () => {
    const fake = await HttpFake.start(busyFirst(5, [{ 'Retry-After': '3' }]));
    open.push(fake);
    const { transport } = await freshTransport(fake.url, { retries: 2, minDelayMs: 1000, jitter: false });
    const error = await timers.settle(transport.send(request(1, 'tools/list'))).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'HttpError', code: -33010, data: { status: 503 } });
    // Retry-After 3 s does not grow the backoff: the next wait is the first backoff wait.
    expect(timers.delays).toEqual([3000, 1000]);
    expect(fake.requests).toHaveLength(3);
  });
});
