/**
 * Request middleware (`client.use()`): one context per request, the fixed order of the chain,
 * rewriting params, headers and results, answering without sending, and failures that fail one
 * request only. Against the scripted wire fake, over an in-memory pair that records headers.
 */
import * as api from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { openTelemetry } from '../../src/observability/openTelemetry.js';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import {
  MiddlewareError,
  onPromptGet,
  onResourceRead,
  onToolCall,
  type Middleware,
  type RequestContext,
} from '../../src/client/middleware.js';
import { InvalidArgumentError, RpcError } from '../../src/errors/errors.js';
import { ErrorCode } from '../../src/errors/codes.js';
import type { JsonRpcMessage } from '../../src/wire/messages.js';
import type { Transport, TransportSendOptions } from '../../src/transport/transport.js';
import { InMemoryTransport } from '../../src/transport/memory.js';
import { httpLinks } from '../../src/transport/http/requestLinks.js';
import { connectedPair, ScriptedServer, type Wire } from '../fakes/scriptedServer.js';
import type { ClientOptions } from '../../src/client/options.js';

/** The client end of an in-memory pair, which says it mirrors tool headers and records the headers of each send. */
function recordingPair(options: Partial<ClientOptions> = {}) {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair('memory:middleware');
  const headers = new Map<unknown, Readonly<Record<string, string>> | undefined>();
  const transport: Transport = {
    capabilities: { cancelsByAbortingSend: false, mirrorsToolParamHeaders: true },
    // The Mcp-Param-* link a Streamable HTTP transport brings.
    links: (deps) => httpLinks(deps, () => true),
    serverIdentity: clientEnd.serverIdentity,
    start: (handlers) => clientEnd.start(handlers),
    close: () => clientEnd.close(),
    send: (message: JsonRpcMessage, sendOptions?: TransportSendOptions) => {
      if ('id' in message && 'method' in message) headers.set(message.id, sendOptions?.headers);
      return clientEnd.send(message);
    },
  };
  const server = new ScriptedServer(serverEnd);
  const client = new McpClient({ transport, clientInfo: { name: 'test-host', version: '1.0.0' }, ...options });
  return { client, server, headers };
}

const OK = { result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] } };

