/**
 * The `Authorization` value of each HTTP try, from the static header or the host's
 * `authProvider`, and the credential of each request resolved ahead of it (the cache's auth
 * partition: see {@link AuthorizationSource.pin}). Shared by the Streamable HTTP and HTTP+SSE
 * transports. Runtime-neutral.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import { isPromise, type MaybePromise } from '../../util/maybePromise.js';
import type { RequestCredential } from '../transport.js';
import type { AuthChallenge, AuthFailureInfo, AuthProvider, HttpAuthFailure } from './auth.js';
import { parseChallenges, pickBearerChallenge } from './challenges.js';
import { isHeaderToken } from './headerValue.js';
import { credentialId } from './pinnedCredential.js';
import { PinnedCredential } from './requestCredential.js';

/**
 * The `Authorization` value of each HTTP try, and the credential of each request resolved ahead
 * of it ({@link pin}, for the response cache's partition).
 */
export class AuthorizationSource {
  /**
   * The credential of every request that carries the static header (or none): made at once
   * without a static header, else with the first request.
   */
  private staticPin: PinnedCredential | undefined;
  private lastValue: string | undefined;
  private lastId: string | undefined;

  /**
   * @param url the endpoint, as the provider is told it
   * @param staticValue the static `Authorization` header, if any
   * @param provider the host's per-request hook, if any
   */
  constructor(
    private readonly url: string,
    readonly staticValue: string | undefined,
    readonly provider: AuthProvider | undefined,
  ) {
    if (staticValue === undefined) this.staticPin = new PinnedCredential(this, undefined, undefined);
  }

  /**
   * The credential the next request would be sent with, asked of the provider now (attempt 1).
   * Synchronous when the provider answers synchronously (or there is none). Hand it back to
   * {@link first} to send that request with exactly this credential.
   * @throws InvalidArgumentError (-32602) as {@link value}; whatever the provider throws.
   */
  pin(signal: AbortSignal): MaybePromise<PinnedCredential> {
    if (this.provider === undefined) return this.staticPin ?? this.pinOf(this.staticValue);
    const value = this.valueNow(1, undefined, signal);
    if (isPromise(value)) return value.then((v) => this.pinOf(v));
    return this.pinOf(value);
  }

  /**
   * The value for a request's first try: the pinned one when `credential` was made here (see
   * {@link pin}), else the provider's.
   */
  first(credential: RequestCredential | undefined, signal: AbortSignal): Promise<string | undefined> {
    const pinned = PinnedCredential.valueFor(credential, this);
    return pinned !== undefined ? Promise.resolve(pinned.value) : this.value(1, undefined, signal);
  }

  /**
   * The value for one try: the provider's when it gives a non-empty one, else the static header.
   * @throws InvalidArgumentError (-32602) when the provider returns something other than a string
   *   or `undefined`; whatever the provider throws.
   */
  async value(attempt: number, failure: AuthFailureInfo | undefined, signal: AbortSignal): Promise<string | undefined> {
    return this.valueNow(attempt, failure, signal);
  }

  /**
   * Tells the provider that the credential of attempt 2 was refused too (attempt 3): it may
   * throw an error of its own that says why (e.g. `InsufficientScopeError`); what it returns is
   * ignored and never sent. Nothing without a provider.
   * @throws whatever the provider throws.
   */
  async refusedAgain(failure: AuthFailureInfo, signal: AbortSignal): Promise<void> {
    if (this.provider !== undefined) await this.provider({ url: this.url, attempt: 3, signal, failure });
  }

  /** True when the provider adds proof headers to each request (`requestProof`). */
  get proves(): boolean {
    return this.provider?.requestProof !== undefined;
  }

