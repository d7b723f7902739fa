/**
 * OpenTelemetry spans of client calls against the example server (in process, over the
 * in-memory transport), recorded by the SDK's in-memory exporter, and the trace context the
 * server side received in `_meta` (spec 2026-07-28: basic, `_meta`).
 */
import * as api from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CacheMissError } from '../../src/cache/errors.js';
import { InvalidArgumentError, ResourceNotFoundError } from '../../src/errors/errors.js';
import { McpClient } from '../../src/client/client.js';
import { InMemoryTransport } from '../../src/transport/memory.js';
import type { TelemetryOptions, TelemetryPropagator } from '../../src/observability/telemetry.js';
import { openTelemetry } from '../../src/observability/openTelemetry.js';
import type { ClientTelemetry } from '../../src/observability/clientTelemetry.js';
import { connectedLegacyPair } from '../fakes/legacyScripted.js';
import { exampleInMemory, type ExamplePeer, type Seen } from './exampleInMemory.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('observability-tests');
const otel: TelemetryOptions = { api, tracer, propagator: new W3CTraceContextPropagator() };
const telemetry = openTelemetry(otel);

const form = async () => ({ action: 'accept' as const, content: { name: 'Ada', priority: 'high' } });

/** The `traceparent` a span's context propagates (W3C Trace Context, sampled). */
function traceparentOf(span: ReadableSpan): string {
  const { traceId, spanId } = span.spanContext();
  return `00-${traceId}-${spanId}-01`;
}

function metaOf(message: Seen | undefined): Record<string, unknown> {
  return message?.params?._meta ?? {};
}

