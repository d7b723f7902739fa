/**
 * The Streamable HTTP transport of MCP 2026-07-28 (basic/transports/streamable-http): one POST
 * per message, the reply as one JSON object or as an SSE stream scoped to the request,
 * cancellation by closing that stream. Runtime-neutral (Node 20+, browsers, Deno, Bun): HTTP goes
 * through an {@link HttpStack}, `fetch` here; `mcp-live/node` plugs in `node:http`.
 */
import { ErrorCode } from '../../errors/codes.js';
import {
  CancelledError,
  ConnectionClosedError,
  InvalidArgumentError,
  LocalError,
  McpError,
  ProtocolError,
} from '../../errors/errors.js';
import {
  isObject,
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type RequestId,
} from '../../jsonrpc/messages.js';
import { MetaKey } from '../../types/protocol.js';
import { systemTimers, type Timers } from '../../util/clock.js';
import { crossOriginFailure } from './crossOrigin.js';
import { encodeHeaderValue, isPlainHeaderValue } from './headerValue.js';
import {
  checkHeaderValue,
  fetchStack,
  normalizeHeaders,
  readStart,
  type FetchLike,
  type HttpStack,
  type HttpStackResponse,
} from './stack.js';
import { AuthorizationSource } from './authorization.js';
import { fetchErrorCode, jsonRpcError, mediaType, parseEndpointUrl, parseJson, safeUrl } from './body.js';
import {
  parseRetryAfter,
  resolveRetryPolicy,
  withRetry,
  type ResolvedRetryPolicy,
  type RetryDecision,
  type RetryPolicy,
} from '../retry.js';
import { SseReader } from './sseReader.js';
import type {
  CancelHandle,
  LegacyWireControl,
  Transport,
  TransportCapabilities,
  TransportHandlers,
  TransportSendOptions,
} from '../transport.js';
import { cancelHandleOf, sendCancelOf } from '../cancelHandle.js';
import { openSseFallback, type LegacySseTransport } from './legacy/legacySse.js';
import {
  LegacyHttpChannel,
  resolveLegacyHttpOptions,
  SessionSetup,
  type LegacyHttpOptions,
  type LegacyHttpPort,
  type PumpResult,
  type ResolvedLegacyHttpOptions,
} from './legacy/legacyHttp.js';
import { bodyExcerpt, HttpAuthError, HttpError, StreamBrokenError, type HttpErrorData } from '../transportErrors.js';
import type { AuthProvider, HttpAuthFailure } from './auth.js';
import { bearerChallenge, parseWwwAuthenticate } from './wwwAuthenticate.js';

/** Options for {@link StreamableHttpTransport}. Every field is optional. */
export interface StreamableHttpTransportOptions {
  /**
   * Headers sent with every POST (for example an API key). The protocol headers (`Accept`,
   * `Content-Type`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) always win over them;
   * `Authorization` from {@link authProvider} wins over a static one.
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * The fetch implementation: every request goes through it (`redirect: 'manual'`, `headers` a
   * plain object with lower-case names). Use it behind a proxy (e.g. with an undici
   * `ProxyAgent` dispatcher) or to instrument requests. On the `mcp-live/node` transport, giving
   * it selects the fetch path instead of `node:http`. @default globalThis.fetch, looked up at each call
   */
  fetch?: FetchLike | undefined;
  /** Supplies the `Authorization` header per request; see {@link AuthProvider}. */
  authProvider?: AuthProvider | undefined;
  /**
   * Retries of transient failures before any response: connection refused (every method),
   * connection reset and HTTP 429/502/503/504 (idempotent messages only; 429 for every method),
   * honouring `Retry-After`. `false` disables them. @default `{ retries: 2, minDelayMs: 500,
   * maxDelayMs: 5000, factor: 2, jitter: true, maxRetryAfterMs: 30000 }`
   */
  retry?: RetryPolicy | false | undefined;
  /** Timers for retry waits. @default the globals, looked up per call (fake-timer friendly) */
  timers?: Timers | undefined;
  /** Longest SSE event accepted, in characters. @default 67108864 */
  maxEventChars?: number | undefined;
  /** Same-origin 307/308 redirects followed per POST. Other redirects fail. @default 3 */
  maxRedirects?: number | undefined;
  /**
   * The legacy wire (2025-11-25 and earlier), used after the client falls back to `initialize`:
   * the standalone GET stream, resumption, `DELETE` on close. See {@link LegacyHttpOptions}.
   * @default every field's default
   */
  legacy?: LegacyHttpOptions | undefined;
}

const ACCEPT = 'application/json, text/event-stream';
/** Headers of every POST, under the protocol ones. */
const POST_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  accept: ACCEPT,
  'content-type': 'application/json',
});
/** Statuses retried as transient (with `Retry-After`). */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** Failures that happen before a byte of the request left: safe to retry for every method. */
const CONNECT_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Bytes of an error body read for its excerpt or its JSON-RPC error. */
const ERROR_BODY_BYTES = 64 * 1024;
/** What the transport can do, per era. */
const MODERN_CAPABILITIES: TransportCapabilities = Object.freeze({
  cancelsByAbortingSend: true,
  mirrorsToolParamHeaders: true,
  answersEveryRequest: true,
});
const LEGACY_CAPABILITIES: TransportCapabilities = Object.freeze({
  cancelsByAbortingSend: false,
  mirrorsToolParamHeaders: false,
  closesStreamOnCancel: true,
  answersEveryRequest: true,
});
/**
 * Which `params` field the `Mcp-Name` header mirrors, per method (spec: basic/transports,
 * Standard Request Headers; ext-tasks, Streamable HTTP: Routing Headers for `tasks/*`).
 */
