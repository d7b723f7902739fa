import {
  ConnectionClosedError,
  InputRequiredError,
  McpError,
  MissingClientCapabilityError,
  ProtocolError,
  RpcError,
  UnsupportedProtocolVersionError,
} from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import { isObject, type JsonObject, type JsonRpcNotification } from '../wire/messages.js';
import type { JsonRpcSession } from '../jsonrpc/session.js';
import type { SessionRequestOptions } from '../jsonrpc/sessionOptions.js';
import { withInputRetry } from '../inputRequired/retry.js';
import { isUrlElicitationRequired, UrlElicitationRequiredError } from '../inputRequired/errors.js';
import type { ElicitationCompletions } from '../inputRequired/urlElicitation.js';
import { loadInputRounds } from './inputRounds.js';
import { MetaKey, type ElicitResult, type LoggingMessage } from '../wire/protocol.js';
import type { ResolvedClientOptions } from './options.js';
import { resultKind } from '../wire/results.js';
import type { TransportLink } from '../transport/transport.js';
import type { Era } from '../era/era.js';
import { withTasksExtension } from '../wire/taskCapability.js';
import { withSkillsExtension } from '../wire/skillsCapability.js';
import { CallContext, RequestChain, type CallRequest } from './chain.js';
import { copyWith } from '../util/copyWith.js';
import { MetaBase, RequestMeta } from '../wire/requestMeta.js';
import { checkAcceptLanguage } from '../wire/language.js';
import { cacheKeyVersion } from '../cache/keyVersion.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { Middleware, UseOptions } from './middleware.js';

/** Methods whose results may be `input_required` (spec: basic/patterns/mrtr). */
const INPUT_REQUIRED_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** A complete result, and whether the cache may keep it. */
export interface CallOutcome {
  result: JsonObject;
  /** False when the result came from a request that carried `inputResponses` or `requestState`. */
  storable: boolean;
}

/**
 * Waits, at most `timeoutMs`, until the client's connection is open again (see
 * `client/connection.ts`). Rejects with `TimeoutError` (`data.kind` as given), `CancelledError`
 * when `signal` aborts, or `ConnectionClosedError` when the client gave up or closed.
 */
export type ConnectionWait = (
  method: string,
  signal: AbortSignal | undefined,
  timeoutMs: number,
  kind: 'idle' | 'total',
) => Promise<void>;

/**
 * Sends one MCP request the way the negotiated wire wants it. 2026-07-28: a fresh `_meta` per
 * attempt (protocol version, client capabilities, client info, caller keys, log level,
 * progress token). Legacy (2025-11-25 and earlier): `_meta` holds only the caller's keys and
 * the progress token. Every request runs through the client's middleware chain (`chain.ts`:
 * tracing, the user's, logging, then the transport's links: on HTTP, legacy session renewal and
 * `Mcp-Param-*` headers). In both: `resultType` checked, and `input_required` answered
 * through the host's handlers until the result is complete. Knows nothing of caching or lists.
 */
export class Caller {
  /** `_meta` fields shared by every request (with their JSON made once); undefined on the legacy wire, which has none. */
  private baseMeta: MetaBase | undefined;
  /** The declared capabilities plus the Tasks extension, for requests that declare it (made on first use). */
  private tasksCapabilities: JsonObject | undefined;
  /** The declared capabilities plus the Skills extension, for the extension's requests (made on first use). */
  private skillsCapabilities: JsonObject | undefined;
  private version: string;
  /** {@link cacheVersion} of a request without a language of its own (made when the version changes). */
  private keyVersion: string;
  private eraValue: Era = 'modern';
  /** Legacy wire: starts a new session after `SessionExpiredError` (`expired`; set by the client). */
  renewSession: ((expired: unknown) => Promise<unknown>) | undefined;
  /**
   * Set by the client while it reconnects, `undefined` while the connection is open: requests
   * wait on it before they are sent, and a request the drop cut short waits on it before it is
   * sent again (unless it is a `tools/call`).
   */
  reconnecting: ConnectionWait | undefined;
  /** Per-call log listeners of calls in flight that asked for a log level. */
  readonly logListeners = new Set<(message: LoggingMessage) => void>();
  /** The links the transport brought (`Transport.links`): the chain's innermost, told of each notification too. */
  private readonly transportLinks: readonly TransportLink[];
  /** The request middleware: the user's and the built-in ones (`chain.ts`). */
  private readonly chain: RequestChain;
  /** The waits for `notifications/elicitation/complete` (2025-11-25), made with the first URL elicitation round. */
  private completions: ElicitationCompletions | undefined;

