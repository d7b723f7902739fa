/**
 * What a `LegacySseTransport` does once started (MCP 2024-11-05, basic/transports "HTTP with
 * SSE"): the long-lived `GET` whose SSE stream carries every server message, and a `POST` per
 * client message to the endpoint the server names in its first event. Loaded by the first
 * `start()` (or the fallback of a `StreamableHttpTransport`). Runtime-neutral: `fetch`, Web
 * Streams, `eventsource-parser`.
 */
import {
  abortedError,
  ConnectionClosedError,
  InvalidArgumentError,
  McpError,
  ProtocolError,
  TimeoutError,
} from '../../../errors/errors.js';
import type { JsonRpcMessage, RequestId } from '../../../wire/messages.js';
import type { Timers } from '../../../util/clock.js';
import { linkSignals } from '../../../util/signals.js';
import type {
  RequestCredential,
  TransportCapabilities,
  TransportCloseInfo,
  TransportHandlers,
  TransportSendOptions,
} from '../../transport.js';
import { bodyExcerpt, HttpError, type HttpErrorData } from '../../transportErrors.js';
import type { AuthorizationSource } from '../authorization.js';
import { discard, ERROR_BODY_BYTES, jsonRpcError, mediaType, parseJson, readStart } from '../body.js';
import { acceptLanguageOf } from '../languageHeaders.js';
import { NetworkFailure } from '../networkFailure.js';
import { messageOfEvent } from '../ssePump.js';
import { SseReader, type SseEvent } from '../sseReader.js';
import type { FetchLike } from '../stack.js';
import { ExchangeTries, type TriedResponses } from '../tries.js';
import { endpointOf } from './endpointEvent.js';
import { SseEndpointError } from './sseEndpoint.js';
import { SSE_CAPABILITIES } from './sseOptions.js';

/** A `LegacySseTransport`'s settings, checked by its constructor. */
export interface SseSettings {
  /** The SSE URL. */
  readonly url: URL;
  /** The SSE URL as errors name it (origin and path). */
  readonly serverIdentity: string;
  /** The static headers of the `GET` and every `POST`. */
  readonly headers: Headers;
  readonly auth: AuthorizationSource;
  readonly fetch: FetchLike;
  readonly timers: Timers;
  /** Longest wait, in ms, from the `GET` to the `endpoint` event. */
  readonly endpointTimeoutMs: number;
  /** Longest SSE event accepted, in characters. */
  readonly maxEventChars: number | undefined;
  /** Same-origin redirects followed per request. */
  readonly maxRedirects: number;
}

type State = 'new' | 'opening' | 'open' | 'closed';

/** The started transport (see the file's opening comment); one per `LegacySseTransport`. */
export class SseConnection {
  /** Cancellation is `notifications/cancelled`; replies come on the stream. */
  readonly capabilities: TransportCapabilities = SSE_CAPABILITIES;
  private readonly url: URL;
  private readonly serverIdentity: string;
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
   * @param settings the transport's, checked
   * @param lifetime aborted when the transport closes, for whatever reason: ends the stream and every POST
   */
  constructor(
    settings: SseSettings,
    private readonly lifetime: AbortController,
  ) {
    this.url = settings.url;
    this.serverIdentity = settings.serverIdentity;
    this.staticHeaders = settings.headers;
    this.auth = settings.auth;
    this.fetchImpl = settings.fetch;
    this.timers = settings.timers;
    this.endpointTimeoutMs = settings.endpointTimeoutMs;
    this.maxEventChars = settings.maxEventChars;
    this.maxRedirects = settings.maxRedirects;
  }

  /** The URI the server's `endpoint` event named, resolved; `undefined` until {@link open} resolved. */
  get endpoint(): string | undefined {
    return this.endpointUrl?.href;
  }

  /**
   * Opens the stream and waits for the `endpoint` event (see `LegacySseTransport.start`), with
   * the caller's `signal` (its abort rejects with `CancelledError`, -32800) and, for a fallback
   * inside another transport, that transport's close.
   */
  async open(
    handlers: TransportHandlers,
    signal: AbortSignal | undefined,
    host: { closeSignal: AbortSignal; onClosed(): void } | undefined,
  ): Promise<void> {
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

  /** POSTs one message to the endpoint (see `LegacySseTransport.send`). */
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
    // The language preference as `Accept-Language`, as on the Streamable HTTP wires (SEP-2792, a draft).
    const language = 'method' in message ? acceptLanguageOf(message.params?.['_meta']) : undefined;
    if (language !== undefined) headers.set('Accept-Language', language);
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

  /**
   * Ends the stream without calling `onClose`: the host transport (or a failed handshake that
   * leaves the fallback) reports the close itself. Idempotent.
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