const MCP_NAME_SOURCE: Readonly<Record<string, string>> = Object.freeze({
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
});

type State = 'new' | 'open' | 'closed';

/** A fetch that failed before any response arrived. */
class NetworkFailure extends Error {
  override name = 'NetworkFailure';
  constructor(
    readonly connectPhase: boolean,
    readonly code: string | undefined,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * A {@link Transport} for MCP servers reached over HTTP (MCP 2026-07-28,
 * basic/transports/streamable-http).
 *
 * Sending:
 * - every message is its own POST to the endpoint, with `Accept: application/json,
 *   text/event-stream`, `Content-Type: application/json`, `MCP-Protocol-Version` (the
 *   message's `_meta["io.modelcontextprotocol/protocolVersion"]`; a message without it, such
 *   as a legacy one, gets the header only through `TransportSendOptions.headers`), `Mcp-Method`, and `Mcp-Name` for `tools/call` and `prompts/get` (`params.name`),
 *   `resources/read` (`params.uri`) and the Tasks extension's `tasks/get`, `tasks/update` and
 *   `tasks/cancel` (`params.taskId`), Base64-wrapped (`=?base64?...?=`) when not plain ASCII;
 *   plus `TransportSendOptions.headers` (the `Mcp-Param-*` headers);
 * - `send()` of a request resolves when its exchange ends with the response handed to
 *   `onMessage`, and rejects when it cannot: {@link HttpError} (-32010), {@link HttpAuthError}
 *   (-32011), {@link StreamBrokenError} (-32012, outcome unknown), `ProtocolError` (-32600 /
 *   -32700), `ConnectionClosedError` (-32000: server unreachable, or transport closed),
 *   `CancelledError` (-32800: its signal aborted), `InvalidArgumentError` (-32602: a header
 *   value that cannot be sent);
 * - `send()` of a notification resolves once the server accepted it (any 2xx: 202, 200 or 204,
 *   whatever the body) and also when it refused it: the refusal goes to `onError` as an
 *   `HttpError` (with `data.rpcError` when the body held a JSON-RPC error). It rejects only
 *   when the transport is closed or the message cannot be sent.
 *
 * Receiving: `application/json` bodies and SSE `message` events (other event types, comments
 * and empty-data events are ignored; data that is not JSON-RPC is reported to `onError` and
 * skipped) go to `onMessage` with `context.relatedRequestId` set to the request's id, so
 * progress, logs, listen notifications and `id: null` errors reach that request. A 4xx with a
 * JSON-RPC error body (400 -32020/-32021/-32022/-32602, 404 -32601...) is delivered the same
 * way, as the response. The stream is closed once the response arrived.
 *
 * Cancellation ({@link capabilities}.cancelsByAbortingSend): aborting a request's send
 * (`TransportSendOptions.cancel`, else `signal`) aborts its HTTP request, which closes its
 * response stream; no `notifications/cancelled` is sent.
 *
 * No GET is ever sent on the 2026-07-28 wire, and no body-idle timeout is applied: a
 * `subscriptions/listen` stream stays open as long as the server keeps it (Node's fetch drops a
 * body silent for 300 s; SSE keep-alive comments every 15 s keep it open; the `node:http` path
 * of `mcp-live/node` has no such limit).
 *
 * HTTP itself goes through `fetch` (the `fetch` option, else the global). `mcp-live/node` exports
 * a subclass of the same name that sends on `node:http`/`node:https` with a keep-alive agent
 * instead (several times less CPU per request), unless given `fetch`.
 *
 * Legacy wire ({@link legacyWire}, after the client falls back to `initialize`; spec 2025-11-25
 * basic/transports): no `Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` headers; `MCP-Protocol-Version`
 * is the negotiated version, from the request after `initialize` on; the `Mcp-Session-Id` of
 * the InitializeResult response goes on every later request; a 404 to a request that carried
 * it rejects with `SessionExpiredError` (-32014) after dropping it; JSON-RPC responses to
 * server requests are POSTed like notifications; cancellation is `notifications/cancelled`
 * plus closing the stream; a response stream that ends early after an event `id` is resumed
 * with `GET` + `Last-Event-ID` after the SSE `retry` delay; the optional standalone GET stream
 * is opened after the handshake (405 = none; other refusals retried a few times with backoff,
 * never fatal); `close()` sends `DELETE`. See {@link LegacyHttpOptions}. From that 404 (or the
 * start of a new `initialize`) until the new session is negotiated, other messages wait and
 * then carry the new session id; if the new session cannot be set up, they reject with the
 * same error (the owner, e.g. `McpClient`, is expected to start the new session).
 */
export class StreamableHttpTransport implements Transport {
  readonly serverIdentity: string;

  private readonly url: string;
  /** The static headers, checked, names in lower case. */
  private readonly staticHeaders: Readonly<Record<string, string>>;
  /** The static headers under those of every POST (`accept`, `content-type`). */
  private readonly postHeaders: Readonly<Record<string, string>>;
  /** The `Authorization` of each try (static header or `authProvider`) and the credential id. */
  private readonly auth: AuthorizationSource;
  /** The fetch of the options (or the global): the deprecated HTTP+SSE fallback always uses it. */
  private readonly fetchImpl: FetchLike;
  private readonly stack: HttpStack;
  private readonly retryPolicy: ResolvedRetryPolicy;
  private readonly timers: Timers;
  private readonly maxEventChars: number | undefined;
  private readonly maxRedirects: number;
  private state: State = 'new';
  private handlers: TransportHandlers | undefined;
  private readonly closeController = new AbortController();
  /** Signals made by {@link link} that are still in use, aborted by `close()`. */
  private readonly linked = new Set<AbortController>();
  /** Legacy wire: holds messages back while a new session is set up. */
  private readonly sessionSetup = new SessionSetup();
  private readonly legacyOptions: ResolvedLegacyHttpOptions;
  /** Set once the client falls back to the legacy wire. */
  private legacy: LegacyHttpChannel | undefined;
  /** Set after the fallback to the deprecated HTTP+SSE transport (legacySse.ts): every message goes through it. */
  private sse: LegacySseTransport | undefined;

  /** Switches to the legacy wire around the client's `initialize` handshake (see the class documentation). */
  readonly legacyWire: LegacyWireControl = {
    enter: () => {
      this.legacy?.stopStandalone();
      this.legacy = new LegacyHttpChannel(
        this.legacyPort(),
        this.legacyOptions,
        this.timers,
        this.closeController.signal,
      );
      this.sessionSetup.begin();
    },
    negotiated: (protocolVersion) => {
      if (this.legacy !== undefined) this.legacy.protocolVersion = protocolVersion;
      this.sessionSetup.settle();
    },
    failed: (error) => this.sessionSetup.settle(error),
    ready: () => (this.sse === undefined ? this.legacy?.startStandalone() : undefined),
    leave: () => {
      this.legacy?.stopStandalone();
      this.legacy = undefined;
      this.sessionSetup.settle();
      this.sse?.detach();
      this.sse = undefined;
    },
    openSse: async (signal) => {
      const host = {
        url: this.url,
        headers: new Headers(this.staticHeaders),
        fetch: this.fetchImpl,
        timers: this.timers,
        maxEventChars: this.maxEventChars,
        handlers: this.handlers,
        closeSignal: this.closeController.signal,
      };
      const onClosed = (): void => {
        // The SSE stream ended: this transport is done, and `close()` will return early, so
        // release the stack's sockets (its own keep-alive agent) here.
        this.state = 'closed';
        this.stack.close();
      };
      this.sse = await openSseFallback(
        { ...host, authorize: (attempt, failure, s) => this.auth.value(attempt, failure, s), onClosed },
        signal,
      );
    },
  };

  /**
   * 2026-07-28: cancelling a request is closing its response stream, and tool parameters are
   * mirrored into headers. Legacy wire: `notifications/cancelled`, then the stream is closed.
   */
  get capabilities(): TransportCapabilities {
    if (this.sse !== undefined) return this.sse.capabilities;
    return this.legacy === undefined ? MODERN_CAPABILITIES : LEGACY_CAPABILITIES;
  }

  /**
   * @param url the MCP endpoint, `http:` or `https:`, e.g. `"https://example.com/mcp"`.
   * @throws InvalidArgumentError (code -32602) for a URL that does not parse, is not HTTP(S)
   *   or holds credentials; for static headers that are not valid HTTP; for a bad retry policy.
   */
  constructor(url: string | URL, options: StreamableHttpTransportOptions = {}) {
    const parsed = parseEndpointUrl(url);
    this.url = parsed.href;
    this.serverIdentity = `${parsed.origin}${parsed.pathname}`;
    const given = options.headers ?? {};
    const checked =
      typeof given === 'object' && given !== null
        ? normalizeHeaders(given)
        : { headers: {}, invalid: '(not an object)' };
    if (checked.invalid !== undefined) {
      throw new InvalidArgumentError(
        'headers',
        Object.keys(given),
        `not valid HTTP headers: ${JSON.stringify(checked.invalid)} has an invalid name or value`,
      );
    }
    this.staticHeaders = Object.freeze(checked.headers);
    this.postHeaders = Object.freeze({ ...this.staticHeaders, ...POST_HEADERS });
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.stack = this.createStack(options);
    this.auth = new AuthorizationSource(this.url, this.staticHeaders['authorization'], options.authProvider);
    this.retryPolicy = resolveRetryPolicy(options.retry);
    this.timers = options.timers ?? systemTimers;
    this.maxEventChars = options.maxEventChars;
    const redirects = options.maxRedirects ?? 3;
    if (!Number.isInteger(redirects) || redirects < 0)
      throw new InvalidArgumentError('maxRedirects', redirects, 'expected an integer >= 0');
    this.maxRedirects = redirects;
    this.legacyOptions = resolveLegacyHttpOptions(options.legacy);
  }

  /**
   * The HTTP stack requests go through: `fetch` (the option, else the global). The
   * `mcp-live/node` subclass returns a `node:http` one unless `options.fetch` is given.
   * @internal
   */
  protected createStack(options: StreamableHttpTransportOptions): HttpStack {
    return fetchStack(options.fetch ?? ((input, init) => globalThis.fetch(input, init)));
  }

  /**
   * An opaque id of the credential (`Authorization` value) this transport last sent or
   * resolved, for partitioning private cache entries: `"credential:<32 hex>"`, the first 128
   * bits of a domain-separated SHA-256 of the value. Never the credential itself. With a static
   * `Authorization` header it is known from construction; with an `authProvider` it is
   * `undefined` until the first request or {@link resolveAuthContext}; without credentials it
   * stays `undefined`.
   */
  authContext(): string | undefined {
    return this.auth.id;
  }

  /**
   * Asks the `authProvider` (attempt 1) for the credential the next request would carry, and
   * resolves with its opaque id (see {@link authContext}); `undefined` when there is none.
   * Rejects with whatever the provider rejects with.
   */
  async resolveAuthContext(signal?: AbortSignal): Promise<string | undefined> {
    const value = await this.auth.value(1, undefined, signal ?? this.closeController.signal);
    return value === undefined ? undefined : this.auth.id;
  }

  /**
   * Makes the transport usable; sends nothing (the 2026-07-28 wire has no connection set-up).
   * @throws ConnectionClosedError (code -32000) after `close()`; LocalError (-32603) when called twice.
   */
  start(handlers: TransportHandlers): Promise<void> {
    if (this.state === 'closed')
      return Promise.reject(
        new ConnectionClosedError('HTTP transport was closed before it started', { reason: 'closed by client' }),
      );
    if (this.state !== 'new')
      return Promise.reject(new LocalError(ErrorCode.InternalError, 'StreamableHttpTransport.start() called twice'));
    this.handlers = handlers;
    this.state = 'open';
    return Promise.resolve();
  }

  /**
   * POSTs one message; see the class documentation for what resolves and what rejects.
   * `options.cancel` (else `options.signal`) aborts the exchange (the cancellation of a
   * request); `options.headers`
   * adds headers to this POST; `options.idempotent` (default: every method but `tools/call`)
   * allows retrying it after a connection reset or a 502/503/504.
   */
  send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.sse !== undefined && this.state === 'open') return this.sse.send(message, options);
    if (this.state !== 'open') {
      const reason = this.state === 'new' ? 'transport not started' : 'transport closed';
      return Promise.reject(new ConnectionClosedError(`cannot send: ${reason}`, { reason }));
    }
    const isResponse = !('method' in message);
    const cancel = sendCancelOf(options);
    if (isResponse && this.legacy !== undefined) {
      // Legacy wire: the answer to a server request is POSTed and acknowledged like a notification.
      const headers = this.legacyHeaders();
      return this.exchangeNotification('(response)', JSON.stringify(message), headers, true, cancel);
    }
    if (isResponse || typeof message.method !== 'string') {
      return Promise.reject(
        new InvalidArgumentError(
          'message',
          message,
          'Streamable HTTP carries only requests and notifications from the client',
        ),
      );
    }
    if (this.sessionSetup.active && this.legacy !== undefined && message.method !== 'initialize')
      return this.sendAfterSetup(message, options);
    let headers: Record<string, string>;
    try {
      headers = this.protocolHeaders(message.method, message.params, options.headers);
    } catch (error) {
      return Promise.reject(error);
    }
    const body = JSON.stringify(message);
    const idempotent = options.idempotent ?? message.method !== 'tools/call';
    if ('id' in message && message.id !== undefined) {
      return this.exchangeRequest(message.method, message.id, body, headers, idempotent, cancel);
    }
    return this.exchangeNotification(message.method, body, headers, idempotent, cancel);
  }