  constructor(
    private readonly session: JsonRpcSession,
    private readonly options: ResolvedClientOptions,
  ) {
    this.version = options.protocolVersions[0] as string;
    this.baseMeta = this.makeBaseMeta();
    this.keyVersion = cacheKeyVersion(this.version, options.acceptLanguage);
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the links read the caller's live fields
    const caller = this;
    const debug = options.debug;
    this.transportLinks =
      options.transport.links?.({
        get renewSession() {
          return caller.renewSession;
        },
        reconnecting: () => caller.reconnecting !== undefined,
        warn: options.onError,
        debug: debug === undefined ? undefined : (message) => debug({ type: 'reconnect', message }),
      }) ?? [];
    this.chain = new RequestChain({ logListeners: this.logListeners, transportLinks: this.transportLinks });
  }

  /**
   * True when `tools/call` carries `Mcp-Param-*` headers from `tools/list` (Streamable HTTP on
   * the 2026-07-28 wire): a `HeaderMismatch` (-32020) then means the tools should be listed again.
   */
  get mirrorsToolHeaders(): boolean {
    return this.eraValue === 'modern' && this.options.transport.capabilities.mirrorsToolParamHeaders === true;
  }

  /** Tells the transport's links of a server notification (`notifications/tools/list_changed`...). */
  notified(method: string): void {
    for (const link of this.transportLinks) link.notified?.(method);
  }

  /** The wire requests are sent on. */
  get era(): Era {
    return this.eraValue;
  }

  /** Speaks `era` at `version` from now on. */
  useWire(era: Era, version: string): void {
    this.eraValue = era;
    this.protocolVersion = version;
  }

  /** The protocol version put on every request. */
  get protocolVersion(): string {
    return this.version;
  }

  set protocolVersion(version: string) {
    this.version = version;
    this.baseMeta = this.makeBaseMeta();
    this.keyVersion = cacheKeyVersion(version, this.options.acceptLanguage);
  }

  /**
   * The `protocolVersion` element of the cache keys of a request sent with `options`: the
   * protocol version, with the request's language preference when it has one (the call's
   * `acceptLanguage`, else the client's).
   */
  cacheVersion(options: CallOptions | undefined): string {
    const language = options?.acceptLanguage;
    return language === undefined ? this.keyVersion : cacheKeyVersion(this.version, language);
  }

  /** Adds a request middleware (see `middleware.ts` for the chain's order); returns its disposer. */
  use(middleware: Middleware, options?: UseOptions): () => void {
    return this.chain.use(middleware, options);
  }

  /**
   * Sends one request through the middleware chain and resolves with its complete result.
   * Drives `input_required` rounds unless the call (or client) is in manual mode, where it
   * throws `InputRequiredError` (-33003). `request.params` is never mutated. A result that a
   * middleware rewrote or made up is not storable.
   */
  call(request: CallRequest): Promise<CallOutcome> {
    const ctx = new CallContext(request, this.eraValue, this.version);
    return this.chain.run(ctx, this.sendRounds).then((result) => ({
      result,
      storable: result === ctx.sent && ctx.storable,
    }));
  }

  /** {@link call} for a caller that never stores the result: resolves with the result alone. */
  callResult(request: CallRequest): Promise<JsonObject> {
    return this.chain.run(new CallContext(request, this.eraValue, this.version), this.sendRounds);
  }

  /** The end of the chain: the first attempt, then the `input_required` rounds until the result is complete. */
  private readonly sendRounds = (ctx: CallContext): Promise<JsonObject> => {
    const { options, internals, method } = ctx;
    const totalMs = options.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs;
    const manualRetry = options.inputRetry;
    let params: JsonObject;
    try {
      // Time spent in middleware before the first send (an approval prompt) is not the call's.
      ctx.deadline ??= this.options.clock.now() + totalMs;
      params = manualRetry === undefined ? ctx.params : withInputRetry(ctx.params, manualRetry);
    } catch (error) {
      return Promise.reject(error);
    }
    const first: Attempt = { params, signal: options.signal, totalMs, round: false };
    const then = (result: JsonObject): JsonObject | Promise<JsonObject> => {
      const kind = resultKind(method, result, internals.declareTasks === true);
      if (kind === 'complete' || kind === 'task') {
        ctx.sent = result;
        ctx.storable = kind === 'complete' && manualRetry === undefined;
        return result;
      }
      return this.inputRounds(ctx, result, totalMs);
    };
    const sent = this.send(ctx, first, then);
    if (this.eraValue !== 'legacy') return sent;
    return sent.catch((error: unknown) => this.urlElicitationRounds(ctx, error, totalMs, then));
  };

