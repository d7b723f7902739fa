/**
 * OpenTelemetry tracing of client calls (OpenTelemetry semantic conventions for MCP, client
 * spans; spec 2026-07-28: basic, `_meta`, "OpenTelemetry trace context").
 *
 * `@opentelemetry/api` is an optional peer: nothing here imports it. The host passes the API
 * object, and the interfaces below name only the members the client uses, so the real module
 * (and the SDK's tracers and propagators) fit them and this package's types need no
 * `@opentelemetry/*` package.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { createInstruments, type ClientInstruments, type TelemetryMeter } from './metrics.js';

/** An OpenTelemetry `Context`; opaque here. */
export type TelemetryContext = object;

/** A span attribute value, as the client sets them. */
export type TelemetryAttributeValue = string | number | boolean;

/** The members of an OpenTelemetry `Span` the client uses. */
export interface TelemetrySpan {
  /** Sets one attribute of the span. */
  setAttribute(key: string, value: TelemetryAttributeValue): unknown;
  /** `code` 2 is `SpanStatusCode.ERROR`. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Records an error as a span event. */
  recordException(exception: { name: string; message?: string; stack?: string }): void;
  /** Ends the span; called once per span. */
  end(): void;
}

/** Options of {@link TelemetryTracer.startSpan}; `kind` 2 is `SpanKind.CLIENT`. */
export interface TelemetrySpanOptions {
  kind?: number;
  attributes?: Record<string, TelemetryAttributeValue>;
}

/** The member of an OpenTelemetry `Tracer` the client uses. */
export interface TelemetryTracer {
  /** Starts a span under `context` (the active context when absent). */
  startSpan(name: string, options?: TelemetrySpanOptions, context?: TelemetryContext): TelemetrySpan;
}

/** Writes one propagation field into a carrier (OpenTelemetry `TextMapSetter`). */
export interface TelemetrySetter {
  /** Writes `key: value` into `carrier`. */
  set(carrier: Record<string, unknown>, key: string, value: string): void;
}

/** The member of an OpenTelemetry `TextMapPropagator` (or of `api.propagation`) the client uses. */
export interface TelemetryPropagator {
  /** Writes the propagation fields of `context` into `carrier` through `setter`. */
  inject(context: TelemetryContext, carrier: Record<string, unknown>, setter: TelemetrySetter): void;
}

/**
 * The parts of the `@opentelemetry/api` module the client uses: pass the module itself
 * (`import * as api from '@opentelemetry/api'`).
 */
export interface OpenTelemetryApi {
  trace: {
    /** `api.trace.getTracer`: a tracer by instrumentation name and version. */
    getTracer(name: string, version?: string): TelemetryTracer;
    /** `api.trace.setSpan`: a context with `span` as the active span. */
    setSpan(context: TelemetryContext, span: TelemetrySpan): TelemetryContext;
  };
  context: {
    /** `api.context.active`: the current context. */
    active(): TelemetryContext;
  };
  propagation: TelemetryPropagator;
  /** `api.metrics.getMeter`: a meter by instrumentation name and version (API 1.3 and later). */
  metrics?: {
    /** The meter of an instrumentation scope (`name`, optional `version`). */
    getMeter(name: string, version?: string): TelemetryMeter;
  };
}

/**
 * `ClientOptions.telemetry`: where the client's spans go. One CLIENT span per public call
 * (see docs/observability.md for names and attributes); its trace context is written into the
 * `_meta` of every request the call sends, under `traceparent`, `tracestate` and `baggage`
 * only (spec 2026-07-28: basic, `_meta`). The parent of each span is `api.context.active()`
 * when the call starts.
 */
export interface TelemetryOptions {
  /** The `@opentelemetry/api` module (`import * as api from '@opentelemetry/api'`). */
  api: OpenTelemetryApi;
  /** The tracer spans are started on. @default api.trace.getTracer("mcp-live") */
  tracer?: TelemetryTracer | undefined;
  /**
   * The meter the client records its metrics on (`mcp.client.operation.duration`,
   * `mcp.client.session.duration`), or `false` for none.
   * @default api.metrics.getMeter("mcp-live") (the global meter provider; without one
   * registered, the API's no-op meter)
   */
  meter?: TelemetryMeter | false | undefined;
  /**
   * What writes the trace context into `_meta`; keys other than `traceparent`, `tracestate`
   * and `baggage` are dropped. @default api.propagation (the global propagator; without one
   * registered, nothing is written)
   */
  propagator?: TelemetryPropagator | undefined;
  /**
   * Name `resources/read` spans `resources/read {uri}`. Off by default, as the conventions
   * advise, since URIs make span names high-cardinality; `mcp.resource.uri` is always set.
   * @default false
   */
  resourceUriInSpanName?: boolean | undefined;
}

/** {@link TelemetryOptions} checked, with defaults filled in. */
export interface ResolvedTelemetry {
  readonly api: OpenTelemetryApi;
  readonly tracer: TelemetryTracer;
  readonly propagator: TelemetryPropagator;
  readonly resourceUriInSpanName: boolean;
  /** The client's histograms; undefined without a meter. */
  readonly instruments: ClientInstruments | undefined;
}

