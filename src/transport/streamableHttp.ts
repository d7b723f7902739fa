/**
 * The Streamable HTTP transport of MCP 2026-07-28 (basic/transports/streamable-http), on
 * `fetch`: one POST per message, the reply as one JSON object or as an SSE stream scoped to
 * the request, cancellation by closing that stream. Runtime-neutral (Node 20+, browsers, Deno,
 * Bun): no Node APIs.
 */
import { ErrorCode } from '../errors/codes.js';
import { CancelledError, ConnectionClosedError, InvalidArgumentError, LocalError, McpError, ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject, type JsonRpcErrorObject, type JsonRpcMessage, type RequestId } from '../jsonrpc/messages.js';
import { MetaKey } from '../types/protocol.js';
import { systemTimers, type Timers } from '../util/clock.js';
import { encodeHeaderValue, isPlainHeaderValue } from './headerValue.js';
import { credentialId, discard, fetchErrorCode, jsonRpcError, linkSignals, mediaType, parseJson, readStart, safeUrl } from './httpUtil.js';
import { parseRetryAfter, resolveRetryPolicy, withRetry, type ResolvedRetryPolicy, type RetryDecision, type RetryPolicy } from './reconnect.js';
import { SseReader } from './sseReader.js';
import type { LegacyWireControl, Transport, TransportCapabilities, TransportHandlers, TransportSendOptions } from './transport.js';
import { LegacyHttpChannel, resolveLegacyHttpOptions, type LegacyHttpOptions, type LegacyHttpPort, type PumpResult, type ResolvedLegacyHttpOptions } from './legacyHttp.js';
import {
  bodyExcerpt,
  HttpAuthError,
  HttpError,
  StreamBrokenError,
  type HttpAuthFailure,
  type HttpErrorData,
} from './transportErrors.js';
import { bearerChallenge, parseWwwAuthenticate, type AuthChallenge, type BearerChallenge } from './wwwAuthenticate.js';

/** The subset of `fetch` the transport calls. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Why the server refused the credential of the previous attempt: passed on `attempt: 2`, and on
 * `attempt: 3` when the credential of attempt 2 was refused too (the provider may throw its own
 * error then; its return value is ignored).
 */
export interface AuthFailureInfo {
  /** 401 or 403. */
  readonly status: 401 | 403;
  /** `unauthorized` (401), `insufficient_scope` (403 with that Bearer error), `forbidden`. */
  readonly failure: HttpAuthFailure;
  /** Every `WWW-Authenticate` challenge, parsed. */
  readonly challenges: readonly AuthChallenge[];
  /** The first Bearer challenge's parameters (`resourceMetadata`, `scope`, `error`...). */
  readonly bearer: BearerChallenge | undefined;
  /** The `Authorization` value the server refused (compare it with the current one). */
  readonly rejected: string | undefined;
}

/** What {@link AuthProvider} is told about the request it authorizes. */
export interface AuthRequestInfo {
  /** The endpoint URL the request goes to. */
  readonly url: string;
  /**
   * 1 for a request's first try; 2 after the server refused the credential of try 1 with 401
   * (or 403 `insufficient_scope`). There is never a third: a second refusal fails the request.
   */
  readonly attempt: number;
  /** Present on attempt 2: what the server said. */
  readonly failure?: AuthFailureInfo | undefined;
  /** Aborted when the request is cancelled or the transport closes. */
  readonly signal: AbortSignal;
}

/**
 * Returns the `Authorization` header value for one HTTP request (e.g. `"Bearer <token>"`), or
 * `undefined` for none. Called before every POST, so it should return a cached token quickly.
 * On `attempt: 2` it may refresh the token or run a step-up flow; returning the same value as
 * `failure.rejected` (or `undefined`) ends the request with {@link HttpAuthError}. Concurrent
 * refreshes are the provider's to merge (compare `failure.rejected` with its current token).
 */
export type AuthProvider = (info: AuthRequestInfo) => Promise<string | undefined> | string | undefined;

