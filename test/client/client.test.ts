import { describe, expect, it, vi } from 'vitest';
import { connectedPair, DISCOVER_RESULT, scriptedPair } from '../fakes/scriptedServer.js';
import {
  CancelledError,
  ConnectionClosedError,
  InputRequiredError,
  InvalidArgumentError,
  ProtocolError,
  RpcError,
  TimeoutError,
  isTimeoutError,
  UnsupportedProtocolVersionError,
  VersionNegotiationError,
} from '../../src/errors/errors.js';

describe('McpClient.connect', () => {
  it('sends server/discover with the full _meta and keeps what the server said', async () => {
    const { client, server } = await connectedPair({ capabilities: { roots: {} } });
    const [discover] = server.requests('server/discover');
    expect(discover).toEqual({
      jsonrpc: '2.0',
      id: 0,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { roots: {} },
          'io.modelcontextprotocol/clientInfo': { name: 'test-host', version: '1.0.0' },
          progressToken: 0,
        },
      },
    });
    expect(client.state).toBe('open');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo).toEqual({ name: 'scripted', version: '0.0.0' });
    expect(client.instructions).toBe('scripted');
    expect(client.serverCapabilities).toEqual(DISCOVER_RESULT.capabilities);
    await client.close();
  });

  it('on -32022 retries once with a version from data.supported', async () => {
    const { client, server } = scriptedPair({ protocolVersions: ['2027-01-01', '2026-07-28'] });
    server.on('server/discover', (req) =>
      req['params']['_meta']['io.modelcontextprotocol/protocolVersion'] === '2026-07-28'
        ? { result: DISCOVER_RESULT }
        : {
            error: {
              code: -32022,
              message: 'Unsupported protocol version',
              data: { supported: ['2026-07-28'], requested: '2027-01-01' },
            },
          },
    );
    await server.start();
    await client.connect();
    expect(
      server.requests('server/discover').map((r) => r['params']['_meta']['io.modelcontextprotocol/protocolVersion']),
    ).toEqual(['2027-01-01', '2026-07-28']);
    expect(client.protocolVersion).toBe('2026-07-28');
    await client.close();
  });

  it('names both version lists when nothing is shared, and closes', async () => {
    const { client, server } = scriptedPair();
    server.on('server/discover', () => ({
      error: { code: -32022, message: 'nope', data: { supported: ['2030-01-01'], requested: '2026-07-28' } },
    }));
    await server.start();
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionNegotiationError);
    expect((error as VersionNegotiationError).code).toBe(-32022);
    expect((error as VersionNegotiationError).data).toEqual({
      clientSupported: ['2026-07-28'],
      serverSupported: ['2030-01-01'],
    });
    expect((error as Error).cause).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(client.state).toBe('closed');
  });

  it('rejects a discover result without supportedVersions as a protocol error', async () => {
    const { client, server } = scriptedPair();
    server.on('server/discover', () => ({ result: { resultType: 'complete', capabilities: {} } }));
    await server.start();
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).data).toMatchObject({ method: 'server/discover', value: { capabilities: {} } });
  });

  it('switches to a shared version when the discover result does not list the one asked for', async () => {
    const { client, server } = scriptedPair({ protocolVersions: ['2027-01-01', '2026-07-28'] });
    await server.start();
    await client.connect();
    expect(client.protocolVersion).toBe('2026-07-28');
    await client.listTools().catch(() => undefined);
    const [list] = server.requests('tools/list');
    expect(list?.['params']['_meta']['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    await client.close();
  });
});

