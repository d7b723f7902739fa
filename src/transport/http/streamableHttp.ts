/**
 * The Streamable HTTP transport of MCP 2026-07-28 (basic/transports/streamable-http): one POST
 * per message, the reply as one JSON object or as an SSE stream scoped to the request,
 * cancellation by closing that stream. Runtime-neutral (Node 20+, browsers, Deno, Bun): HTTP goes
 * through an {@link HttpStack}, `fetch` here; `mcp-live/node` plugs in `node:http`.
 */
import { ErrorCode } from '../../errors/codes.js';
import { ConnectionClosedError, InvalidArgumentError, LocalError } from '../../errors/errors.js';
import { onDemand } from '../../errors/moduleLoad.js';
import type { JsonRpcMessage } from '../../wire/messages.js';
import { type Timers } from '../../util/clock.js';
import { boundedTimers } from '../../util/timerBounds.js';
import { resolveRetryPolicy } from '../../resilience/retryPolicy.js';
import type {
  LegacyWireControl,
  RequestCredential,
  Transport,
  TransportCapabilities,
  TransportHandlers,
  TransportLink,
  TransportLinkDeps,
  TransportSendOptions,
} from '../transport.js';
import { AuthorizationSource } from './authorization.js';
import { parseEndpointUrl } from './body.js';
import { envelopeHeaders, POST_HEADERS } from './envelope.js';
import { HttpExchange } from './exchange.js';
import { httpLinks } from './requestLinks.js';
import { resolveLegacyHttpOptions, type ResolvedLegacyHttpOptions } from './legacy/legacyHttp.js';
import type { SseConnection } from './legacy/sseConnection.lazy.js';
import type { LegacyHttpWire, LegacyWireDeps } from './legacy/legacyWire.lazy.js';
import { MessagePoster } from './messagePost.js';
import { MessageReader } from './messageReader.js';
import { fetchStack, normalizeHeaders, type FetchLike, type HttpStack } from './stack.js';
import type { StreamableHttpTransportOptions } from './streamableHttpOptions.js';
import { endpointIdentity } from '../endpointIdentity.js';

/**
 * The legacy wire's code (the 2025-11-25 session, and the HTTP+SSE fallback at the same URL),
 * loaded when the client enters it.
 */
