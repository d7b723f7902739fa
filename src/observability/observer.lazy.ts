/**
 * What one client reports about its calls: a span per public call (when `telemetry` is set)
 * and debug log lines (when `debug` is on). The client holds an {@link Observer} only when one
 * of them is on, so an unobserved call costs one `undefined` check.
 */
import { McpError, RpcError } from '../errors/errors.js';
import type { CacheSource } from '../cache/types.js';
import { isObject, type JsonObject, type RequestId } from '../wire/messages.js';
import type { SessionOptions } from '../jsonrpc/sessionOptions.js';
import type { Implementation } from '../wire/protocol.js';
import type { Clock } from '../util/clock.js';
import type { Transport } from '../transport/transport.js';
import { logLine, redact, redactText, type DebugEntryType, type DebugSink } from './debug.js';
import {
  metaSetter,
  networkAttributes,
  SPAN_KIND_CLIENT,
  SPAN_STATUS_ERROR,
  SPAN_STATUS_OK,
  TelemetryAttribute as A,
  type ResolvedTelemetry,
  type TelemetryAttributeValue,
  type TelemetryContext,
  type TelemetrySpan,
} from './telemetry.js';

/**
 * How the response cache answered a call (span attribute `mcp_live.cache.outcome`): `hit` (a
 * fresh entry), `stale` (a stale entry: stale-while-revalidate, stale-if-error, or `force-cache`
 * and `only-if-cached` finding only a stale one), `miss` (the server was asked, modes `reload`
 * and `no-cache` included, and failed requests), `bypass` (cache mode `no-store`, or no cache).
 */
export type CacheOutcomeName = 'hit' | 'stale' | 'miss' | 'bypass';

/** What the call is about: the tool or prompt `name`, or the resource `uri`. */
export interface CallTarget {
  name?: string | undefined;
  uri?: string | undefined;
}

/** What an {@link Observer} needs from its client. */
export interface ObserverOptions {
  telemetry: ResolvedTelemetry | undefined;
  debug: DebugSink | undefined;
  /** `Transport.serverIdentity`. */
  serverIdentity: string;
  /** The transport, for `network.protocol.version` and the legacy HTTP session id (`mcp.session.id`). */
  transport?: Pick<Transport, 'networkProtocolVersion' | 'legacyWire'> | undefined;
  /** The server's self-reported identity, once known. */
  serverInfo(): Implementation | undefined;
  clock: Clock;
  onError(error: Error): void;
}

const OUTCOME_OF: Readonly<Record<CacheSource, CacheOutcomeName>> = { cache: 'hit', stale: 'stale', network: 'miss' };

/** Orders outcomes for a walk: its outcome is its worst page's. */
function rank(outcome: CacheOutcomeName | undefined): number {
  return outcome === undefined ? -1 : outcome === 'hit' ? 0 : outcome === 'stale' ? 1 : 2;
}

/** @internal Owned by `McpClient`; exists only when telemetry or the debug log is on. */
export class Observer {
  private readonly network: Record<string, TelemetryAttributeValue>;
  /** True from connect (or a reconnect) until the connection drops or the client closes. */
  private opened = false;
  /** The current session: when it opened and the version it speaks; for `mcp.client.session.duration`. */
  private session: { startedAt: number; protocolVersion: string | undefined } | undefined;
  /** A failed `server/discover` probe, ended once the connect settles (OK if it settled on legacy). */
  private probe: ((legacyAnswer: boolean) => void) | undefined;
  /** `initialize` requests sent and not yet answered, by JSON-RPC id. */
  private readonly handshakes = new Map<RequestId, HandshakeSpan>();

  constructor(private readonly options: ObserverOptions) {
    this.network =
      options.telemetry === undefined
        ? {}
        : networkAttributes(options.serverIdentity, options.transport?.networkProtocolVersion);
  }

  /** The legacy HTTP session's id, when there is one. */
  private sessionId(): string | undefined {
    return this.options.transport?.legacyWire?.sessionId?.();
  }

