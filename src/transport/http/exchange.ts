/**
 * One HTTP exchange of the Streamable HTTP transport: the credential of each try and the one
 * retry after a refused credential, same-origin 307/308 redirects, the retries of transient
 * failures (the transport's retry policy), and the error a failed exchange becomes. It also
 * holds the transport's lifetime: `close()` aborts every exchange in flight. What travels on the
 * exchange (envelope headers, JSON or SSE bodies) is the transport's. The tries after a refused
 * credential, a redirect or with a proof are `tries.ts`'s. Runtime-neutral.
 */
import { abortedError, ConnectionClosedError, InvalidArgumentError, McpError } from '../../errors/errors.js';
import type { JsonRpcErrorObject, RequestId } from '../../wire/messages.js';
import type { CancelHandle, RequestCredential } from '../transport.js';
import { withRetry, type RetryDecision } from '../../resilience/retry.js';
import { parseRetryAfter, type ResolvedRetryPolicy } from '../../resilience/retryPolicy.js';
import { bodyExcerpt, HttpAuthError, HttpError, type HttpErrorData } from '../transportErrors.js';
import type { AuthorizationSource } from './authorization.js';
import { ERROR_BODY_BYTES, jsonRpcError, parseJson } from './body.js';
import { crossOriginFailure } from './crossOrigin.js';
import { isRetriableConnectFailure } from './connectFailure.js';
import { NetworkFailure } from './networkFailure.js';
import { checkHeaderValue, readStart, type HttpStack, type HttpStackResponse } from './stack.js';
import { ExchangeTries, type TriedResponses } from './tries.js';

/** Statuses retried as transient (with `Retry-After`). */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** A 401, a 403 or a redirect (3xx, or 0 for an opaque one): `ExchangeTries.next` decides what follows. */
function needsTries(status: number): boolean {
  return status === 401 || status === 403 || status === 0 || (status >= 300 && status < 400);
}

/** What an {@link HttpExchange} works with; fixed for the transport's lifetime. */
export interface HttpExchangeOptions {
  /** The endpoint URL every exchange starts at. */
  readonly url: string;
  /** The endpoint as errors name it (origin and path). */
  readonly serverIdentity: string;
  readonly stack: HttpStack;
  readonly auth: AuthorizationSource;
  readonly retryPolicy: ResolvedRetryPolicy;
  /** Same-origin 307/308 redirects followed per exchange. */
  readonly maxRedirects: number;
}

/** The exchanges of one transport, and its lifetime (see the file's opening comment). */
export class HttpExchange {
  private readonly url: string;
  private readonly serverIdentity: string;
  private readonly stack: HttpStack;
  private readonly auth: AuthorizationSource;
  private readonly retryPolicy: ResolvedRetryPolicy;
  private readonly maxRedirects: number;
  /** What the auth and redirect decisions read of a response (see {@link ExchangeTries}). */
  private readonly responses: TriedResponses<HttpStackResponse> = {
    header: (response, name) => response.header(name),
    discard: (response) => response.discard(),
    readStart: (response) => readStart(response, ERROR_BODY_BYTES),
    errorData: (response, method, text, problem) =>
      this.errorData(response, method, text, problem, jsonRpcError(parseJson(text))),
  };
  private readonly closeController = new AbortController();
  /** Signals made by {@link link} that are still in use, aborted by {@link close}. */
  private readonly linked = new Set<AbortController>();

  constructor(options: HttpExchangeOptions) {
    this.url = options.url;
    this.serverIdentity = options.serverIdentity;
    this.stack = options.stack;
    this.auth = options.auth;
    this.retryPolicy = options.retryPolicy;
    this.maxRedirects = options.maxRedirects;
  }

  /** Aborted (with the close reason) once {@link close} was called. */
  get closeSignal(): AbortSignal {
    return this.closeController.signal;
  }

  /**
   * Aborts every exchange in flight with `reason`: their signals, their waits, and the requests
   * on the stack. Exchanges started later still run (the legacy session's `DELETE`).
   */
  close(reason: unknown): void {
    this.closeController.abort(reason);
    for (const controller of this.linked) controller.abort(reason);
    this.linked.clear();
    this.stack.abortAll(reason);
  }

  /**
   * One POST of a message, retried by the transport's policy while its failures are transient.
   * The first try runs outside p-retry (most POSTs succeed at once); p-retry takes over after a
   * retryable failure, with that failure as its first attempt. The retry loop loads with the
   * first such failure, before its first wait. When it cannot be loaded the POST fails as if
   * the policy stopped there: with that failure, or, when the connection could not be made
   * (nothing reached the server), with the ModuleLoadError (-33042, `data.module` `"retry"`).
   */
  post(
    method: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    idempotent: boolean,
    cancel: CancelHandle | undefined,
    credential?: RequestCredential,
  ): Promise<HttpStackResponse> {
    // A promise chain, not an async frame: every POST takes this path.
    return this.send('POST', method, body, headers, cancel, credential).catch((error: unknown) => {
      if (this.retryPolicy.retries === 0 || this.isAborted(cancel) || !classify(error, idempotent).retry) throw error;
      return this.retryPost(method, body, headers, idempotent, cancel, error, credential);
    });
  }