  /**
   * A 2025-11-25 `UrlElicitationRequiredError` (-32042) with a URL elicitation handler
   * registered and not in manual mode: each URL shown through it, the server's completion of
   * each awaited, and the request sent again (a result is then not storable); within
   * `maxInputRounds`, the call's signal and its total budget. Anything else is thrown as it is.
   */
  private async urlElicitationRounds(
    ctx: CallContext,
    error: unknown,
    totalMs: number,
    then: (result: JsonObject) => JsonObject | Promise<JsonObject>,
  ): Promise<JsonObject> {
    const { method, options } = ctx;
    const handlers = this.options.handlers;
    if (
      !(error instanceof UrlElicitationRequiredError) ||
      !error.wellFormed ||
      handlers?.elicitation?.url === undefined ||
      (options.inputRequired ?? this.options.inputRequired) === 'manual'
    ) {
      throw error;
    }
    const rounds = await loadInputRounds();
    const completions = (this.completions ??= new rounds.ElicitationCompletions());
    const result = await rounds.retryAfterUrlElicitations({
      method,
      first: error,
      signal: options.signal,
      deadline: { at: ctx.deadline as number, totalTimeoutMs: totalMs },
      clock: this.options.clock,
      timers: this.options.timers,
      maxRounds: options.maxInputRounds ?? this.options.maxInputRounds,
      show: (elicitation, index, signal) =>
        rounds.answerInputRequest(
          handlers,
          'elicitation/create',
          { ...elicitation },
          {
            key: `elicitations[${index}]`,
            requestMethod: method,
            signal,
          },
        ) as Promise<ElicitResult>,
      completed: (elicitationId, signal) => completions.wait(elicitationId, signal),
      retry: (context) =>
        this.send(
          ctx,
          { params: ctx.params, signal: context.signal, totalMs: context.remainingMs ?? totalMs, round: true },
          then,
        ),
    });
    ctx.storable = false;
    return result;
  }

  /**
   * A `notifications/elicitation/complete` (2025-11-25): settles the URL elicitation rounds that
   * wait for its `elicitationId`; false when none does (the client passes it on to `onNotification`).
   */
  elicitationCompleted(notification: JsonRpcNotification): boolean {
    return this.completions?.complete(notification) ?? false;
  }

  /** The rounds after a first result that was not complete: `input_required` answered until it is. */
  private async inputRounds(ctx: CallContext, first: JsonObject, totalMs: number): Promise<JsonObject> {
    const { method, options, internals } = ctx;
    if (!INPUT_REQUIRED_METHODS.has(method)) {
      throw new ProtocolError('input_required is not allowed for this method', { method, value: first });
    }
    if ((options.inputRequired ?? this.options.inputRequired) === 'manual') {
      throw new InputRequiredError(method, first);
    }
    const { driveInputRequired, fulfilInputRequests } = await loadInputRounds();
    const result = await driveInputRequired({
      method,
      first,
      signal: options.signal,
      deadline: { at: ctx.deadline as number, totalTimeoutMs: totalMs },
      clock: this.options.clock,
      timers: this.options.timers,
      maxRounds: options.maxInputRounds ?? this.options.maxInputRounds,
      acceptsTask: internals.declareTasks === true,
      retry: (fields, context) => {
        internals.scope?.round(context.round);
        return this.send(ctx, {
          params: withInputRetry(ctx.params, fields),
          signal: context.signal,
          totalMs: context.remainingMs ?? totalMs,
          round: true,
        });
      },
      fulfil: (requests, context) =>
        fulfilInputRequests(this.options.handlers, requests, { requestMethod: method, signal: context.signal }),
    });
    ctx.sent = result;
    ctx.storable = false;
    return result;
  }