/** Options for {@link StreamableHttpTransport}. Every field is optional. */
export interface StreamableHttpTransportOptions {
  /**
   * Headers sent with every POST (for example an API key). The protocol headers (`Accept`,
   * `Content-Type`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) always win over them;
   * `Authorization` from {@link authProvider} wins over a static one.
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /** The fetch implementation. @default globalThis.fetch, looked up at each call */
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
const MODERN_CAPABILITIES: TransportCapabilities = Object.freeze({ cancelsByAbortingSend: true, mirrorsToolParamHeaders: true, answersEveryRequest: true });
const LEGACY_CAPABILITIES: TransportCapabilities = Object.freeze({ cancelsByAbortingSend: false, mirrorsToolParamHeaders: false, closesStreamOnCancel: true, answersEveryRequest: true });
/** Methods whose `Mcp-Name` header comes from `params.name`. */
const NAMED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get']);

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
 *   as a legacy one, gets the header only through `TransportSendOptions.headers`), `Mcp-Method`, and `Mcp-Name` for `tools/call` and `prompts/get` (`params.name`) and
 *   `resources/read` (`params.uri`), Base64-wrapped (`=?base64?...?=`) when not plain ASCII;
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
 * Cancellation ({@link capabilities}.cancelsByAbortingSend): aborting a request's send signal
 * aborts its fetch, which closes its response stream; no `notifications/cancelled` is sent.
 *
 * No GET is ever sent on the 2026-07-28 wire, and no body-idle timeout is applied: a
 * `subscriptions/listen` stream stays open as long as the server keeps it (Node's fetch drops a
 * body silent for 300 s; SSE keep-alive comments every 15 s keep it open).
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
 * never fatal); `close()` sends `DELETE`. See {@link LegacyHttpOptions}.
 */
export class StreamableHttpTransport implements Transport {
  readonly serverIdentity: string;

  private readonly url: string;
  private readonly staticHeaders: Headers;
  private readonly staticAuthorization: string | undefined;
  private readonly fetchImpl: FetchLike;
  private readonly authProvider: AuthProvider | undefined;
  private readonly retryPolicy: ResolvedRetryPolicy;
  private readonly timers: Timers;
  private readonly maxEventChars: number | undefined;
  private readonly maxRedirects: number;
  private state: State = 'new';
  private handlers: TransportHandlers | undefined;
  private readonly closeController = new AbortController();
  private credential: { readonly value: string; readonly id: string } | undefined;
  private readonly legacyOptions: ResolvedLegacyHttpOptions;
  /** Set once the client falls back to the legacy wire. */
  private legacy: LegacyHttpChannel | undefined;

  /** Switches to the legacy wire around the client's `initialize` handshake (see the class documentation). */
  readonly legacyWire: LegacyWireControl = {
    enter: () => {
      this.legacy?.stopStandalone();
      this.legacy = new LegacyHttpChannel(this.legacyPort(), this.legacyOptions, this.timers, this.closeController.signal);
    },
    negotiated: (protocolVersion) => {
      if (this.legacy !== undefined) this.legacy.protocolVersion = protocolVersion;
    },
    ready: () => this.legacy?.startStandalone(),
    leave: () => {
      this.legacy?.stopStandalone();
      this.legacy = undefined;
    },
  };

  /**
   * 2026-07-28: cancelling a request is closing its response stream, and tool parameters are
   * mirrored into headers. Legacy wire: `notifications/cancelled`, then the stream is closed.
   */
  get capabilities(): TransportCapabilities {
    return this.legacy === undefined ? MODERN_CAPABILITIES : LEGACY_CAPABILITIES;
  }