  /**
   * Aborts every exchange in flight, then calls `onClose` once; on the legacy wire, then sends
   * `DELETE` for the session (bounded by `legacy.deleteTimeoutMs`). Idempotent.
   */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    const reason = new ConnectionClosedError('HTTP transport closed', { reason: 'closed by client' });
    this.closeController.abort(reason);
    for (const controller of this.linked) controller.abort(reason);
    this.linked.clear();
    this.stack.abortAll(reason);
    const handlers = this.handlers;
    this.handlers = undefined;
    if (wasOpen) handlers?.onClose({ reason: 'closed by client', initiatedByClient: true });
    try {
      await this.legacy?.terminate();
    } finally {
      this.stack.close();
    }
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Legacy wire: sends `message` once the session being set up is negotiated, with its id. A
   * failed set-up rejects a request with the set-up's error, and reports it for a notification.
   */
  private async sendAfterSetup(
    message: Extract<JsonRpcMessage, { method: string }>,
    options: TransportSendOptions,
  ): Promise<void> {
    const id = 'id' in message ? (message.id as RequestId | undefined) : undefined;
    const cancel = sendCancelOf(options);
    const link = this.link(cancel);
    try {
      await this.sessionSetup.wait([link.signal]);
    } catch (error) {
      const final = this.finalError(error, message.method, id, cancel);
      if (id !== undefined || this.closeController.signal.aborted || cancel?.aborted === true) throw final;
      this.emitError(final);
      return;
    } finally {
      link.dispose();
    }
    return this.send(message, options);
  }

