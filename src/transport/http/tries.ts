/**
 * What follows each answer within one HTTP exchange, for both HTTP transports over their two
 * response types: the one retry with a fresh proof (RFC 9449 §9 `use_dpop_nonce`), the one retry
 * with a new credential after a 401 or 403 (and the provider's attempt 3 when that one is refused
 * too), and which redirects are followed. Sending the tries is the transport's. Runtime-neutral.
 */
import { HttpAuthError, HttpError, type HttpErrorData } from '../transportErrors.js';
import type { RequestCredential } from '../transport.js';
import { authFailureOf, type AuthorizationSource } from './authorization.js';
import { safeUrl } from './body.js';
import { PinnedCredential } from './requestCredential.js';

/** What {@link ExchangeTries} reads of a response of type `R`; one per transport. */
export interface TriedResponses<R extends { readonly status: number }> {
  /** The value of header `name` (lower case); `undefined` when absent. */
  header(response: R, name: string): string | undefined;
  /** Drops the body unread. */
  discard(response: R): void | Promise<void>;
  /** The start of the body as text, for an error's excerpt. Never rejects. */
  readStart(response: R): Promise<string>;
  /** `data` of an {@link HttpError} about `response` to a message of `method`, whose body starts with `text`. */
  errorData(response: R, method: string, text: string, problem: HttpErrorData['problem']): HttpErrorData;
}

/** What one exchange is; see {@link ExchangeTries}. */
export interface ExchangeTriesOptions<R extends { readonly status: number }> {
  readonly auth: AuthorizationSource;
  readonly responses: TriedResponses<R>;
  /** The HTTP method of every try. */
  readonly httpMethod: string;
  /** The JSON-RPC method the exchange carries, as errors name it. */
  readonly method: string;
  /** The `Authorization` value of the first try. */
  readonly authorization: string | undefined;
  /** The request's credential resolved ahead, marked replaced when a retry sends another one. */
  readonly credential: RequestCredential | undefined;
  /** The signal the auth provider gets; `undefined` without a provider. */
  readonly signal: AbortSignal | undefined;
  /** Same-origin redirects followed. */
  readonly maxRedirects: number;
  /** Whether a `GET` also follows 301, 302 and 303 (307 and 308 are always followed). */
  readonly followsGetRedirects: boolean;
}

/** The state of one exchange between its tries (see the file's opening comment). */
export class ExchangeTries<R extends { readonly status: number }> {
  /** The `Authorization` value of the next try. */
  authorization: string | undefined;
  private readonly options: ExchangeTriesOptions<R>;
  private retriedAuth = false;
  private retriedProof = false;
  /** The last try carried proof headers. */
  private proved = false;
  private redirects = 0;

  constructor(options: ExchangeTriesOptions<R>) {
    this.options = options;
    this.authorization = options.authorization;
  }

  /**
   * The provider's proof headers for the next try at `url` with `headers` (see
   * `AuthorizationSource.proofHeaders`); `{}` without a provider that proves.
   * @throws InvalidArgumentError (-32602) as `AuthorizationSource.proofHeaders`; whatever the hook throws.
   */
  async proofHeaders(url: string, headers: Readonly<Record<string, string>>): Promise<Record<string, string>> {
    const { auth, signal } = this.options;
    if (signal === undefined || !auth.proves) return {};
    const proof = await auth.proofHeaders(this.options.httpMethod, url, this.authorization, headers, signal);
    this.proved = Object.keys(proof).length > 0;
    return proof;
  }

  /**
   * True when the answer `status` to the last try needs {@link next}: it carried a proof, or it
   * is a 401, a 403, a redirect (3xx, or 0 for an opaque redirect). Otherwise the response is the
   * transport's to read.
   */
  decides(status: number): boolean {
    return this.proved || status === 401 || status === 403 || status === 0 || (status >= 300 && status < 400);
  }

  /**
   * What follows `response`, the answer to the try at `url`: the URL of the next try (its body
   * dropped: a proof or credential retry at the same URL, or a redirect followed), or `undefined`
   * when the response is the transport's to read (not 401/403/3xx).
   * @throws HttpAuthError (-33011) for a 401/403 that no retry answers; HttpError (-33010,
   *   problem `redirect`, with `location`) for a redirect not followed; ModuleLoadError (-33042)
   *   when the `WWW-Authenticate` parser cannot be loaded for a 401/403; whatever the provider throws.
   */
  async next(response: R, url: string): Promise<string | undefined> {
    const { auth, responses } = this.options;
    const status = response.status;
    const proved = this.proved;
    this.proved = false;
    if (proved && auth.proofRefused(url, status, (name) => responses.header(response, name)) && !this.retriedProof) {
      // The server wants a proof with its fresh nonce (RFC 9449 §9): once more, same credential.
      this.retriedProof = true;
      await responses.discard(response);
      return url;
    }
    if (status === 401 || status === 403) return this.refused(response, status, url);
    if (status === 0 || (status >= 300 && status < 400)) return this.redirect(response, status, url);
    return undefined;
  }

  /** A 401 or 403: once more with the provider's attempt 2, else {@link HttpAuthError}. */
  private async refused(response: R, status: 401 | 403, url: string): Promise<string> {
    const { auth, responses, method, signal } = this.options;
    const refusal = authFailureOf(status, responses.header(response, 'www-authenticate'), this.authorization);
    const { failure, challenges, bearer } = refusal;
    const asksProvider = auth.provider !== undefined && signal !== undefined && failure !== 'forbidden';
    if (asksProvider && !this.retriedAuth) {
      await responses.discard(response);
      const next = await auth.value(2, refusal, signal);
      this.retriedAuth = true;
      if (next !== undefined && next !== this.authorization) {
        this.authorization = next;
        if (this.options.credential instanceof PinnedCredential) this.options.credential.markReplaced();
        return url;
      }
      throw new HttpAuthError({
        ...responses.errorData(response, method, '', 'status'),
        failure,
        challenges,
        bearer,
        retriedWithNewCredential: false,
      });
    }
    const text = await responses.readStart(response);
    if (asksProvider && this.retriedAuth) await auth.refusedAgain(refusal, signal);
    throw new HttpAuthError({
      ...responses.errorData(response, method, text, 'status'),
      failure,
      challenges,
      bearer,
      retriedWithNewCredential: this.retriedAuth,
    });
  }

  /** A redirect: its target when it is followed (same origin, within the count), else {@link HttpError}. */
  private async redirect(response: R, status: number, url: string): Promise<string> {
    const { responses, maxRedirects } = this.options;
    const location = responses.header(response, 'location');
    await responses.discard(response);
    const target = location === undefined ? undefined : safeUrl(location, url);
    const followable =
      status === 307 ||
      status === 308 ||
      (this.options.followsGetRedirects &&
        this.options.httpMethod === 'GET' &&
        (status === 301 || status === 302 || status === 303));
    if (followable && target !== undefined && target.origin === new URL(url).origin && this.redirects < maxRedirects) {
      this.redirects++;
      return target.href;
    }
    throw new HttpError({
      ...responses.errorData(response, this.options.method, '', 'redirect'),
      ...(location !== undefined && { location }),
    });
  }
}