  /**
   * @param url the MCP endpoint, `http:` or `https:`, e.g. `"https://example.com/mcp"`.
   * @throws InvalidArgumentError (code -32602) for a URL that does not parse, is not HTTP(S)
   *   or holds credentials; for static headers that are not valid HTTP; for a bad retry policy.
   */
  constructor(url: string | URL, options: StreamableHttpTransportOptions = {}) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidArgumentError('url', String(url), 'expected an absolute http: or https: URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidArgumentError('url', parsed.protocol, 'expected an http: or https: URL');
    if (parsed.username !== '' || parsed.password !== '') {
      throw new InvalidArgumentError('url', `${parsed.origin}${parsed.pathname}`, 'credentials in the URL are not sent; use headers or authProvider');
    }
    parsed.hash = '';
    this.url = parsed.href;
    this.serverIdentity = `${parsed.origin}${parsed.pathname}`;
    try {
      this.staticHeaders = new Headers(options.headers ?? {});
    } catch (error) {
      throw new InvalidArgumentError('headers', Object.keys(options.headers ?? {}), `not valid HTTP headers: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.staticAuthorization = this.staticHeaders.get('authorization') ?? undefined;
    if (this.staticAuthorization !== undefined) this.noteCredential(this.staticAuthorization);
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.authProvider = options.authProvider;
    this.retryPolicy = resolveRetryPolicy(options.retry);
    this.timers = options.timers ?? systemTimers;
    this.maxEventChars = options.maxEventChars;
    const redirects = options.maxRedirects ?? 3;
    if (!Number.isInteger(redirects) || redirects < 0) throw new InvalidArgumentError('maxRedirects', redirects, 'expected an integer >= 0');
    this.maxRedirects = redirects;
    this.legacyOptions = resolveLegacyHttpOptions(options.legacy);
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
    return this.credential?.id;
  }

  /**
   * Asks the `authProvider` (attempt 1) for the credential the next request would carry, and
   * resolves with its opaque id (see {@link authContext}); `undefined` when there is none.
   * Rejects with whatever the provider rejects with.
   */
  async resolveAuthContext(signal?: AbortSignal): Promise<string | undefined> {
    const value = await this.authorization(1, undefined, signal ?? this.closeController.signal);
    return value === undefined ? undefined : this.credential?.id;
  }

  /**
   * Makes the transport usable; sends nothing (the 2026-07-28 wire has no connection set-up).
   * @throws ConnectionClosedError (code -32000) after `close()`; LocalError (-32603) when called twice.
   */
  async start(handlers: TransportHandlers): Promise<void> {
    if (this.state === 'closed') throw new ConnectionClosedError('HTTP transport was closed before it started', { reason: 'closed by client' });
    if (this.state !== 'new') throw new LocalError(ErrorCode.InternalError, 'StreamableHttpTransport.start() called twice');
    this.handlers = handlers;
    this.state = 'open';
  }

  /**
   * POSTs one message; see the class documentation for what resolves and what rejects.
   * `options.signal` aborts the exchange (the cancellation of a request); `options.headers`
   * adds headers to this POST; `options.idempotent` (default: every method but `tools/call`)
   * allows retrying it after a connection reset or a 502/503/504.
   */
  send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.state !== 'open') {
      const reason = this.state === 'new' ? 'transport not started' : 'transport closed';
      return Promise.reject(new ConnectionClosedError(`cannot send: ${reason}`, { reason }));
    }
    const isResponse = !('method' in message);
    if (isResponse && this.legacy !== undefined) {
      // Legacy wire: the answer to a server request is POSTed and acknowledged like a notification.
      const headers = this.legacyHeaders();
      return this.exchangeNotification('(response)', JSON.stringify(message), headers, true, options.signal);
    }
    if (isResponse || typeof message.method !== 'string') {
      return Promise.reject(new InvalidArgumentError('message', message, 'Streamable HTTP carries only requests and notifications from the client'));
    }
    let headers: Headers;
    try {
      headers = this.protocolHeaders(message.method, message.params, options.headers);
    } catch (error) {
      return Promise.reject(error);
    }
    const body = JSON.stringify(message);
    const idempotent = options.idempotent ?? message.method !== 'tools/call';
    if ('id' in message && message.id !== undefined) {
      return this.exchangeRequest(message.method, message.id, body, headers, idempotent, options.signal);
    }
    return this.exchangeNotification(message.method, body, headers, idempotent, options.signal);
  }

  /**
   * Aborts every exchange in flight, then calls `onClose` once; on the legacy wire, then sends
   * `DELETE` for the session (bounded by `legacy.deleteTimeoutMs`). Idempotent.
   */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    this.closeController.abort(new ConnectionClosedError('HTTP transport closed', { reason: 'closed by client' }));
    const handlers = this.handlers;
    this.handlers = undefined;
    if (wasOpen) handlers?.onClose({ reason: 'closed by client', initiatedByClient: true });
    await this.legacy?.terminate();
  }

  /** Accept, Content-Type, the static headers, and the legacy session headers. */
  private legacyHeaders(): Headers {
    const headers = new Headers(this.staticHeaders);
    headers.set('Accept', ACCEPT);
    headers.set('Content-Type', 'application/json');
    this.legacy?.applyHeaders(headers);
    return headers;
  }

  private protocolHeaders(method: string, params: JsonObject | undefined, extra: Readonly<Record<string, string>> | undefined): Headers {
    if (this.legacy !== undefined) {
      // The legacy envelope: no Mcp-Method, Mcp-Name or Mcp-Param-* headers (spec 2025-11-25).
      return this.legacyHeaders();
    }
    const headers = new Headers(this.staticHeaders);
    if (extra !== undefined) {
      for (const [name, value] of Object.entries(extra)) {
        try {
          headers.set(name, value);
        } catch {
          throw new InvalidArgumentError(`headers[${JSON.stringify(name)}]`, value, 'not a valid HTTP header name and value');
        }
      }
    }
    headers.set('Accept', ACCEPT);
    headers.set('Content-Type', 'application/json');
    const meta = params?.['_meta'];
    const version = isObject(meta) ? meta[MetaKey.protocolVersion] : undefined;
    if (typeof version === 'string') {
      if (!isPlainHeaderValue(version) || version === '') throw new InvalidArgumentError('_meta.protocolVersion', version, 'cannot be sent as the MCP-Protocol-Version header');
      headers.set('MCP-Protocol-Version', version);
    }
    if (!isPlainHeaderValue(method) || method === '') throw new InvalidArgumentError('method', method, 'cannot be sent as the Mcp-Method header (visible ASCII only)');
    headers.set('Mcp-Method', method);
    const name = NAMED_METHODS.has(method) ? params?.['name'] : method === 'resources/read' ? params?.['uri'] : undefined;
    if (typeof name === 'string') headers.set('Mcp-Name', encodeHeaderValue(name));
    return headers;
  }

  /** One POST of a message, retried by the transport's policy while its failures are transient. */
  private postWithRetry(method: string, body: string, headers: Headers, idempotent: boolean, signal: AbortSignal): Promise<Response> {
    return withRetry(() => this.fetchWithAuth('POST', method, body, headers, signal), {
      policy: this.retryPolicy,
      signal,
      timers: this.timers,
      classify: (error) => classify(error, idempotent),
    });
  }

  private async exchangeRequest(method: string, id: RequestId, body: string, headers: Headers, idempotent: boolean, callSignal: AbortSignal | undefined): Promise<void> {
    const linked = linkSignals(callSignal, this.closeController.signal);
    try {
      const response = await this.postWithRetry(method, body, headers, idempotent, linked.signal);
      this.legacy?.captureSession(method, response);
      await this.consumeResponse(response, method, id, linked.signal, headers.get('mcp-session-id'));
    } catch (error) {
      throw this.finalError(error, method, id, callSignal);
    } finally {
      linked.dispose();
    }
  }

  private async exchangeNotification(method: string, body: string, headers: Headers, idempotent: boolean, callSignal: AbortSignal | undefined): Promise<void> {
    const linked = linkSignals(callSignal, this.closeController.signal);
    try {
      const response = await this.postWithRetry(method, body, headers, idempotent, linked.signal);
      if (response.status >= 200 && response.status < 300) {
        // Accepted: 202, 200 or 204, with or without a body. Never parsed.
        await discard(response);
        return;
      }
      const expired = this.legacy?.sessionExpired(method, response.status, headers.get('mcp-session-id'));
      if (expired !== undefined) {
        await discard(response);
        this.emitError(expired);
        return;
      }
      const text = await readStart(response, ERROR_BODY_BYTES);
      const parsed = parseJson(text);
      this.emitError(new HttpError(this.errorData(response, method, text, 'status', jsonRpcError(parsed))));
    } catch (error) {
      const final = this.finalError(error, method, undefined, callSignal);
      if (this.closeController.signal.aborted || callSignal?.aborted === true) throw final;
      if (final instanceof InvalidArgumentError) throw final;
      this.emitError(final);
    } finally {
      linked.dispose();
    }
  }

  /**
   * One exchange (a POST; on the legacy wire also GET and DELETE), with its auth retry and
   * same-origin 307/308 redirects. Resolves with a response that is not 401/403/3xx/transient;
   * throws {@link HttpAuthError}, {@link HttpError} (3xx, transient statuses, carrying
   * `retryAfterMs`) or {@link NetworkFailure}.
   */
  private async fetchWithAuth(httpMethod: 'POST' | 'GET' | 'DELETE', method: string, body: string | undefined, headers: Headers, signal: AbortSignal): Promise<Response> {
    let authorization = await this.authorization(1, undefined, signal);
    let retriedAuth = false;
    let url = this.url;
    for (let redirects = 0; ; ) {
      const requestHeaders = new Headers(headers);
      if (authorization !== undefined) {
        try {
          requestHeaders.set('Authorization', authorization);
        } catch {
          throw new InvalidArgumentError('authorization', '(hidden)', 'the Authorization value from authProvider is not a valid HTTP header value');
        }
      }
      let response: Response;
      try {
        response = await this.fetchImpl(url, { method: httpMethod, headers: requestHeaders, signal, redirect: 'manual', ...(body !== undefined && { body }) });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw networkFailure(error);
      }
      const status = response.status;
      if (status === 401 || status === 403) {
        const challenges = parseWwwAuthenticate(response.headers.get('www-authenticate'));
        const bearer = bearerChallenge(challenges);
        const failure: HttpAuthFailure = status === 401 ? 'unauthorized' : bearer?.error === 'insufficient_scope' ? 'insufficient_scope' : 'forbidden';
        if (this.authProvider !== undefined && !retriedAuth && failure !== 'forbidden') {
          await discard(response);
          const next = await this.authorization(2, { status, failure, challenges, bearer, rejected: authorization }, signal);
          retriedAuth = true;
          if (next !== undefined && next !== authorization) {
            authorization = next;
            continue;
          }
          throw new HttpAuthError({ ...this.errorData(response, method, '', 'status'), failure, challenges, bearer, retriedWithNewCredential: false });
        }
        const text = await readStart(response, ERROR_BODY_BYTES);
        if (this.authProvider !== undefined && retriedAuth && failure !== 'forbidden') {
          // The retried credential was refused too: the provider may explain why with an error of
          // its own (e.g. InsufficientScopeError); what it returns is ignored and never sent.
          await this.authProvider({ url: this.url, attempt: 3, signal, failure: { status, failure, challenges, bearer, rejected: authorization } });
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
        const location = response.headers.get('location') ?? undefined;
        await discard(response);
        const target = location === undefined ? undefined : safeUrl(location, url);
        if ((status === 307 || status === 308) && target !== undefined && target.origin === new URL(url).origin && redirects < this.maxRedirects) {
          redirects++;
          url = target.href;
          continue;
        }
        throw new HttpError({ ...this.errorData(response, method, '', 'redirect'), ...(location !== undefined && { location }) });
      }
      if (TRANSIENT_STATUSES.has(status)) {
        const text = await readStart(response, ERROR_BODY_BYTES);
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        throw new HttpError({ ...this.errorData(response, method, text, 'status', jsonRpcError(parseJson(text))), ...(retryAfterMs !== undefined && { retryAfterMs }) });
      }
      return response;
    }
  }

  /** Reads the final response of a request and hands its messages up. */
  private async consumeResponse(response: Response, method: string, id: RequestId, signal: AbortSignal, sentSessionId: string | null): Promise<void> {
    const status = response.status;
    const type = mediaType(response.headers.get('content-type'));
    if (status < 200 || status >= 300) {
      const expired = this.legacy?.sessionExpired(method, status, sentSessionId);
      if (expired !== undefined) {
        await discard(response);
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
      await this.readEventStream(response, method, id, signal);
      return;
    }
    if (type === 'application/json') {
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new StreamBrokenError({ method, requestId: id, phase: 'mid-stream', reason: 'the response body failed before it was complete', eventsReceived: 0, outcome: 'unknown' }, error);
      }
      if (text.trim() === '') throw new HttpError(this.errorData(response, method, '', 'empty-body'));
      const parsed = parseJson(text);
      if (parsed === undefined) throw new ProtocolError('response body is not JSON', { method, value: bodyExcerpt(text) }, ErrorCode.ParseError);
      if (!this.deliver(parsed, id, status)) throw new ProtocolError('response body is not the JSON-RPC response to this request', { method, value: parsed });
      return;
    }
    const text = await readStart(response, ERROR_BODY_BYTES);
    throw new HttpError(this.errorData(response, method, text, text === '' ? 'empty-body' : 'content-type'));
  }

  private async readEventStream(response: Response, method: string, id: RequestId, signal: AbortSignal): Promise<void> {
    const pumped = await this.pump(response, method, id, signal);
    if (pumped.responded) return;
    // Legacy wire: a stream that gave an event id can be resumed with GET + Last-Event-ID.
    if (this.legacy !== undefined && pumped.lastEventId !== undefined) {
      await this.legacy.resume(method, id, pumped, signal);
      return;
    }
    const failed = pumped.failure !== undefined;
    throw new StreamBrokenError(
      { method, requestId: id, phase: 'mid-stream', reason: failed ? 'the response stream failed before the response' : 'the response stream ended before the response', eventsReceived: pumped.events, outcome: 'unknown' },
      pumped.failure,
    );
  }

  /**
   * Reads an SSE body, handing each JSON-RPC `message` event up (related to `relatedId` when
   * given), until it ends or the response to `relatedId` arrived. A read failure ends it with
   * `failure` set; an abort rejects with the abort reason; an oversized event with ProtocolError.
   */
  private async pump(response: Response, method: string, relatedId: RequestId | undefined, signal: AbortSignal): Promise<PumpResult> {
    const body = response.body;
    if (body === null) throw new HttpError(this.errorData(response, method, '', 'empty-body'));
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
      for await (const event of reader.read(body)) {
        events++;
        // `ping`, `keepalive` and other event types carry nothing for JSON-RPC.
        if (event.type !== 'message') continue;
        const value = parseJson(event.data);
        if (value === undefined) {
          this.emitError(new ProtocolError('SSE event data is not JSON; skipped', { method, value: bodyExcerpt(event.data) }, ErrorCode.ParseError));
          continue;
        }
        if (!isObject(value) || value['jsonrpc'] !== '2.0') {
          this.emitError(new ProtocolError('SSE event data is not a JSON-RPC message; skipped', { method, value }));
          continue;
        }
        if (this.deliver(value, relatedId, response.status)) return result(true);
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (McpError.is(error)) throw error;
      return result(false, error);
    }
    if (signal.aborted) throw signal.reason;
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
      handlers.onMessage(value, id === undefined ? (status === undefined ? undefined : { httpStatus: status }) : status === undefined ? { relatedRequestId: id } : { relatedRequestId: id, httpStatus: status });
    } catch (error) {
      this.emitError(error instanceof Error ? error : new Error(String(error)));
    }
    if (id === undefined) return false;
    return isObject(value) && ('result' in value || 'error' in value) && (value['id'] === id || value['id'] === null || value['id'] === undefined);
  }

  /** What the legacy channel borrows: GET/DELETE with auth, the SSE reader, error reporting. */
  private legacyPort(): LegacyHttpPort {
    return {
      get: (lastEventId, signal) => {
        const headers = this.legacyHeaders();
        headers.set('Accept', 'text/event-stream');
        headers.delete('Content-Type');
        if (lastEventId !== undefined) headers.set('Last-Event-ID', lastEventId);
        // `signal` already follows the transport's close (standalone stream, or a request's exchange).
        return this.fetchWithAuth('GET', 'GET', undefined, headers, signal).catch((error: unknown) => {
          throw this.finalError(error, 'GET', undefined, signal);
        });
      },
      delete: (signal) => {
        const headers = this.legacyHeaders();
        headers.delete('Content-Type');
        return this.fetchWithAuth('DELETE', 'DELETE', undefined, headers, signal);
      },
      pump: (response, method, relatedId, signal) => this.pump(response, method, relatedId, signal),
      httpError: async (response, method) => {
        const text = await readStart(response, ERROR_BODY_BYTES);
        const type = mediaType(response.headers.get('content-type'));
        const ok = response.status >= 200 && response.status < 300;
        return new HttpError(this.errorData(response, method, text, ok ? (text === '' ? 'empty-body' : 'content-type') : 'status', type === 'application/json' ? jsonRpcError(parseJson(text)) : undefined));
      },
      emitError: (error) => this.emitError(error),
    };
  }

  private errorData(response: Response, method: string, text: string, problem: HttpErrorData['problem'], rpcError?: JsonRpcErrorObject): HttpErrorData {
    return {
      status: response.status,
      method,
      url: this.serverIdentity,
      contentType: response.headers.get('content-type') ?? undefined,
      bodyExcerpt: bodyExcerpt(text),
      problem,
      ...(rpcError !== undefined && { rpcError }),
    };
  }

  /** Maps a failed exchange to the error `send()` rejects with. */
  private finalError(error: unknown, method: string, id: RequestId | undefined, callSignal: AbortSignal | undefined): Error {
    if (this.closeController.signal.aborted) {
      return new ConnectionClosedError(`${method}: connection closed (closed by client)`, { reason: 'closed by client' }, McpError.is(error) ? undefined : error);
    }
    if (callSignal?.aborted === true) return new CancelledError(method, callSignal.reason);
    if (error instanceof NetworkFailure) {
      if (error.connectPhase || id === undefined) {
        const reason = `cannot reach ${this.serverIdentity}${error.code === undefined ? '' : ` (${error.code})`}`;
        return new ConnectionClosedError(`${method}: ${reason}`, { reason }, error.cause);
      }
      return new StreamBrokenError(
        { method, requestId: id, phase: 'before-response', reason: `the connection failed before a response${error.code === undefined ? '' : ` (${error.code})`}`, eventsReceived: 0, outcome: 'unknown' },
        error.cause,
      );
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  /** The `Authorization` value of one try (provider first, then the static header). */
  private async authorization(attempt: number, failure: AuthFailureInfo | undefined, signal: AbortSignal): Promise<string | undefined> {
    let value = this.staticAuthorization;
    if (this.authProvider !== undefined) {
      const provided = await this.authProvider({ url: this.url, attempt, signal, ...(failure !== undefined && { failure }) });
      if (provided !== undefined && typeof provided !== 'string') throw new InvalidArgumentError('authProvider()', typeof provided, 'expected a string or undefined');
      if (provided !== undefined && provided !== '') value = provided;
    }
    if (value !== undefined) this.noteCredential(value);
    return value;
  }

  private noteCredential(value: string): void {
    if (this.credential?.value !== value) this.credential = { value, id: credentialId(value) };
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
  if (error instanceof HttpError && !(error instanceof HttpAuthError) && TRANSIENT_STATUSES.has(error.data.status) && error.data.problem === 'status') {
    return { retry: idempotent || error.data.status === 429, delayMs: error.data.retryAfterMs };
  }
  return { retry: false };
}

function networkFailure(error: unknown): NetworkFailure {
  const code = fetchErrorCode(error);
  return new NetworkFailure(code !== undefined && CONNECT_ERROR_CODES.has(code), code, error);
}
