/**
 * The `Authorization` value of each HTTP try, from the static header or the host's
 * `authProvider`, and the opaque id of the credential last sent (the cache's auth partition).
 * Shared by the Streamable HTTP and HTTP+SSE transports. Runtime-neutral.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import type { AuthChallenge, AuthFailureInfo, AuthProvider, HttpAuthFailure } from './auth.js';
import { isHeaderToken } from './headerValue.js';
import { bearerChallenge, parseWwwAuthenticate } from './wwwAuthenticate.js';

/** An opaque, stable id of a credential value: 32 hex digits of a domain-separated SHA-256. */
export function credentialId(value: string): string {
  return `credential:${bytesToHex(sha256(utf8ToBytes(`mcp-live/authorization\u0000${value}`))).slice(0, 32)}`;
}

/**
 * The `Authorization` value of each HTTP try, and the opaque id of the credential last sent (the
 * cache's auth partition, see {@link credentialId}). Shared by the Streamable HTTP and HTTP+SSE
 * transports.
 */
export class AuthorizationSource {
  private last: { readonly value: string; readonly id: string } | undefined;

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
    if (staticValue !== undefined) this.note(staticValue);
  }

  /** `"credential:<32 hex>"` of the credential last sent (or the static one); never the value. */
  get id(): string | undefined {
    return this.last?.id;
  }

  /**
   * The value for one try: the provider's when it gives a non-empty one, else the static header.
   * @throws InvalidArgumentError (-32602) when the provider returns something other than a string
   *   or `undefined`; whatever the provider throws.
   */
  async value(attempt: number, failure: AuthFailureInfo | undefined, signal: AbortSignal): Promise<string | undefined> {
    let value = this.staticValue;
    if (this.provider !== undefined) {
      const provided = await this.provider({
        url: this.url,
        attempt,
        signal,
        ...(failure !== undefined && { failure }),
      });
      if (provided !== undefined && typeof provided !== 'string')
        throw new InvalidArgumentError('authProvider()', typeof provided, 'expected a string or undefined');
      if (provided !== undefined && provided !== '') value = provided;
    }
    if (value !== undefined) this.note(value);
    return value;
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

  private note(value: string): void {
    if (this.last?.value !== value) this.last = { value, id: credentialId(value) };
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
  const challenges = parseWwwAuthenticate(wwwAuthenticate);
  const bearer = bearerChallenge(challenges, rejected);
  const failure: HttpAuthFailure =
    status === 401 ? 'unauthorized' : bearer?.error === 'insufficient_scope' ? 'insufficient_scope' : 'forbidden';
  return { status, failure, challenges, bearer, rejected };
}