function only(): ReadableSpan {
  const spans = exporter.getFinishedSpans();
  expect(spans.map((span) => span.name)).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

describe('telemetry: spans against the example server', () => {
  let peer: ExamplePeer;

  beforeAll(async () => {
    exporter.reset();
    peer = exampleInMemory({ telemetry, handlers: { elicitation: { form } } });
    await peer.client.connect();
  });
  afterAll(async () => {
    await peer.close();
  });
  beforeEach(() => exporter.reset());

  it('connect: one server/discover span, its traceparent on the discover request', () => {
    // beforeAll's connect happened before this test's reset: look at what the server saw.
    const [discover] = peer.requests('server/discover');
    expect(metaOf(discover)['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(metaOf(discover)['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
  });

  it('tools/call: span name, kind, attributes, and the traceparent the server received', async () => {
    const result = await peer.client.callTool('add', { a: 2, b: 40 });
    expect(result.structuredContent).toEqual({ sum: 42 });
    const span = only();
    expect(span.name).toBe('tools/call add');
    expect(span.kind).toBe(api.SpanKind.CLIENT);
    expect(span.status.code).toBe(api.SpanStatusCode.UNSET);
    const request = peer.requests('tools/call').at(-1);
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2026-07-28',
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
      'mcp_live.server.name': 'mcp-live-example',
      'mcp_live.server.version': '0.1.0',
      'jsonrpc.request.id': String(request?.id),
    });
    expect(metaOf(request)['traceparent']).toBe(traceparentOf(span));
    expect(span.parentSpanContext).toBeUndefined();
  });

  it('resources/read: a miss sends a request; the hit that follows is a span with no request', async () => {
    const before = peer.requests('resources/read').length;
    const first = await peer.client.readResource('demo://readme');
    const second = await peer.client.readResource('demo://readme');
    expect(second).toBe(first);
    expect(peer.requests('resources/read')).toHaveLength(before + 1);
    const [miss, hit] = exporter.getFinishedSpans();
    expect(miss?.name).toBe('resources/read');
    expect(miss?.attributes).toMatchObject({
      'mcp.method.name': 'resources/read',
      'mcp.resource.uri': 'demo://readme',
      'mcp_live.cache.outcome': 'miss',
    });
    expect(metaOf(peer.requests('resources/read').at(-1))['traceparent']).toBe(traceparentOf(miss as ReadableSpan));
    expect(hit?.name).toBe('resources/read');
    expect(hit?.attributes).toMatchObject({ 'mcp.resource.uri': 'demo://readme', 'mcp_live.cache.outcome': 'hit' });
    expect(hit?.attributes['jsonrpc.request.id']).toBeUndefined();
  });

  it('resources/read with cacheMode no-store: outcome bypass', async () => {
    await peer.client.readResource('demo://items/7', { cacheMode: 'no-store' });
    expect(only().attributes['mcp_live.cache.outcome']).toBe('bypass');
  });

  it('an input_required call: one span over both rounds, the same traceparent on each request', async () => {
    const before = peer.requests('tools/call').length;
    const result = await peer.client.callTool('create_ticket', { title: 'Printer on fire' });
    expect(result.content[0]).toMatchObject({
      type: 'text',
      text: 'Ticket "Printer on fire" filed by Ada (priority high).',
    });
    const span = only();
    expect(span.name).toBe('tools/call create_ticket');
    expect(span.attributes['mcp_live.input_required.rounds']).toBe(1);
    const sent = peer.requests('tools/call').slice(before);
    expect(sent).toHaveLength(2);
    expect(sent.map((request) => metaOf(request)['traceparent'])).toEqual([traceparentOf(span), traceparentOf(span)]);
    expect(sent[1]?.params?.['inputResponses']).toBeDefined();
    expect(span.attributes['jsonrpc.request.id']).toBe(String(sent[1]?.id));
  });

  it('listAll: one span for the walk with its pages; every page request carries its traceparent', async () => {
    const before = peer.requests('resources/list').length;
    const all = await peer.client.listAllResources();
    expect(all.pages).toBe(6);
    const span = only();
    expect(span.name).toBe('resources/list');
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'resources/list',
      'mcp_live.pagination.pages': 6,
      'mcp_live.cache.outcome': 'miss',
    });
    const sent = peer.requests('resources/list').slice(before);
    expect(sent).toHaveLength(6);
    expect(new Set(sent.map((request) => metaOf(request)['traceparent']))).toEqual(new Set([traceparentOf(span)]));

    exporter.reset();
    await peer.client.listAllResources();
    expect(only().attributes).toMatchObject({ 'mcp_live.pagination.pages': 6, 'mcp_live.cache.outcome': 'hit' });
    expect(peer.requests('resources/list')).toHaveLength(before + 6);
  });

  it('an error response: status ERROR, error.type and rpc.response.status_code, the exception recorded', async () => {
    const error = await peer.client.readResource('demo://no-such-thing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    const code = (error as ResourceNotFoundError).code;
    const span = only();
    expect(span.status).toEqual({ code: api.SpanStatusCode.ERROR, message: (error as Error).message });
    expect(span.attributes).toMatchObject({
      'error.type': String(code),
      'rpc.response.status_code': String(code),
      'mcp_live.error.code': code,
      'mcp_live.cache.outcome': 'miss',
    });
    const exception = span.events.find((event) => event.name === 'exception');
    expect(exception?.attributes?.['exception.type']).toBe('RpcError');
    expect(exception?.attributes?.['exception.message']).toBe((error as Error).message);
  });

  it('a tool that failed (isError: true): error.type tool_error, status ERROR, the call itself resolves', async () => {
    const result = await peer.client.callTool('add', { a: 'two' });
    expect(result.isError).toBe(true);
    const span = only();
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(span.events).toEqual([]);
  });

  it('a local error: only-if-cached with nothing cached sends nothing and ends as CacheMissError', async () => {
    const before = peer.seen.length;
    await expect(peer.client.readResource('demo://items/99', { cacheMode: 'only-if-cached' })).rejects.toBeInstanceOf(
      CacheMissError,
    );
    expect(peer.seen).toHaveLength(before);
    const span = only();
    expect(span.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({
      'error.type': 'CacheMissError',
      'mcp_live.error.code': -33005,
      'mcp_live.cache.outcome': 'miss',
    });
    expect(span.attributes['rpc.response.status_code']).toBeUndefined();
  });

  it('request(): named as the verbs would be; other methods by method alone', async () => {
    await peer.client.request('tools/call', { name: 'echo', arguments: { message: 'x' } });
    await peer.client.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'A' },
    });
    const [call, complete] = exporter.getFinishedSpans();
    expect(call?.name).toBe('tools/call echo');
    expect(call?.attributes['gen_ai.tool.name']).toBe('echo');
    expect(complete?.name).toBe('completion/complete');
    expect(complete?.attributes['gen_ai.tool.name']).toBeUndefined();
  });

  it('prompts/get is named after its prompt', async () => {
    await peer.client.getPrompt('greet', { name: 'Ada' });
    const span = only();
    expect(span.name).toBe('prompts/get greet');
    expect(span.attributes['gen_ai.prompt.name']).toBe('greet');
    expect(span.attributes['gen_ai.tool.name']).toBeUndefined();
  });
});