describe('client.use', () => {
  it("a tools/call middleware rewrites the arguments; the server gets them, the caller's object is untouched", async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', () => OK);
    client.use(
      onToolCall(async (call, next) => {
        expect(call.name).toBe('echo');
        call.arguments = { ...call.arguments, text: `${String(call.arguments['text'])}!` };
        return next();
      }),
    );
    const args = { text: 'hi' };
    await client.callTool('echo', args);
    const [sent] = server.requests('tools/call');
    expect(sent?.['params']['arguments']).toEqual({ text: 'hi!' });
    expect(sent?.['params']['name']).toBe('echo');
    expect(args).toEqual({ text: 'hi' });
    await client.close();
  });

  it('answers from a stub without sending, and a stubbed read is not cached', async () => {
    const { client, server } = await connectedPair();
    let reads = 0;
    client.use(
      onResourceRead(async (read, next) => {
        if (read.uri !== 'stub://x') return next();
        reads++;
        return { contents: [{ uri: read.uri, text: `stub ${reads}` }], ttlMs: 60_000 };
      }),
    );
    client.use(onToolCall(async () => ({ content: [{ type: 'text', text: 'stubbed' }] })));
    const stores = client.cacheStats().stores;
    expect(await client.callTool('echo', {})).toEqual({ content: [{ type: 'text', text: 'stubbed' }] });
    expect((await client.readResource('stub://x')).contents).toEqual([{ uri: 'stub://x', text: 'stub 1' }]);
    expect((await client.readResource('stub://x')).contents).toEqual([{ uri: 'stub://x', text: 'stub 2' }]);
    expect(server.requests('tools/call')).toHaveLength(0);
    expect(server.requests('resources/read')).toHaveLength(0);
    expect(client.cacheStats().stores).toBe(stores);
    await client.close();
  });

  it("the verb still checks a stub's result: no content array is a ProtocolError", async () => {
    const { client } = await connectedPair();
    client.use(onToolCall(async () => ({ nothing: true }) as never));
    await expect(client.callTool('echo', {})).rejects.toMatchObject({ name: 'ProtocolError', code: -32600 });
    await client.close();
  });

  it('rewrites a result and turns an error into one', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', (req) =>
      req['params']['name'] === 'broken' ? { error: { code: -32603, message: 'boom' } } : OK,
    );
    client.use(async (ctx, next) => {
      try {
        const result = await next();
        return { ...result, content: [{ type: 'text', text: 'rewritten' }] };
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        return { content: [{ type: 'text', text: `recovered from ${error.code}` }], isError: true };
      }
    });
    expect((await client.callTool('fine', {})).content).toEqual([{ type: 'text', text: 'rewritten' }]);
    expect(await client.callTool('broken', {})).toEqual({
      content: [{ type: 'text', text: 'recovered from -32603' }],
      isError: true,
    });
    await client.close();
  });

  it('a middleware that throws fails that request with MiddlewareError (-33041, cause kept), not the connection', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', () => OK);
    const cause = new Error('policy says no');
    const off = client.use(
      onToolCall(async (call, next) => {
        if (call.name === 'denied') throw cause;
        return next();
      }),
    );
    const error = await client.callTool('denied', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error).toMatchObject({
      code: ErrorCode.MiddlewareFailed,
      local: true,
      data: { method: 'tools/call', reason: 'threw' },
    });
    expect((error as Error).cause).toBe(cause);
    expect(server.requests('tools/call')).toHaveLength(0);
    // The connection is fine: the next call goes through.
    expect((await client.callTool('allowed', {})).content).toEqual(OK.result.content);
    expect(client.state).toBe('open');
    off();
    off();
    expect((await client.callTool('denied', {})).content).toEqual(OK.result.content);
    await client.close();
  });

  it('an McpError thrown passes as it is; a synchronous throw and a non-object result are typed too', async () => {
    const { client, server } = await connectedPair();
    server.on('prompts/get', () => ({ result: { resultType: 'complete', messages: [] } }));
    const mcp = new InvalidArgumentError('name', 'x', 'not allowed here');
    const off = client.use(
      onPromptGet(async () => {
        throw mcp;
      }),
    );
    await expect(client.getPrompt('p')).rejects.toBe(mcp);
    off();
    const offSync = client.use(() => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a careless middleware may do
      throw 'a string';
    });
    const sync = await client.getPrompt('p').catch((e: unknown) => e);
    expect(sync).toMatchObject({ name: 'MiddlewareError', data: { reason: 'threw' }, cause: 'a string' });
    offSync();
    client.use(async () => 42 as never);
    const bad = await client.getPrompt('p').catch((e: unknown) => e);
    expect(bad).toMatchObject({ name: 'MiddlewareError', data: { reason: 'bad-result', value: 42 } });
    expect(server.requests('prompts/get')).toHaveLength(0);
    await client.close();
  });

  it("next()'s own error reaches the caller unwrapped when the middleware rethrows it", async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', () => ({ error: { code: -32602, message: 'bad args' } }));
    client.use((_ctx, next) => next());
    const error = await client.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(-32602);
    await client.close();
  });

  it('runs in the fixed order: outsideTracing ones, tracing, the others in use() order', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const telemetry = openTelemetry({
      api,
      tracer: provider.getTracer('mw'),
      propagator: new W3CTraceContextPropagator(),
    });
    const { client, server } = await connectedPair({ telemetry });
    server.on('tools/call', () => OK);
    const seen: string[] = [];
    const mark =
      (name: string): Middleware =>
      async (ctx, next) => {
        seen.push(`${name}:${'traceparent' in ctx.meta ? 'traced' : 'untraced'}`);
        const result = await next();
        seen.push(`${name}:done`);
        return result;
      };
    client.use(mark('inner1'));
    client.use(mark('outer1'), { outsideTracing: true });
    client.use(mark('inner2'));
    client.use(mark('outer2'), { outsideTracing: true });
    await client.callTool('echo', {});
    expect(seen).toEqual([
      'outer1:untraced',
      'outer2:untraced',
      'inner1:traced',
      'inner2:traced',
      'inner2:done',
      'inner1:done',
      'outer2:done',
      'outer1:done',
    ]);
    const [sent] = server.requests('tools/call');
    expect(typeof sent?.['params']['_meta']['traceparent']).toBe('string');
    await client.close();
  });

  it('gives one context per request: method, params, era, version, signal, options, a state bag', async () => {
    const { client, server } = await connectedPair();
    server.on('tools/call', () => OK);
    server.on('tools/list', () => ({ result: { resultType: 'complete', tools: [] } }));
    const contexts: RequestContext[] = [];
    const key = Symbol('mine');
    client.use(async (ctx, next) => {
      contexts.push(ctx);
      ctx.state.set(key, ctx.method);
      return next();
    });
    client.use(async (ctx, next) => {
      expect(ctx.state.get(key)).toBe(ctx.method);
      return next();
    });
    let sharedInView: unknown;
    client.use(
      onToolCall(async (call, next) => {
        sharedInView = call.state.get(key);
        call.state.set(key, 'set in a view');
        return next();
      }),
    );
    client.use(async (ctx, next) => {
      if (ctx.method === 'tools/call') expect(ctx.state.get(key)).toBe('set in a view');
      return next();
    });
    const signal = new AbortController().signal;
    await client.callTool('echo', { a: 1 }, { signal, meta: { mine: true } });
    await client.listTools();
    expect(contexts.map((c) => c.method)).toEqual(['tools/call', 'tools/list']);
    const [call] = contexts;
    expect(call).toMatchObject({
      method: 'tools/call',
      params: { name: 'echo', arguments: { a: 1 } },
      era: 'modern',
      protocolVersion: '2026-07-28',
      meta: { mine: true },
    });
    expect(call?.signal).toBe(signal);
    expect(call?.options.signal).toBe(signal);
    expect(contexts[0]).not.toBe(contexts[1]);
    expect(sharedInView).toBe('tools/call');
    await client.close();
  });

  it('headers a middleware sets reach the transport; Mcp-Param-* follow the rewritten arguments', async () => {
    const { client, server, headers } = recordingPair();
    await server.start();
    await client.connect();
    const region = {
      name: 'query',
      inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
    };
    server.on('tools/list', () => ({ result: { resultType: 'complete', tools: [region] } }));
    server.on('tools/call', () => OK);
    await client.listTools();
    client.use(
      onToolCall(async (call, next) => {
        call.headers['x-tenant'] = 'acme';
        call.arguments = { region: 'eu-west1' };
        return next();
      }),
    );
    await client.callTool('query', { region: 'us-east1' });
    const [sent]: Wire[] = server.requests('tools/call');
    expect(headers.get(sent?.['id'])).toEqual({ 'x-tenant': 'acme', 'Mcp-Param-Region': 'eu-west1' });
    await client.close();
  });
});