  /**
   * Starts reporting one public call; end it with {@link CallScope.settle} (or `succeed`/`fail`).
   * `viaCache` marks calls the response cache answers (a failed one then reads as a `miss`).
   */
  start(method: string, target: CallTarget, protocolVersion: string, viaCache = false): CallScope {
    const label =
      target.name !== undefined
        ? `${method} ${target.name}`
        : target.uri !== undefined
          ? `${method} ${target.uri}`
          : method;
    const telemetry = this.options.telemetry;
    let span: TelemetrySpan | undefined;
    let context: TelemetryContext | undefined;
    let metric: Record<string, TelemetryAttributeValue> | undefined;
    if (telemetry !== undefined) {
      try {
        const attributes: Record<string, TelemetryAttributeValue> = {
          [A.methodName]: method,
          [A.protocolVersion]: protocolVersion,
          ...this.network,
        };
        const tool = method === 'tools/call';
        const named = target.name !== undefined && (tool || method === 'prompts/get');
        if (named) attributes[tool ? A.toolName : A.promptName] = target.name as string;
        if (tool) attributes[A.operationName] = 'execute_tool';
        // The metric's attributes: the span's so far (no URI, session id or server identity: cardinality).
        if (telemetry.instruments !== undefined) metric = { ...attributes };
        if (target.uri !== undefined) attributes[A.resourceUri] = target.uri;
        const session = this.sessionId();
        if (session !== undefined) attributes[A.sessionId] = session;
        const info = this.options.serverInfo();
        if (typeof info?.name === 'string') attributes[A.serverName] = info.name;
        if (typeof info?.version === 'string') attributes[A.serverVersion] = info.version;
        // `{method} {tool or prompt}`; a URI only on request (high cardinality).
        const name = named
          ? `${method} ${target.name}`
          : target.uri !== undefined && telemetry.resourceUriInSpanName
            ? `${method} ${target.uri}`
            : method;
        const parent = telemetry.api.context.active();
        span = telemetry.tracer.startSpan(name, { kind: SPAN_KIND_CLIENT, attributes }, parent);
        context = telemetry.api.trace.setSpan(parent, span);
      } catch (error) {
        this.reportError(error);
      }
    }
    if (method === 'server/discover' && !this.opened) this.settleProbe(false); // a new attempt: the last probe failed
    return new CallScope(this, method, label, span, context, viaCache, metric);
  }

  /** A debug line; nothing when the log is off. */
  log(type: DebugEntryType, message: string, data?: Record<string, unknown>): void {
    this.options.debug?.(data === undefined ? { type, message } : { type, message, data });
  }

  /**
   * The session's hooks: `onWire` when the debug log or telemetry is on (telemetry reads the
   * legacy `initialize` exchange there), `onReissue` when the debug log is on.
   */
  sessionHooks(): Pick<SessionOptions, 'onWire' | 'onReissue'> {
    const debug = this.options.debug;
    const traced = this.options.telemetry !== undefined;
    if (debug === undefined) return traced ? { onWire: (direction, message) => this.wire(direction, message) } : {};
    return {
      onWire: (direction, message) => {
        if (traced) this.wire(direction, message);
        const copy = redact(message);
        debug({
          type: 'wire',
          message: `${direction === 'send' ? '→' : '←'} ${logLine(copy)}`,
          data: { direction, message: copy },
        });
      },
      onReissue: (method, oldId, newId) => {
        debug({
          type: 'reconnect',
          message: `${method}: response stream broke; re-sent request ${JSON.stringify(oldId)} as ${JSON.stringify(newId)}`,
          data: { method, oldId, newId },
        });
      },
    };
  }

  /**
   * `connect()` (or a reconnect) settled: logs it, starts the session's duration, and ends a
   * failed probe, as OK when the connect settled on the legacy wire (the refusal was its answer).
   */
  connected(era: string | undefined, protocolVersion: string | undefined): void {
    this.opened = true;
    this.session = { startedAt: this.now(), protocolVersion };
    this.settleProbe(era === 'legacy');
    this.log(
      'era',
      `connected to ${redactText(this.options.serverIdentity)}: ${era ?? '?'} wire, protocol ${protocolVersion ?? '?'}`,
      { era, protocolVersion },
    );
  }

  /**
   * The connection dropped (`error`, the cause) or the client closed (no error): records
   * `mcp.client.session.duration` for the session that was open (`error.type` when it dropped),
   * and ends what the handshake left open (a failed probe, an unanswered `initialize`) as failed.
   */
  sessionEnded(error?: unknown): void {
    this.opened = false;
    this.settleProbe(false);
    for (const handshake of this.handshakes.values()) handshake.end(undefined, error ?? 'ConnectionClosedError');
    this.handshakes.clear();
    const session = this.session;
    this.session = undefined;
    const instruments = this.options.telemetry?.instruments;
    if (session === undefined || instruments === undefined) return;
    try {
      const attributes: Record<string, TelemetryAttributeValue> = { ...this.network };
      if (session.protocolVersion !== undefined) attributes[A.protocolVersion] = session.protocolVersion;
      if (error !== undefined) attributes[A.errorType] = errorTypeOf(error);
      instruments.sessionDuration.record((this.now() - session.startedAt) / 1000, attributes);
    } catch (failure) {
      this.reportError(failure);
    }
  }

