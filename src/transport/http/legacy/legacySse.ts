/**
 * The deprecated HTTP+SSE transport of MCP 2024-11-05 (basic/transports, "HTTP with SSE"):
 * one long-lived `GET` whose SSE stream carries every server message, and a `POST` per client
 * message to the URI the server names in its first event, `endpoint`. mcp-live reaches it as
 * the last fallback over HTTP (spec 2026-07-28: basic/transports/streamable-http, Backward
 * Compatibility; docs/legacy.md). This class checks its options and forwards to the connection
 * (`sseConnection.lazy.ts`) that its first `start()` loads. Runtime-neutral.
 */
import { ErrorCode } from '../../../errors/codes.js';
import { ConnectionClosedError, InvalidArgumentError, LocalError } from '../../../errors/errors.js';
import { onDemand } from '../../../errors/moduleLoad.js';
import type { JsonRpcMessage } from '../../../wire/messages.js';
import { boundedTimers } from '../../../util/timerBounds.js';
import type {
  RequestCredential,
  Transport,
  TransportCapabilities,
  TransportHandlers,
  TransportSendOptions,
} from '../../transport.js';
import { AuthorizationSource } from '../authorization.js';
import { parseEndpointUrl } from '../body.js';
import { endpointIdentity } from '../../endpointIdentity.js';
import type { SseConnection, SseSettings } from './sseConnection.lazy.js';
import {
  DEFAULT_ENDPOINT_TIMEOUT_MS,
  DEFAULT_MAX_REDIRECTS,
  SSE_CAPABILITIES,
  type LegacySseTransportOptions,
} from './sseOptions.js';

/** The stream and the POSTs, loaded by the first `start()`. */
const loadSseConnection = onDemand('http-sse', () => import('./sseConnection.lazy.js'));

/**
 * A {@link Transport} for servers that speak only the deprecated HTTP+SSE transport (MCP
 * 2024-11-05, basic/transports "HTTP with SSE"). `McpClient` over a `StreamableHttpTransport`
 * falls back to it by itself (docs/legacy.md); construct one directly for a URL known to be
 * such an SSE endpoint (then `era: "legacy"` skips the probe).
 *
 * - `start()` sends `GET` to the URL (`Accept: text/event-stream`) and resolves when the first
 *   event, `endpoint`, arrived. Its data is a URI, resolved against the SSE URL (RFC 3986);
 *   one on another origin is refused. Rejects with {@link SseEndpointError} (-32600),
 *   {@link HttpError} (-33010: a status other than 2xx, or not `text/event-stream`),
 *   {@link HttpAuthError} (-33011), `TimeoutError` (-32001: no `endpoint` within
 *   `endpointTimeoutMs`), `ConnectionClosedError` (-32000: unreachable, or closed meanwhile).
 * - Server messages arrive as `message` events on that stream, in order; other event types are
 *   ignored, and data that is not a JSON-RPC object goes to `onError` as a `ProtocolError`.
 * - `send()` POSTs one message (`Content-Type: application/json`) to the endpoint and resolves
 *   on any 2xx (the spec's 202 Accepted; the body is never read: replies come on the stream).
 *   A request whose POST is refused rejects with `HttpError`; a refused notification or
 *   response goes to `onError`. No retries: the stream is the connection.
 * - Cancellation ({@link capabilities}.cancelsByAbortingSend is false): the session POSTs
 *   `notifications/cancelled`.
 * - The stream ending or failing closes the transport: `onClose` with `initiatedByClient:
 *   false`, so every pending request fails with `ConnectionClosedError` (-32000).
 * - `close()` aborts the stream and every POST in flight. The old transport has no session to
 *   end, so nothing else is sent.
 *
 * What runs the stream and the POSTs (`sseConnection.lazy.ts`, with the SSE parser) loads in the
 * first `start()`: when it cannot be loaded, `start()` rejects with `ModuleLoadError` (-33042)
 * and the transport is closed.
 */
export class LegacySseTransport implements Transport {
  readonly serverIdentity: string;
  readonly capabilities: TransportCapabilities = SSE_CAPABILITIES;

  /** The `Authorization` of each try (static header or `authProvider`) and the credential id. */
  private readonly auth: AuthorizationSource;
  private readonly settings: SseSettings;
  /** Aborted when the transport closes, for whatever reason: ends the stream and every POST. */
  private readonly lifetime = new AbortController();
  /** `opening` while the connection's code loads; the connection has the state after that. */
  private state: 'new' | 'opening' | 'closed' = 'new';
  private handlers: TransportHandlers | undefined;
  /** Made once its code is loaded, in the first `start()`. */
  private connection: SseConnection | undefined;