  /** Accept, Content-Type, the static headers, and the legacy session headers. */
  private legacyHeaders(): Record<string, string> {
    const headers = { ...this.postHeaders };
    this.legacy?.applyHeaders(headers);
    return headers;
  }

  private protocolHeaders(
    method: string,
    params: JsonObject | undefined,
    extra: Readonly<Record<string, string>> | undefined,
  ): Record<string, string> {
    if (this.legacy !== undefined) {
      // The legacy envelope: no Mcp-Method, Mcp-Name or Mcp-Param-* headers (spec 2025-11-25).
      return this.legacyHeaders();
    }
    let headers: Record<string, string>;
    if (extra === undefined) headers = { ...this.postHeaders };
    else {
      const checked = normalizeHeaders(extra, { ...this.staticHeaders });
      if (checked.invalid !== undefined) {
        throw new InvalidArgumentError(
          `headers[${JSON.stringify(checked.invalid)}]`,
          extra[checked.invalid],
          'not a valid HTTP header name and value',
        );
      }
      headers = Object.assign(checked.headers, POST_HEADERS);
    }
    const meta = params?.['_meta'];
    const version = isObject(meta) ? meta[MetaKey.protocolVersion] : undefined;
    if (typeof version === 'string') {
      if (!isPlainHeaderValue(version) || version === '')
        throw new InvalidArgumentError(
          '_meta.protocolVersion',
          version,
          'cannot be sent as the MCP-Protocol-Version header',
        );
      headers['mcp-protocol-version'] = version;
    }
    if (!isPlainHeaderValue(method) || method === '')
      throw new InvalidArgumentError('method', method, 'cannot be sent as the Mcp-Method header (visible ASCII only)');
    headers['mcp-method'] = method;
    const source = Object.hasOwn(MCP_NAME_SOURCE, method) ? MCP_NAME_SOURCE[method] : undefined;
    const name = source === undefined ? undefined : params?.[source];
    if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
    return headers;
  }

