/**
 * LegacySseTransport (HTTP+SSE, 2024-11-05) against scripted servers on 127.0.0.1: the
 * endpoint event and its resolution, misbehaving servers, POST acknowledgments, the stream
 * ending, close.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LegacySseTransport } from '../../../../src/transport/http/legacy/legacySse.js';
import { type LegacySseTransportOptions } from '../../../../src/transport/http/legacy/sseOptions.js';
import { SseEndpointError } from '../../../../src/transport/http/legacy/sseEndpoint.js';
import type { TransportCloseInfo, TransportHandlers } from '../../../../src/transport/transport.js';
import type { Timers } from '../../../../src/util/clock.js';
import { HttpFake, startSse, type RecordedRequest } from '../../../fakes/httpFake.js';

const fakes: HttpFake[] = [];
const transports: LegacySseTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

/** Handlers that record what the transport reports. */
function recorder(): TransportHandlers & { messages: unknown[]; errors: Error[]; closes: TransportCloseInfo[] } {
  const messages: unknown[] = [];
  const errors: Error[] = [];
  const closes: TransportCloseInfo[] = [];
  return {
    messages,
    errors,
    closes,
    onMessage: (m) => messages.push(m),
    onError: (e) => errors.push(e),
    onClose: (info) => closes.push(info),
  };
}

/**
 * A scripted HTTP+SSE server: `GET` writes `opening` on an open SSE stream (kept in `stream`);
 * `POST` is answered by `post` (default 202).
 */
async function sseServer(
  opening: string[],
  post?: (request: RecordedRequest, res: ServerResponse) => void,
  path = '/sse',
): Promise<HttpFake & { stream(): ServerResponse | undefined }> {
  let stream: ServerResponse | undefined;
  const fake = await HttpFake.start((request, res) => {
    if (request.method === 'GET') {
      stream = res;
      startSse(res, opening);
      return;
    }
    if (post !== undefined) post(request, res);
    else res.writeHead(202).end('Accepted');
  }, path);
  fakes.push(fake);
  return Object.assign(fake, { stream: () => stream });
}

function transport(url: string, options: LegacySseTransportOptions = {}): LegacySseTransport {
  const t = new LegacySseTransport(url, options);
  transports.push(t);
  return t;
}

const endpoint = (data: string) => `event: endpoint\ndata: ${data}\n\n`;
const message = (value: unknown) => `event: message\ndata: ${JSON.stringify(value)}\n\n`;
const REQUEST = { jsonrpc: '2.0' as const, id: 1, method: 'tools/list' };
const NOTIFICATION = { jsonrpc: '2.0' as const, method: 'notifications/initialized' };

