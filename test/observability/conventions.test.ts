/**
 * The OpenTelemetry semantic conventions for MCP (open-telemetry/semantic-conventions,
 * docs/gen-ai/mcp.md) beyond the per-call spans of telemetry.test.ts: the two client histograms
 * with their attributes and bucket boundaries, the connect's handshake spans on both eras
 * (`initialize` on the legacy wire, a successful connect recorded as OK), `mcp.session.id` on a
 * legacy HTTP session and `network.protocol.version`. Recorded by the SDKs' in-memory exporters.
 */
import * as api from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import { StreamableHttpTransport } from '../../src/transport/http/node.js';
import { DURATION_BUCKETS_S } from '../../src/observability/metrics.js';
import type { TelemetryOptions } from '../../src/observability/telemetry.js';
import { openTelemetry } from '../../src/observability/openTelemetry.js';
import { legacyPair } from '../fakes/legacyScripted.js';
import { startLegacyHttpServer, type LegacyHttpServer } from '../fakes/legacyHttpServer.js';
import { sendJson } from '../fakes/httpFake.js';
import { exampleInMemory } from './exampleInMemory.js';

/** The boundaries the conventions give for both histograms (docs/gen-ai/mcp.md, "Metrics"). */
const CONVENTION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

let spans: InMemorySpanExporter;
let metrics: InMemoryMetricExporter;
let reader: PeriodicExportingMetricReader;
let meterProvider: MeterProvider;
let otel: TelemetryOptions;
let telemetry: ReturnType<typeof openTelemetry>;

beforeEach(() => {
  spans = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }).getTracer('t');
  metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // A long interval: the tests collect with forceFlush().
  reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 3_600_000 });
  meterProvider = new MeterProvider({ readers: [reader] });
  otel = { api, tracer, propagator: new W3CTraceContextPropagator(), meter: meterProvider.getMeter('t') };
  telemetry = openTelemetry(otel);
});
afterEach(async () => {
  await meterProvider.shutdown();
});

/** The data points of histogram `name`, collected now. */
async function histogram(name: string): Promise<HistogramMetricData['dataPoints']> {
  await reader.forceFlush();
  const found = metrics
    .getMetrics()
    .at(-1)
    ?.scopeMetrics.flatMap((scope) => scope.metrics)
    .find((metric) => metric.descriptor.name === name) as HistogramMetricData | undefined;
  return found?.dataPoints ?? [];
}

function spanNamed(name: string): ReadableSpan {
  const found = spans.getFinishedSpans().filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('mcp.client.operation.duration and mcp.client.session.duration', () => {
  it('one histogram point per kind of call, in seconds, with the conventions attributes and buckets', async () => {
    const peer = exampleInMemory({ telemetry });
    try {
      await peer.client.connect();
      await peer.client.callTool('add', { a: 1, b: 2 });
      await peer.client.callTool('add', { a: 3, b: 4 });
      await expect(peer.client.getPrompt('no-such-prompt')).rejects.toThrow();
      await peer.client.readResource('demo://note');
      await peer.client.readResource('demo://note'); // a fresh cache hit: nothing sent, no duration
    } finally {
      await peer.close();
    }
    const points = await histogram('mcp.client.operation.duration');
    const byMethod = (method: string) => points.filter((point) => point.attributes['mcp.method.name'] === method);
    const [calls] = byMethod('tools/call');
    expect(calls?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2026-07-28',
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
    });
    expect(calls?.value.count).toBe(2);
    expect(calls?.value.buckets.boundaries).toEqual(CONVENTION_BUCKETS);
    expect(DURATION_BUCKETS_S).toEqual(CONVENTION_BUCKETS);
    // Seconds, not milliseconds: two in-memory calls sum to well under a minute.
    expect(calls?.value.sum).toBeLessThan(60);
    expect(byMethod('prompts/get').map((point) => point.attributes)).toEqual([
      {
        'mcp.method.name': 'prompts/get',
        'mcp.protocol.version': '2026-07-28',
        'gen_ai.prompt.name': 'no-such-prompt',
        'error.type': '-32602',
        'rpc.response.status_code': '-32602',
      },
    ]);
    // The URI is opt-in on the metric (high cardinality): not there; the hit sent nothing.
    expect(byMethod('resources/read').map((point) => [point.attributes, point.value.count])).toEqual([
      [{ 'mcp.method.name': 'resources/read', 'mcp.protocol.version': '2026-07-28' }, 1],
    ]);
    expect(byMethod('server/discover').map((point) => point.value.count)).toEqual([1]);

    const sessions = await histogram('mcp.client.session.duration');
    expect(sessions.map((point) => [point.attributes, point.value.count])).toEqual([
      [{ 'mcp.protocol.version': '2026-07-28' }, 1],
    ]);
    expect(sessions[0]?.value.buckets.boundaries).toEqual(CONVENTION_BUCKETS);
  });

  it('meter: false records no metric; spans go on', async () => {
    const peer = exampleInMemory({ telemetry: openTelemetry({ ...otel, meter: false }) });
    try {
      await peer.client.connect();
      await peer.client.callTool('add', { a: 1, b: 2 });
    } finally {
      await peer.close();
    }
    expect(await histogram('mcp.client.operation.duration')).toEqual([]);
    expect(spanNamed('tools/call add').attributes['gen_ai.tool.name']).toBe('add');
  });
});