  /**
   * One POST of a message, retried by the transport's policy while its failures are transient.
   * The first try runs outside p-retry (most POSTs succeed at once); p-retry takes over after a
   * retryable failure, with that failure as its first attempt.
   */
  private postWithRetry(
    method: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    idempotent: boolean,
    cancel: CancelHandle | undefined,
  ): Promise<HttpStackResponse> {
    // A promise chain, not an async frame: every POST takes this path.
    return this.exchangeWithAuth('POST', method, body, headers, cancel).catch((error: unknown) => {
      if (this.retryPolicy.retries === 0 || this.isAborted(cancel) || !classify(error, idempotent).retry) throw error;
      return this.retryPost(method, body, headers, idempotent, cancel, error);
    });
  }

  /** {@link postWithRetry} after a first failure that the policy retries. */
  private async retryPost(
    method: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    idempotent: boolean,
    cancel: CancelHandle | undefined,
    firstFailure: unknown,
  ): Promise<HttpStackResponse> {
    let replayed = false;
    const link = this.link(cancel);
    try {
      return await withRetry(
        () => {
          if (!replayed) {
            replayed = true;
            return Promise.reject(firstFailure);
          }
          return this.exchangeWithAuth('POST', method, body, headers, cancel);
        },
        {
          policy: this.retryPolicy,
          signal: link.signal,
          timers: this.timers,
          classify: (error) => classify(error, idempotent),
        },
      );
    } finally {
      link.dispose();
    }
  }

  /**
   * True when the exchange of `cancel` is over: `cancel` aborted, or the transport closed.
   * Exchanges carry the caller's cancellation only; `close()` aborts them through the stack.
   */
  private isAborted(cancel: CancelHandle | undefined): boolean {
    return cancel?.aborted === true || this.closeController.signal.aborted;
  }

  /** Why the exchange of `cancel` was aborted (see {@link isAborted}). */
  private abortReason(cancel: CancelHandle | undefined): unknown {
    return cancel?.aborted === true ? cancel.reason : this.closeController.signal.reason;
  }

  /**
   * One AbortSignal that aborts with `cancel` and with `close()`, for the slow paths that need a
   * signal object (auth provider, retry waits, resumption, a legacy session set-up). `dispose()`
   * detaches it. Creating one costs more than the rest of a request, so the hot path never does.
   */
  private link(cancel: CancelHandle | undefined): { signal: AbortSignal; dispose(): void } {
    if (cancel === undefined || this.closeController.signal.aborted)
      return { signal: this.closeController.signal, dispose: () => {} };
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(cancel.reason);
    if (cancel.aborted) onAbort();
    else cancel.onAbort(onAbort);
    this.linked.add(controller);
    return {
      signal: controller.signal,
      dispose: () => {
        this.linked.delete(controller);
        cancel.offAbort(onAbort);
      },
    };
  }

  private async exchangeRequest(
    method: string,
    id: RequestId,
    body: string,
    headers: Readonly<Record<string, string>>,
    idempotent: boolean,
    cancel: CancelHandle | undefined,
  ): Promise<void> {
    try {
      const response = await this.postWithRetry(method, body, headers, idempotent, cancel);
      this.legacy?.captureSession(method, response);
      await this.consumeResponse(response, method, id, cancel, headers['mcp-session-id']);
    } catch (error) {
      throw this.finalError(error, method, id, cancel);
    }
  }

  private async exchangeNotification(
    method: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    idempotent: boolean,
    cancel: CancelHandle | undefined,
  ): Promise<void> {
    try {
      const response = await this.postWithRetry(method, body, headers, idempotent, cancel);
      if (response.status >= 200 && response.status < 300) {
        // Accepted: 202, 200 or 204, with or without a body. Never parsed.
        response.discard();
        return;
      }
      const expired = this.legacy?.sessionExpired(method, response.status, headers['mcp-session-id']);
      if (expired !== undefined) {
        response.discard();
        this.emitError(expired);
        return;
      }
      const text = await readStart(response, ERROR_BODY_BYTES);
      const parsed = parseJson(text);
      this.emitError(new HttpError(this.errorData(response, method, text, 'status', jsonRpcError(parsed))));
    } catch (error) {
      const final = this.finalError(error, method, undefined, cancel);
      if (this.closeController.signal.aborted || cancel?.aborted === true) throw final;
      if (final instanceof InvalidArgumentError) throw final;
      this.emitError(final);
    }
  }

