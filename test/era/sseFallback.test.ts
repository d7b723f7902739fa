/**
 * The last fallback over HTTP: the deprecated HTTP+SSE transport (spec 2026-07-28:
 * basic/transports/streamable-http, Backward Compatibility). The pure connector loop with
 * scripted hooks, then McpClient over a StreamableHttpTransport against scripted HTTP servers.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import { negotiateEra, type EraDeps, type EraSettings } from '../../src/era/connector.js';
import type { EraVerdict } from '../../src/era/era.js';
import { EraDetectionError } from '../../src/era/errors.js';
import { isSseFallbackCue } from '../../src/era/eraProbe.js';
import type { LegacyHandshake } from '../../src/era/handshake.js';
import type { DiscoverResult } from '../../src/wire/protocol.js';
import { ConnectionClosedError, RpcError, TimeoutError } from '../../src/errors/errors.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { SseEndpointError } from '../../src/transport/http/legacy/sseEndpoint.js';
import { HttpAuthError, HttpError, type HttpErrorData } from '../../src/transport/transportErrors.js';
import { HttpFake, sendJson, startSse, type RecordedRequest } from '../fakes/httpFake.js';

const HANDSHAKE: LegacyHandshake = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  serverInfo: { name: 'old', version: '1' },
  instructions: undefined,
  result: {},
};

function httpError(status: number, method: string, extra: Partial<HttpErrorData> = {}): HttpError {
  return new HttpError({
    status,
    method,
    url: 'http://h/sse',
    contentType: 'text/html',
    bodyExcerpt: '',
    problem: 'status',
    ...extra,
  });
}

type Step = 'discover' | 'initialize' | 'sse';

/** Hooks that answer from scripts and record each call. */
function hooks(script: {
  discover?: Error[];
  initialize?: Array<LegacyHandshake | Error>;
  sse?: Array<LegacyHandshake | Error> | false;
}): EraDeps & { calls: Step[] } {
  const queues = {
    discover: [...(script.discover ?? [])],
    initialize: [...(script.initialize ?? [])],
    sse: script.sse === false ? [] : [...(script.sse ?? [])],
  };
  const calls: Step[] = [];
  const next = <T>(step: Step, queue: Array<T | Error>): Promise<T> => {
    calls.push(step);
    const item = queue.shift();
    if (item === undefined) return Promise.reject(new Error(`unscripted ${step}`));
    return item instanceof Error ? Promise.reject(item) : Promise.resolve(item);
  };
  return {
    calls,
    discover: () => next<DiscoverResult>('discover', queues.discover),
    initialize: () => next('initialize', queues.initialize),
    ...(script.sse !== false && { initializeOverSse: () => next('sse', queues.sse) }),
  };
}

function settings(overrides: Partial<EraSettings> = {}): EraSettings {
  return {
    era: 'auto',
    memory: new Map<string, EraVerdict>(),
    serverIdentity: 'http://h/sse',
    modernVersions: ['2026-07-28'],
    legacyVersions: ['2025-11-25'],
    probeTimeoutMs: undefined,
    ...overrides,
  };
}

describe('isSseFallbackCue', () => {
  it('is true for 400, 404, 405 without a recognised modern error; false otherwise', () => {
    expect(isSseFallbackCue(httpError(404, 'initialize'))).toBe(true);
    expect(isSseFallbackCue(httpError(405, 'initialize'))).toBe(true);
    expect(isSseFallbackCue(httpError(400, 'initialize'))).toBe(true);
    expect(isSseFallbackCue(new RpcError({ code: -32000, message: 'Bad Request' }, 'initialize', 400))).toBe(true);
    expect(isSseFallbackCue(httpError(500, 'initialize'))).toBe(false);
    expect(isSseFallbackCue(httpError(410, 'initialize'))).toBe(false);
    expect(isSseFallbackCue(new RpcError({ code: -32020, message: 'Header mismatch' }, 'initialize', 400))).toBe(false);
    expect(isSseFallbackCue(new RpcError({ code: -32601, message: 'Method not found' }, 'initialize', 404))).toBe(
      false,
    );
    expect(
      isSseFallbackCue(
        httpError(400, 'initialize', { rpcError: { code: -32022, message: 'Unsupported protocol version' } }),
      ),
    ).toBe(false);
    expect(isSseFallbackCue(new RpcError({ code: -32601, message: 'Method not found' }, 'initialize'))).toBe(false);
    expect(isSseFallbackCue(new TimeoutError({ method: 'initialize', timeoutMs: 1, kind: 'idle' }))).toBe(false);
  });
});

