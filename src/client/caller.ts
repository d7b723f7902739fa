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
import { driveInputRequired } from '../inputRequired/driver.js';
import { fulfilInputRequests } from '../inputRequired/inputHandlers.js';
import { withInputRetry } from '../inputRequired/retry.js';
import { MetaKey, type LoggingMessage } from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { ResolvedClientOptions } from './options.js';
import { resultKind } from '../wire/results.js';
import { ToolHeaderRegistry } from '../transport/http/mcpParamHeaders.js';
import { isSessionExpiredError } from '../transport/http/legacy/legacyHttp.js';
import type { Era } from '../era/era.js';
import type { CallScope } from '../observability/observer.js';
import { withTasksExtension } from '../wire/taskCapability.js';
import { withSkillsExtension } from '../wire/skillsCapability.js';
import type { RequestCredential } from '../transport/transport.js';

/** Methods whose results may be `input_required` (spec: basic/patterns/mrtr). */
const INPUT_REQUIRED_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** A complete result, and whether the cache may keep it. */
export interface CallOutcome {
  result: JsonObject;
  /** False when the result came from a request that carried `inputResponses` or `requestState`. */
  storable: boolean;
}

/** Session options of one call that only the client itself sets. */
export interface CallInternals {
  /** See `SessionRequestOptions.cancellable`. */
  cancellable?: boolean | undefined;
  /** The public call this request belongs to, when telemetry or the debug log is on. */
  scope?: CallScope | undefined;
  /**
   * Declare the Tasks extension on this request (`clientCapabilities.extensions`), and accept a
   * `resultType: "task"` answer: the outcome's result is then the `CreateTaskResult` as received.
   */
  declareTasks?: boolean | undefined;
  /** Declare the Skills extension on this request (`clientCapabilities.extensions`, SEP-2640). */
  declareSkills?: boolean | undefined;
  /** The credential to send every attempt with (the one the cache resolved its partition from). */
  credential?: RequestCredential | undefined;
  /** A request of the negotiation itself (`server/discover`): it never waits for a reconnect, being part of one. */
  handshake?: boolean | undefined;
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
 * the progress token, and a request refused because its HTTP session expired is sent once
 * more after a new session. In both: `resultType` checked, and `input_required` answered
 * through the host's handlers until the result is complete. Knows nothing of caching or lists.
 */
export class Caller {
  /** `_meta` fields shared by every request; copied per attempt, never mutated. */
  private baseMeta: JsonObject;
  /** The declared capabilities plus the Tasks extension, for requests that declare it (made on first use). */
  private tasksCapabilities: JsonObject | undefined;
  /** The declared capabilities plus the Skills extension, for the extension's requests (made on first use). */
  private skillsCapabilities: JsonObject | undefined;
  private version: string;
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
  private readonly logListeners = new Set<(message: LoggingMessage) => void>();
  /**
   * What `tools/list` said about each tool's `x-mcp-header` parameters and hints, when the
   * transport mirrors them into `Mcp-Param-*` headers (Streamable HTTP); else undefined.
   */
  private readonly headerRegistry: ToolHeaderRegistry | undefined;

  constructor(
    private readonly session: JsonRpcSession,
    private readonly options: ResolvedClientOptions,
  ) {
    this.version = options.protocolVersions[0] as string;
    this.baseMeta = this.makeBaseMeta();
    this.headerRegistry =
      options.transport.capabilities.mirrorsToolParamHeaders === true ? new ToolHeaderRegistry() : undefined;
  }

  /**
   * What `tools/list` said about each tool's `x-mcp-header` parameters and hints, when the
   * transport mirrors them into `Mcp-Param-*` headers (Streamable HTTP, 2026-07-28); else
   * undefined (and always on the legacy wire, which has no such headers).
   */
  get toolHeaders(): ToolHeaderRegistry | undefined {
    return this.eraValue === 'modern' ? this.headerRegistry : undefined;
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
  }

  /**
   * Sends `method` and resolves with its complete result. Drives `input_required` rounds unless
   * the call (or client) is in manual mode, where it throws `InputRequiredError` (-32003).
   * `params` is never mutated.
   */
  call(method: string, params: JsonObject, options: CallOptions, internals?: CallInternals): Promise<CallOutcome> {
    // Plain promise chains, not async frames: this is every uncached request's path.
    const onLog = options.logLevel !== undefined ? options.onLog : undefined;
    if (onLog === undefined) return this.callRounds(method, params, options, undefined, internals);
    this.logListeners.add(onLog);
    return this.callRounds(method, params, options, onLog, internals).finally(() => this.logListeners.delete(onLog));
  }