describe('McpClient requests', () => {
  it('merges caller _meta keys with the protocol keys and sends logLevel', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', () => ({ result: { resultType: 'complete', content: [] } }));
    await client.callTool('echo', { a: 1 }, { meta: { 'com.example/trace': 'x' }, logLevel: 'debug' });
    const [call] = server.requests('tools/call');
    expect(call?.['params']).toEqual({
      name: 'echo',
      arguments: { a: 1 },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'test-host', version: '1.0.0' },
        'io.modelcontextprotocol/logLevel': 'debug',
        'com.example/trace': 'x',
        progressToken: call?.['id'],
      },
    });
    await client.close();
  });

  it('leaves clientInfo out when asked to', async () => {
    const { client, server } = await connectedPair({ sendClientInfo: false });
    expect(server.requests('server/discover')[0]?.['params']['_meta']).not.toHaveProperty([
      'io.modelcontextprotocol/clientInfo',
    ]);
    await client.close();
  });

  it('treats an absent resultType as complete and an unknown one as a protocol error', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', (req) =>
      req['params']['name'] === 'old'
        ? { result: { content: [{ type: 'text', text: 'ok' }] } }
        : { result: { resultType: 'later', content: [] } },
    );
    expect((await client.callTool('old')).content).toEqual([{ type: 'text', text: 'ok' }]);
    const error = await client.callTool('new').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toContain('unknown resultType "later"');
    await client.close();
  });

  it('in manual mode reports input_required as InputRequiredError carrying the result', async () => {
    const { client, server } = await connectedPair({ inputRequired: 'manual' });
    const result = { resultType: 'input_required', requestState: 'abc' };
    server.on('tools/call', () => ({ result }));
    const error = await client.callTool('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequiredError);
    expect((error as InputRequiredError).data).toEqual({ method: 'tools/call', result });
    await client.close();
  });

  it('fails a call whose result lacks the field it needs, and keeps the connection', async () => {
    const { client, server } = await connectedPair();
    server.on('prompts/get', () => ({ result: { resultType: 'complete', messages: 'nope' } }));
    server.on('tools/call', () => ({ result: { resultType: 'complete', content: [] } }));
    await expect(client.getPrompt('p')).rejects.toBeInstanceOf(ProtocolError);
    await expect(client.callTool('t')).resolves.toMatchObject({ content: [] });
    await client.close();
  });

  it('rejects bad user input with InvalidArgumentError before sending', async () => {
    const { client, server } = await connectedPair();
    const error = await client.readResource('').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).code).toBe(-32602);
    expect((error as InvalidArgumentError).data).toEqual({ name: 'uri', value: '' });
    await expect(client.listTools({ cursor: 5 as unknown as string })).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(server.requests('resources/read')).toHaveLength(0);
    await client.close();
  });

  it("serves a fresh hit on the synchronous path for an unset, 'default' and 'force-cache' mode alike", async () => {
    const { client, server } = await connectedPair();
    const uri = 'file:///a';
    server.on('resources/read', () => ({
      result: { resultType: 'complete', contents: [{ uri, text: 'a' }], ttlMs: 60_000, cacheScope: 'public' },
    }));
    const first = await client.readResource(uri);
    const slow = vi.spyOn((client as unknown as { parts: { reads: { cached: () => unknown } } }).parts.reads, 'cached');
    for (const cacheMode of [undefined, 'default', 'force-cache'] as const) {
      await expect(client.readResource(uri, { cacheMode })).resolves.toBe(first);
    }
    expect(slow).not.toHaveBeenCalled();
    await expect(client.readResource(uri, { cacheMode: 'no-cache' })).resolves.toEqual(first);
    expect(slow).toHaveBeenCalledTimes(1);
    expect(server.requests('resources/read')).toHaveLength(2);
    await client.close();
  });

  it('drops and reports malformed list items without sinking the page', async () => {
    const onError = vi.fn();
    const { client, server } = await connectedPair({ onError });
    server.on('tools/list', () => ({
      result: {
        resultType: 'complete',
        tools: [{ name: 'a', inputSchema: { type: 'object' } }, { name: 7 }, 'x'],
        ttlMs: 0,
        cacheScope: 'public',
      },
    }));
    const page = await client.listTools();
    expect(page.tools.map((t) => t.name)).toEqual(['a']);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[0]![0]).toBeInstanceOf(ProtocolError);
    await client.close();
  });

  it('a tool whose schema says "required": null is kept without it (reported); a required of another type drops the tool', async () => {
    const onError = vi.fn();
    const { client, server } = await connectedPair({ onError });
    const sent = {
      name: 'nullish',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: null },
      outputSchema: { type: 'object', required: null },
    };
    server.on('tools/list', () => ({
      result: {
        resultType: 'complete',
        tools: [
          sent,
          { name: 'numeric', inputSchema: { type: 'object', required: 5 } },
          { name: 'fine', inputSchema: { type: 'object', required: ['q'] } },
        ],
        ttlMs: 0,
        cacheScope: 'public',
      },
    }));
    const { items } = await client.listAllTools();
    expect(items.map((t) => t.name)).toEqual(['nullish', 'fine']);
    expect(items[0]!.inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
    expect(items[0]!.outputSchema).toEqual({ type: 'object' });
    expect(sent.inputSchema.required).toBeNull(); // what the server sent is left alone
    const reasons = onError.mock.calls.map((call) => (call[0] as Error).message);
    expect(reasons).toEqual([
      'tools/list: tool "nullish": inputSchema.required is null; treated as absent',
      'tools/list: tool "nullish": outputSchema.required is null; treated as absent',
      'tools/list: malformed item in tools; skipped',
    ]);
    await client.close();
  });

  it('sends the first page without a cursor key and "" as a real cursor', async () => {
    const { client, server } = await connectedPair();
    server.on('prompts/list', () => ({
      result: { resultType: 'complete', prompts: [], ttlMs: 0, cacheScope: 'public' },
    }));
    await client.listPrompts();
    await client.listPrompts({ cursor: '' });
    const [first, second] = server.requests('prompts/list');
    expect(first?.['params']).not.toHaveProperty('cursor');
    expect(second?.['params']['cursor']).toBe('');
    await client.close();
  });

  it('sends completion/complete with ref, argument and context', async () => {
    const { client, server } = await connectedPair();
    server.on('completion/complete', () => ({
      result: { resultType: 'complete', completion: { values: ['alice'], hasMore: false } },
    }));
    const result = await client.complete(
      { type: 'ref/prompt', name: 'greet' },
      { name: 'name', value: 'a' },
      { arguments: { style: 'formal' } },
    );
    expect(result.completion.values).toEqual(['alice']);
    expect(server.requests('completion/complete')[0]?.['params']).toMatchObject({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'a' },
      context: { arguments: { style: 'formal' } },
    });
    await client.close();
  });

  it('rejects every pending call with ConnectionClosedError on close, and later calls at once', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', () => undefined);
    const pending = client.callTool('hang');
    await server.waitFor((m) => m['method'] === 'tools/call');
    await client.close();
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    const later = await client.callTool('x').catch((e: unknown) => e);
    expect(later).toBeInstanceOf(ConnectionClosedError);
    expect((later as ConnectionClosedError).code).toBe(-32000);
    expect(server.requests('tools/call')).toHaveLength(1);
  });

  it('a user abort is a CancelledError carrying the reason, distinct from a timeout', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', () => undefined);
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    await server.waitFor((m) => m['method'] === 'tools/call');
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as CancelledError).cause).toBe(reason);
    expect((error as CancelledError).code).toBe(-32800);
    const cancelled = await server.waitFor((m) => m['method'] === 'notifications/cancelled');
    expect(cancelled['params']).toEqual({
      requestId: server.requests('tools/call')[0]?.['id'],
      reason: 'Request cancelled by the client',
    });
    await client.close();
  });

  it('AbortSignal.timeout() is a timeout: TimeoutError -32001 (kind signal) with the DOMException as cause', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', () => undefined);
    const error = await client.callTool('slow', {}, { signal: AbortSignal.timeout(60) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(isTimeoutError(error)).toBe(true);
    expect((error as TimeoutError).code).toBe(-32001);
    expect((error as TimeoutError).data).toEqual({ method: 'tools/call', kind: 'signal' });
    expect(((error as TimeoutError).cause as DOMException).name).toBe('TimeoutError');
    await server.waitFor((m) => m['method'] === 'notifications/cancelled');
    await client.close();
  });

  it('an already-aborted signal rejects without sending', async () => {
    const { client, server } = await connectedPair();
    const error = await client.callTool('x', {}, { signal: AbortSignal.abort('stop') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(server.requests('tools/call')).toHaveLength(0);
    await client.close();
  });

  it('delivers server error responses as RpcError', async () => {
    const { client, server } = await connectedPair();
    server.on('prompts/get', () => ({ error: { code: -32602, message: 'Prompt nope not found' } }));
    const error = await client.getPrompt('nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: -32602,
      message: 'Prompt nope not found',
      data: undefined,
      method: 'prompts/get',
      local: false,
    });
    await client.close();
  });
});