  /**
   * @param url the SSE endpoint, `http:` or `https:`, e.g. `"http://127.0.0.1:3001/sse"`.
   * @param auth @internal the `Authorization` source of a `StreamableHttpTransport` whose
   *   fallback this is (its `authProvider` and the credentials it resolved ahead of requests)
   * @throws InvalidArgumentError (-32602) for a URL that does not parse, is not HTTP(S) or holds
   *   credentials; static headers that are not valid HTTP; a bad timeout or redirect count.
   */
  constructor(url: string | URL, options: LegacySseTransportOptions = {}, auth?: AuthorizationSource) {
    const parsed = parseEndpointUrl(url);
    this.serverIdentity = endpointIdentity(parsed);
    let headers: Headers;
    try {
      headers = new Headers(options.headers ?? {});
    } catch (error) {
      throw new InvalidArgumentError(
        'headers',
        options.headers,
        `not valid HTTP headers: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    this.auth =
      auth ?? new AuthorizationSource(parsed.href, headers.get('authorization') ?? undefined, options.authProvider);
    const timeout = options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0)
      throw new InvalidArgumentError('endpointTimeoutMs', timeout, 'expected a finite number of ms > 0');
    const redirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    if (!Number.isInteger(redirects) || redirects < 0)
      throw new InvalidArgumentError('maxRedirects', redirects, 'expected an integer >= 0');
    this.settings = {
      url: parsed,
      serverIdentity: this.serverIdentity,
      headers,
      auth: this.auth,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      timers: boundedTimers(options.timers),
      endpointTimeoutMs: timeout,
      maxEventChars: options.maxEventChars,
      maxRedirects: redirects,
    };
  }

  /** The URI the server's `endpoint` event named, resolved; `undefined` until `start()` resolved. */
  get endpoint(): string | undefined {
    return this.connection?.endpoint;
  }

  /**
   * The credential the next request would be POSTed with, as for `StreamableHttpTransport`
   * (see `Transport.credentialFor`): its `id` partitions the response cache; passed back in
   * `TransportSendOptions.credential`, the request is sent with exactly it. Synchronous as
   * there, and with the same errors.
   */
  credentialFor(signal?: AbortSignal): RequestCredential | Promise<RequestCredential> {
    return this.auth.pin(signal ?? this.lifetime.signal);
  }

  /**
   * Opens the stream and waits for the `endpoint` event; see the class documentation.
   * @throws LocalError (-32603) when called twice; ConnectionClosedError (-32000) after `close()`;
   *   ModuleLoadError (-33042) when the transport's code cannot be loaded.
   */
  start(handlers: TransportHandlers): Promise<void> {
    return this.open(handlers, undefined, undefined);
  }

  /**
   * @internal `start()` with the caller's `signal` (its abort rejects with `CancelledError`,
   * -32800) and, for a fallback inside another transport, that transport's close.
   */
  async open(
    handlers: TransportHandlers,
    signal: AbortSignal | undefined,
    host: { closeSignal: AbortSignal; onClosed(): void } | undefined,
  ): Promise<void> {
    if (this.state === 'closed' || this.lifetime.signal.aborted)
      throw new ConnectionClosedError('GET: the HTTP+SSE transport was closed before it started', {
        reason: 'closed by client',
      });
    if (this.state !== 'new') throw new LocalError(ErrorCode.InternalError, 'LegacySseTransport.start() called twice');
    this.state = 'opening';
    this.handlers = handlers;
    let module: Awaited<ReturnType<typeof loadSseConnection>>;
    try {
      module = await loadSseConnection();
    } catch (error) {
      this.shutDown();
      throw error;
    }
    // Closed (or detached) while the code loaded.
    if (this.lifetime.signal.aborted)
      throw new ConnectionClosedError('GET: connection closed (closed by client)', { reason: 'closed by client' });
    this.connection = new module.SseConnection(this.settings, this.lifetime);
    this.handlers = undefined;
    return this.connection.open(handlers, signal, host);
  }

  /**
   * POSTs one message to the endpoint; see the class documentation for what resolves and what
   * rejects. `options.signal` aborts the POST (`CancelledError`, -32800); headers and
   * idempotency options are not used by this transport.
   */
  send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.connection !== undefined) return this.connection.send(message, options);
    const reason = this.state === 'closed' ? 'transport closed' : 'transport not started';
    return Promise.reject(new ConnectionClosedError(`cannot send: ${reason}`, { reason }));
  }

  /** Aborts the stream and every POST in flight, then calls `onClose` once. Idempotent. */
  close(): Promise<void> {
    if (this.connection !== undefined) return this.connection.close();
    const handlers = this.state === 'opening' ? this.handlers : undefined;
    this.shutDown();
    try {
      handlers?.onClose({ reason: 'closed by client', initiatedByClient: true });
    } catch {
      // A throwing onClose has nowhere left to report to.
    }
    return Promise.resolve();
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * @internal Ends the stream without calling `onClose`: the host transport (or a failed
   * handshake that leaves the fallback) reports the close itself. Idempotent.
   */
  detach(): void {
    if (this.connection !== undefined) this.connection.detach();
    else this.shutDown();
  }

  /** Before the connection exists: closed for good. */
  private shutDown(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.handlers = undefined;
    this.lifetime.abort(new ConnectionClosedError('HTTP+SSE transport closed', { reason: 'closed by client' }));
  }
}
