/**
 * Cases from ../shared/cases/CASES.md that belong to the core client (issue 2).
 * Each test is named after its case id and asserts the case's "Right" values.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectedPair } from '../fakes/scriptedServer.js';
import { viewContents } from '../../src/wire/resourceContents.js';
import { ProtocolError, ResourceNotFoundError, RpcError, TimeoutError, McpError } from '../../src/errors/errors.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('B10: resources/read not-found codes', () => {
  const uri = 'file:///nope.txt';
  it.each([
    ['A (-32602 with data.uri)', { code: -32602, message: 'Resource not found', data: { uri } }],
    ['B (legacy -32002)', { code: -32002, message: 'Resource not found', data: { uri } }],
  ])('B10 %s is ResourceNotFoundError keeping code and data.uri', async (_label, error) => {
    const { client, server } = await connectedPair();
    server.on('resources/read', () => ({ error }));
    const thrown = await client.readResource(uri).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ResourceNotFoundError);
    expect(thrown).toMatchObject({ code: error.code, uri, data: { uri }, message: 'Resource not found', local: false });
    await client.close();
  });

  it('B10 C (code 0) is a generic RpcError, not not-found', async () => {
    const { client, server } = await connectedPair();
    server.on('resources/read', () => ({ error: { code: 0, message: `Unknown resource: ${uri}` } }));
    const thrown = await client.readResource(uri).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RpcError);
    expect(thrown).not.toBeInstanceOf(ResourceNotFoundError);
    expect(thrown).toMatchObject({ code: 0 });
    await client.close();
  });

  it('B10 D (empty contents) is a successful read of an empty resource', async () => {
    const { client, server } = await connectedPair();
    server.on('resources/read', () => ({
      result: { resultType: 'complete', contents: [], ttlMs: 60000, cacheScope: 'private' },
    }));
    const result = await client.readResource(uri);
    expect(result.contents).toEqual([]);
    await client.close();
  });

  it('B10: -32602 on another method (a bad cursor) is never resource-not-found', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/list', () => ({ error: { code: -32602, message: 'Invalid cursor', data: { cursor: 'zz' } } }));
    const thrown = await client.listTools({ cursor: 'zz' }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RpcError);
    expect(thrown).not.toBeInstanceOf(ResourceNotFoundError);
    await client.close();
  });
});

describe('B11: blob vs text, missing mimeType, bad base64', () => {
  it('B11 keeps all four items in order and classifies each without guessing', async () => {
    const { client, server } = await connectedPair();
    server.on('resources/read', () => ({
      result: {
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        contents: [
          { uri: 'mem://img', blob: 'iVBORw0KGgo=' },
          { uri: 'mem://note', mimeType: 'text/plain', blob: 'aGVsbG8=' },
          { uri: 'mem://empty', mimeType: 'text/plain', text: '' },
          { uri: 'mem://bad', mimeType: 'application/octet-stream', blob: '@@not base64@@' },
        ],
      },
    }));
    const { contents } = await client.readResource('mem://bundle');
    expect(contents.map((c) => c.uri)).toEqual(['mem://img', 'mem://note', 'mem://empty', 'mem://bad']);
    const [img, note, empty, bad] = contents.map(viewContents);
    expect(img?.kind).toBe('blob');
    if (img?.kind !== 'blob') throw new Error('unreachable');
    expect(img.mimeType).toBeUndefined();
    expect([...img.bytes()]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(note?.kind).toBe('blob');
    if (note?.kind !== 'blob') throw new Error('unreachable');
    expect(new TextDecoder().decode(note.bytes())).toBe('hello');
    expect(note.text()).toBe('hello');
    expect(empty).toEqual({ kind: 'text', uri: 'mem://empty', mimeType: 'text/plain', text: '' });
    expect(bad).toEqual({ kind: 'invalid', uri: 'mem://bad', reason: 'blob is not valid base64' });
    await client.close();
  });

  it('B11: an item with both text and blob, or neither, is an error for that item only', () => {
    expect(viewContents({ uri: 'a', text: 'x', blob: 'eA==' })).toEqual({
      kind: 'invalid',
      uri: 'a',
      reason: 'has both text and blob',
    });
    expect(viewContents({ uri: 'b' })).toEqual({ kind: 'invalid', uri: 'b', reason: 'has neither text nor blob' });
  });
});

describe('B33: progress resets the timer without an onprogress callback', () => {
  async function slowCall(options: Record<string, unknown>) {
    vi.useFakeTimers();
    const { client, server } = await connectedPair();
    server.on('tools/call', () => undefined);
    const call = client.callTool('slow', {}, options).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const request = await server.waitFor((m) => m['method'] === 'tools/call');
    const id = request['id'];
    const progress = (n: number) =>
      server.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: n } });
    return { client, server, call, id, progress, request };
  }

  it('B33 carries a progressToken next to the protocol keys and resolves at t=3000', async () => {
    const { client, server, call, id, progress, request } = await slowCall({
      timeoutMs: 1000,
      resetTimeoutOnProgress: true,
      maxTotalTimeoutMs: 10000,
    });
    expect(request['params']['_meta']).toMatchObject({
      progressToken: id,
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'test-host', version: '1.0.0' },
    });
    await vi.advanceTimersByTimeAsync(800);
    await progress(1);
    await vi.advanceTimersByTimeAsync(800);
    await progress(2);
    await vi.advanceTimersByTimeAsync(800);
    await progress(3);
    // A progress for an unknown token changes nothing.
    await server.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'other', progress: 9 },
    });
    await vi.advanceTimersByTimeAsync(600);
    await server.send({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [] } });
    expect(await call).toEqual({ value: { resultType: 'complete', content: [] } });
    await client.close();
  });

  it('B33 with maxTotalTimeout 2500 rejects at about 2500 with a local timeout and cancels', async () => {
    const { client, server, call, id, progress } = await slowCall({
      timeoutMs: 1000,
      resetTimeoutOnProgress: true,
      maxTotalTimeoutMs: 2500,
    });
    for (let i = 1; i <= 3; i++) {
      await vi.advanceTimersByTimeAsync(800);
      await progress(i);
    }
    await vi.advanceTimersByTimeAsync(99);
    expect(server.received.some((m) => m['method'] === 'notifications/cancelled')).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    const outcome = (await call) as { error: TimeoutError };
    expect(outcome.error).toBeInstanceOf(TimeoutError);
    expect(outcome.error.local).toBe(true);
    expect(outcome.error.data).toEqual({ method: 'tools/call', timeoutMs: 2500, kind: 'total' });
    const cancelled = await server.waitFor((m) => m['method'] === 'notifications/cancelled');
    expect(cancelled).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'Request timed out' },
    });
    await client.close();
  });

  it('B33 with resetTimeoutOnProgress false, progress does not extend the timer', async () => {
    const { client, call, progress } = await slowCall({ timeoutMs: 1000, resetTimeoutOnProgress: false });
    await vi.advanceTimersByTimeAsync(800);
    await progress(1);
    await vi.advanceTimersByTimeAsync(250);
    const outcome = (await call) as { error: TimeoutError };
    expect(outcome.error).toBeInstanceOf(TimeoutError);
    expect(outcome.error.data).toMatchObject({ kind: 'idle', timeoutMs: 1000 });
    await client.close();
  });

  it('B33: onProgress receives progress, total and message', async () => {
    vi.useFakeTimers();
    const { client, server } = await connectedPair();
    server.on('tools/call', () => undefined);
    const seen: unknown[] = [];
    const call = client.callTool('slow', {}, { onProgress: (p) => seen.push(p) });
    const request = await server.waitFor((m) => m['method'] === 'tools/call');
    await server.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: request['id'], progress: 1, total: 5, message: 'step 1/5' },
    });
    await server.send({ jsonrpc: '2.0', id: request['id'], result: { content: [] } });
    await call;
    expect(seen).toEqual([{ progress: 1, total: 5, message: 'step 1/5' }]);
    await client.close();
  });
});

describe('B34: responses for unknown or null ids', () => {
  it('B34 reports strays through onError, delivers the notification, and resolves id 1', async () => {
    const onError = vi.fn();
    const onLog = vi.fn();
    const { client, server } = await connectedPair({ onError, onLog });
    server.on('tools/list', () => undefined);
    const list = client.listTools();
    const request = await server.waitFor((m) => m['method'] === 'tools/list');
    await server.send({ jsonrpc: '2.0', id: 999, result: {} });
    await server.send({ jsonrpc: '2.0', id: String(request['id']), result: {} });
    await server.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
    await server.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    expect(onLog).toHaveBeenCalledWith({ level: 'info', data: 'x' });
    await server.send({
      jsonrpc: '2.0',
      id: request['id'],
      result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'private' },
    });
    await expect(list).resolves.toMatchObject({ tools: [] });
    expect(onError).toHaveBeenCalledTimes(3);
    for (const [error] of onError.mock.calls) expect(error).toBeInstanceOf(ProtocolError);
    expect(client.state).toBe('open');
    await client.close();
  });
});

describe('B36: timeout → cancellation on stdio-like transports', () => {
  it('B36 sends notifications/cancelled at the timeout, rejects locally, ignores the late response, never retries', async () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    const { client, server } = await connectedPair({ onError });
    server.on('tools/call', () => undefined);
    const call = client.callTool('x', {}, { timeoutMs: 500 }).catch((e: unknown) => e);
    const request = await server.waitFor((m) => m['method'] === 'tools/call');
    await vi.advanceTimersByTimeAsync(500);
    const error = await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(await server.waitFor((m) => m['method'] === 'notifications/cancelled')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: request['id'], reason: 'Request timed out' },
    });
    await vi.advanceTimersByTimeAsync(200);
    await server.send({ jsonrpc: '2.0', id: request['id'], result: { content: [] } });
    expect(onError).not.toHaveBeenCalled();
    expect(server.requests('tools/call')).toHaveLength(1);
    await client.close();
  });
});

describe('B37: unknown notifications and inbound requests', () => {
  it('B37 ignores unknown notifications quietly and delivers notifications/message', async () => {
    const onError = vi.fn();
    const onLog = vi.fn();
    const onNotification = vi.fn();
    const { client, server } = await connectedPair({ onError, onLog, onNotification });
    const before = server.received.length;
    await server.send({ jsonrpc: '2.0', method: 'notifications/stderr', params: { content: 'warn' } });
    await server.send({ jsonrpc: '2.0', method: 'data', params: { content: { type: 'ready' } } });
    await server.send({ jsonrpc: '2.0', method: 'com.example/custom' });
    await server.send({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'warning', logger: 'db', data: { slow: true } },
    });
    await Promise.resolve();
    expect(onError).not.toHaveBeenCalled();
    expect(onLog).toHaveBeenCalledWith({ level: 'warning', logger: 'db', data: { slow: true } });
    expect(onNotification.mock.calls.map(([n]) => n.method)).toEqual([
      'notifications/stderr',
      'data',
      'com.example/custom',
    ]);
    expect(server.received.length).toBe(before);
    await client.close();
  });

  it('B37: on the modern wire an inbound request is reported, never answered', async () => {
    const onError = vi.fn();
    const { client, server } = await connectedPair({ onError });
    const before = server.received.length;
    await server.send({ jsonrpc: '2.0', id: 's1', method: 'foo/bar', params: {} });
    await new Promise((r) => setTimeout(r, 5));
    expect(server.received.length).toBe(before);
    expect(onError).toHaveBeenCalledTimes(1);
    await client.close();
  });
});

describe('B38: error.data survives to the caller', () => {
  it.each([
    ['callTool', { code: -32001, message: 'Rate limited', data: { retryAfter: 5 } }],
    ['readResource', { code: -32602, message: 'Invalid arguments', data: [{ path: ['city'], issue: 'required' }] }],
    ['listTools', { code: -32603, message: 'boom', data: 'trace <id>' }],
    ['callTool', { code: -32603, message: 'no data' }],
  ] as const)('B38 %s keeps code, message and data verbatim', async (verb, error) => {
    const { client, server } = await connectedPair();
    for (const method of ['tools/call', 'resources/read', 'tools/list']) server.on(method, () => ({ error }));
    const call =
      verb === 'callTool'
        ? client.callTool('t')
        : verb === 'readResource'
          ? client.readResource('file:///x')
          : client.listTools();
    const thrown = (await call.catch((e: unknown) => e)) as McpError;
    expect(thrown).toBeInstanceOf(RpcError);
    expect(thrown.code).toBe(error.code);
    expect(thrown.message).toBe(error.message);
    expect(thrown.data).toEqual('data' in error ? error.data : undefined);
    expect(thrown.local).toBe(false);
    await client.close();
  });

  it('B38: local errors cannot be mistaken for peer errors', async () => {
    vi.useFakeTimers();
    const { client, server } = await connectedPair();
    server.on('tools/call', () => undefined);
    const call = client.callTool('t', {}, { timeoutMs: 10 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    const thrown = (await call) as McpError;
    expect(thrown).not.toBeInstanceOf(RpcError);
    expect(thrown.local).toBe(true);
    await client.close();
  });
});