  /** {@link post} after a first failure that the policy retries. */
  private async retryPost(
    method: string,
    body: string,
    headers: Readonly<Record<string, string>>,
    idempotent: boolean,
    cancel: CancelHandle | undefined,
    firstFailure: unknown,
    credential: RequestCredential | undefined,
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
          return this.send('POST', method, body, headers, cancel, credential);
        },
        {
          policy: this.retryPolicy,
          signal: link.signal,
          classify: (error) => classify(error, idempotent),
        },
      );
    } finally {
      link.dispose();
    }
  }

  /**
   * One exchange (a POST; on the legacy wire also GET and DELETE), with its auth retry and
   * same-origin 307/308 redirects. Resolves with a response that is not 401/403/3xx/transient;
   * throws {@link HttpAuthError}, {@link HttpError} (3xx, transient statuses, carrying
   * `retryAfterMs`) or {@link NetworkFailure}. `credential` (a request's POST) is sent on the
   * first try when this transport resolved it ahead (`credentialFor`).
   */
  send(
    httpMethod: 'POST' | 'GET' | 'DELETE',
    method: string,
    body: string | undefined,
    headers: Readonly<Record<string, string>>,
    cancel: CancelHandle | undefined,
    credential?: RequestCredential,
  ): Promise<HttpStackResponse> {
    if (this.auth.provider === undefined)
      return this.sendOnce(httpMethod, method, body, headers, cancel, undefined, undefined);
    return this.sendWithProvider(httpMethod, method, body, headers, cancel, credential);
  }

  /** {@link send} with an `authProvider`: it gets a signal that follows `cancel` and `close()`. */
  private async sendWithProvider(
    httpMethod: 'POST' | 'GET' | 'DELETE',
    method: string,
    body: string | undefined,
    headers: Readonly<Record<string, string>>,
    cancel: CancelHandle | undefined,
    credential: RequestCredential | undefined,
  ): Promise<HttpStackResponse> {
    const link = this.link(cancel);
    try {
      return await this.sendOnce(httpMethod, method, body, headers, cancel, link.signal, credential);
    } finally {
      link.dispose();
    }
  }

  /** {@link send} with `authSignal`, the signal handed to the auth provider (present when there is one). */
  private async sendOnce(
    httpMethod: 'POST' | 'GET' | 'DELETE',
    method: string,
    body: string | undefined,
    headers: Readonly<Record<string, string>>,
    cancel: CancelHandle | undefined,
    authSignal: AbortSignal | undefined,
    credential: RequestCredential | undefined,
  ): Promise<HttpStackResponse> {
    // Without a provider the static Authorization (if any) is already in `headers`; with one, a
    // request's first try carries the credential resolved for it ahead (the cache's partition).
    const first = authSignal === undefined ? this.auth.staticValue : await this.auth.first(credential, authSignal);
    let tries: ExchangeTries<HttpStackResponse> | undefined;
    const triesOf = (): ExchangeTries<HttpStackResponse> =>
      (tries ??= new ExchangeTries({
        auth: this.auth,
        responses: this.responses,
        httpMethod,
        method,
        authorization: first,
        credential,
        signal: authSignal,
        maxRedirects: this.maxRedirects,
        followsGetRedirects: false,
      }));
    if (this.auth.proves) triesOf();
    let url = this.url;
    for (;;) {
      let requestHeaders = headers;
      const authorization = tries === undefined ? first : tries.authorization;
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
      if (tries !== undefined && this.auth.proves)
        requestHeaders = { ...requestHeaders, ...(await tries.proofHeaders(url, requestHeaders)) };
      let response: HttpStackResponse;
      try {
        response = await this.stack.send({ method: httpMethod, url, headers: requestHeaders, body, cancel });
      } catch (error) {
        if (this.isAborted(cancel)) throw this.abortReason(cancel);
        throw new NetworkFailure(error);
      }
      const status = response.status;
      if (tries === undefined ? needsTries(status) : tries.decides(status)) {
        const next = await triesOf().next(response, url);
        if (next !== undefined) {
          url = next;
          continue;
        }
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

  /**
   * True when the exchange of `cancel` is over: `cancel` aborted, or the transport closed.
   * Exchanges carry the caller's cancellation only; `close()` aborts them through the stack.
   */
  isAborted(cancel: CancelHandle | undefined): boolean {
    return cancel?.aborted === true || this.closeController.signal.aborted;
  }

  /** Why the exchange of `cancel` was aborted (see {@link isAborted}). */
  abortReason(cancel: CancelHandle | undefined): unknown {
    return cancel?.aborted === true ? cancel.reason : this.closeController.signal.reason;
  }

  /**
   * One AbortSignal that aborts with `cancel` and with `close()`, for the slow paths that need a
   * signal object (auth provider, retry waits, resumption, a legacy session set-up). `dispose()`
   * detaches it. Creating one costs more than the rest of a request, so the hot path never does.
   */
  link(cancel: CancelHandle | undefined): { signal: AbortSignal; dispose(): void } {
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

  /** `data` of an {@link HttpError} about `response` to a message of `method`. */
  errorData(
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

  /** The error a failed exchange of a message of `method` (request `id`, if one) becomes. */
  finalError(error: unknown, method: string, id: RequestId | undefined, cancel: CancelHandle | undefined): Error {
    if (this.closeController.signal.aborted) {
      return new ConnectionClosedError(
        `${method}: connection closed (closed by client)`,
        { reason: 'closed by client' },
        McpError.is(error) ? undefined : error,
      );
    }
    if (cancel?.aborted === true) return abortedError(method, cancel.reason);
    if (error instanceof NetworkFailure) {
      // A browser hides why: on a page of another origin, CORS is the likely reason.
      const blocked = error.code === undefined ? crossOriginFailure(this.url) : undefined;
      if (blocked !== undefined)
        return new ConnectionClosedError(`${method}: ${blocked}`, { reason: blocked }, error.cause);
      return error.toError(method, this.serverIdentity, id, 'a response');
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Whether a failure of an exchange may be retried, and after how long the server asked for. */
function classify(error: unknown, idempotent: boolean): RetryDecision {
  if (error instanceof NetworkFailure)
    return { retry: error.connect === undefined ? idempotent : isRetriableConnectFailure(error.connect.failure) };
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