describe('LegacySseTransport: the endpoint event', () => {
  it('resolves a relative endpoint against the SSE URL (RFC 3986) and POSTs there', async () => {
    const fake = await sseServer([endpoint('messages?session=a%20b')], undefined, '/mcp/sse');
    const t = transport(fake.url);
    await t.start(recorder());
    expect(t.endpoint).toBe(`${new URL(fake.url).origin}/mcp/messages?session=a%20b`);
    await t.send(REQUEST);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /mcp/sse',
      'POST /mcp/messages?session=a%20b',
    ]);
    expect(fake.requests[0]?.headers['accept']).toBe('text/event-stream');
    expect(fake.requests[1]?.headers['content-type']).toBe('application/json');
    expect(fake.requests[1]?.json).toEqual(REQUEST);
  });

  it('takes an absolute endpoint on the same origin, and a path-absolute one', async () => {
    for (const data of [(url: string) => `${new URL(url).origin}/post?x=1`, () => '/post?x=1']) {
      const fake = await sseServer([]);
      fake.handle((request, res) =>
        request.method === 'GET' ? startSse(res, [endpoint(data(fake.url))]) : res.writeHead(202).end(),
      );
      const t = transport(fake.url);
      await t.start(recorder());
      expect(t.endpoint).toBe(`${new URL(fake.url).origin}/post?x=1`);
    }
  });

  it('refuses an endpoint on another origin, with the offending value, and ends the stream', async () => {
    const fake = await sseServer([endpoint('http://evil.example:8080/steal')]);
    const error = await transport(fake.url)
      .start(recorder())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SseEndpointError);
    expect(error).toMatchObject({
      code: -32600,
      data: {
        method: 'GET',
        problem: 'cross-origin',
        value: 'http://evil.example:8080/steal',
        resolved: 'http://evil.example:8080/steal',
      },
    });
    await vi.waitFor(() => expect(fake.open.size).toBe(0));
    expect(fake.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('refuses a stream with no event, one whose first event is not endpoint, and an endpoint that is not an http(s) URI', async () => {
    const cases: Array<[string[], string, unknown]> = [
      [[': just a comment\n\n'], 'missing', undefined],
      [[message({ jsonrpc: '2.0', method: 'notifications/message', params: {} })], 'not-first', { type: 'message' }],
      [[endpoint('ftp://127.0.0.1/x')], 'invalid', 'ftp://127.0.0.1/x'],
      [[endpoint('http://user:pw@127.0.0.1/x')], 'invalid', 'http://user:pw@127.0.0.1/x'],
    ];
    for (const [opening, problem, value] of cases) {
      const fake = await sseServer([]);
      fake.handle((_request, res) => {
        startSse(res, opening);
        res.end();
      });
      const error = await transport(fake.url)
        .start(recorder())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SseEndpointError);
      expect((error as SseEndpointError).data.problem).toBe(problem);
      if (typeof value === 'object') expect((error as SseEndpointError).data.value).toMatchObject(value as object);
      else expect((error as SseEndpointError).data.value).toBe(value);
    }
  });

  it('gives up with TimeoutError when no endpoint event comes within endpointTimeoutMs (injected timers)', async () => {
    const fake = await sseServer([': waiting\n\n']);
    const pending: Array<{ callback: () => void; ms: number }> = [];
    const timers: Timers = { setTimeout: (callback, ms) => pending.push({ callback, ms }), clearTimeout: () => {} };
    const started = transport(fake.url, { timers, endpointTimeoutMs: 2500 }).start(recorder());
    await vi.waitFor(() => expect(fake.open.size).toBe(1));
    expect(pending.map((p) => p.ms)).toEqual([2500]);
    pending[0]!.callback();
    await expect(started).rejects.toMatchObject({
      name: 'TimeoutError',
      code: -32001,
      data: { method: 'GET', timeoutMs: 2500 },
    });
    await vi.waitFor(() => expect(fake.open.size).toBe(0));
  });

  it('a refused GET is an HttpError with the status; a non-SSE answer names the content type', async () => {
    const fake = await sseServer([]);
    fake.handle((_r, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<pre>Cannot GET /sse</pre>'));
    await expect(transport(fake.url).start(recorder())).rejects.toMatchObject({
      name: 'HttpError',
      code: -33010,
      data: { status: 404, method: 'GET', problem: 'status', bodyExcerpt: '<pre>Cannot GET /sse</pre>' },
    });
    fake.handle((_r, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
    await expect(transport(fake.url).start(recorder())).rejects.toMatchObject({
      name: 'HttpError',
      data: { status: 200, problem: 'content-type' },
    });
  });

  it("the caller's abort while waiting for the endpoint rejects with CancelledError", async () => {
    const fake = await sseServer([]);
    const controller = new AbortController();
    const opened = transport(fake.url).open(recorder(), controller.signal, undefined);
    await vi.waitFor(() => expect(fake.open.size).toBe(1));
    controller.abort('stop');
    await expect(opened).rejects.toMatchObject({ name: 'CancelledError', code: -32800 });
  });

  it('a second endpoint event is reported and ignored', async () => {
    const fake = await sseServer([endpoint('/one')]);
    const handlers = recorder();
    const t = transport(fake.url);
    await t.start(handlers);
    fake.stream()?.write(endpoint('/two'));
    await vi.waitFor(() =>
      expect(handlers.errors.map((e) => e.message)).toEqual(['GET: a second endpoint event was ignored']),
    );
    expect(t.endpoint).toMatch(/\/one$/);
  });
});

describe('LegacySseTransport: messages, POSTs, close', () => {
  it('hands up message events in order; skips other types and reports data that is not JSON-RPC', async () => {
    const fake = await sseServer([endpoint('/messages')]);
    const handlers = recorder();
    await transport(fake.url).start(handlers);
    fake
      .stream()
      ?.write(
        `${message({ jsonrpc: '2.0', id: 1, result: {} })}event: ping\ndata: {}\n\nevent: message\ndata: not json\n\n${message({ type: 'heartbeat' })}${message({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })}`,
      );
    await vi.waitFor(() => expect(handlers.messages.length).toBe(2));
    expect(handlers.messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
    ]);
    expect(handlers.errors.map((e) => e.name)).toEqual(['ProtocolError', 'ProtocolError']);
  });

  it('POST not 2xx: a request rejects with HttpError; a notification resolves and reports it; 200 counts as accepted', async () => {
    let status = 500;
    const fake = await sseServer([endpoint('/messages')], (_r, res) =>
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'Internal oops'),
    );
    const handlers = recorder();
    const t = transport(fake.url);
    await t.start(handlers);
    await expect(t.send(REQUEST)).rejects.toMatchObject({
      name: 'HttpError',
      code: -33010,
      data: { status: 500, method: 'tools/list', bodyExcerpt: 'Internal oops' },
    });
    await t.send(NOTIFICATION);
    expect(handlers.errors).toHaveLength(1);
    expect(handlers.errors[0]).toMatchObject({
      name: 'HttpError',
      data: { status: 500, method: 'notifications/initialized' },
    });
    status = 200;
    await t.send(REQUEST);
    expect(handlers.errors).toHaveLength(1);
    expect(handlers.closes).toEqual([]);
  });

  it('the stream ending closes the transport: onClose once (not by the client); sends then fail with ConnectionClosedError', async () => {
    const fake = await sseServer([endpoint('/messages')]);
    const handlers = recorder();
    const t = transport(fake.url);
    await t.start(handlers);
    fake.stream()?.end();
    await vi.waitFor(() => expect(handlers.closes).toHaveLength(1));
    expect(handlers.closes[0]).toMatchObject({ reason: 'the HTTP+SSE stream ended', initiatedByClient: false });
    await expect(t.send(REQUEST)).rejects.toMatchObject({ name: 'ConnectionClosedError', code: -32000 });
    await t.close();
    expect(handlers.closes).toHaveLength(1);
  });

  it('the stream failing (connection reset) closes it too, with the cause', async () => {
    const fake = await sseServer([endpoint('/messages')]);
    const handlers = recorder();
    await transport(fake.url).start(handlers);
    fake.stream()?.destroy();
    await vi.waitFor(() => expect(handlers.closes).toHaveLength(1));
    expect(handlers.closes[0]).toMatchObject({ initiatedByClient: false });
    expect(handlers.closes[0]?.reason).toMatch(/^the HTTP\+SSE stream (ended|failed)$/);
  });

  it('close() aborts the stream and a POST in flight, and calls onClose once', async () => {
    const fake = await sseServer([endpoint('/messages')], () => {
      // Never answers the POST.
    });
    const handlers = recorder();
    const t = transport(fake.url);
    await t.start(handlers);
    const sent = t.send(REQUEST);
    await vi.waitFor(() => expect(fake.requests.length).toBe(2));
    await t.close();
    await t.close();
    await expect(sent).rejects.toMatchObject({ name: 'ConnectionClosedError' });
    expect(handlers.closes).toEqual([{ reason: 'closed by client', initiatedByClient: true }]);
    await vi.waitFor(() => expect(fake.open.size).toBe(0));
  });

  it('sends the static headers and the Authorization of authProvider on the GET and every POST; retries a 401 once with a new credential', async () => {
    const fake = await sseServer([]);
    fake.handle((request, res) => {
      if (request.headers['authorization'] !== 'Bearer fresh') {
        res.writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token"' }).end();
        return;
      }
      if (request.method === 'GET') startSse(res, [endpoint('/messages')]);
      else res.writeHead(202).end();
    });
    const attempts: number[] = [];
    const t = transport(fake.url, {
      headers: { 'X-Api-Key': 'k1' },
      authProvider: ({ attempt }) => {
        attempts.push(attempt);
        return attempt === 1 && attempts.length === 1 ? 'Bearer stale' : 'Bearer fresh';
      },
    });
    await t.start(recorder());
    await t.send(NOTIFICATION);
    expect(attempts).toEqual([1, 2, 1]);
    expect(fake.requests.map((r) => [r.method, r.headers['authorization'], r.headers['x-api-key']])).toEqual([
      ['GET', 'Bearer stale', 'k1'],
      ['GET', 'Bearer fresh', 'k1'],
      ['POST', 'Bearer fresh', 'k1'],
    ]);
    const pinned = await t.credentialFor();
    expect(pinned.id).toMatch(/^credential:[0-9a-f]{32}$/);
    expect(attempts).toEqual([1, 2, 1, 1]);
    await t.send(NOTIFICATION, { credential: pinned });
    expect(attempts).toEqual([1, 2, 1, 1]); // the pinned credential is sent, the provider not asked again
  });

  it('a 401 on the GET without a new credential is an HttpAuthError', async () => {
    const fake = await sseServer([]);
    fake.handle((_r, res) =>
      res
        .writeHead(401, {
          'WWW-Authenticate': 'Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource"',
        })
        .end(),
    );
    await expect(transport(fake.url).start(recorder())).rejects.toMatchObject({
      name: 'HttpAuthError',
      code: -33011,
      data: { status: 401, method: 'GET', failure: 'unauthorized' },
    });
  });

  it('rejects bad construction arguments with InvalidArgumentError', () => {
    expect(() => new LegacySseTransport('ws://127.0.0.1/sse')).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => new LegacySseTransport('http://u:p@127.0.0.1/sse')).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => new LegacySseTransport('http://127.0.0.1/sse', { endpointTimeoutMs: 0 })).toThrow(
      expect.objectContaining({ code: -32602, data: { name: 'endpointTimeoutMs', value: 0 } }),
    );
  });

  it('send before start and after close rejects with ConnectionClosedError; start twice is refused', async () => {
    const fake = await sseServer([endpoint('/messages')]);
    const t = transport(fake.url);
    await expect(t.send(REQUEST)).rejects.toMatchObject({
      name: 'ConnectionClosedError',
      data: { reason: 'transport not started' },
    });
    await t.start(recorder());
    await expect(t.start(recorder())).rejects.toMatchObject({ code: -32603 });
    await t.close();
    await expect(t.send(REQUEST)).rejects.toMatchObject({ name: 'ConnectionClosedError' });
  });
});