/** Span attribute names the client sets: semantic-convention names first, then its own (`mcp_live.*`). */
export const TelemetryAttribute = {
  /** The request method, e.g. `tools/call`. */
  methodName: 'mcp.method.name',
  /** The protocol version the request was sent with. */
  protocolVersion: 'mcp.protocol.version',
  /** The legacy HTTP session's `Mcp-Session-Id` (2025-11-25 Streamable HTTP); the 2026-07-28 wire has no sessions. */
  sessionId: 'mcp.session.id',
  /** The `uri` of `resources/read`. */
  resourceUri: 'mcp.resource.uri',
  /** The tool of `tools/call`. */
  toolName: 'gen_ai.tool.name',
  /** The prompt of `prompts/get`. */
  promptName: 'gen_ai.prompt.name',
  /** `execute_tool` on `tools/call` spans. */
  operationName: 'gen_ai.operation.name',
  /** The JSON-RPC id of the last request the call sent, as a string. */
  requestId: 'jsonrpc.request.id',
  /** The JSON-RPC error code of an error response, as a string. */
  responseStatusCode: 'rpc.response.status_code',
  /** Failure class: the JSON-RPC code of an error response, `tool_error` for `isError: true`, else the error's name. */
  errorType: 'error.type',
  /** `tcp` (HTTP, WebSocket) or `pipe` (stdio). */
  networkTransport: 'network.transport',
  /** `http` or `websocket`. */
  networkProtocolName: 'network.protocol.name',
  /** The HTTP version, when the transport knows it (`1.1` on `node:http`). */
  networkProtocolVersion: 'network.protocol.version',
  /** The host of an HTTP or WebSocket server. */
  serverAddress: 'server.address',
  /** Its port. */
  serverPort: 'server.port',
  /** `hit`, `stale`, `miss` or `bypass`; on cacheable methods only. */
  cacheOutcome: 'mcp_live.cache.outcome',
  /** `input_required` rounds the call answered (retries sent). */
  inputRounds: 'mcp_live.input_required.rounds',
  /** Pages a list walk fetched. */
  pages: 'mcp_live.pagination.pages',
  /** The server's self-reported name (`serverInfo`). */
  serverName: 'mcp_live.server.name',
  /** The server's self-reported version. */
  serverVersion: 'mcp_live.server.version',
  /** The `code` of an mcp-live error (server-sent or local). */
  errorCode: 'mcp_live.error.code',
  /**
   * `legacy` on the `server/discover` probe of a connect that settled on the legacy wire: the
   * server's refusal was the answer the probe looks for, so the span ends OK.
   */
  probeVerdict: 'mcp_live.probe.verdict',
} as const;

/** `SpanKind.CLIENT`. */
export const SPAN_KIND_CLIENT = 2;
/** `SpanStatusCode.OK`. */
export const SPAN_STATUS_OK = 1;
/** `SpanStatusCode.ERROR`. */
export const SPAN_STATUS_ERROR = 2;

/** The `_meta` keys reserved for trace context propagation (spec 2026-07-28: basic, `_meta`). */
const TRACE_META_KEYS: ReadonlySet<string> = new Set(['traceparent', 'tracestate', 'baggage']);

/** Writes only the reserved trace keys into a request's `_meta`. */
export const metaSetter: TelemetrySetter = {
  set(carrier, key, value) {
    if (TRACE_META_KEYS.has(key)) carrier[key] = value;
  },
};

/** Checks the options of `openTelemetry()`. @throws InvalidArgumentError (-32602) when they lack what the client uses. */
export function resolveTelemetry(options: TelemetryOptions): ResolvedTelemetry {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('telemetry', options, 'expected { api } with the @opentelemetry/api module');
  const api = options.api as Partial<OpenTelemetryApi> | undefined;
  if (
    typeof api !== 'object' ||
    api === null ||
    typeof api.trace?.getTracer !== 'function' ||
    typeof api.trace.setSpan !== 'function' ||
    typeof api.context?.active !== 'function' ||
    typeof api.propagation?.inject !== 'function'
  ) {
    throw new InvalidArgumentError(
      'telemetry.api',
      typeof api,
      'expected the @opentelemetry/api module (trace, context, propagation)',
    );
  }
  const tracer = options.tracer ?? api.trace.getTracer('mcp-live');
  if (typeof tracer?.startSpan !== 'function')
    throw new InvalidArgumentError('telemetry.tracer', typeof tracer, 'expected a Tracer');
  const propagator = options.propagator ?? api.propagation;
  if (typeof propagator?.inject !== 'function')
    throw new InvalidArgumentError('telemetry.propagator', typeof propagator, 'expected a TextMapPropagator');
  const meter = options.meter === false ? undefined : (options.meter ?? api.metrics?.getMeter('mcp-live'));
  if (meter !== undefined && typeof meter.createHistogram !== 'function')
    throw new InvalidArgumentError('telemetry.meter', typeof meter, 'expected a Meter or false');
  return {
    api: api as OpenTelemetryApi,
    tracer,
    propagator,
    resourceUriInSpanName: options.resourceUriInSpanName === true,
    instruments: meter === undefined ? undefined : createInstruments(meter),
  };
}

/**
 * Where the server is, as span attributes, read from `Transport.serverIdentity` (never a stdio
 * command line) and `Transport.networkProtocolVersion`.
 */
export function networkAttributes(
  serverIdentity: string,
  protocolVersion?: string,
): Record<string, TelemetryAttributeValue> {
  if (serverIdentity.startsWith('stdio:')) return { [TelemetryAttribute.networkTransport]: 'pipe' };
  let url: URL;
  try {
    url = new URL(serverIdentity);
  } catch {
    return {};
  }
  const web = url.protocol === 'http:' || url.protocol === 'https:';
  const socket = url.protocol === 'ws:' || url.protocol === 'wss:';
  if (!web && !socket) return {};
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  return {
    [TelemetryAttribute.networkTransport]: 'tcp',
    [TelemetryAttribute.networkProtocolName]: web ? 'http' : 'websocket',
    ...(protocolVersion !== undefined && { [TelemetryAttribute.networkProtocolVersion]: protocolVersion }),
    [TelemetryAttribute.serverAddress]: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    [TelemetryAttribute.serverPort]: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
  };
}
