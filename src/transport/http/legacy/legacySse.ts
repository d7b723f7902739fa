/**
 * The deprecated HTTP+SSE transport of MCP 2024-11-05 (basic/transports, "HTTP with SSE"):
 * one long-lived `GET` whose SSE stream carries every server message, and a `POST` per client
 * message to the URI the server names in its first event, `endpoint`. mcp-live reaches it as
 * the last fallback over HTTP (spec 2026-07-28: basic/transports/streamable-http, Backward
 * Compatibility; docs/legacy.md). Runtime-neutral: `fetch`, Web Streams, `eventsource-parser`.
 */
import { ErrorCode } from '../../../errors/codes.js';
import {
  abortedError,
  ConnectionClosedError,
  InvalidArgumentError,
  LocalError,
  McpError,
  ProtocolError,
  TimeoutError,
} from '../../../errors/errors.js';
import type { JsonRpcMessage, RequestId } from '../../../wire/messages.js';
import { type Timers } from '../../../util/clock.js';
import { boundedTimers } from '../../../util/timerBounds.js';
import { linkSignals } from '../../../util/signals.js';
import type {
  RequestCredential,
  Transport,
  TransportCapabilities,
  TransportCloseInfo,
  TransportHandlers,
  TransportSendOptions,
} from '../../transport.js';
import { bodyExcerpt, HttpError, type HttpErrorData } from '../../transportErrors.js';
import type { AuthProvider } from '../auth.js';
import { AuthorizationSource } from '../authorization.js';
import { discard, ERROR_BODY_BYTES, jsonRpcError, mediaType, parseEndpointUrl, parseJson, readStart } from '../body.js';
import { messageOfEvent } from '../messageReader.js';
import { NetworkFailure } from '../networkFailure.js';
import { SseReader, type SseEvent } from '../sseReader.js';
import type { FetchLike } from '../stack.js';
import { ExchangeTries, type TriedResponses } from '../tries.js';
import { endpointOf, SseEndpointError } from './sseEndpoint.js';

/** Options for {@link LegacySseTransport}. Every field is optional. */
export interface LegacySseTransportOptions {
  /**
   * Headers sent with the `GET` and every `POST` (for example an API key). `Accept` on the
   * `GET` and `Content-Type` on a `POST` always win; `Authorization` from {@link authProvider}
   * wins over a static one.
   */
  headers?: Readonly<Record<string, string>> | Headers | undefined;
  /** The fetch implementation. @default globalThis.fetch, looked up at each call */
  fetch?: FetchLike | undefined;
  /**
   * Supplies the `Authorization` header of each `GET` and `POST`, as for
   * `StreamableHttpTransport` (attempt 2 after a 401 or a 403 `insufficient_scope`).
   */
  authProvider?: AuthProvider | undefined;
  /** Timers for the `endpoint` wait. @default the globals, looked up per call (fake-timer friendly) */
  timers?: Timers | undefined;
  /** Longest wait, in ms, from the `GET` to the `endpoint` event. @default 10000 */
  endpointTimeoutMs?: number | undefined;
  /** Longest SSE event accepted, in characters. @default 67108864 */
  maxEventChars?: number | undefined;
  /** Same-origin redirects followed per request (307/308; for the `GET` also 301-303). @default 3 */
  maxRedirects?: number | undefined;
}

/** What the transport can do: cancellation is `notifications/cancelled`; replies come on the stream. */
const CAPABILITIES: TransportCapabilities = Object.freeze({
  cancelsByAbortingSend: false,
  mirrorsToolParamHeaders: false,
  answersEveryRequest: false,
});
const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;

type State = 'new' | 'opening' | 'open' | 'closed';

/**
 * A {@link Transport} for servers that speak only the deprecated HTTP+SSE transport (MCP
 * 2024-11-05, basic/transports "HTTP with SSE"). `McpClient` over a `StreamableHttpTransport`
 * falls back to it by itself (docs/legacy.md); construct one directly for a URL known to be
 * such an SSE endpoint (then `era: "legacy"` skips the probe).
 *
 * - `start()` sends `GET` to the URL (`Accept: text/event-stream`) and resolves when the first
 *   event, `endpoint`, arrived. Its data is a URI, resolved against the SSE URL (RFC 3986);
 *   one on another origin is refused. Rejects with {@link SseEndpointError} (-32600),
 *   {@link HttpError} (-32010: a status other than 2xx, or not `text/event-stream`),
 *   {@link HttpAuthError} (-32011), `TimeoutError` (-32001: no `endpoint` within
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
 */
export class LegacySseTransport implements Transport {
  readonly serverIdentity: string;
  readonly capabilities: TransportCapabilities = CAPABILITIES;