  /**
   * One attempt: a new JSON-RPC id and a fresh `_meta`. While the client reconnects, it is sent
   * once the connection is open again (within the call's own timeouts). `then`, when given, is
   * applied to the attempt's result (also to that of an attempt sent again after a failure), in
   * the same reaction that handles the failure.
   */
  private send(
    ctx: CallContext,
    attempt: Attempt,
    then?: (result: JsonObject) => JsonObject | Promise<JsonObject>,
  ): Promise<JsonObject> {
    const { method, options, internals } = ctx;
    if (this.reconnecting !== undefined && internals.handshake !== true) {
      const resent = this.afterReconnect(ctx, attempt.signal).then(() =>
        this.send(ctx, { ...attempt, totalMs: (ctx.deadline as number) - this.options.clock.now() }),
      );
      return then === undefined ? resent : resent.then(then);
    }
    const params = attempt.params;
    let sessionOptions: SessionRequestOptions;
    let request: Promise<JsonObject>;
    try {
      const tool = method === 'tools/call' && typeof params['name'] === 'string' ? params['name'] : undefined;
      // A tools/call may run twice after a broken stream only when the tool says it is harmless.
      const idempotent = ctx.idempotent ?? tool === undefined;
      const onLog = ctx.onLog;
      sessionOptions = {
        signal: attempt.signal,
        idempotent,
        timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
        maxTotalTimeoutMs: Math.max(1, attempt.totalMs),
        resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? this.options.resetTimeoutOnProgress,
        onProgress: options.onProgress,
        onRelatedNotification: onLog === undefined ? undefined : (notification) => this.deliverLog(notification, onLog),
      };
      if (hasKeys(ctx.headers)) sessionOptions.transportHeaders = ctx.headers;
      // The input_required rounds are always cancellable; only a first send may say otherwise.
      if (internals.cancellable !== undefined && !attempt.round) sessionOptions.cancellable = internals.cancellable;
      if (internals.credential !== undefined) sessionOptions.credential = internals.credential;
      if (ctx.onRequestId !== undefined) sessionOptions.onRequestId = ctx.onRequestId;
      request = this.session.request(method, this.withMeta(ctx, params, sessionOptions), sessionOptions);
      const answered = ctx.onAttempt?.(attempt.round);
      if (answered !== undefined)
        void request.then(
          (result) => answered(result),
          (error: unknown) => answered(undefined, error),
        );
    } catch (error) {
      return Promise.reject(error);
    }
    if (then === undefined) return request.catch((error: unknown) => this.failedAttempt(error, ctx, attempt));
    return request.then(then, (error: unknown) => this.failedAttempt(error, ctx, attempt).then(then));
  }

  /**
   * Waits for the reconnect under way, within the call's timeouts: the idle one (`timeoutMs`),
   * and what is left of the total one. Resolves at once when the connection is open.
   */
  private afterReconnect(ctx: CallContext, signal: AbortSignal | undefined): Promise<void> {
    const wait = this.reconnecting;
    if (wait === undefined) return Promise.resolve();
    const idleMs = ctx.options.timeoutMs ?? this.options.timeoutMs;
    const leftMs = (ctx.deadline as number) - this.options.clock.now();
    if (leftMs < idleMs) return wait(ctx.method, signal, Math.max(0, leftMs), 'total');
    return wait(ctx.method, signal, idleMs, 'idle');
  }

  /**
   * What a failed attempt becomes. A request the connection's drop cut short, while the client
   * reconnects: sent again on the new connection within its own deadline, unless it may have
   * had an effect the server would repeat (`tools/call`, or `idempotent: false`), which
   * rejects with the `ConnectionClosedError` (`data.outcome: "unknown"`). An unwrapped -32022
   * becomes `UnsupportedProtocolVersionError`, an unwrapped -32021
   * `MissingClientCapabilityError`, and on the legacy wire a -32042 with `data.elicitations`
   * `UrlElicitationRequiredError`; anything else is thrown as it is (a legacy session's
   * expiry is the `session` middleware's).
   */
  private async failedAttempt(error: unknown, ctx: CallContext, attempt: Attempt): Promise<JsonObject> {
    const { method, options } = ctx;
    if (this.reconnecting !== undefined && ctx.internals.handshake !== true && isConnectionClosedError(error)) {
      const sent = (error.data as { outcome?: unknown } | undefined)?.outcome !== 'not-sent';
      if (sent && (method === 'tools/call' || options.idempotent === false)) throw error;
      this.options.debug?.({
        type: 'reconnect',
        message: `${method}: the connection dropped; sending it again once reconnected`,
      });
      await this.afterReconnect(ctx, attempt.signal);
      return this.send(ctx, { ...attempt, totalMs: (ctx.deadline as number) - this.options.clock.now() });
    }
    if (
      error instanceof RpcError &&
      error.code === ErrorCode.UnsupportedProtocolVersion &&
      !(error instanceof UnsupportedProtocolVersionError)
    ) {
      throw new UnsupportedProtocolVersionError(
        { code: error.code, message: error.message, data: error.data },
        method,
        error.httpStatus,
      );
    }
    if (
      this.eraValue === 'legacy' &&
      isUrlElicitationRequired(error) &&
      !(error instanceof UrlElicitationRequiredError)
    ) {
      throw new UrlElicitationRequiredError(
        { code: error.code, message: error.message, data: error.data },
        method,
        error.httpStatus,
      );
    }
    if (
      error instanceof RpcError &&
      error.code === ErrorCode.MissingRequiredClientCapability &&
      !(error instanceof MissingClientCapabilityError)
    ) {
      throw new MissingClientCapabilityError(
        { code: error.code, message: error.message, data: error.data },
        method,
        error.httpStatus,
      );
    }
    throw error;
  }

