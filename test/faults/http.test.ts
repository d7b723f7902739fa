/**
 * Misbehaving Streamable HTTP servers (node:http on 127.0.0.1), through the public API, on both
 * HTTP stacks: each call settles within a bound with the documented class and code; no
 * unhandled rejection; after `close()` no active handle is left; memory stays bounded.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  McpClient,
  StreamableHttpTransport as FetchHttpTransport,
  type ClientOptions,
  type StreamableHttpTransportOptions,
} from '../../src/index.js';
import { StreamableHttpTransport } from '../../src/node.js';
import { sseEvent, startSse, type RecordedRequest } from '../fakes/httpFake.js';
import { fakeRetryTimers, realTimers } from '../fakes/retryTimers.js';
import { expectNoLeakedHandles, expectRejects, faultProbe, settleWithin, withBoundedHeap } from './harness.js';
import { faultyServer, flood, resultFor, trickle, type MethodHandler } from './httpServers.js';

const STACKS = [
  { stack: 'node:http', Transport: StreamableHttpTransport },
  { stack: 'fetch', Transport: FetchHttpTransport },
] as const;

describe.each(STACKS)('misbehaving HTTP servers ($stack)', ({ Transport }) => {
  const probe = faultProbe();
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(
    methods: Record<string, MethodHandler>,
    options: StreamableHttpTransportOptions = {},
    clientOptions: Partial<ClientOptions> = {},
  ): Promise<{ client: McpClient; requests: RecordedRequest[]; errors: Error[]; url: string }> {
    const server = await faultyServer(methods);
    cleanups.push(() => server.close());
    const errors: Error[] = [];
    const client = new McpClient({
      transport: new Transport(server.url, { retry: { minDelayMs: 5, maxDelayMs: 10 }, ...options }),
      clientInfo: { name: 'faults', version: '0.0.0' },
      onError: (error) => errors.push(error),
      ...clientOptions,
    });
    cleanups.push(() => client.close());
    await client.connect({ timeoutMs: 5000 });
    return { client, requests: server.requests, errors, url: server.url };
  }

  async function closeAndCheck(): Promise<void> {
    for (const cleanup of cleanups.splice(0).reverse()) await settleWithin(cleanup(), 2000, 'close');
    await expectNoLeakedHandles(probe.baseline);
  }

  const calls = (requests: RecordedRequest[], method: string): number =>
    requests.filter((r) => r.json?.method === method).length;

  it('a connection reset mid-body: StreamBrokenError, outcome unknown; an idempotent list is re-issued first', async () => {
    const reset: MethodHandler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"jsonrpc":"2.0",');
      setTimeout(() => res.socket?.destroy(), 10);
    };
    const { client, requests } = await start({ 'tools/call': reset, 'prompts/list': reset });
    const error = await expectRejects(client.callTool('go', {}), 3000, { name: 'StreamBrokenError', code: -33012 });
    expect(error.data.outcome).toBe('unknown');
    expect(calls(requests, 'tools/call')).toBe(1); // a tool call may have run: never sent again
    await expectRejects(client.listPrompts(), 3000, { name: 'StreamBrokenError', code: -33012 });
    expect(calls(requests, 'prompts/list')).toBe(3); // the first try and two re-issues
    await closeAndCheck();
  });

  it('an SSE response stream dropped before the response: StreamBrokenError mid-stream', async () => {
    const { client } = await start({
      'tools/call': (request, res) => {
        const token = request.json.params._meta?.progressToken ?? request.json.id;
        startSse(res, [
          sseEvent({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1 } }),
        ]);
        setTimeout(() => res.socket?.destroy(), 20);
      },
    });
    const error = await expectRejects(client.callTool('go', {}), 3000, { name: 'StreamBrokenError', code: -33012 });
    expect(error.data).toMatchObject({ phase: 'mid-stream', outcome: 'unknown' });
    await closeAndCheck();
  });

  it('503 with Retry-After: an idempotent list waits what the server asked, then succeeds; a tool call is not retried', async () => {
    let refusals = 0;
    const busy: MethodHandler = (request, res) => {
      if (request.json.method === 'prompts/list' && refusals++ >= 2) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id: request.json.id, result: { resultType: 'complete', prompts: [] } }),
        );
        return;
      }
      res.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain' }).end('busy');
    };
    // The client's own timeouts keep real time; the waits between retries run on fake timers.
    const { client, requests } = await start(
      { 'prompts/list': busy, 'tools/call': busy },
      { retry: {} },
      { timers: realTimers },
    );
    const timers = fakeRetryTimers(3000);
    const listed = await timers.settle(client.listPrompts());
    expect(listed.prompts).toEqual([]);
    expect(timers.delays).toEqual([1000, 1000]);
    vi.useRealTimers();
    const error = await expectRejects(client.callTool('go', {}), 3000, { name: 'HttpError', code: -33010 });
    expect(error.data).toMatchObject({ status: 503, retryAfterMs: 1000 });
    expect(calls(requests, 'tools/call')).toBe(1);
    await closeAndCheck();
  });

  it('slowloris: no headers ever, or a body trickled a byte at a time, ends in TimeoutError at the idle bound', async () => {
    const { client } = await start({
      'tools/call': () => {}, // headers never come
      'prompts/list': (_request, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        trickle(res, ' ', 20);
      },
    });
    await expectRejects(client.callTool('go', {}, { timeoutMs: 200 }), 1500, { name: 'TimeoutError', code: -32001 });
    await expectRejects(client.listPrompts({}, { timeoutMs: 200 }), 1500, { name: 'TimeoutError', code: -32001 });
    await closeAndCheck();
  });

  it('a wrong content type is HttpError content-type; a body that is not JSON is ProtocolError -32700', async () => {
    const { client } = await start({
      'tools/call': (_request, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
      },
      'prompts/list': (_request, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0", oops');
      },
    });
    const error = await expectRejects(client.callTool('go', {}), 2000, { name: 'HttpError', code: -33010 });
    expect(error.data).toMatchObject({ problem: 'content-type', bodyExcerpt: '<html>login</html>' });
    await expectRejects(client.listPrompts(), 2000, { name: 'ProtocolError', code: -32700 });
    await closeAndCheck();
  });

  it('a JSON body for another id is ProtocolError -32600, never delivered to the wrong call', async () => {
    const { client } = await start({
      'tools/call': (request, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(resultFor({ ...request, json: { ...request.json, id: 424242 } }));
      },
    });
    await expectRejects(client.callTool('go', {}), 2000, { name: 'ProtocolError', code: -32600 });
    await closeAndCheck();
  });

  it('an endless JSON body stops at maxBodyBytes: ProtocolError -32700, memory bounded', async () => {
    const { client } = await start(
      {
        'tools/call': (_request, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"');
          flood(res, 'x'.repeat(64 * 1024));
        },
        'prompts/list': (_request, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 ** 3) });
          res.write('{');
        },
      },
      { maxBodyBytes: 4 * 1024 * 1024 },
    );
    await withBoundedHeap(48, async () => {
      const error = await expectRejects(client.callTool('go', {}), 3000, { name: 'ProtocolError', code: -32700 });
      expect(error.data.value).toMatchObject({ maxBodyBytes: 4 * 1024 * 1024 });
    });
    // A Content-Length over the limit fails before a byte of the body is read.
    const declared = await expectRejects(client.listPrompts(), 1000, { name: 'ProtocolError', code: -32700 });
    expect(declared.data.value).toEqual({ maxBodyBytes: 4 * 1024 * 1024, received: 10 * 1024 ** 3 });
    await closeAndCheck();
  });

  it('an endless SSE event stops at maxEventChars: ProtocolError -32700, memory bounded', async () => {
    const { client } = await start(
      {
        'tools/call': (_request, res) => {
          startSse(res, ['event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"x":"']);
          flood(res, 'y'.repeat(64 * 1024));
        },
      },
      { maxEventChars: 2 * 1024 * 1024 },
    );
    await withBoundedHeap(48, () =>
      expectRejects(client.callTool('go', {}), 3000, { name: 'ProtocolError', code: -32700 }),
    );
    await closeAndCheck();
  });

  it('a flood of 20000 SSE notifications before the response: answered, memory bounded', async () => {
    let logs = 0;
    const { client } = await start({
      'tools/call': (request, res) => {
        const note = sseEvent({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'info', data: 'x' },
        });
        startSse(res, [note.repeat(20_000), `event: message\ndata: ${resultFor(request)}\n\n`]);
        res.end();
      },
    });
    await withBoundedHeap(64, async () => {
      const result = await settleWithin(client.callTool('go', {}, { logLevel: 'info', onLog: () => logs++ }), 10_000);
      expect(result.status).toBe('fulfilled');
    });
    expect(logs).toBe(20_000);
    await closeAndCheck();
  });

  it('a redirect loop ends after maxRedirects with HttpError redirect', async () => {
    const { client, requests, url } = await start({
      'tools/call': (_request, res) => res.writeHead(307, { location: new URL(url).pathname }).end(),
    });
    const error = await expectRejects(client.callTool('go', {}), 2000, { name: 'HttpError', code: -33010 });
    expect(error.data.problem).toBe('redirect');
    expect(calls(requests, 'tools/call')).toBe(4); // the POST and 3 same-origin redirects
    await closeAndCheck();
  });

  it('a cross-origin redirect is not followed: the Authorization never reaches the other origin', async () => {
    const elsewhere = await faultyServer({});
    cleanups.push(() => elsewhere.close());
    const { client } = await start(
      { 'tools/call': (_request, res) => res.writeHead(307, { location: elsewhere.url }).end() },
      { headers: { Authorization: 'Bearer secret-token' } },
    );
    const error = await expectRejects(client.callTool('go', {}), 2000, { name: 'HttpError', code: -33010 });
    expect(error.data).toMatchObject({ problem: 'redirect', location: elsewhere.url });
    expect(JSON.stringify(error.data)).not.toContain('secret-token');
    expect(elsewhere.requests).toHaveLength(0);
    await closeAndCheck();
  });
});