  private readonly url: URL;
  private readonly staticHeaders: Headers;
  /** The `Authorization` of each try (static header or `authProvider`) and the credential id. */
  private readonly auth: AuthorizationSource;
  private readonly fetchImpl: FetchLike;
  private readonly timers: Timers;
  private readonly endpointTimeoutMs: number;
  private readonly maxEventChars: number | undefined;
  private readonly maxRedirects: number;
  private state: State = 'new';
  private handlers: TransportHandlers | undefined;
  /** Aborted when the transport closes, for whatever reason: ends the stream and every POST. */
  private readonly lifetime = new AbortController();
  private endpointUrl: URL | undefined;
  private onClosedHook: (() => void) | undefined;
  /** What the auth and redirect decisions read of a response (see {@link ExchangeTries}). */
  private readonly responses: TriedResponses<Response> = {
    header: (response, name) => response.headers.get(name) ?? undefined,
    discard,
    readStart: (response) => readStart(response, ERROR_BODY_BYTES),
    errorData: (response, method, text, problem) => this.errorData(response, method, text, problem),
  };

  /**
   * @param url the SSE endpoint, `http:` or `https:`, e.g. `"http://127.0.0.1:3001/sse"`.
   * @param auth @internal the `Authorization` source of a `StreamableHttpTransport` whose
   *   fallback this is (its `authProvider` and the credentials it resolved ahead of requests)
   * @throws InvalidArgumentError (-32602) for a URL that does not parse, is not HTTP(S) or holds
   *   credentials; static headers that are not valid HTTP; a bad timeout or redirect count.
   */
  constructor(url: string | URL, options: LegacySseTransportOptions = {}, auth?: AuthorizationSource) {
    const parsed = parseEndpointUrl(url);
    this.url = parsed;
    this.serverIdentity = `${parsed.origin}${parsed.pathname}`;
    try {
      this.staticHeaders = new Headers(options.headers ?? {});
    } catch (error) {
      throw new InvalidArgumentError(
        'headers',
        options.headers,
        `not valid HTTP headers: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.auth =
      auth ??
      new AuthorizationSource(
        this.url.href,
        this.staticHeaders.get('authorization') ?? undefined,
        options.authProvider,
      );
    this.timers = boundedTimers(options.timers);
    const timeout = options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0)
      throw new InvalidArgumentError('endpointTimeoutMs', timeout, 'expected a finite number of ms > 0');
    this.endpointTimeoutMs = timeout;
    this.maxEventChars = options.maxEventChars;
    const redirects = options.maxRedirects ?? 3;
    if (!Number.isInteger(redirects) || redirects < 0)
      throw new InvalidArgumentError('maxRedirects', redirects, 'expected an integer >= 0');
    this.maxRedirects = redirects;
  }

  /** The URI the server's `endpoint` event named, resolved; `undefined` until `start()` resolved. */
  get endpoint(): string | undefined {
    return this.endpointUrl?.href;
  }

  /**
   * The credential the next request would be POSTed with, as for `StreamableHttpTransport`
   * (see `Transport.credentialFor`): its `id` partitions the response cache; passed back in
   * `TransportSendOptions.credential`, the request is sent with exactly it.
   */
  credentialFor(signal?: AbortSignal): RequestCredential | Promise<RequestCredential> {
    return this.auth.pin(signal ?? this.lifetime.signal);
  }

  /**
   * Opens the stream and waits for the `endpoint` event; see the class documentation.
   * @throws LocalError (-32603) when called twice; ConnectionClosedError (-32000) after `close()`.
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
    if (this.state === 'closed')
      throw new ConnectionClosedError('GET: the HTTP+SSE transport was closed before it started', {
        reason: 'closed by client',
      });
    if (this.state !== 'new') throw new LocalError(ErrorCode.InternalError, 'LegacySseTransport.start() called twice');
    this.state = 'opening';
    this.handlers = handlers;
    if (host !== undefined) {
      this.onClosedHook = () => host.onClosed();
      if (host.closeSignal.aborted) this.detach();
      else
        host.closeSignal.addEventListener('abort', () => this.detach(), { once: true, signal: this.lifetime.signal });
    }
    const linked = linkSignals(signal, this.lifetime.signal);
    const timeout = new AbortController();
    const timer = this.timers.setTimeout(
      () => timeout.abort(new TimeoutError({ method: 'GET', timeoutMs: this.endpointTimeoutMs, kind: 'total' })),
      this.endpointTimeoutMs,
    );
    // The stream outlives this call, so it follows the transport's lifetime only; the caller's
    // signal and the timeout cut the wait for the endpoint event.
    const opening = linkSignals(linked.signal, timeout.signal);
    let events: AsyncGenerator<SseEvent, void, undefined> | undefined;
    const stream = new AbortController();
    const stopStream = () => stream.abort(this.lifetime.signal.reason);
    this.lifetime.signal.addEventListener('abort', stopStream, { once: true });
    const cutOpening = () => stream.abort(opening.signal.reason);
    opening.signal.addEventListener('abort', cutOpening, { once: true });
    try {
      const { response, url } = await this.exchange(
        'GET',
        'GET',
        this.url.href,
        undefined,
        this.getHeaders(),
        stream.signal,
      );
      const type = mediaType(response.headers.get('content-type'));
      if (response.status < 200 || response.status >= 300 || type !== 'text/event-stream' || response.body === null) {
        const text = await readStart(response, ERROR_BODY_BYTES);
        const ok = response.status >= 200 && response.status < 300;
        throw new HttpError(
          this.errorData(response, 'GET', text, ok ? (text === '' ? 'empty-body' : 'content-type') : 'status'),
        );
      }
      events = new SseReader({ maxEventChars: this.maxEventChars }).read(response.body);
      const first = await events.next();
      this.endpointUrl = endpointOf(first.done === true ? undefined : first.value, url, this.url, this.serverIdentity);
    } catch (error) {
      events?.return().catch(() => {});
      this.lifetime.signal.removeEventListener('abort', stopStream);
      stream.abort();
      const final = this.openError(error, signal, timeout.signal, opening.signal);
      this.shutDown(undefined);
      throw final;
    } finally {
      this.timers.clearTimeout(timer);
      opening.signal.removeEventListener('abort', cutOpening);
      opening.dispose();
      linked.dispose();
    }
    this.state = 'open';
    void this.listen(events);
  }

  /**
   * POSTs one message to the endpoint; see the class documentation for what resolves and what
   * rejects. `options.signal` aborts the POST (`CancelledError`, -32800); headers and
   * idempotency options are not used by this transport.
   */
  async send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    const endpoint = this.endpointUrl;
    if (this.state !== 'open' || endpoint === undefined) {
      const reason = this.state === 'closed' ? 'transport closed' : 'transport not started';
      throw new ConnectionClosedError(`cannot send: ${reason}`, { reason });
    }
    const method = 'method' in message && typeof message.method === 'string' ? message.method : '(response)';
    const id: RequestId | undefined = 'method' in message && 'id' in message ? message.id : undefined;
    let body: string;
    try {
      body = JSON.stringify(message);
    } catch (error) {
      throw new InvalidArgumentError(
        'message',
        method,
        `cannot be encoded as JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const headers = new Headers(this.staticHeaders);
    headers.set('Content-Type', 'application/json');
    const linked = linkSignals(options.signal, this.lifetime.signal);
    try {
      const { response } = await this.exchange(
        'POST',
        method,
        endpoint.href,
        body,
        headers,
        linked.signal,
        options.credential,
      );
      if (response.status >= 200 && response.status < 300) {
        // 202 Accepted (any 2xx): the reply, if any, comes on the stream.
        await discard(response);
        return;
      }
      const text = await readStart(response, ERROR_BODY_BYTES);
      const refused = new HttpError(
        this.errorData(
          response,
          method,
          text,
          'status',
          mediaType(response.headers.get('content-type')) === 'application/json'
            ? jsonRpcError(parseJson(text))
            : undefined,
        ),
      );
      if (id === undefined) this.emitError(refused);
      else throw refused;
    } catch (error) {
      const final = this.sendError(error, method, id, options.signal);
      if (
        id !== undefined ||
        this.state !== 'open' ||
        options.signal?.aborted === true ||
        final instanceof InvalidArgumentError
      )
        throw final;
      this.emitError(final);
    } finally {
      linked.dispose();
    }
  }

  /** Aborts the stream and every POST in flight, then calls `onClose` once. Idempotent. */
  close(): Promise<void> {
    if (this.state !== 'closed') this.shutDown({ reason: 'closed by client', initiatedByClient: true });
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
    if (this.state === 'closed') return;
    this.shutDown(undefined);
  }

  private deliver(data: string): void {
    const value = messageOfEvent(data, 'GET', (error) => this.emitError(error));
    if (value === undefined) return;
    try {
      this.handlers?.onMessage(value);
    } catch (error) {
      this.emitError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Reads the stream after the endpoint: `message` events go up; the end of the stream closes the transport. */
  private async listen(events: AsyncGenerator<SseEvent, void, undefined>): Promise<void> {
    let failure: unknown;
    try {
      for await (const event of events) {
        if (event.type === 'message') this.deliver(event.data);
        else if (event.type === 'endpoint')
          this.emitError(
            new ProtocolError('a second endpoint event was ignored', { method: 'GET', value: event.data }),
          );
        // Other event types (ping, keepalive...) carry nothing for JSON-RPC.
      }
    } catch (error) {
      failure = error;
    }
    if (this.state !== 'open') return;
    const reason = failure === undefined ? 'the HTTP+SSE stream ended' : 'the HTTP+SSE stream failed';
    this.shutDown({ reason, initiatedByClient: false, ...(failure !== undefined && { cause: failure }) });
  }

  /**
   * One `GET` or `POST` with its auth retry and same-origin redirects. Resolves with a response
   * that is not 401/403/3xx, and the URL that answered; throws {@link HttpAuthError},
   * {@link HttpError} (redirect), {@link NetworkFailure}, or the abort reason.
   */
  private async exchange(
    httpMethod: 'GET' | 'POST',
    method: string,
    target: string,
    body: string | undefined,
    headers: Headers,
    signal: AbortSignal,
    credential?: RequestCredential,
  ): Promise<{ response: Response; url: string }> {
    const tries = new ExchangeTries({
      auth: this.auth,
      responses: this.responses,
      httpMethod,
      method,
      authorization: await this.auth.first(credential, signal),
      credential,
      signal,
      maxRedirects: this.maxRedirects,
      followsGetRedirects: true,
    });
    let url = target;
    for (;;) {
      const requestHeaders = new Headers(headers);
      const authorization = tries.authorization;
      if (authorization !== undefined) {
        try {
          requestHeaders.set('Authorization', authorization);
        } catch {
          throw new InvalidArgumentError(
            'authorization',
            '(hidden)',
            'the Authorization value from authProvider is not a valid HTTP header value',
          );
        }
      }
      if (this.auth.proves && authorization !== undefined) {
        const sent: Record<string, string> = {};
        requestHeaders.forEach((value, name) => (sent[name] = value));
        const proof = await tries.proofHeaders(url, sent);
        for (const [name, value] of Object.entries(proof)) requestHeaders.set(name, value);
      }
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method: httpMethod,
          headers: requestHeaders,
          signal,
          redirect: 'manual',
          ...(body !== undefined && { body }),
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new NetworkFailure(error);
      }
      if (tries.decides(response.status)) {
        const next = await tries.next(response, url);
        if (next !== undefined) {
          url = next;
          continue;
        }
      }
      return { response, url };
    }
  }

  private getHeaders(): Headers {
    const headers = new Headers(this.staticHeaders);
    headers.set('Accept', 'text/event-stream');
    return headers;
  }

  /** The error `start()` rejects with. */
  private openError(
    error: unknown,
    callerSignal: AbortSignal | undefined,
    timeoutSignal: AbortSignal,
    openingSignal: AbortSignal,
  ): Error {
    if (this.lifetime.signal.aborted)
      return new ConnectionClosedError('GET: connection closed (closed by client)', { reason: 'closed by client' });
    if (callerSignal?.aborted === true) return abortedError('GET', callerSignal.reason);
    if (timeoutSignal.aborted && openingSignal.aborted) return timeoutSignal.reason as TimeoutError;
    if (error instanceof NetworkFailure) return error.toError('GET', this.serverIdentity, undefined, 'a response');
    if (McpError.is(error)) return error;
    // The body failed while the endpoint event was awaited.
    return new SseEndpointError('the SSE stream failed before the endpoint event', {
      url: this.serverIdentity,
      problem: 'missing',
      value: error instanceof Error ? error.message : String(error),
    });
  }

  /** The error a failed POST becomes. */
  private sendError(
    error: unknown,
    method: string,
    id: RequestId | undefined,
    callSignal: AbortSignal | undefined,
  ): Error {
    if (this.state !== 'open')
      return new ConnectionClosedError(
        `${method}: connection closed (${this.state === 'closed' ? 'the HTTP+SSE transport closed' : 'not open'})`,
        { reason: 'transport closed' },
      );
    if (callSignal?.aborted === true) return abortedError(method, callSignal.reason);
    if (error instanceof NetworkFailure) return error.toError(method, this.serverIdentity, id, 'the POST was accepted');
    return error instanceof Error ? error : new Error(String(error));
  }

  /** Ends everything; with `info`, reports the close to `onClose` (and to the host). */
  private shutDown(info: TransportCloseInfo | undefined): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.lifetime.abort(
      new ConnectionClosedError('HTTP+SSE transport closed', { reason: info?.reason ?? 'closed by client' }),
    );
    const handlers = this.handlers;
    this.handlers = undefined;
    if (info === undefined) return;
    try {
      handlers?.onClose(info);
    } catch {
      // A throwing onClose has nowhere left to report to.
    }
    this.onClosedHook?.();
  }

  private errorData(
    response: Response,
    method: string,
    text: string,
    problem: HttpErrorData['problem'],
    rpcError?: HttpErrorData['rpcError'],
  ): HttpErrorData {
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

  private emitError(error: Error): void {
    try {
      this.handlers?.onError(error);
    } catch {
      // A throwing onError has nowhere left to report to.
    }
  }
}