describe('telemetry: context and propagation', () => {
  afterEach(() => exporter.reset());

  it('the active context is the parent', async () => {
    const parent = tracer.startSpan('host operation');
    const withParent = { ...api, context: { active: () => api.trace.setSpan(api.context.active(), parent) } };
    const peer = exampleInMemory({
      telemetry: openTelemetry({ api: withParent, tracer, propagator: new W3CTraceContextPropagator() }),
    });
    try {
      await peer.client.connect();
      await peer.client.callTool('echo', { message: 'hi' });
    } finally {
      await peer.close();
      parent.end();
    }
    const call = exporter.getFinishedSpans().find((span) => span.name === 'tools/call echo');
    expect(call?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(call?.spanContext().traceId).toBe(parent.spanContext().traceId);
  });

  it('resourceUriInSpanName puts the uri in the name of resources/read spans', async () => {
    const peer = exampleInMemory({ telemetry: openTelemetry({ ...otel, resourceUriInSpanName: true }) });
    try {
      await peer.client.connect();
      await peer.client.readResource('demo://items/3');
    } finally {
      await peer.close();
    }
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
      'server/discover',
      'resources/read demo://items/3',
    ]);
  });

  it('only traceparent, tracestate and baggage reach _meta, whatever the propagator writes', async () => {
    const propagator: TelemetryPropagator = {
      inject(_context, carrier, setter) {
        setter.set(carrier, 'traceparent', '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01');
        setter.set(carrier, 'tracestate', 'rojo=00f067aa0ba902b7');
        setter.set(carrier, 'baggage', 'userId=alice');
        setter.set(carrier, 'b3', 'not-a-reserved-key');
        setter.set(carrier, 'io.modelcontextprotocol/protocolVersion', '1999-01-01');
      },
    };
    const peer = exampleInMemory({ telemetry: openTelemetry({ api, tracer, propagator }) });
    try {
      await peer.client.connect();
      await peer.client.callTool('echo', { message: 'hi' });
    } finally {
      await peer.close();
    }
    const meta = metaOf(peer.requests('tools/call').at(-1));
    expect(meta).toMatchObject({
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01',
      tracestate: 'rojo=00f067aa0ba902b7',
      baggage: 'userId=alice',
    });
    expect(meta['b3']).toBeUndefined();
    expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
  });

  it('a tracer that throws never fails the call; the failure goes to onError', async () => {
    const errors: Error[] = [];
    const broken = {
      startSpan: () => {
        throw new Error('tracer down');
      },
    };
    const peer = exampleInMemory({
      telemetry: openTelemetry({ api, tracer: broken }),
      onError: (error) => errors.push(error),
    });
    try {
      await peer.client.connect();
      const result = await peer.client.callTool('add', { a: 1, b: 2 });
      expect(result.structuredContent).toEqual({ sum: 3 });
    } finally {
      await peer.close();
    }
    expect(errors.map((error) => error.message)).toContain('tracer down');
    expect(metaOf(peer.requests('tools/call').at(-1))['traceparent']).toBeUndefined();
  });
});

