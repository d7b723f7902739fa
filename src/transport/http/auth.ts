/**
 * What the HTTP transports tell an `authProvider` hook and what it answers: the request it
 * authorizes, and the server's refusal of the previous credential (the `WWW-Authenticate`
 * challenges, RFC 9110 §11.6.1, and what a 401 or 403 means). Types only, and a leaf: it imports
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
  /** The first Bearer challenge's parameters (`resourceMetadata`, `scope`, `error`...). */
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
 * `failure.rejected` (or `undefined`) ends the request with `HttpAuthError` (-32011). Concurrent
 * refreshes are the provider's to merge (compare `failure.rejected` with its current token).
 */
export type AuthProvider = (info: AuthRequestInfo) => Promise<string | undefined> | string | undefined;
