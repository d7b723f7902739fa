/**
 * Streamable HTTP SSE responses: B23 multi-line data, B24 keep-alive traffic, request-scoped
 * notifications, broken streams, cancellation by closing the stream, and an idle listen stream.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../../src/client/client.js';
import { CancelledError, ProtocolError, TimeoutError } from '../../../src/errors/errors.js';
import { JsonRpcSession } from '../../../src/jsonrpc/session.js';
import { isStreamBrokenError, StreamBrokenError } from '../../../src/transport/transportErrors.js';
import { systemTimers } from '../../../src/util/clock.js';
import { answerDiscover, HttpFake, sendJson, sseEvent, startSse } from '../../fakes/httpFake.js';
import { request, startRecording } from '../../fakes/httpHarness.js';
import { httpTestBed } from '../../fakes/httpTestBed.js';
import { HTTP_PATHS } from '../../fakes/httpPaths.js';

describe.each(HTTP_PATHS)('$path path', ({ Transport: StreamableHttpTransport }) => {
  const { serve, transportFor, closeLater } = httpTestBed(StreamableHttpTransport);
  // Registered after the test bed, so it runs first: the clean-up runs on real timers.
  afterEach(() => {
    vi.useRealTimers();
  });
  let fake: HttpFake | undefined;

  async function connectedClient(url: string, onError: (error: Error) => void = () => {}): Promise<McpClient> {
    const client = new McpClient({
      transport: transportFor(url),
      clientInfo: { name: 'sse-tests', version: '0.0.0' },
      onError,
    });
    closeLater(() => client.close());
    await client.connect();
    return client;
  }

  const OK_RESULT = { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] };

  describe('Streamable HTTP: SSE responses', () => {
    it.each([
      [
        'two data: lines',
        (id: number) => [
          `data: {"jsonrpc":"2.0","id":${id},\n`,
          `data: "result":${JSON.stringify(OK_RESULT)}}\n`,
          '\n',
        ],
      ],
      [
        'data: without a space',
        (id: number) => [`data:{"jsonrpc":"2.0","id":${id},\n`, `data:"result":${JSON.stringify(OK_RESULT)}}\n\n`],
      ],
      [
        'an explicit event: message',
        (id: number) => [
          `event: message\ndata: {"jsonrpc":"2.0","id":${id},\ndata: "result":${JSON.stringify(OK_RESULT)}}\n\n`,
        ],
      ],
      [
        'no blank line before EOF',
        (id: number) => [`data: {"jsonrpc":"2.0","id":${id},\n`, `data: "result":${JSON.stringify(OK_RESULT)}}\n`],
      ],
      [
        'no newline at all before EOF',
        (id: number) => [`data: {"jsonrpc":"2.0","id":${id},\ndata: "result":${JSON.stringify(OK_RESULT)}}`],
      ],
    ])('B23: %s → one message, the call resolves', async (_name, chunks) => {
      fake = await serve((req, res) => {
        if (answerDiscover(req, res)) return;
        startSse(res);
        for (const chunk of chunks(req.json.id)) res.write(chunk);
        res.end();
      });
      const errors: Error[] = [];
      const client = await connectedClient(fake.url, (e) => errors.push(e));
      const result = await client.callTool('echo', { text: 'ok' });
      expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
      expect(errors).toEqual([]);
    });

    it('B23: a stream that ends after a truncated event rejects promptly with StreamBrokenError', async () => {
      fake = await serve((req, res) => {
        if (answerDiscover(req, res)) return;
        startSse(res, [`data: {"jsonrpc":"2.0","id":${req.json.id},\n`]);
        res.end();
      });
      const errors: Error[] = [];
      const client = await connectedClient(fake.url, (e) => errors.push(e));
      const error = await client.callTool('echo', {}, { timeoutMs: 60_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamBrokenError);
      expect((error as StreamBrokenError).data).toMatchObject({
        method: 'tools/call',
        phase: 'mid-stream',
        outcome: 'unknown',
        eventsReceived: 1,
      });
      expect(errors.some((e) => e instanceof ProtocolError && e.message.includes('not JSON'))).toBe(true);
    });

    it('B24: comments, a priming event, ping/keepalive events and a heartbeat do not disturb the call', async () => {
      fake = await serve((req, res) => {
        if (answerDiscover(req, res)) return;
        if (req.json.method === 'tools/list') {
          sendJson(res, 200, { jsonrpc: '2.0', id: req.json.id, result: { resultType: 'complete', tools: [] } });
          return;
        }
        startSse(res, [
          ': keepalive\n\n',
          'id: evt-0\ndata:\n\n',
          'event: ping\ndata: 2026-09-01 00:00:00\n\n',
          'event: keepalive\ndata: {}\n\n',
          'data: {"type":"heartbeat"}\n\n',
          `event: message\ndata: {"jsonrpc":"2.0","id":${req.json.id},"result":{"resultType":"complete","content":[]}}\n\n`,
        ]);
        res.end();
      });
      const errors: Error[] = [];
      const client = await connectedClient(fake.url, (e) => errors.push(e));
      await expect(client.callTool('t', {})).resolves.toMatchObject({ content: [] });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(ProtocolError);
      expect(errors[0]!.message).toContain('not a JSON-RPC message');
      expect(client.state).toBe('open');
      await expect(client.listTools()).resolves.toMatchObject({ tools: [] });
    });

    it('delivers progress and log notifications of a request stream to that call, then closes the stream', async () => {
      let streamClosed: Promise<void> | undefined;
      fake = await serve((req, res) => {
        if (answerDiscover(req, res)) return;
        const id = req.json.id;
        streamClosed = new Promise((resolve) => res.on('close', () => resolve()));
        startSse(res, [
          sseEvent({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: req.json.params._meta.progressToken, progress: 1, total: 2 },
          }),
          sseEvent({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } }),
          sseEvent({ jsonrpc: '2.0', id, result: OK_RESULT }),
        ]);
        // The server keeps the stream open: the client closes it once the response arrived.
      });
      const progress: unknown[] = [];
      const logs: unknown[] = [];
      const client = await connectedClient(fake.url);
      const result = await client.callTool(
        'echo',
        {},
        { onProgress: (p) => progress.push(p), logLevel: 'info', onLog: (m) => logs.push(m) },
      );
      expect(result.content).toEqual(OK_RESULT.content);
      expect(progress).toEqual([{ progress: 1, total: 2 }]);
      expect(logs).toEqual([{ level: 'info', data: 'working' }]);
      await streamClosed;
    });

    it('a stream that breaks after progress rejects with StreamBrokenError (mid-stream, outcome unknown)', async () => {
      fake = await serve((req, res) => {
        startSse(res, [
          sseEvent({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }),
        ]);
        setTimeout(() => res.socket?.destroy(), 20);
        void req;
      });
      const transport = transportFor(fake.url);
      const recorded = await startRecording(transport);
      const error = await transport.send(request(5, 'tools/call', { name: 'slow' })).catch((e: unknown) => e);
      expect(isStreamBrokenError(error)).toBe(true);
      expect((error as StreamBrokenError).data).toEqual({
        method: 'tools/call',
        requestId: 5,
        phase: 'mid-stream',
        reason: expect.stringContaining('response stream'),
        eventsReceived: 1,
        outcome: 'unknown',
      });
      expect(recorded.messages.map((m) => m.context)).toEqual([{ relatedRequestId: 5 }]);
      expect(recorded.closes).toEqual([]);
    });

    it('cancellation closes the response stream and sends no notifications/cancelled', async () => {
      let closed!: () => void;
      const streamClosed = new Promise<void>((resolve) => (closed = resolve));
      fake = await serve((req, res) => {
        if (answerDiscover(req, res)) return;
        res.on('close', () => closed());
        startSse(res, [': started\n\n']);
      });
      const client = await connectedClient(fake.url);
      const controller = new AbortController();
      const call = client.callTool('slow', {}, { signal: controller.signal });
      await fake.waitForRequests(2);
      controller.abort('user');
      await expect(call).rejects.toBeInstanceOf(CancelledError);
      await streamClosed;
      expect(fake.requests.map((r) => r.json.method)).toEqual(['server/discover', 'tools/call']);
    });

    it('a timeout through the session also closes the stream, and sends nothing else', async () => {
      let closed!: () => void;
      const streamClosed = new Promise<void>((resolve) => (closed = resolve));
      fake = await serve((_req, res) => {
        res.on('close', () => closed());
        startSse(res);
      });
      const session = new JsonRpcSession({
        transport: transportFor(fake.url),
        timers: systemTimers,
        onNotification: () => {},
        onError: () => {},
      });
      closeLater(() => session.close());
      await session.start();
      // Long enough that the POST reaches the server before the timeout even on a loaded machine
      // (a timeout before the request is sent leaves no stream to close).
      await expect(
        session.request(
          'tools/call',
          { name: 'slow' },
          { timeoutMs: 1000, maxTotalTimeoutMs: 1000, resetTimeoutOnProgress: false },
        ),
      ).rejects.toBeInstanceOf(TimeoutError);
      await streamClosed;
      expect(fake.requests).toHaveLength(1);
    });

    it('B24 idle: a listen stream that only receives ":\\r\\n\\r\\n" every 15 s for 10 minutes stays open', async () => {
      vi.useFakeTimers();
      const encoder = new TextEncoder();
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      const fetch = vi.fn(
        async () => new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
      );
      const transport = transportFor('http://127.0.0.1:9/mcp', { fetch });
      const recorded = await startRecording(transport);
      let settled = false;
      const listen = transport
        .send(request(11, 'subscriptions/listen', { notifications: { toolsListChanged: true } }))
        .finally(() => (settled = true));
      const ack = {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 11 }, notifications: { toolsListChanged: true } },
      };
      controller.enqueue(encoder.encode(sseEvent(ack)));
      for (let i = 0; i < 40; i++) {
        await vi.advanceTimersByTimeAsync(15_000);
        controller.enqueue(encoder.encode(':\r\n\r\n'));
      }
      await vi.advanceTimersByTimeAsync(1000);
      expect(settled).toBe(false);
      expect(recorded.errors).toEqual([]);
      expect(recorded.closes).toEqual([]);
      const changed = {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 11 } },
      };
      controller.enqueue(encoder.encode(sseEvent(changed)));
      controller.enqueue(
        encoder.encode(
          sseEvent({
            jsonrpc: '2.0',
            id: 11,
            result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 11 } },
          }),
        ),
      );
      await listen;
      expect(recorded.messages.map((m) => [m.message.method ?? 'response', m.context?.relatedRequestId])).toEqual([
        ['notifications/subscriptions/acknowledged', 11],
        ['notifications/tools/list_changed', 11],
        ['response', 11],
      ]);
      expect(fetch).toHaveBeenCalledTimes(1);
    });

    it('a listen response with JSON instead of SSE is still the response', async () => {
      fake = await serve((req, res) =>
        sendJson(res, 200, {
          jsonrpc: '2.0',
          id: req.json.id,
          error: { code: -32603, message: 'Subscription limit reached' },
        }),
      );
      const transport = transportFor(fake.url);
      const recorded = await startRecording(transport);
      await transport.send(request(3, 'subscriptions/listen', { notifications: {} }));
      expect(recorded.messages[0]?.message.error.code).toBe(-32603);
    });
  });
});
