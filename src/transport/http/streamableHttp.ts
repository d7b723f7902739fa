/**
 * The Streamable HTTP transport of MCP 2026-07-28 (basic/transports/streamable-http): one POST
 * per message, the reply as one JSON object or as an SSE stream scoped to the request,
 * cancellation by closing that stream. Runtime-neutral (Node 20+, browsers, Deno, Bun): HTTP goes
 * through an {@link HttpStack}, `fetch` here; `mcp-live/node` plugs in `node:http`.
 */
import { ErrorCode } from '../../errors/codes.js';
import { ConnectionClosedError, InvalidArgumentError, LocalError, ProtocolError } from '../../errors/errors.js';
import type { JsonObject, JsonRpcMessage, RequestId } from '../../wire/messages.js';
import { type Timers } from '../../util/clock.js';
import { boundedTimers } from '../../util/timerBounds.js';
import { cancelHandleOf, sendCancelOf } from '../cancelHandle.js';
import { resolveRetryPolicy, type RetryPolicy } from '../../resilience/retry.js';
import type {
  CancelHandle,
  LegacyWireControl,
  RequestCredential,
  Transport,
  TransportCapabilities,
  TransportHandlers,
  TransportSendOptions,
} from '../transport.js';
import { bodyExcerpt, HttpError, StreamBrokenError } from '../transportErrors.js';
import type { AuthProvider } from './auth.js';
import { AuthorizationSource } from './authorization.js';
import { ERROR_BODY_BYTES, jsonRpcError, mediaType, parseEndpointUrl, parseJson } from './body.js';
import { envelopeHeaders, POST_HEADERS } from './envelope.js';
import { HttpExchange } from './exchange.js';
import {
  LegacyHttpChannel,
  resolveLegacyHttpOptions,
  SessionSetup,
  type LegacyHttpOptions,
  type LegacyHttpPort,
  type ResolvedLegacyHttpOptions,
} from './legacy/legacyHttp.js';
import type { LegacySseTransport } from './legacy/legacySse.js';
import { openSseFallback } from './legacy/sseFallback.js';
import { MessageReader } from './messageReader.js';
import {
  BodyTooLargeError,
  checkHeaderValue,
  fetchStack,
  normalizeHeaders,
  readStart,
  type FetchLike,
  type HttpStack,
  type HttpStackResponse,
} from './stack.js';

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
  /**
   * Timers for the waits of a 2025-11-25 server's wire: the SSE `retry` before a broken stream
   * is resumed or the standalone GET stream reopened, the `DELETE` timeout, and the HTTP+SSE
   * fallback's `endpoint` wait. The waits between the retries of transient failures (`retry`,
   * a `Retry-After` too) and of the standalone GET stream do not use them: they run on the
   * global `setTimeout`. @default the globals, looked up per call (fake-timer friendly)
   */
  timers?: Timers | undefined;
  /** Longest SSE event accepted, in characters. @default 67108864 */
  maxEventChars?: number | undefined;
  /**
   * Longest JSON response body accepted, in bytes: a longer one (or one whose `Content-Length`
   * says so) is dropped as soon as it crosses the limit, and the request fails with
   * `ProtocolError` (-32700, `data.value: { maxBodyBytes, received }`), as an oversized SSE event
   * does. Error bodies are read only in part anyway. @default 67108864 (64 MiB)
   */
  maxBodyBytes?: number | undefined;
  /** Same-origin 307/308 redirects followed per POST. Other redirects fail. @default 3 */
  maxRedirects?: number | undefined;
  /**
   * The legacy wire (2025-11-25 and earlier), used after the client falls back to `initialize`:
   * the standalone GET stream, resumption, `DELETE` on close. See {@link LegacyHttpOptions}.
   * @default every field's default
   */
  legacy?: LegacyHttpOptions | undefined;
}