  private callRounds(
    method: string,
    params: JsonObject,
    options: CallOptions,
    onLog: ((message: LoggingMessage) => void) | undefined,
    internals: CallInternals | undefined,
  ): Promise<CallOutcome> {
    const totalMs = options.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs;
    const manualRetry = options.inputRetry;
    let deadline: number;
    let sentParams: JsonObject;
    try {
      deadline = this.options.clock.now() + totalMs;
      sentParams = manualRetry === undefined ? params : withInputRetry(params, manualRetry);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.send(method, sentParams, options, options.signal, totalMs, deadline, onLog, internals).then((first) => {
      const kind = resultKind(method, first, internals?.declareTasks === true);
      if (kind === 'complete') return { result: first, storable: manualRetry === undefined };
      if (kind === 'task') return { result: first, storable: false };
      return this.inputRounds(method, params, options, first, deadline, totalMs, onLog, internals);
    });
  }

  /** The rounds after a first result that was not complete: `input_required` answered until it is. */
  private async inputRounds(
    method: string,
    params: JsonObject,
    options: CallOptions,
    first: JsonObject,
    deadline: number,
    totalMs: number,
    onLog: ((message: LoggingMessage) => void) | undefined,
    internals: CallInternals | undefined,
  ): Promise<CallOutcome> {
    if (!INPUT_REQUIRED_METHODS.has(method)) {
      throw new ProtocolError('input_required is not allowed for this method', { method, value: first });
    }
    if ((options.inputRequired ?? this.options.inputRequired) === 'manual') {
      throw new InputRequiredError(method, first);
    }
    const result = await driveInputRequired({
      method,
      first,
      signal: options.signal,
      deadline: { at: deadline, totalTimeoutMs: totalMs },
      clock: this.options.clock,
      timers: this.options.timers,
      maxRounds: options.maxInputRounds ?? this.options.maxInputRounds,
      acceptsTask: internals?.declareTasks === true,
      retry: (fields, context) => {
        internals?.scope?.round(context.round);
        return this.send(
          method,
          withInputRetry(params, fields),
          options,
          context.signal,
          context.remainingMs ?? totalMs,
          deadline,
          onLog,
          internals === undefined
            ? undefined
            : {
                scope: internals.scope,
                declareTasks: internals.declareTasks,
                declareSkills: internals.declareSkills,
                credential: internals.credential,
              },
        );
      },
      fulfil: (requests, context) =>
        fulfilInputRequests(this.options.handlers, requests, { requestMethod: method, signal: context.signal }),
    });
    return { result, storable: false };
  }

  /**
   * One attempt: a new JSON-RPC id and a fresh `_meta`. While the client reconnects, it is sent
   * once the connection is open again (within the call's own timeouts). `deadline` is the
   * call's total deadline on the clock.
   */
  private send(
    method: string,
    params: JsonObject,
    options: CallOptions,
    signal: AbortSignal | undefined,
    totalMs: number,
    deadline: number,
    onLog: ((message: LoggingMessage) => void) | undefined,
    internals?: CallInternals,
  ): Promise<JsonObject> {
    if (this.reconnecting !== undefined && internals?.handshake !== true)
      return this.afterReconnect(method, options, signal, deadline).then(() =>
        this.send(method, params, options, signal, deadline - this.options.clock.now(), deadline, onLog, internals),
      );
    const tool = method === 'tools/call' && typeof params['name'] === 'string' ? params['name'] : undefined;
    const scope = internals?.scope;
    let sessionOptions: SessionRequestOptions;
    let request: Promise<JsonObject>;
    try {
      const transportHeaders = tool === undefined ? undefined : this.toolHeaders?.headersFor(tool, params['arguments']);
      // A tools/call may run twice after a broken stream only when the tool says it is harmless.
      const idempotent =
        options.idempotent ?? (tool === undefined ? true : this.toolHeaders?.isIdempotent(tool) === true);
      sessionOptions = {
        signal,
        idempotent,
        timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
        maxTotalTimeoutMs: Math.max(1, totalMs),
        resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? this.options.resetTimeoutOnProgress,
        onProgress: options.onProgress,
        onRelatedNotification: onLog === undefined ? undefined : (notification) => this.deliverLog(notification, onLog),
      };
      if (transportHeaders !== undefined) sessionOptions.transportHeaders = transportHeaders;
      if (internals?.cancellable !== undefined) sessionOptions.cancellable = internals.cancellable;
      if (internals?.credential !== undefined) sessionOptions.credential = internals.credential;
      if (scope !== undefined) sessionOptions.onRequestId = (id) => scope.requestId(id);
      request = this.session.request(
        method,
        this.withMeta(params, options, sessionOptions, scope, internals),
        sessionOptions,
      );
    } catch (error) {
      return Promise.reject(error);
    }
    return request.catch((error: unknown) =>
      this.failedAttempt(error, method, params, options, sessionOptions, deadline, onLog, internals),
    );
  }

  /**
   * Waits for the reconnect under way, within the call's timeouts: the idle one (`timeoutMs`),
   * and what is left of the total one. Resolves at once when the connection is open.
   */
  private afterReconnect(
    method: string,
    options: CallOptions,
    signal: AbortSignal | undefined,
    deadline: number,
  ): Promise<void> {
    const wait = this.reconnecting;
    if (wait === undefined) return Promise.resolve();
    const idleMs = options.timeoutMs ?? this.options.timeoutMs;
    const leftMs = deadline - this.options.clock.now();
    if (leftMs < idleMs) return wait(method, signal, Math.max(0, leftMs), 'total');
    return wait(method, signal, idleMs, 'idle');
  }

  /**
   * What a failed attempt becomes. A request the connection's drop cut short, while the client
   * reconnects: sent again on the new connection within its own deadline, unless it may have
   * had an effect the server would repeat (`tools/call`, or `idempotent: false`), which
   * rejects with the `ConnectionClosedError` (`data.outcome: "unknown"`). Legacy HTTP (spec
   * 2025-11-25, Session Management): after `SessionExpiredError`, one new session and one more
   * try; when that session cannot be set up and the client retries it (reconnecting), the
   * request waits for it as above and is sent again. An unwrapped -32004 becomes `UnsupportedProtocolVersionError`; anything else is
   * thrown as it is.
   */
  private async failedAttempt(
    error: unknown,
    method: string,
    params: JsonObject,
    options: CallOptions,
    sessionOptions: SessionRequestOptions,
    deadline: number,
    onLog: ((message: LoggingMessage) => void) | undefined,
    internals: CallInternals | undefined,
  ): Promise<JsonObject> {
    if (this.reconnecting !== undefined && internals?.handshake !== true && isConnectionClosedError(error)) {
      const sent = (error.data as { outcome?: unknown } | undefined)?.outcome !== 'not-sent';
      if (sent && (method === 'tools/call' || options.idempotent === false)) throw error;
      this.options.debug?.({
        type: 'reconnect',
        message: `${method}: the connection dropped; sending it again once reconnected`,
      });
      await this.afterReconnect(method, options, sessionOptions.signal, deadline);
      const leftMs = deadline - this.options.clock.now();
      return this.send(method, params, options, sessionOptions.signal, leftMs, deadline, onLog, internals);
    }
    const scope = internals?.scope;
    if (isSessionExpiredError(error) && this.renewSession !== undefined) {
      this.options.debug?.({
        type: 'reconnect',
        message: `${method}: the HTTP session expired; starting a new one and sending again`,
      });
      try {
        await this.renewSession(error);
      } catch (failure) {
        // The new session failed, and the client retries it on its reconnect policy: this waits for it.
        if (this.reconnecting === undefined) throw failure;
        await this.afterReconnect(method, options, sessionOptions.signal, deadline);
        const leftMs = deadline - this.options.clock.now();
        return this.send(method, params, options, sessionOptions.signal, leftMs, deadline, onLog, internals);
      }
      return this.session.request(
        method,
        this.withMeta(params, options, sessionOptions, scope, internals),
        sessionOptions,
      );
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
   * `params` with a fresh `_meta`: the wire's base keys (with the Tasks extension declared when
   * asked), the caller's keys, (modern) the log level, and the call's trace context when it is traced. A legacy request with nothing to put
   * there and no progress token to ask for has none.
   */
  private withMeta(
    params: JsonObject,
    options: CallOptions,
    sessionOptions: SessionRequestOptions,
    scope: CallScope | undefined,
    declare: Pick<CallInternals, 'declareTasks' | 'declareSkills'> | undefined,
  ): JsonObject {
    const meta: JsonObject = { ...this.baseMeta };
    if (this.eraValue === 'modern' && declare !== undefined) {
      if (declare.declareTasks === true) {
        this.tasksCapabilities ??= withTasksExtension(this.options.capabilities) as JsonObject;
        meta[MetaKey.clientCapabilities] = this.tasksCapabilities;
      } else if (declare.declareSkills === true) {
        this.skillsCapabilities ??= withSkillsExtension(this.options.capabilities) as JsonObject;
        meta[MetaKey.clientCapabilities] = this.skillsCapabilities;
      }
    }
    if (options.meta !== undefined) Object.assign(meta, options.meta);
    scope?.inject(meta);
    if (this.eraValue === 'legacy') {
      const wantsProgress =
        sessionOptions.onProgress !== undefined ||
        sessionOptions.resetTimeoutOnProgress ||
        Object.hasOwn(meta, MetaKey.progressToken);
      if (!wantsProgress && Object.keys(meta).length === 0) return params;
    } else if (options.logLevel !== undefined) {
      meta[MetaKey.logLevel] = options.logLevel;
    }
    return { ...params, _meta: meta };
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

  private makeBaseMeta(): JsonObject {
    if (this.eraValue === 'legacy') return {};
    const meta: JsonObject = {
      [MetaKey.protocolVersion]: this.version,
      [MetaKey.clientCapabilities]: this.options.capabilities,
    };
    if (this.options.sendClientInfo) meta[MetaKey.clientInfo] = this.options.clientInfo;
    return meta;
  }
}

/** A `ConnectionClosedError` (-32000), whichever package copy made it. */
function isConnectionClosedError(error: unknown): error is ConnectionClosedError {
  return (
    error instanceof ConnectionClosedError ||
    (McpError.is(error) && error.local && error.code === ErrorCode.ConnectionClosed)
  );
}
