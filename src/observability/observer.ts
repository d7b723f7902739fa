/**
 * What one client reports about its calls: a span per public call (when `telemetry` is set)
 * and debug log lines (when `debug` is on). The client holds an {@link Observer} only when one
 * of them is on, so an unobserved call costs one `undefined` check.
 */
import { McpError } from '../errors/errors.js';
import type { CacheSource } from '../cache/types.js';
import { isObject, type JsonObject, type RequestId } from '../wire/messages.js';
import type { SessionOptions } from '../jsonrpc/sessionOptions.js';
import type { Implementation } from '../wire/protocol.js';
import type { Clock } from '../util/clock.js';
import { logLine, redact, redactText, type DebugEntryType, type DebugSink } from './debug.js';
import {
  metaSetter,
  networkAttributes,
  SPAN_KIND_CLIENT,
  SPAN_STATUS_ERROR,
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

  constructor(private readonly options: ObserverOptions) {
    this.network = options.telemetry === undefined ? {} : networkAttributes(options.serverIdentity);
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
        if (target.uri !== undefined) attributes[A.resourceUri] = target.uri;
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
    return new CallScope(this, method, label, span, context, viaCache);
  }

  /** A debug line; nothing when the log is off. */
  log(type: DebugEntryType, message: string, data?: Record<string, unknown>): void {
    this.options.debug?.(data === undefined ? { type, message } : { type, message, data });
  }

  /** The session's `onWire` and `onReissue` hooks when the debug log is on; none otherwise. */
  sessionHooks(): Pick<SessionOptions, 'onWire' | 'onReissue'> {
    const debug = this.options.debug;
    if (debug === undefined) return {};
    return {
      onWire: (direction, message) => {
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

  /** Logs what `connect()` settled on. */
  connected(era: string | undefined, protocolVersion: string | undefined): void {
    this.log(
      'era',
      `connected to ${redactText(this.options.serverIdentity)}: ${era ?? '?'} wire, protocol ${protocolVersion ?? '?'}`,
      { era, protocolVersion },
    );
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
    this.attribute(A.requestId, String(id));
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
    const span = this.span;
    if (span !== undefined) {
      try {
        span.setAttribute(A.errorType, response && code !== undefined ? String(code) : name);
        if (code !== undefined) span.setAttribute(A.errorCode, code);
        if (response && code !== undefined) span.setAttribute(A.responseStatusCode, String(code));
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
    this.finish();
    this.observer.log(
      'call',
      `${this.label}: failed: ${name}${code === undefined ? '' : ` ${code}`}: ${message}${this.summary()}`,
      { ok: false, ms: this.elapsed(), error: name, ...(code !== undefined && { code }), ...this.counts() },
    );
  }

  private finish(): void {
    this.ended = true;
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

  private attribute(key: string, value: TelemetryAttributeValue): void {
    if (this.span === undefined || this.ended) return;
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