describe('telemetry: walks and eras', () => {
  afterEach(() => exporter.reset());

  it('a page walk the consumer stops early ends its span as answered, with the pages it fetched', async () => {
    const peer = exampleInMemory({ telemetry });
    try {
      await peer.client.connect();
      exporter.reset();
      for await (const page of peer.client.pages('resources/list')) {
        expect(page.items.length).toBeGreaterThan(0);
        break;
      }
    } finally {
      await peer.close();
    }
    const span = only();
    expect(span.name).toBe('resources/list');
    expect(span.status.code).toBe(api.SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({ 'mcp_live.pagination.pages': 1, 'mcp_live.cache.outcome': 'miss' });
  });

  it('a walk cancelled by its signal ends as CancelledError', async () => {
    const peer = exampleInMemory({ telemetry, cache: false });
    const controller = new AbortController();
    try {
      await peer.client.connect();
      exporter.reset();
      const walk = peer.client.tools({ signal: controller.signal });
      controller.abort('stop');
      await expect(walk.next()).rejects.toMatchObject({ name: 'CancelledError' });
    } finally {
      await peer.close();
    }
    const span = only();
    expect(span.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({ 'error.type': 'CancelledError', 'mcp_live.error.code': -32800 });
  });

  it('the legacy (2025-11-25) wire gets the trace keys in _meta too', async () => {
    const { client, server } = await connectedLegacyPair({ telemetry });
    server.on('tools/call', () => ({ result: { content: [{ type: 'text', text: 'ok' }] } }));
    try {
      exporter.reset();
      await client.callTool('echo', { message: 'hi' });
    } finally {
      await client.close();
    }
    const span = only();
    expect(span.attributes['mcp.protocol.version']).toBe('2025-11-25');
    // Legacy `_meta` carries no protocol keys: only the progress token and the trace context.
    expect(server.requests('tools/call')[0]?.['params']?._meta).toEqual({
      progressToken: expect.any(Number),
      traceparent: traceparentOf(span),
    });
  });
});

describe('telemetry off', () => {
  it('records nothing and puts no trace keys in _meta', async () => {
    exporter.reset();
    const peer = exampleInMemory();
    try {
      await peer.client.connect();
      await peer.client.callTool('add', { a: 1, b: 1 });
      await peer.client.readResource('demo://readme');
      await peer.client.listAllResources();
    } finally {
      await peer.close();
    }
    expect(exporter.getFinishedSpans()).toEqual([]);
    const requests = peer.seen.filter((message) => message.id !== undefined);
    expect(requests.length).toBeGreaterThan(8);
    for (const request of requests) {
      expect(
        Object.keys(metaOf(request)).filter((key) => ['traceparent', 'tracestate', 'baggage'].includes(key)),
      ).toEqual([]);
    }
  });

  it('openTelemetry() refuses options without the API, and the client refuses what openTelemetry() did not make', () => {
    const open = (value: unknown) => () => openTelemetry(value as TelemetryOptions);
    expect(open({})).toThrow(InvalidArgumentError);
    expect(open({ api: { trace: {} } })).toThrow(/telemetry\.api/);
    expect(open('yes')).toThrow(InvalidArgumentError);
    const [transport] = InMemoryTransport.createLinkedPair();
    const make = (value: unknown) => () =>
      new McpClient({ transport, clientInfo: { name: 't', version: '0' }, telemetry: value as ClientTelemetry });
    // The options object itself (the shape before openTelemetry()) is named in the error.
    expect(make(otel)).toThrow(/invalid telemetry: expected openTelemetry\(\{ api \}\)/);
    expect(make('yes')).toThrow(InvalidArgumentError);
    const refused = (() => {
      try {
        make({ api })();
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(InvalidArgumentError);
    expect((refused as InvalidArgumentError).data).toEqual({ name: 'telemetry', value: 'object' });
    expect((refused as InvalidArgumentError).code).toBe(-32602);
    expect(make(openTelemetry(otel))).not.toThrow();
  });
});