/** Longest JSON response body accepted by default, in bytes. */
const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
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
type State = 'new' | 'open' | 'closed';

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
  /** Every HTTP exchange (credential, redirects, retries), and the transport's lifetime. */
  private readonly exchange: HttpExchange;
  /** Hands what the exchanges carry up to {@link handlers}. */
  private readonly reader: MessageReader;
  private readonly timers: Timers;
  private readonly maxEventChars: number | undefined;
  private readonly maxBodyBytes: number;
  private state: State = 'new';
  private handlers: TransportHandlers | undefined;
  /** Legacy wire: holds messages back while a new session is set up. */
  private readonly sessionSetup = new SessionSetup();
  /** The sends held back by {@link sessionSetup}, until each is sent or fails. */
  private readonly heldSends = new Set<Promise<void>>();
  private readonly legacyOptions: ResolvedLegacyHttpOptions;
  /** Set once the client falls back to the legacy wire. */
  private legacy: LegacyHttpChannel | undefined;
  /** Set after the fallback to the deprecated HTTP+SSE transport (legacySse.ts): every message goes through it. */
  private sse: LegacySseTransport | undefined;

  /** `1.1` on the `node:http` stack (`mcp-live/node`); unset on `fetch`, which does not say. */
  get networkProtocolVersion(): string | undefined {
    return this.stack.protocolVersion;
  }

  /** Switches to the legacy wire around the client's `initialize` handshake (see the class documentation). */
  readonly legacyWire: LegacyWireControl = {
    enter: () => {
      this.legacy?.stopStandalone();
      this.legacy = new LegacyHttpChannel(
        this.legacyPort(),
        this.legacyOptions,
        this.timers,
        this.exchange.closeSignal,
      );
      this.sessionSetup.begin();
    },
    negotiated: (protocolVersion) => {
      if (this.legacy !== undefined) this.legacy.protocolVersion = protocolVersion;
      this.sessionSetup.settle();
    },
    failed: (error) => {
      this.sessionSetup.settle(error);
      return Promise.allSettled([...this.heldSends]).then(() => undefined);
    },
    ready: () => (this.sse === undefined ? this.legacy?.startStandalone() : undefined),
    sessionId: () => this.legacy?.sessionId,
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
        closeSignal: this.exchange.closeSignal,
      };
      const onClosed = (): void => {
        // The SSE stream ended: this transport is done, and `close()` will return early, so
        // release the stack's sockets (its own keep-alive agent) here.
        this.state = 'closed';
        this.stack.close();
      };
      this.sse = await openSseFallback({ ...host, auth: this.auth, onClosed }, signal);
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
    this.timers = boundedTimers(options.timers);
    this.maxEventChars = options.maxEventChars;
    const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (typeof maxBody !== 'number' || !Number.isInteger(maxBody) || maxBody < 1)
      throw new InvalidArgumentError('maxBodyBytes', maxBody, 'expected an integer number of bytes >= 1');
    this.maxBodyBytes = maxBody;
    const maxRedirects = options.maxRedirects ?? 3;
    if (!Number.isInteger(maxRedirects) || maxRedirects < 0)
      throw new InvalidArgumentError('maxRedirects', maxRedirects, 'expected an integer >= 0');
    this.exchange = new HttpExchange({
      url: this.url,
      serverIdentity: this.serverIdentity,
      stack: this.stack,
      auth: this.auth,
      retryPolicy: resolveRetryPolicy(options.retry),
      maxRedirects,
    });
    this.reader = new MessageReader({
      handlers: () => this.handlers,
      exchange: this.exchange,
      maxEventChars: this.maxEventChars,
    });
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
   * The credential the next request would be sent with, resolved now without sending anything
   * (see `Transport.credentialFor`): the `authProvider` is asked for its first try (synchronously
   * when it answers synchronously), else the static `Authorization` header is used. Its `id` is
   * `"credential:<32 hex>"`, the first 128 bits of a domain-separated SHA-256 of the value (never
   * the value), or `undefined` without a credential. Passed back in
   * `TransportSendOptions.credential`, the request's first try carries exactly this credential.
   * The client's response cache partitions private entries by it (docs/caching.md).
   * @throws whatever the `authProvider` throws; InvalidArgumentError (-32602) when it returns
   *   something other than a string or `undefined`.
   */
  credentialFor(signal?: AbortSignal): RequestCredential | Promise<RequestCredential> {
    return this.auth.pin(signal ?? this.exchange.closeSignal);
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
    if (this.sessionSetup.active && this.legacy !== undefined && message.method !== 'initialize') {
      const held = this.sendAfterSetup(message, options);
      this.heldSends.add(held);
      const release = (): void => void this.heldSends.delete(held);
      held.then(release, release);
      return held;
    }
    let headers: Record<string, string>;
    try {
      headers = this.protocolHeaders(message.method, message.params, options.headers);
    } catch (error) {
      return Promise.reject(error);
    }
    const body = JSON.stringify(message);
    const idempotent = options.idempotent ?? message.method !== 'tools/call';
    if ('id' in message && message.id !== undefined) {
      return this.exchangeRequest(message.method, message.id, body, headers, idempotent, cancel, options.credential);
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
    this.exchange.close(new ConnectionClosedError('HTTP transport closed', { reason: 'closed by client' }));
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
    const link = this.exchange.link(cancel);
    try {
      await this.sessionSetup.wait([link.signal]);
    } catch (error) {
      // The set-up's own failure is the request's answer, even when the transport closes right after it.
      if (id !== undefined && this.sessionSetup.failedWith(error)) throw error;
      const final = this.exchange.finalError(error, message.method, id, cancel);
      if (id !== undefined || this.exchange.closeSignal.aborted || cancel?.aborted === true) throw final;
      this.reader.emitError(final);
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

  /** The headers of a POST of `method`: the legacy envelope after the fallback, else the 2026-07-28 one. */
  private protocolHeaders(
    method: string,
    params: JsonObject | undefined,
    extra: Readonly<Record<string, string>> | undefined,
  ): Record<string, string> {
    // The legacy envelope: no Mcp-Method, Mcp-Name or Mcp-Param-* headers (spec 2025-11-25).
    if (this.legacy !== undefined) return this.legacyHeaders();
    return envelopeHeaders(method, params, extra, this.staticHeaders, this.postHeaders);
  }

  private async exchangeRequest(
    method: string,
    id: RequestId,
    body: string,
    headers: Readonly<Record<string, string>>,
    idempotent: boolean,
    cancel: CancelHandle | undefined,
    credential: RequestCredential | undefined,
  ): Promise<void> {
    try {
      const response = await this.exchange.post(method, body, headers, idempotent, cancel, credential);
      this.legacy?.captureSession(method, response);
      await this.consumeResponse(response, method, id, cancel, headers['mcp-session-id']);
    } catch (error) {
      throw this.exchange.finalError(error, method, id, cancel);
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
      const response = await this.exchange.post(method, body, headers, idempotent, cancel);
      if (response.status >= 200 && response.status < 300) {
        // Accepted: 202, 200 or 204, with or without a body. Never parsed.
        response.discard();
        return;
      }
      const expired = this.legacy?.sessionExpired(method, response.status, headers['mcp-session-id']);
      if (expired !== undefined) {
        response.discard();
        this.reader.emitError(expired);
        return;
      }
      const text = await readStart(response, ERROR_BODY_BYTES);
      const parsed = parseJson(text);
      this.reader.emitError(
        new HttpError(this.exchange.errorData(response, method, text, 'status', jsonRpcError(parsed))),
      );
    } catch (error) {
      const final = this.exchange.finalError(error, method, undefined, cancel);
      if (this.exchange.closeSignal.aborted || cancel?.aborted === true) throw final;
      if (final instanceof InvalidArgumentError) throw final;
      this.reader.emitError(final);
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
        if (this.reader.deliver(parsed, id, status)) return;
      }
      throw new HttpError(this.exchange.errorData(response, method, text, 'status', jsonRpcError(parsed)));
    }
    if (type === 'text/event-stream') {
      await this.readEventStream(response, method, id, cancel);
      return;
    }
    if (type === 'application/json') {
      let text: string;
      try {
        text = await response.text(this.maxBodyBytes);
      } catch (error) {
        if (this.exchange.isAborted(cancel)) throw this.exchange.abortReason(cancel);
        if (error instanceof BodyTooLargeError) {
          throw new ProtocolError(
            `response body longer than ${error.limit} bytes; dropped`,
            { method, value: { maxBodyBytes: error.limit, received: error.received } },
            ErrorCode.ParseError,
          );
        }
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
        if (text.trim() === '') throw new HttpError(this.exchange.errorData(response, method, '', 'empty-body'));
        throw new ProtocolError(
          'response body is not JSON',
          { method, value: bodyExcerpt(text) },
          ErrorCode.ParseError,
        );
      }
      if (!this.reader.deliver(parsed, id, status))
        throw new ProtocolError('response body is not the JSON-RPC response to this request', {
          method,
          value: parsed,
        });
      return;
    }
    const text = await readStart(response, ERROR_BODY_BYTES);
    throw new HttpError(this.exchange.errorData(response, method, text, text === '' ? 'empty-body' : 'content-type'));
  }

  private async readEventStream(
    response: HttpStackResponse,
    method: string,
    id: RequestId,
    cancel: CancelHandle | undefined,
  ): Promise<void> {
    const pumped = await this.reader.pump(response, method, id, cancel);
    if (pumped.responded) return;
    // Legacy wire: a stream that gave an event id can be resumed with GET + Last-Event-ID.
    if (this.legacy !== undefined && pumped.lastEventId !== undefined) {
      const link = this.exchange.link(cancel);
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
        return this.exchange.send('GET', 'GET', undefined, headers, cancel).catch((error: unknown) => {
          throw this.exchange.finalError(error, 'GET', undefined, cancel);
        });
      },
      delete: (signal) => {
        const headers = this.legacyHeaders();
        delete headers['content-type'];
        return this.exchange.send('DELETE', 'DELETE', undefined, headers, cancelHandleOf(signal));
      },
      pump: (response, method, relatedId, signal) =>
        this.reader.pump(response, method, relatedId, cancelHandleOf(signal)),
      httpError: async (response, method) => {
        const text = await readStart(response, ERROR_BODY_BYTES);
        const type = mediaType(response.header('content-type'));
        const ok = response.status >= 200 && response.status < 300;
        return new HttpError(
          this.exchange.errorData(
            response,
            method,
            text,
            ok ? (text === '' ? 'empty-body' : 'content-type') : 'status',
            type === 'application/json' ? jsonRpcError(parseJson(text)) : undefined,
          ),
        );
      },
      emitError: (error) => this.reader.emitError(error),
    };
  }
}