  /** @internal Holds a failed `server/discover` probe until the connect settles; false when not connecting. */
  deferProbe(settle: (legacyAnswer: boolean) => void): boolean {
    if (this.opened || this.options.telemetry === undefined) return false;
    this.settleProbe(false);
    this.probe = settle;
    return true;
  }

  /** @internal True while connecting (or reconnecting): a `server/discover` then is the handshake. */
  get connecting(): boolean {
    return !this.opened;
  }

  private settleProbe(legacyAnswer: boolean): void {
    const settle = this.probe;
    this.probe = undefined;
    settle?.(legacyAnswer);
  }

  /** The legacy handshake on the wire: a CLIENT span per `initialize` request, ended by its response. */
  private wire(direction: 'send' | 'receive', message: unknown): void {
    if (!isObject(message)) return;
    const id = message['id'];
    if (typeof id !== 'string' && typeof id !== 'number') return;
    if (direction === 'send') {
      if (message['method'] !== 'initialize') return;
      const params = message['params'];
      const version =
        isObject(params) && typeof params['protocolVersion'] === 'string' ? params['protocolVersion'] : '';
      const scope = this.start('initialize', {}, version);
      scope.requestId(id);
      this.handshakes.set(id, new HandshakeSpan(scope));
      return;
    }
    const handshake = this.handshakes.get(id);
    if (handshake === undefined || (!('result' in message) && !('error' in message))) return;
    this.handshakes.delete(id);
    handshake.end(message, undefined);
  }

  /** @internal The legacy HTTP session's id, when there is one. */
  get currentSessionId(): string | undefined {
    return this.sessionId();
  }

  /** @internal */
  get telemetry(): ResolvedTelemetry | undefined {
    return this.options.telemetry;
  }

  /** @internal */
  now(): number {
    return this.options.clock.now();
  }