describe('negotiateEra: the HTTP+SSE fallback', () => {
  it('auto: probe and initialize refused with 404, then HTTP+SSE; remembered as legacy-sse', async () => {
    const s = settings();
    const h = hooks({
      discover: [httpError(404, 'server/discover')],
      initialize: [httpError(404, 'initialize')],
      sse: [HANDSHAKE],
    });
    expect(await negotiateEra(s, h)).toEqual({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      handshake: HANDSHAKE,
      viaSse: true,
    });
    expect(h.calls).toEqual(['discover', 'initialize', 'sse']);
    expect(s.memory.get('http://h/sse')).toBe('legacy-sse');
  });

  it('remembered legacy-sse: straight to HTTP+SSE; if that fails, forgotten and probed again', async () => {
    const s = settings();
    s.memory.set('http://h/sse', 'legacy-sse');
    const straight = hooks({ sse: [HANDSHAKE] });
    expect((await negotiateEra(s, straight)).era).toBe('legacy');
    expect(straight.calls).toEqual(['sse']);
    const moved = hooks({
      sse: [httpError(404, 'GET')],
      discover: [httpError(404, 'server/discover')],
      initialize: [HANDSHAKE],
    });
    expect(await negotiateEra(s, moved)).toEqual({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      handshake: HANDSHAKE,
    });
    expect(moved.calls).toEqual(['sse', 'discover', 'initialize']);
    expect(s.memory.get('http://h/sse')).toBe('legacy');
  });

  it('era "legacy": initialize, then HTTP+SSE after a 405; no probe, no memory', async () => {
    const memory = new Map<string, EraVerdict>();
    const h = hooks({ initialize: [httpError(405, 'initialize')], sse: [HANDSHAKE] });
    expect((await negotiateEra(settings({ era: 'legacy', memory }), h)).era).toBe('legacy');
    expect(h.calls).toEqual(['initialize', 'sse']);
    expect(memory.size).toBe(0);
  });

  it('era "legacy", both failing: EraDetectionError without a probe step', async () => {
    const h = hooks({ initialize: [httpError(404, 'initialize')], sse: [httpError(404, 'GET')] });
    const error = (await negotiateEra(settings({ era: 'legacy' }), h).catch((e: unknown) => e)) as EraDetectionError;
    expect(error).toBeInstanceOf(EraDetectionError);
    expect(error.data).toMatchObject({
      probe: undefined,
      fallback: { method: 'initialize', status: 404 },
      sse: { method: 'GET', status: 404, error: 'HttpError' },
    });
    expect(error.message).toBe(
      'http://h/sse: not an MCP server this client can speak to: initialize failed (HTTP 404, HttpError -33010: initialize: HTTP 404 (text/html)); the HTTP+SSE fallback failed (GET: HTTP 404, HttpError -33010: GET: HTTP 404 (text/html))',
    );
  });

  it('every step failing: EraDetectionError naming all three; the cause is the last', async () => {
    const cross = new SseEndpointError('the endpoint is on another origin', {
      url: 'http://h/sse',
      problem: 'cross-origin',
      value: 'http://evil/x',
    });
    const h = hooks({
      discover: [httpError(404, 'server/discover')],
      initialize: [httpError(404, 'initialize')],
      sse: [cross],
    });
    const error = (await negotiateEra(settings(), h).catch((e: unknown) => e)) as EraDetectionError;
    expect(error.data.probe).toMatchObject({ method: 'server/discover', status: 404 });
    expect(error.data.sse).toMatchObject({ method: 'GET', error: 'SseEndpointError', code: -32600 });
    expect(error.message).toContain('server/discover failed (HTTP 404');
    expect(error.message).toContain('initialize failed (HTTP 404');
    expect(error.message).toContain(
      'the HTTP+SSE fallback failed (GET: SseEndpointError -32600: GET: the endpoint is on another origin)',
    );
    expect(error.cause).toBe(cross);
  });

  it('no HTTP+SSE attempt after a 500, a modern error, or on a transport without it', async () => {
    const h500 = hooks({
      discover: [httpError(404, 'server/discover')],
      initialize: [httpError(500, 'initialize')],
      sse: [HANDSHAKE],
    });
    const error = (await negotiateEra(settings(), h500).catch((e: unknown) => e)) as EraDetectionError;
    expect(h500.calls).toEqual(['discover', 'initialize']);
    expect(error.data.sse).toBeUndefined();
    const stdio = hooks({
      discover: [new RpcError({ code: -32601, message: 'nope' }, 'server/discover')],
      initialize: [new RpcError({ code: -32603, message: 'x' }, 'initialize')],
      sse: false,
    });
    await expect(negotiateEra(settings(), stdio)).rejects.toBeInstanceOf(EraDetectionError);
    expect(stdio.calls).toEqual(['discover', 'initialize']);
  });

  it('fatal errors of the HTTP+SSE step are thrown as they are', async () => {
    const auth = new HttpAuthError({
      status: 401,
      method: 'GET',
      url: 'http://h/sse',
      contentType: undefined,
      bodyExcerpt: '',
      problem: 'status',
      failure: 'unauthorized',
      challenges: [],
      bearer: undefined,
      retriedWithNewCredential: false,
    });
    await expect(
      negotiateEra(
        settings(),
        hooks({
          discover: [httpError(404, 'server/discover')],
          initialize: [httpError(404, 'initialize')],
          sse: [auth],
        }),
      ),
    ).rejects.toBe(auth);
    const closed = new ConnectionClosedError('GET: cannot reach', { reason: 'cannot reach' });
    await expect(
      negotiateEra(settings({ era: 'legacy' }), hooks({ initialize: [httpError(405, 'initialize')], sse: [closed] })),
    ).rejects.toBe(closed);
  });
});

