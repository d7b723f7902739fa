/**
 * What the HTTP transports tell an `authProvider` hook and what it answers: the request it
 * authorizes, the server's refusal of the previous credential (the `WWW-Authenticate`
 * challenges, RFC 9110 §11.6.1, and what a 401 or 403 means), and the proof-of-possession hook
 * (a DPoP proof per request, RFC 9449 §7.1, and the server's `DPoP-Nonce`, §9). Types only, and a leaf: it imports
 * nothing, so every HTTP file (and `src/auth/`) can name them without an import circle.
 */

/** One challenge of a `WWW-Authenticate` header. */
export interface AuthChallenge {
  /** The auth scheme as sent, e.g. `"Bearer"`. Compare case-insensitively. */
  readonly scheme: string;
  /**
   * Auth parameters by lower-cased name, with quoted strings unescaped. The first occurrence
   * of a repeated name wins.
   */
  readonly params: Readonly<Record<string, string>>;
  /** The token68 form (`Basic dXNlcg==`), when the challenge used it instead of parameters. */
  readonly token68?: string | undefined;
}

/** The parameters of a Bearer challenge that an MCP client acts on. */
export interface BearerChallenge {
  /** `resource_metadata`: URL of the protected resource metadata (RFC 9728 §5.1). */
  readonly resourceMetadata?: string | undefined;
  /** `scope`: space-separated scopes the resource needs (RFC 6750 §3). */
  readonly scope?: string | undefined;
  /** `error`: `invalid_token`, `insufficient_scope`, `invalid_request`... */
  readonly error?: string | undefined;
  /** `error_description`: human-readable text from the server. */
  readonly errorDescription?: string | undefined;
  /** `realm`, when given. */
  readonly realm?: string | undefined;
}

/** What a 401 or 403 means, from the status and the Bearer `error` parameter. */
export type HttpAuthFailure = 'unauthorized' | 'insufficient_scope' | 'forbidden';

/**
 * Why the server refused the credential of the previous attempt: passed on `attempt: 2`, and on
 * `attempt: 3` when the credential of attempt 2 was refused too (the provider may throw its own
 * error then; its return value is ignored).
 */
export interface AuthFailureInfo {
  /** 401 or 403. */
  readonly status: 401 | 403;
  /** `unauthorized` (401), `insufficient_scope` (403 with that Bearer error), `forbidden`. */
  readonly failure: HttpAuthFailure;
  /** Every `WWW-Authenticate` challenge, parsed. */
  readonly challenges: readonly AuthChallenge[];
  /**
   * The Bearer challenge's parameters (`resourceMetadata`, `scope`, `error`...); the `DPoP`
   * challenge's when the refused credential was a DPoP one or there is no Bearer challenge.
   */
  readonly bearer: BearerChallenge | undefined;
  /** The `Authorization` value the server refused (compare it with the current one). */
  readonly rejected: string | undefined;
}

/** What {@link AuthProvider} is told about the request it authorizes. */
export interface AuthRequestInfo {
  /** The endpoint URL the request goes to. */
  readonly url: string;
  /**
   * 1 for a request's first try; 2 after the server refused the credential of try 1 with 401
   * (or 403 `insufficient_scope`). There is never a third: a second refusal fails the request.
   */
  readonly attempt: number;
  /** Present on attempt 2: what the server said. */
  readonly failure?: AuthFailureInfo | undefined;
  /** Aborted when the request is cancelled or the transport closes. */
  readonly signal: AbortSignal;
}

/**
 * Returns the `Authorization` header value for one HTTP request (e.g. `"Bearer <token>"`), or
 * `undefined` for none. Called before every POST, so it should return a cached token quickly.
 * On `attempt: 2` it may refresh the token or run a step-up flow; returning the same value as
 * `failure.rejected` (or `undefined`) ends the request with `HttpAuthError` (-33011). Concurrent
 * refreshes are the provider's to merge (compare `failure.rejected` with its current token).
 * A plain function is an `AuthProvider`; `requestProof` adds proof of possession (DPoP).
 */
export interface AuthProvider {
  (info: AuthRequestInfo): Promise<string | undefined> | string | undefined;
  /** Per-request proof headers for the credential it returns (RFC 9449 DPoP); see {@link RequestProof}. */
  readonly requestProof?: RequestProof | undefined;
}

/** One HTTP request a proof is made for. */
export interface ProofRequest {
  /** The HTTP method: `POST`, `GET` or `DELETE`. */
  readonly method: string;
  /** The URL the request goes to, after same-origin redirects, query included. */
  readonly url: string;
  /** The `Authorization` value the request carries (e.g. `"DPoP <token>"`). */
  readonly authorization: string;
  /** Aborted when the request is cancelled or the transport closes. */
  readonly signal: AbortSignal;
}

/** The server's answer to a request that carried proof headers. */
export interface ProofResponse {
  /** The URL the request went to. */
  readonly url: string;
  /** The HTTP status. */
  readonly status: number;
  /** A response header by lower-case name; `undefined` when absent. */
  readonly header: (name: string) => string | undefined;
}

/**
 * Proof of possession for each HTTP request (RFC 9449 DPoP). When an `AuthProvider` has this
 * property, the transport calls `headers()` before every request that carries the provider's
 * `Authorization` value (retries and redirects included, so each gets a fresh proof) and
 * `response()` with every answer to such a request. When `response()` returns `true` for a 401,
 * the transport sends the request once more, with the same `Authorization` and a new proof;
 * a second such answer is an ordinary 401.
 */
export interface RequestProof {
  /**
   * The headers that bind `request` to its credential, e.g. `{ dpop: "<proof JWT>" }`; `{}` for
   * none. Names are compared case-insensitively; a name the transport already sends
   * (`Authorization`, `Content-Type`, the MCP headers) is ignored.
   * @throws whatever fails; the request then fails with it.
   */
  headers(request: ProofRequest): Promise<Readonly<Record<string, string>>>;
  /**
   * Reads the server's answer (a new nonce in `DPoP-Nonce`). Returns `true` when the server
   * refused the proof only because it wants a fresh nonce (401 with a `DPoP`
   * `error="use_dpop_nonce"` challenge and a `DPoP-Nonce`). Never throws.
   */
  response(response: ProofResponse): boolean;
}