  /**
   * One exchange (a POST; on the legacy wire also GET and DELETE), with its auth retry and
   * same-origin 307/308 redirects. Resolves with a response that is not 401/403/3xx/transient;
   * throws {@link HttpAuthError}, {@link HttpError} (3xx, transient statuses, carrying
   * `retryAfterMs`) or {@link NetworkFailure}.
   */
  private exchangeWithAuth(
    httpMethod: 'POST' | 'GET' | 'DELETE',
    method: string,
    body: string | undefined,
    headers: Readonly<Record<string, string>>,
    cancel: CancelHandle | undefined,
  ): Promise<HttpStackResponse> {
    if (this.auth.provider === undefined)
      return this.exchangeOnce(httpMethod, method, body, headers, cancel, undefined);
    return this.exchangeWithProvider(httpMethod, method, body, headers, cancel);
  }

  /** {@link exchangeWithAuth} with an `authProvider`: it gets a signal that follows `cancel` and `close()`. */
  private async exchangeWithProvider(
    httpMethod: 'POST' | 'GET' | 'DELETE',
    method: string,
    body: string | undefined,
    headers: Readonly<Record<string, string>>,
    cancel: CancelHandle | undefined,
  ): Promise<HttpStackResponse> {
    const link = this.link(cancel);
    try {
      return await this.exchangeOnce(httpMethod, method, body, headers, cancel, link.signal);
    } finally {
      link.dispose();
    }
  }

  /** {@link exchangeWithAuth} with `authSignal`, the signal handed to the auth provider (present when there is one). */
  private async exchangeOnce(
    httpMethod: 'POST' | 'GET' | 'DELETE',
    method: string,
    body: string | undefined,
    headers: Readonly<Record<string, string>>,
    cancel: CancelHandle | undefined,
    authSignal: AbortSignal | undefined,
  ): Promise<HttpStackResponse> {
    // Without a provider the static Authorization (if any) is already in `headers`.
    let authorization =
      authSignal === undefined ? this.auth.staticValue : await this.auth.value(1, undefined, authSignal);
    let retriedAuth = false;
    let url = this.url;
    for (let redirects = 0; ;) {
      let requestHeaders = headers;
      if (authorization !== undefined && authorization !== headers['authorization']) {
        const value = checkHeaderValue(authorization);
        if (value === undefined)
          throw new InvalidArgumentError(
            'authorization',
            '(hidden)',
            'the Authorization value from authProvider is not a valid HTTP header value',
          );
        requestHeaders = { ...headers, authorization: value };
      }
      let response: HttpStackResponse;
      try {
        response = await this.stack.send({ method: httpMethod, url, headers: requestHeaders, body, cancel });
      } catch (error) {
        if (this.isAborted(cancel)) throw this.abortReason(cancel);
        throw networkFailure(error);
      }
      const status = response.status;
      if (status === 401 || status === 403) {
        const challenges = parseWwwAuthenticate(response.header('www-authenticate') ?? null);
        const bearer = bearerChallenge(challenges);
        const failure: HttpAuthFailure =
          status === 401 ? 'unauthorized' : bearer?.error === 'insufficient_scope' ? 'insufficient_scope' : 'forbidden';
        if (authSignal !== undefined && !retriedAuth && failure !== 'forbidden') {
          response.discard();
          const next = await this.auth.value(
            2,
            { status, failure, challenges, bearer, rejected: authorization },
            authSignal,
          );
          retriedAuth = true;
          if (next !== undefined && next !== authorization) {
            authorization = next;
            continue;
          }
          throw new HttpAuthError({
            ...this.errorData(response, method, '', 'status'),
            failure,
            challenges,
            bearer,
            retriedWithNewCredential: false,
          });
        }
        const text = await readStart(response, ERROR_BODY_BYTES);
        if (this.auth.provider !== undefined && authSignal !== undefined && retriedAuth && failure !== 'forbidden') {
          // The retried credential was refused too: the provider may explain why with an error of
          // its own (e.g. InsufficientScopeError); what it returns is ignored and never sent.
          await this.auth.provider({
            url: this.url,
            attempt: 3,
            signal: authSignal,
            failure: { status, failure, challenges, bearer, rejected: authorization },
          });
        }
        throw new HttpAuthError({
          ...this.errorData(response, method, text, 'status', jsonRpcError(parseJson(text))),
          failure,
          challenges,
          bearer,
          retriedWithNewCredential: retriedAuth,
        });
      }
      if (status === 0 || (status >= 300 && status < 400)) {
        const location = response.header('location');
        response.discard();
        const target = location === undefined ? undefined : safeUrl(location, url);
        if (
          (status === 307 || status === 308) &&
          target !== undefined &&
          target.origin === new URL(url).origin &&
          redirects < this.maxRedirects
        ) {
          redirects++;
          url = target.href;
          continue;
        }
        throw new HttpError({
          ...this.errorData(response, method, '', 'redirect'),
          ...(location !== undefined && { location }),
        });
      }
      if (TRANSIENT_STATUSES.has(status)) {
        const text = await readStart(response, ERROR_BODY_BYTES);
        const retryAfterMs = parseRetryAfter(response.header('retry-after'));
        throw new HttpError({
          ...this.errorData(response, method, text, 'status', jsonRpcError(parseJson(text))),
          ...(retryAfterMs !== undefined && { retryAfterMs }),
        });
      }
      return response;
    }
  }