const loadLegacyWire = onDemand('legacy-http', () => import('./legacy/legacyWire.lazy.js'));

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
 *   `onMessage`, and rejects when it cannot: {@link HttpError} (-33010), {@link HttpAuthError}
 *   (-33011), {@link StreamBrokenError} (-33012, outcome unknown), `ProtocolError` (-32600 /
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
 * it rejects with `SessionExpiredError` (-33014) after dropping it; JSON-RPC responses to
 * server requests are POSTed like notifications; cancellation is `notifications/cancelled`
 * plus closing the stream; a response stream that ends early after an event `id` is resumed
 * with `GET` + `Last-Event-ID` after the SSE `retry` delay; the optional standalone GET stream
 * is opened after the handshake (405 = none; other refusals retried a few times with backoff,
 * never fatal); `close()` sends `DELETE`. See {@link LegacyHttpOptions}. From that 404 (or the
 * start of a new `initialize`) until the new session is negotiated, other messages wait and
 * then carry the new session id; if the new session cannot be set up, they reject with the
 * same error (the owner, e.g. `McpClient`, is expected to start the new session).
 *
 * Loaded on first use: the SSE reader with the first `text/event-stream` response; the legacy
 * wire's code when the client enters it (`legacyWire.enter()`), before its first message goes
 * out; the deprecated HTTP+SSE transport's when the client falls back to it. A part that cannot
 * be loaded fails the message that needed it with `ModuleLoadError` (-33042), but for the SSE
 * reader: a request whose SSE response cannot be read was delivered, so it fails as a broken
 * stream (`StreamBrokenError`, -33012, outcome unknown) with that error as its cause.
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
  /** POSTs each message and reads its answer. */
  private readonly poster: MessagePoster;
  private readonly timers: Timers;
  private readonly maxEventChars: number | undefined;
  private state: State = 'new';
  private handlers: TransportHandlers | undefined;
  private readonly legacyOptions: ResolvedLegacyHttpOptions;
  /**
   * Set from `legacyWire.enter()` to `leave()`: the load of the legacy wire's code, which
   * messages wait for until {@link legacy} is set.
   */
  private legacyLoad: Promise<unknown> | undefined;
  /** The legacy wire, once its code loaded (while {@link legacyLoad} is set). */
  private legacy: LegacyHttpWire | undefined;
  /** Set after the fallback to the deprecated HTTP+SSE transport (legacySse.ts): every message goes through it. */
  private sse: SseConnection | undefined;

  /** `1.1` on the `node:http` stack (`mcp-live/node`); unset on `fetch`, which does not say. */
  get networkProtocolVersion(): string | undefined {
    return this.stack.protocolVersion;
  }

  /**
   * The links this transport brings to its client (`Transport.links`): the legacy session's
   * renewal after `SessionExpiredError`, then the `Mcp-Param-*` headers of each `tools/call`
   * (while on the 2026-07-28 wire), in that order after the client's `logging` link.
   */
  links(deps: TransportLinkDeps): readonly TransportLink[] {
    return httpLinks(deps, () => this.capabilities.mirrorsToolParamHeaders === true);
  }

  /** Switches to the legacy wire around the client's `initialize` handshake (see the class documentation). */
  readonly legacyWire: LegacyWireControl = {
    enter: () => {
      if (this.legacy !== undefined) return this.legacy.enter();
      const loaded = loadLegacyWire.value;
      if (loaded !== undefined) {
        this.legacy = new loaded.LegacyHttpWire(this.legacyHost());
        this.legacyLoad = Promise.resolve();
        return;
      }
      const load: Promise<unknown> = loadLegacyWire().then((module) => {
        if (this.legacyLoad === load) this.legacy = new module.LegacyHttpWire(this.legacyHost());
      });
      this.legacyLoad = load;
      // A failed load rejects the messages that wait for it; the owner then leaves the legacy wire.
      load.catch(() => {});
    },
    // The calls below follow the first legacy message (`initialize`), which waited for the load.
    negotiated: (protocolVersion) => this.legacy?.negotiated(protocolVersion),
    failed: (error) => this.legacy?.failed(error),
    ready: () => (this.sse === undefined ? this.legacy?.ready() : undefined),
    sessionId: () => this.legacy?.sessionId,
    leave: () => {
      this.legacyLoad = undefined;
      this.legacy?.leave();
      this.legacy = undefined;
      this.sse?.detach();
      this.sse = undefined;
    },
    openSse: async (signal) => {
      const { openSseFallback } = await loadLegacyWire();
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
    return this.legacyLoad === undefined ? MODERN_CAPABILITIES : LEGACY_CAPABILITIES;
  }

  /**
   * @param url the MCP endpoint, `http:` or `https:`, e.g. `"https://example.com/mcp"`.
   * @throws InvalidArgumentError (code -32602) for a URL that does not parse, is not HTTP(S)
   *   or holds credentials; for static headers that are not valid HTTP; for a bad retry policy.
   */
  constructor(url: string | URL, options: StreamableHttpTransportOptions = {}) {
    const parsed = parseEndpointUrl(url);
    this.url = parsed.href;
    this.serverIdentity = endpointIdentity(parsed);
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
    this.poster = new MessagePoster({
      exchange: this.exchange,
      reader: this.reader,
      maxBodyBytes: maxBody,
      session: () => this.legacy,
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
   * (see `Transport.credentialFor`): the `authProvider` is asked for its first try, else the
   * static `Authorization` header is used. Its `id` is `"credential:<32 hex>"`, the first 128
   * bits of a domain-separated SHA-256 of the value (never the value), or `undefined` without a
   * credential. Synchronous when the provider answers synchronously (or there is none). Passed back in
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
   * allows retrying it after a connection reset or a 502/503/504. On the legacy wire, the
   * first message waits for the legacy wire's code to load (`ModuleLoadError`, -33042, when it
   * cannot be).
   */
  send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.sse !== undefined && this.state === 'open') return this.sse.send(message, options);
    if (this.state !== 'open') {
      const reason = this.state === 'new' ? 'transport not started' : 'transport closed';
      return Promise.reject(new ConnectionClosedError(`cannot send: ${reason}`, { reason }));
    }
    const legacyLoad = this.legacyLoad;
    if (legacyLoad !== undefined && (!('method' in message) || typeof message.method === 'string')) {
      if (this.legacy !== undefined) return this.legacy.send(message, options);
      // The legacy wire's code is still loading: the message goes once it is there.
      return legacyLoad.then(() => this.send(message, options));
    }
    if (!('method' in message) || typeof message.method !== 'string') {
      return Promise.reject(
        new InvalidArgumentError(
          'message',
          message,
          'Streamable HTTP carries only requests and notifications from the client',
        ),
      );
    }
    let headers: Record<string, string>;
    try {
      headers = envelopeHeaders(message.method, message.params, options.headers, this.staticHeaders, this.postHeaders);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.poster.send(message, headers, options);
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

  /** What the legacy wire borrows of this transport. */
  private legacyHost(): LegacyWireDeps {
    return {
      exchange: this.exchange,
      reader: this.reader,
      poster: this.poster,
      postHeaders: this.postHeaders,
      options: this.legacyOptions,
      timers: this.timers,
      send: (message, options) => this.send(message, options),
    };
  }
}