describe('the connect, as the conventions record it', () => {
  it('modern: the server/discover span of a successful connect has status OK', async () => {
    const peer = exampleInMemory({ telemetry });
    try {
      await peer.client.connect();
      await peer.client.discover(); // once open, an ordinary call: status left UNSET
    } finally {
      await peer.close();
    }
    const [connect, later] = spans.getFinishedSpans().filter((span) => span.name === 'server/discover');
    expect(connect?.status.code).toBe(api.SpanStatusCode.OK);
    expect(later?.status.code).toBe(api.SpanStatusCode.UNSET);
  });

  it('legacy stdio-like: the refused probe ends OK (its answer meant legacy), then an initialize span, OK', async () => {
    const { client, server } = legacyPair({ telemetry });
    await server.start();
    try {
      await client.connect();
      expect(client.era).toBe('legacy');
    } finally {
      await client.close();
    }
    const probe = spanNamed('server/discover');
    expect(probe.status.code).toBe(api.SpanStatusCode.OK);
    expect(probe.attributes['error.type']).toBeUndefined();
    expect(probe.attributes).toMatchObject({
      'rpc.response.status_code': '-32601',
      'mcp_live.probe.verdict': 'legacy',
    });
    const initialize = spanNamed('initialize');
    expect(initialize.kind).toBe(api.SpanKind.CLIENT);
    expect(initialize.status.code).toBe(api.SpanStatusCode.OK);
    const sent = server.requests('initialize')[0]!;
    expect(initialize.attributes).toMatchObject({
      'mcp.method.name': 'initialize',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': String(sent['id']),
    });
    const points = await histogram('mcp.client.operation.duration');
    const initializePoints = points.filter((point) => point.attributes['mcp.method.name'] === 'initialize');
    expect(initializePoints.map((point) => point.value.count)).toEqual([1]);
    expect(initializePoints[0]?.attributes['error.type']).toBeUndefined();
  });

  it('a connect that fails: the probe span says ERROR, the initialize refusal too', async () => {
    const { client, server } = legacyPair({ telemetry });
    server.on('initialize', () => ({ error: { code: -32603, message: 'boom' } }));
    await server.start();
    await expect(client.connect()).rejects.toThrow();
    expect(spanNamed('server/discover').status.code).toBe(api.SpanStatusCode.ERROR);
    const initialize = spanNamed('initialize');
    expect(initialize.status).toEqual({ code: api.SpanStatusCode.ERROR, message: 'boom' });
    expect(initialize.attributes).toMatchObject({ 'error.type': '-32603', 'rpc.response.status_code': '-32603' });
    // No session was open: no session duration.
    expect(await histogram('mcp.client.session.duration')).toEqual([]);
  });
});

describe('a legacy Streamable HTTP session on node:http', () => {
  let server: LegacyHttpServer;
  afterEach(async () => {
    await server.close();
  });

  it('mcp.session.id on its spans, network.protocol.version 1.1 on spans and metrics', async () => {
    server = await startLegacyHttpServer({
      request: (request, res) => {
        const json = request.json as { id?: number; method?: string };
        if (json.method !== 'tools/call') return false;
        sendJson(res, 200, { jsonrpc: '2.0', id: json.id, result: { content: [] } });
        return true;
      },
    });
    const client = new McpClient({
      transport: new StreamableHttpTransport(server.url, { retry: false }),
      clientInfo: { name: 'conventions', version: '1' },
      telemetry,
    });
    try {
      await client.connect();
      await client.callTool('echo', {});
    } finally {
      await client.close();
    }
    const network = {
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
      'server.address': '127.0.0.1',
    };
    const session = server.issued[0];
    expect(session).toEqual(expect.any(String));
    expect(spanNamed('initialize').attributes).toMatchObject({ ...network, 'mcp.session.id': session });
    expect(spanNamed('tools/call echo').attributes).toMatchObject({ ...network, 'mcp.session.id': session });
    const points = await histogram('mcp.client.operation.duration');
    const call = points.find((point) => point.attributes['mcp.method.name'] === 'tools/call');
    expect(call?.attributes).toMatchObject(network);
    expect(call?.attributes['mcp.session.id']).toBeUndefined();
    const sessions = await histogram('mcp.client.session.duration');
    expect(sessions.map((point) => point.attributes)).toEqual([
      { ...network, 'server.port': Number(new URL(server.url).port), 'mcp.protocol.version': '2025-11-25' },
    ]);
  });
});