  /**
   * The provider's proof headers (RFC 9449 `DPoP`) for one request carrying `authorization`, to
   * add to `headers`: names lower-cased, names already in `headers` left out. `{}` without a
   * provider proof hook.
   * @throws InvalidArgumentError (-32602) for a header name or value that is not valid HTTP
   *   (the value is not shown); whatever the hook throws.
   */
  async proofHeaders(
    method: string,
    url: string,
    authorization: string | undefined,
    headers: Readonly<Record<string, string>>,
    signal: AbortSignal,
  ): Promise<Record<string, string>> {
    const proof = this.provider?.requestProof;
    if (proof === undefined || authorization === undefined) return {};
    const given = await proof.headers({ method, url, authorization, signal });
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(given)) {
      const lower = name.toLowerCase();
      if (!isHeaderToken(lower))
        throw new InvalidArgumentError('requestProof.headers()', name, 'not a valid HTTP header name');
      const checked = typeof value === 'string' ? checkProofValue(value) : undefined;
      if (checked === undefined)
        throw new InvalidArgumentError('requestProof.headers()', '(hidden)', `the value of ${lower} is not valid HTTP`);
      if (!(lower in headers)) out[lower] = checked;
    }
    return out;
  }

  /**
   * Hands the answer to a request that carried proof headers to the provider; `true` when the
   * request should go once more with a fresh proof (a `use_dpop_nonce` 401).
   */
  proofRefused(url: string, status: number, header: (name: string) => string | undefined): boolean {
    const proof = this.provider?.requestProof;
    if (proof === undefined) return false;
    try {
      return proof.response({ url, status, header });
    } catch {
      return false;
    }
  }

  /** {@link value}, synchronous when the provider is. */
  private valueNow(
    attempt: number,
    failure: AuthFailureInfo | undefined,
    signal: AbortSignal,
  ): string | undefined | Promise<string | undefined> {
    if (this.provider === undefined) return this.staticValue;
    const provided = this.provider({
      url: this.url,
      attempt,
      signal,
      ...(failure !== undefined && { failure }),
    });
    return isPromise(provided) ? provided.then((p) => this.checked(p)) : this.checked(provided);
  }

  private checked(provided: unknown): string | undefined {
    if (provided !== undefined && typeof provided !== 'string')
      throw new InvalidArgumentError('authProvider()', typeof provided, 'expected a string or undefined');
    return provided !== undefined && provided !== '' ? provided : this.staticValue;
  }

  /**
   * The credential of `value`: the static one, the last value's again (its id known), or a new
   * one (see {@link pin}).
   */
  private pinOf(value: string | undefined): MaybePromise<PinnedCredential> {
    if (value === this.staticValue && this.staticPin !== undefined) return this.staticPin;
    if (value === undefined) return new PinnedCredential(this, undefined, undefined);
    // One digest per distinct value in a row: a provider returns the same token many times.
    if (value === this.lastValue && this.lastId !== undefined) return this.pinWith(value, this.lastId);
    return this.pinWith(value, credentialId(value));
  }

  /** A credential of `value` with its `id`; the static value's is made once. */
  private pinWith(value: string, id: string): PinnedCredential {
    if (value === this.staticValue) return (this.staticPin ??= new PinnedCredential(this, value, id));
    this.lastValue = value;
    this.lastId = id;
    return new PinnedCredential(this, value, id);
  }
}

/** A header value without leading or trailing blanks, or `undefined` when it holds a control character. */
function checkProofValue(value: string): string | undefined {
  const trimmed = value.replace(/^[\t ]+|[\t ]+$/g, '');
  return trimmed === '' || /[^\t\x20-\x7e\x80-\xff]/.test(trimmed) ? undefined : trimmed;
}

/**
 * What a 401 or 403 response says about the credential `rejected`: its `WWW-Authenticate`
 * challenges, the one in the scheme of `rejected` (else the first Bearer one, else the first
 * DPoP one; see `bearerChallenge`), and the failure they name (`insufficient_scope` only for a
 * 403 with that error).
 */
export function authFailureOf(
  status: 401 | 403,
  wwwAuthenticate: string | null | undefined,
  rejected: string | undefined,
): AuthFailureInfo & { readonly challenges: AuthChallenge[] } {
  const challenges = parseChallenges(wwwAuthenticate);
  const bearer = pickBearerChallenge(challenges, rejected);
  const failure: HttpAuthFailure =
    status === 401 ? 'unauthorized' : bearer?.error === 'insufficient_scope' ? 'insufficient_scope' : 'forbidden';
  return { status, failure, challenges, bearer, rejected };
}