describe('McpClient over StreamableHttpTransport against scripted HTTP+SSE servers', () => {
  const fakes: HttpFake[] = [];
  const clients: McpClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  /** A 2024-11-05 server at /sse: POSTs to /sse get `refuse`; GET opens the stream; POSTs to the endpoint get 202 and answers on the stream. */
  async function oldServer(
    options: {
      refuse?: (res: ServerResponse) => void;
      opening?: (url: string) => string[];
      answer?: (request: RecordedRequest, stream: ServerResponse) => void;
    } = {},
  ): Promise<HttpFake> {
    let stream: ServerResponse | undefined;
    const fake: HttpFake = await HttpFake.start((request, res) => {
      if (request.method === 'GET') {
        stream = res;
        startSse(res, options.opening?.(fake.url) ?? ['event: endpoint\ndata: /messages?sessionId=7\n\n']);
        return;
      }
      if (!request.path.startsWith('/messages')) {
        (options.refuse ?? ((out) => out.writeHead(405, { Allow: 'GET' }).end()))(res);
        return;
      }
      res.writeHead(202).end('Accepted');
      const json = request.json as { id?: number; method?: string };
      if (json.method === 'initialize') {
        stream?.write(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: json.id, result: { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'old-sse', version: '0.1' } } })}\n\n`,
        );
      } else if (stream !== undefined) options.answer?.(request, stream);
    }, '/sse');
    fakes.push(fake);
    return fake;
  }

  function client(url: string, options: Partial<ClientOptions> = {}): McpClient {
    const c = new McpClient({
      transport: new StreamableHttpTransport(url, { retry: false }),
      clientInfo: { name: 'sse-cases', version: '1' },
      legacyProtocolVersions: ['2025-11-25', '2024-11-05'],
      ...options,
    });
    clients.push(c);
    return c;
  }

  it('405 on POST: GET, endpoint, initialize at 2024-11-05 over the endpoint; a tools/list answered on the stream', async () => {
    const fake = await oldServer({
      answer: (request, stream) => {
        const json = request.json as { id?: number; method?: string };
        if (json.method === 'tools/list')
          stream.write(
            `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: json.id, result: { tools: [{ name: 'old', inputSchema: { type: 'object' } }] } })}\n\n`,
          );
      },
    });
    const c = client(fake.url);
    await c.connect();
    expect(c.eraVerdict).toBe('legacy-sse');
    expect(c.protocolVersion).toBe('2024-11-05');
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['old']);
    expect(fake.requests.map((r) => `${r.method} ${r.path} ${r.json?.method ?? ''}`.trim())).toEqual([
      'POST /sse server/discover',
      'POST /sse initialize',
      'GET /sse',
      'POST /messages?sessionId=7 initialize',
      'POST /messages?sessionId=7 notifications/initialized',
      'POST /messages?sessionId=7 tools/list',
    ]);
    // The old transport has no Streamable HTTP envelope.
    expect(fake.requests[3]?.headers['mcp-protocol-version']).toBeUndefined();
    expect(fake.requests[3]?.headers['mcp-session-id']).toBeUndefined();
  });

  it('a cross-origin endpoint is refused: EraDetectionError with the SseEndpointError step, nothing POSTed there', async () => {
    const fake = await oldServer({ opening: () => ['event: endpoint\ndata: http://203.0.113.9/messages\n\n'] });
    const error = (await client(fake.url)
      .connect()
      .catch((e: unknown) => e)) as EraDetectionError;
    expect(error).toBeInstanceOf(EraDetectionError);
    expect(error.data.sse).toMatchObject({ method: 'GET', error: 'SseEndpointError' });
    expect((error.cause as SseEndpointError).data).toMatchObject({
      problem: 'cross-origin',
      value: 'http://203.0.113.9/messages',
    });
    expect(fake.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'GET']);
  });

  it('no endpoint event (the GET stream opens with a message): EraDetectionError naming the three attempts', async () => {
    const fake = await oldServer({
      opening: () => [`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'ping' })}\n\n`],
    });
    const c = client(fake.url);
    const error = (await c.connect().catch((e: unknown) => e)) as EraDetectionError;
    expect(error.data).toMatchObject({
      probe: { status: 405 },
      fallback: { status: 405 },
      sse: { method: 'GET', error: 'SseEndpointError' },
    });
    expect(error.message).toContain('the first SSE event is "message", not "endpoint"');
    expect(c.state).toBe('closed');
    await vi.waitFor(() => expect(fake.open.size).toBe(0));
  });

  it('initialize over SSE refused with a non-202: the HttpError is the SSE step', async () => {
    const fake = await oldServer();
    fake.handle((request, res) => {
      if (request.method === 'GET') startSse(res, ['event: endpoint\ndata: /messages\n\n']);
      else if (request.path === '/messages')
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('SSE connection not established');
      else res.writeHead(404).end();
    });
    const error = (await client(fake.url)
      .connect()
      .catch((e: unknown) => e)) as EraDetectionError;
    expect(error.data.sse).toMatchObject({ method: 'initialize', error: 'HttpError', status: 500 });
  });

  it('a 500 to initialize: no GET, and the message says no HTTP+SSE attempt was made', async () => {
    const fake = await oldServer({ refuse: (res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom') });
    const error = (await client(fake.url)
      .connect()
      .catch((e: unknown) => e)) as EraDetectionError;
    expect(error.data.sse).toBeUndefined();
    expect(error.message).not.toContain('HTTP+SSE');
    expect(fake.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
  });

  it('a modern error (400 -32020) to initialize: no GET', async () => {
    const fake = await oldServer();
    fake.handle((request, res) => {
      if (request.json?.method === 'initialize')
        sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32020, message: 'Header mismatch' } });
      else res.writeHead(405).end();
    });
    const error = (await client(fake.url)
      .connect()
      .catch((e: unknown) => e)) as EraDetectionError;
    expect(error.data).toMatchObject({
      probe: { status: 405 },
      fallback: { code: -32020, status: 400 },
      sse: undefined,
    });
    expect(fake.requests.map((r) => `${r.method} ${r.json?.method}`)).toEqual([
      'POST server/discover',
      'POST initialize',
    ]);
  });

  it('the stream dropping mid-request fails the call with ConnectionClosedError (-32000) and closes the client', async () => {
    let stream: ServerResponse | undefined;
    const fake = await oldServer({ answer: (_request, s) => (stream = s) });
    const c = client(fake.url);
    await c.connect();
    const call = c.callTool('slow', {});
    await vi.waitFor(() => expect(stream).toBeDefined());
    stream?.end();
    await expect(call).rejects.toMatchObject({ name: 'ConnectionClosedError', code: -32000 });
    expect(c.state).toBe('closed');
  });

  it('cancellation POSTs notifications/cancelled to the endpoint', async () => {
    const fake = await oldServer();
    const c = client(fake.url);
    await c.connect();
    const controller = new AbortController();
    const call = c.callTool('slow', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(fake.requests.at(-1)?.json?.method).toBe('tools/call'));
    const id = fake.requests.at(-1)?.json?.id as number;
    controller.abort('enough');
    await expect(call).rejects.toMatchObject({ name: 'CancelledError' });
    await vi.waitFor(() =>
      expect(fake.requests.at(-1)?.json).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'enough' },
      }),
    );
    expect(fake.requests.at(-1)?.path).toBe('/messages?sessionId=7');
  });
});