  /**
   * `params` with a fresh `_meta`: the wire's base keys (with the Tasks or Skills extension
   * declared when asked, and the client's language), the context's `meta` (the caller's keys,
   * the trace context), the call's language, and (modern) the log level. A legacy request with nothing to put there and no progress token to
   * ask for has none.
   */
  private withMeta(ctx: CallContext, params: JsonObject, sessionOptions: SessionRequestOptions): JsonObject {
    const meta: JsonObject = this.baseMeta === undefined ? {} : new RequestMeta(this.baseMeta);
    const { internals, options } = ctx;
    if (this.eraValue === 'modern') {
      if (internals.declareTasks === true) {
        this.tasksCapabilities ??= withTasksExtension(this.options.capabilities) as JsonObject;
        meta[MetaKey.clientCapabilities] = this.tasksCapabilities;
      } else if (internals.declareSkills === true) {
        this.skillsCapabilities ??= withSkillsExtension(this.options.capabilities) as JsonObject;
        meta[MetaKey.clientCapabilities] = this.skillsCapabilities;
      }
    }
    Object.assign(meta, ctx.meta);
    // The language: the call's, else the client's (in the modern base already; the legacy wire has none).
    if (options.acceptLanguage !== undefined)
      meta[MetaKey.acceptLanguage] = checkAcceptLanguage(options.acceptLanguage, 'options.acceptLanguage');
    else if (this.baseMeta === undefined && this.options.acceptLanguage !== undefined)
      meta[MetaKey.acceptLanguage] = this.options.acceptLanguage;
    if (this.eraValue === 'legacy') {
      const wantsProgress =
        sessionOptions.onProgress !== undefined ||
        sessionOptions.resetTimeoutOnProgress ||
        Object.hasOwn(meta, MetaKey.progressToken);
      if (!wantsProgress && Object.keys(meta).length === 0) return params;
    } else if (options.logLevel !== undefined) {
      meta[MetaKey.logLevel] = options.logLevel;
    }
    return meta instanceof RequestMeta ? RequestMeta.params(params, meta) : copyWith(params, '_meta', meta);
  }

  /**
   * Routes a `notifications/message` that no transport attributed to a request: to every call
   * in flight that asked for logs, or else to the client-wide `onLog`.
   */
  routeLog(notification: JsonRpcNotification): void {
    if (this.logListeners.size === 0) {
      this.deliverLog(notification, this.options.onLog);
      return;
    }
    for (const listener of this.logListeners) this.deliverLog(notification, listener);
  }

  private deliverLog(
    notification: JsonRpcNotification,
    listener: ((message: LoggingMessage) => void) | undefined,
  ): void {
    if (listener === undefined) return;
    const params = notification.params;
    if (!isObject(params) || typeof params['level'] !== 'string' || !('data' in params)) {
      this.options.onError(
        new ProtocolError('malformed notifications/message; ignored', {
          method: notification.method,
          value: notification,
        }),
      );
      return;
    }
    try {
      listener(params as unknown as LoggingMessage);
    } catch (error) {
      this.options.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private makeBaseMeta(): MetaBase | undefined {
    if (this.eraValue === 'legacy') return undefined;
    const meta: JsonObject = {
      [MetaKey.protocolVersion]: this.version,
      [MetaKey.clientCapabilities]: this.options.capabilities,
    };
    if (this.options.sendClientInfo) meta[MetaKey.clientInfo] = this.options.clientInfo;
    if (this.options.acceptLanguage !== undefined) meta[MetaKey.acceptLanguage] = this.options.acceptLanguage;
    return new MetaBase(meta);
  }
}

/** A `ConnectionClosedError` (-32000), whichever package copy made it. */
function isConnectionClosedError(error: unknown): error is ConnectionClosedError {
  return (
    error instanceof ConnectionClosedError ||
    (McpError.is(error) && error.local && error.code === ErrorCode.ConnectionClosed)
  );
}

/** One attempt of a request: what is sent, under which signal, within how much of the total budget. */
interface Attempt {
  params: JsonObject;
  signal: AbortSignal | undefined;
  totalMs: number;
  /** An `input_required` round (the second request of the call or later). */
  round: boolean;
}

function hasKeys(record: Record<string, string>): boolean {
  for (const _ in record) return true;
  return false;
}