  /** @internal A failure of the tracer or propagator; it never fails the call. */
  reportError(error: unknown): void {
    this.options.onError(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * @internal One public call as reported: its span (if any) and its debug lines. Every method
 * is safe to call after the call ended (it does nothing then).
 */
export class CallScope {
  private ended = false;
  /** A request of this call went out (a fresh cache hit sends none and records no duration). */
  private sent = false;
  private pageCount = 0;
  private roundCount = 0;
  private outcome: CacheOutcomeName | undefined;
  private readonly startedAt: number;

  constructor(
    private readonly observer: Observer,
    private readonly method: string,
    /** `tools/call add`, `resources/read demo://x`, `tools/list`. */
    readonly label: string,
    private readonly span: TelemetrySpan | undefined,
    private readonly context: TelemetryContext | undefined,
    private readonly viaCache: boolean,
    /** The attributes of `mcp.client.operation.duration`; undefined without a meter. */
    private readonly metric?: Record<string, TelemetryAttributeValue> | undefined,
  ) {
    this.startedAt = observer.now();
  }

  /** Writes the call's trace context into a request's `_meta` (`traceparent`, `tracestate`, `baggage` only). */
  inject(meta: JsonObject): void {
    const telemetry = this.observer.telemetry;
    if (this.context === undefined || telemetry === undefined) return;
    try {
      telemetry.propagator.inject(this.context, meta, metaSetter);
    } catch (error) {
      this.observer.reportError(error);
    }
  }

  /** The JSON-RPC id a request of this call went out under. */
  requestId(id: RequestId): void {
    this.sent = true;
    this.attribute(A.requestId, String(id));
  }

  /**
   * Ends a legacy `initialize` as answered: the version the server chose, the HTTP session it
   * assigned (`mcp.session.id`), status OK (the connect's handshake succeeded).
   */
  handshakeAnswered(result: JsonObject | undefined): void {
    const version = result?.['protocolVersion'];
    if (typeof version === 'string') {
      this.attribute(A.protocolVersion, version);
      if (this.metric !== undefined) this.metric[A.protocolVersion] = version;
    }
    const session = this.observer.currentSessionId;
    if (session !== undefined) this.attribute(A.sessionId, session);
    this.succeed(result);
  }

  /** How the cache answered a single-request call. */
  cache(outcome: CacheOutcomeName): void {
    if (this.ended) return;
    this.outcome = outcome;
    this.attribute(A.cacheOutcome, outcome);
    this.observer.log('cache', `${this.label}: cache ${outcome}`, { outcome });
  }

  /** How the cache answered a single-request call, from its `CacheOutcome.source`. */
  cacheSource(source: CacheSource): void {
    this.cache(OUTCOME_OF[source]);
  }

  /** One page of a list walk was fetched; `source` is undefined without a cache. */
  page(source: CacheSource | undefined): void {
    if (this.ended) return;
    this.pageCount++;
    const outcome: CacheOutcomeName = source === undefined ? 'bypass' : OUTCOME_OF[source];
    // The walk reads as a hit only when every page was one; any server page makes it a miss.
    if (rank(outcome) > rank(this.outcome)) this.outcome = outcome;
    this.observer.log('cache', `${this.label}: page ${this.pageCount}: cache ${outcome}`, {
      page: this.pageCount,
      outcome,
    });
  }

  /** An `input_required` round: its answers are about to be sent (1 for the first retry). */
  round(round: number): void {
    if (this.ended) return;
    this.roundCount = round;
    this.observer.log('input-required', `${this.label}: input_required, round ${round}`, { round });
  }

  /** Ends a call answered at once from a fresh cache entry (no request sent). */
  servedFromCache(result: JsonObject): void {
    this.cache('hit');
    this.succeed(result);
  }

  /** Resolves with `promise`, ending the scope with its result or its error. */
  settle<T>(promise: Promise<T>): Promise<T> {
    return promise.then(
      (value) => {
        this.succeed(isObject(value) ? value : undefined);
        return value;
      },
      (error: unknown) => {
        this.fail(error);
        throw error;
      },
    );
  }

  /** Ends the call as answered; a `tools/call` result with `isError: true` sets `error.type: tool_error` and status ERROR. */
  succeed(result?: JsonObject): void {
    if (this.ended) return;
    const toolError = this.method === 'tools/call' && result?.['isError'] === true;
    if (toolError && this.span !== undefined) {
      // The conventions: error.type is set, so the status is ERROR (no JSON-RPC message to give).
      this.attribute(A.errorType, 'tool_error');
      try {
        this.span.setStatus({ code: SPAN_STATUS_ERROR });
      } catch (error) {
        this.observer.reportError(error);
      }
    }
    // The connect's handshake (`server/discover`, legacy `initialize`) succeeded: the connect is OK.
    const handshake = this.observer.connecting && (this.method === 'server/discover' || this.method === 'initialize');
    if (handshake && this.span !== undefined) {
      try {
        this.span.setStatus({ code: SPAN_STATUS_OK });
      } catch (error) {
        this.observer.reportError(error);
      }
    }
    if (toolError && this.metric !== undefined) this.metric[A.errorType] = 'tool_error';
    this.finish();
    this.observer.log('call', `${this.label}: ${toolError ? 'tool error' : 'ok'}${this.summary()}`, {
      ok: true,
      ms: this.elapsed(),
      ...this.counts(),
    });
  }

  /**
   * Ends the call as failed: `error.type` (the JSON-RPC code of an error response, else the
   * error's name), `rpc.response.status_code` for error responses, span status ERROR with the
   * message, and the exception recorded by name, message and stack only (never `data` or `cause`).
   */
  fail(error: unknown): void {
    if (this.ended) return;
    // The cache passed the call on (or, `only-if-cached`, found nothing): a miss that failed.
    if (this.outcome === undefined && this.viaCache) this.cache('miss');
    const name = error instanceof Error ? error.name : '_OTHER';
    const message = redactText(error instanceof Error ? error.message : String(error));
    const code = McpError.is(error) ? error.code : undefined;
    // An error response from the server (not one mcp-live raised itself).
    const response = McpError.is(error) && !error.local;
    const errorType = response && code !== undefined ? String(code) : name;
    const statusCode = response && code !== undefined ? String(code) : undefined;
    this.ended = true;
    this.observer.log(
      'call',
      `${this.label}: failed: ${name}${code === undefined ? '' : ` ${code}`}: ${message}${this.summary()}`,
      { ok: false, ms: this.elapsed(), error: name, ...(code !== undefined && { code }), ...this.counts() },
    );
    const failed = () => {
      const span = this.span;
      if (span !== undefined) {
        try {
          span.setAttribute(A.errorType, errorType);
          if (code !== undefined) span.setAttribute(A.errorCode, code);
          if (statusCode !== undefined) span.setAttribute(A.responseStatusCode, statusCode);
          span.setStatus({ code: SPAN_STATUS_ERROR, message });
          span.recordException(
            error instanceof Error && error.stack !== undefined
              ? { name, message, stack: redactText(error.stack) }
              : { name, message },
          );
        } catch (failure) {
          this.observer.reportError(failure);
        }
      }
      if (this.metric !== undefined) {
        this.metric[A.errorType] = errorType;
        if (statusCode !== undefined) this.metric[A.responseStatusCode] = statusCode;
      }
      this.finish();
    };
    // A probe's refusal is the answer that means legacy: the span waits for the connect's verdict.
    const probe = this.method === 'server/discover' && this.observer.connecting;
    if (
      probe &&
      this.observer.deferProbe((legacyAnswer) => {
        if (!legacyAnswer) return failed();
        if (statusCode !== undefined) this.attribute(A.responseStatusCode, statusCode, true);
        this.attribute(A.probeVerdict, 'legacy', true);
        try {
          this.span?.setStatus({ code: SPAN_STATUS_OK });
        } catch (failure) {
          this.observer.reportError(failure);
        }
        if (this.metric !== undefined && statusCode !== undefined) this.metric[A.responseStatusCode] = statusCode;
        this.finish();
      })
    )
      return;
    failed();
  }

  private finish(): void {
    this.ended = true;
    const instruments = this.observer.telemetry?.instruments;
    if (this.metric !== undefined && instruments !== undefined && this.sent) {
      try {
        instruments.operationDuration.record((this.observer.now() - this.startedAt) / 1000, this.metric);
      } catch (error) {
        this.observer.reportError(error);
      }
    }
    const span = this.span;
    if (span === undefined) return;
    try {
      if (this.roundCount > 0) span.setAttribute(A.inputRounds, this.roundCount);
      if (this.pageCount > 0) {
        span.setAttribute(A.pages, this.pageCount);
        if (this.outcome !== undefined) span.setAttribute(A.cacheOutcome, this.outcome);
      }
      span.end();
    } catch (error) {
      this.observer.reportError(error);
    }
  }

  /** Sets a span attribute; after the end only when `late` (a deferred probe's own end). */
  private attribute(key: string, value: TelemetryAttributeValue, late = false): void {
    if (this.span === undefined || (this.ended && !late)) return;
    try {
      this.span.setAttribute(key, value);
    } catch (error) {
      this.observer.reportError(error);
    }
  }

  private elapsed(): number {
    return Math.round((this.observer.now() - this.startedAt) * 10) / 10;
  }

  private counts(): Record<string, number> {
    return {
      ...(this.roundCount > 0 && { rounds: this.roundCount }),
      ...(this.pageCount > 0 && { pages: this.pageCount }),
    };
  }

  private summary(): string {
    const parts = [`${this.elapsed()} ms`];
    if (this.roundCount > 0) parts.push(`${this.roundCount} round${this.roundCount === 1 ? '' : 's'}`);
    if (this.pageCount > 0) parts.push(`${this.pageCount} page${this.pageCount === 1 ? '' : 's'}`);
    return ` (${parts.join(', ')})`;
  }
}

/** `error.type` of a failure: the JSON-RPC code of an error response, else the error's name (`_OTHER` for a non-Error). */
function errorTypeOf(error: unknown): string {
  if (McpError.is(error) && !error.local) return String(error.code);
  if (typeof error === 'string') return error;
  return error instanceof Error ? error.name : '_OTHER';
}

/** One legacy `initialize` request, as a call scope ended by its response. */
class HandshakeSpan {
  constructor(private readonly scope: CallScope) {}

  /** Ends it with the response (`message`), or as failed with `error` when none came. */
  end(message: JsonObject | undefined, error: unknown): void {
    if (message === undefined) {
      this.scope.fail(typeof error === 'string' ? Object.assign(new Error(error), { name: error }) : error);
      return;
    }
    const failure = message['error'];
    if (isObject(failure)) {
      const code = typeof failure['code'] === 'number' ? failure['code'] : 0;
      const text = typeof failure['message'] === 'string' ? failure['message'] : 'initialize failed';
      this.scope.fail(new RpcError({ code, message: text }, 'initialize'));
      return;
    }
    const result = message['result'];
    this.scope.handshakeAnswered(isObject(result) ? result : undefined);
  }
}
