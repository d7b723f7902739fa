/**
 * The `Authorization` value of each HTTP try, from the static header or the host's
 * `authProvider`, and the opaque id of the credential last sent (the cache's auth partition).
 * Shared by the Streamable HTTP and HTTP+SSE transports. Runtime-neutral.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import type { AuthChallenge, AuthFailureInfo, AuthProvider, HttpAuthFailure } from './auth.js';
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

  private note(value: string): void {
    if (this.last?.value !== value) this.last = { value, id: credentialId(value) };
  }
}

/**
 * What a 401 or 403 response says about the credential `rejected`: its `WWW-Authenticate`
 * challenges, the first Bearer one, and the failure they name (`insufficient_scope` only for a
 * 403 with that Bearer error).
 */
export function authFailureOf(
  status: 401 | 403,
  wwwAuthenticate: string | null | undefined,
  rejected: string | undefined,
): AuthFailureInfo & { readonly challenges: AuthChallenge[] } {
  const challenges = parseWwwAuthenticate(wwwAuthenticate);
  const bearer = bearerChallenge(challenges);
  const failure: HttpAuthFailure =
    status === 401 ? 'unauthorized' : bearer?.error === 'insufficient_scope' ? 'insufficient_scope' : 'forbidden';
  return { status, failure, challenges, bearer, rejected };
}