  /** Reads the final response of a request and hands its messages up. */
  private async consumeResponse(
    response: HttpStackResponse,
    method: string,
    id: RequestId,
    cancel: CancelHandle | undefined,
    sentSessionId: string | undefined,
  ): Promise<void> {
    const status = response.status;
    const type = mediaType(response.header('content-type'));
    if (status < 200 || status >= 300) {
      const legacy = this.legacy;
      const expired = legacy?.sessionExpired(method, status, sentSessionId);
      if (expired !== undefined) {
        response.discard();
        // The session is gone: hold other messages back until the owner negotiated a new one.
        if (legacy === this.legacy && legacy?.sessionId === undefined) this.sessionSetup.begin();
        throw expired;
      }
      const text = await readStart(response, ERROR_BODY_BYTES);
      const parsed = parseJson(text);
      const rpcError = type === 'application/json' ? jsonRpcError(parsed) : undefined;
      if (rpcError !== undefined && status >= 400 && status < 500) {
        // A modern server's refusal (-32020, -32021, -32022, -32602, -32601...): it is the response.
        if (this.deliver(parsed, id, status)) return;
      }
      throw new HttpError(this.errorData(response, method, text, 'status', jsonRpcError(parsed)));
    }
    if (type === 'text/event-stream') {
      await this.readEventStream(response, method, id, cancel);
      return;
    }
    if (type === 'application/json') {
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        if (this.isAborted(cancel)) throw this.abortReason(cancel);
        throw new StreamBrokenError(
          {
            method,
            requestId: id,
            phase: 'mid-stream',
            reason: 'the response body failed before it was complete',
            eventsReceived: 0,
            outcome: 'unknown',
          },
          error,
        );
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        if (text.trim() === '') throw new HttpError(this.errorData(response, method, '', 'empty-body'));
        throw new ProtocolError(
          'response body is not JSON',
          { method, value: bodyExcerpt(text) },
          ErrorCode.ParseError,
        );
      }
      if (!this.deliver(parsed, id, status))
        throw new ProtocolError('response body is not the JSON-RPC response to this request', {
          method,
          value: parsed,
        });
      return;
    }
    const text = await readStart(response, ERROR_BODY_BYTES);
    throw new HttpError(this.errorData(response, method, text, text === '' ? 'empty-body' : 'content-type'));
  }

  private async readEventStream(
    response: HttpStackResponse,
    method: string,
    id: RequestId,
    cancel: CancelHandle | undefined,
  ): Promise<void> {
    const pumped = await this.pump(response, method, id, cancel);
    if (pumped.responded) return;
    // Legacy wire: a stream that gave an event id can be resumed with GET + Last-Event-ID.
    if (this.legacy !== undefined && pumped.lastEventId !== undefined) {
      const link = this.link(cancel);
      try {
        await this.legacy.resume(method, id, pumped, link.signal);
      } finally {
        link.dispose();
      }
      return;
    }
    const failed = pumped.failure !== undefined;
    throw new StreamBrokenError(
      {
        method,
        requestId: id,
        phase: 'mid-stream',
        reason: failed
          ? 'the response stream failed before the response'
          : 'the response stream ended before the response',
        eventsReceived: pumped.events,
        outcome: 'unknown',
      },
      pumped.failure,
    );
  }

  /**
   * Reads an SSE body, handing each JSON-RPC `message` event up (related to `relatedId` when
   * given), until it ends or the response to `relatedId` arrived. A read failure ends it with
   * `failure` set; an abort rejects with the abort reason; an oversized event with ProtocolError.
   */
  private async pump(
    response: HttpStackResponse,
    method: string,
    relatedId: RequestId | undefined,
    cancel: CancelHandle | undefined,
  ): Promise<PumpResult> {
    // Statuses that never have a body (the Fetch standard's null-body statuses among 2xx).
    if (response.status === 204 || response.status === 205)
      throw new HttpError(this.errorData(response, method, '', 'empty-body'));
    const reader = new SseReader({ maxEventChars: this.maxEventChars });
    let events = 0;
    const result = (responded: boolean, failure?: unknown): PumpResult => ({
      responded,
      events,
      lastEventId: reader.lastEventId,
      retryMs: reader.retryMs,
      ...(failure !== undefined && { failure }),
    });
    try {
      for await (const event of reader.readChunks(response.chunks())) {
        events++;
        // `ping`, `keepalive` and other event types carry nothing for JSON-RPC.
        if (event.type !== 'message') continue;
        const value = parseJson(event.data);
        if (value === undefined) {
          this.emitError(
            new ProtocolError(
              'SSE event data is not JSON; skipped',
              { method, value: bodyExcerpt(event.data) },
              ErrorCode.ParseError,
            ),
          );
          continue;
        }
        if (!isObject(value) || value['jsonrpc'] !== '2.0') {
          this.emitError(new ProtocolError('SSE event data is not a JSON-RPC message; skipped', { method, value }));
          continue;
        }
        if (this.deliver(value, relatedId, response.status)) return result(true);
      }
    } catch (error) {
      if (this.isAborted(cancel)) throw this.abortReason(cancel);
      if (McpError.is(error)) throw error;
      return result(false, error);
    }
    if (this.isAborted(cancel)) throw this.abortReason(cancel);
    // Priming events carry no data, so they are not counted above; their id still makes the stream resumable.
    if (events === 0 && reader.lastEventId !== undefined) events = 1;
    return result(false);
  }

  /**
   * Hands a parsed value up as a message of request `id`'s exchange (or of no request, for the
   * standalone GET stream). True when it is the response to that request (its `id` equals `id`,
   * or is `null` or absent).
   */
  private deliver(value: unknown, id: RequestId | undefined, httpStatus: number): boolean {
    const handlers = this.handlers;
    if (handlers === undefined) return false;
    try {
      // The status travels only with refusals (4xx): that is where era detection needs it.
      const status = httpStatus >= 200 && httpStatus < 300 ? undefined : httpStatus;
      handlers.onMessage(
        value,
        id === undefined
          ? status === undefined
            ? undefined
            : { httpStatus: status }
          : status === undefined
            ? { relatedRequestId: id }
            : { relatedRequestId: id, httpStatus: status },
      );
    } catch (error) {
      this.emitError(error instanceof Error ? error : new Error(String(error)));
    }
    if (id === undefined) return false;
    return (
      isObject(value) &&
      ('result' in value || 'error' in value) &&
      (value['id'] === id || value['id'] === null || value['id'] === undefined)
    );
  }

  /** What the legacy channel borrows: GET/DELETE with auth, the SSE reader, error reporting. */
  private legacyPort(): LegacyHttpPort {
    return {
      get: (lastEventId, signal) => {
        const headers = this.legacyHeaders();
        headers['accept'] = 'text/event-stream';
        delete headers['content-type'];
        if (lastEventId !== undefined) {
          const value = checkHeaderValue(lastEventId);
          if (value === undefined)
            return Promise.reject(
              new ProtocolError('the SSE event id cannot be sent as Last-Event-ID', {
                method: 'GET',
                value: lastEventId,
              }),
            );
          headers['last-event-id'] = value;
        }
        // `signal` already follows the transport's close (standalone stream, or a request's exchange).
        const cancel = cancelHandleOf(signal);
        return this.exchangeWithAuth('GET', 'GET', undefined, headers, cancel).catch((error: unknown) => {
          throw this.finalError(error, 'GET', undefined, cancel);
        });
      },
      delete: (signal) => {
        const headers = this.legacyHeaders();
        delete headers['content-type'];
        return this.exchangeWithAuth('DELETE', 'DELETE', undefined, headers, cancelHandleOf(signal));
      },
      pump: (response, method, relatedId, signal) => this.pump(response, method, relatedId, cancelHandleOf(signal)),
      httpError: async (response, method) => {
        const text = await readStart(response, ERROR_BODY_BYTES);
        const type = mediaType(response.header('content-type'));
        const ok = response.status >= 200 && response.status < 300;
        return new HttpError(
          this.errorData(
            response,
            method,
            text,
            ok ? (text === '' ? 'empty-body' : 'content-type') : 'status',
            type === 'application/json' ? jsonRpcError(parseJson(text)) : undefined,
          ),
        );
      },
      emitError: (error) => this.emitError(error),
    };
  }

  private errorData(
    response: HttpStackResponse,
    method: string,
    text: string,
    problem: HttpErrorData['problem'],
    rpcError?: JsonRpcErrorObject,
  ): HttpErrorData {
    return {
      status: response.status,
      method,
      url: this.serverIdentity,
      contentType: response.header('content-type'),
      bodyExcerpt: bodyExcerpt(text),
      problem,
      ...(rpcError !== undefined && { rpcError }),
    };
  }

  /** Maps a failed exchange to the error `send()` rejects with. */
  private finalError(
    error: unknown,
    method: string,
    id: RequestId | undefined,
    cancel: CancelHandle | undefined,
  ): Error {
    if (this.closeController.signal.aborted) {
      return new ConnectionClosedError(
        `${method}: connection closed (closed by client)`,
        { reason: 'closed by client' },
        McpError.is(error) ? undefined : error,
      );
    }
    if (cancel?.aborted === true) return new CancelledError(method, cancel.reason);
    if (error instanceof NetworkFailure) {
      // A browser hides why: on a page of another origin, CORS is the likely reason.
      const blocked = error.code === undefined ? crossOriginFailure(this.url) : undefined;
      if (blocked !== undefined)
        return new ConnectionClosedError(`${method}: ${blocked}`, { reason: blocked }, error.cause);
      if (error.connectPhase || id === undefined) {
        const reason = `cannot reach ${this.serverIdentity}${error.code === undefined ? '' : ` (${error.code})`}`;
        return new ConnectionClosedError(`${method}: ${reason}`, { reason }, error.cause);
      }
      return new StreamBrokenError(
        {
          method,
          requestId: id,
          phase: 'before-response',
          reason: `the connection failed before a response${error.code === undefined ? '' : ` (${error.code})`}`,
          eventsReceived: 0,
          outcome: 'unknown',
        },
        error.cause,
      );
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  private emitError(error: Error): void {
    const handlers = this.handlers;
    if (handlers === undefined) return;
    try {
      handlers.onError(error);
    } catch {
      // A throwing onError has nowhere left to report to.
    }
  }
}

function classify(error: unknown, idempotent: boolean): RetryDecision {
  if (error instanceof NetworkFailure) return { retry: error.connectPhase || idempotent };
  if (
    error instanceof HttpError &&
    !(error instanceof HttpAuthError) &&
    TRANSIENT_STATUSES.has(error.data.status) &&
    error.data.problem === 'status'
  ) {
    return { retry: idempotent || error.data.status === 429, delayMs: error.data.retryAfterMs };
  }
  return { retry: false };
}

function networkFailure(error: unknown): NetworkFailure {
  const code = fetchErrorCode(error);
  return new NetworkFailure(code !== undefined && CONNECT_ERROR_CODES.has(code), code, error);
}
