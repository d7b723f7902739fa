/**
 * Errors of the OAuth 2.1 authorization flow (spec: basic/authorization). All are local errors
 * (`local: true`); their codes sit in the implementation-defined sub-range next to mcp-live's
 * other local codes (the MCP spec reserves -32020..-32099 for itself). Runtime-neutral.
 */
import { ErrorCode } from '../errors/codes.js';
import { LocalError, McpError } from '../errors/errors.js';

/** Local codes of the authorization errors. */
export const AuthErrorCode = {
  /** {@link OAuthError}: discovery, registration, the authorization response or a token request failed. */
  AuthorizationFailed: ErrorCode.AuthorizationFailed,
  /** {@link InsufficientScopeError}: the server keeps refusing for lack of scope; re-authorizing cannot fix it. */
  InsufficientScope: ErrorCode.InsufficientScope,
  /** {@link AuthorizationRequiredError}: the user must authorize in a browser and no redirect handler can run it. */
  AuthorizationRequired: ErrorCode.AuthorizationRequired,
} as const;

/** What went wrong in an {@link OAuthError}. */
export type OAuthFailure =
  /** No protected resource metadata (RFC 9728) or authorization server metadata (RFC 8414 / OIDC Discovery) at any candidate URL. */
  | 'metadata-not-found'
  /** A metadata document that is not JSON, or lacks a required field. */
  | 'metadata-invalid'
  /** The protected resource metadata names another resource than the server this provider is for (RFC 9728 §3.3, RFC 8707). */
  | 'resource-mismatch'
  /** The authorization server metadata's `issuer` is not exactly the issuer its URL was built from (RFC 8414 §3.3). */
  | 'issuer-mismatch'
  /** The authorization server does not list `S256` in `code_challenge_methods_supported` (MCP: refuse to proceed). */
  | 'pkce-unsupported'
  /** An authorization server endpoint over plain `http:` that is not on a loopback host. */
  | 'insecure-endpoint'
  /** No client identity: no matching pre-registered client, no Client ID Metadata Document support, no registration endpoint. */
  | 'no-client-identity'
  /** Dynamic Client Registration (RFC 7591) was refused or answered with something unusable. */
  | 'registration-failed'
  /** The redirect handler returned a URL that is not the redirect URL, or one whose `state` no pending authorization has. */
  | 'invalid-callback'
  /** The authorization response's `state` is missing or differs from the one sent. */
  | 'state-mismatch'
  /** The authorization response's `iss` differs from the recorded issuer (RFC 9207 §2.4; exact string comparison). */
  | 'iss-mismatch'
  /** The server advertises `authorization_response_iss_parameter_supported` and the response has no `iss` (RFC 9207 §2.4). */
  | 'iss-missing'
  /** The authorization server answered the authorization request with an error (`data.error`, e.g. `access_denied`). */
  | 'authorization-denied'
  /** The token endpoint refused (`data.error`, e.g. `invalid_grant`) or answered with something unusable. */
  | 'token-request-failed'
  /** The token endpoint issued a token type this client does not present: not `Bearer`, nor `DPoP` after a DPoP proof. */
  | 'unsupported-token-type'
  /** The authorization server lists `grant_types_supported` without the grant the provider is configured for (no request was sent). */
  | 'grant-unsupported'
  /** The server refused every fresh token: the authorization attempt limit for this challenge was reached. */
  | 'retry-limit'
  /** An authorization server or metadata URL could not be reached (`cause` is the network error). */
  | 'network-error'
  /**
   * A URL taken from a server (metadata, an endpoint, a redirect) points at a loopback, private,
   * link-local, unique-local, CGNAT, unspecified or metadata address, and the MCP server is not
   * on one: refused before any connection (`data.url`, `data.reason`, `data.actual` the address).
   */
  | 'address-refused';

/** `data` of an {@link OAuthError}. Never holds a token, a code, a verifier or a client secret. */
export interface OAuthErrorData {
  /** What went wrong. */
  failure: OAuthFailure;
  /** The authorization server's issuer, when one was chosen. */
  issuer?: string | undefined;
  /** The URL involved (a metadata URL, an endpoint), without credentials. */
  url?: string | undefined;
  /** HTTP status of the response involved. */
  status?: number | undefined;
  /** The OAuth `error` code the server sent (`invalid_grant`, `access_denied`, `invalid_client_metadata`...). */
  error?: string | undefined;
  /** The OAuth `error_description` the server sent. */
  errorDescription?: string | undefined;
  /** The value expected (an issuer, a resource, a state marker). */
  expected?: string | undefined;
  /** The value received instead. */
  actual?: string | undefined;
  /**
   * For `address-refused`: the kind of address (`loopback`, `private`, `link-local`,
   * `unique-local`, `cgnat`, `unspecified`, `metadata`) or the reason the app's own check gave.
   */
  reason?: string | undefined;
  /** Metadata URLs tried, in order, with the status each answered (`undefined` = not reached). */
  tried?: Array<{ url: string; status: number | undefined }> | undefined;
}

/**
 * The OAuth 2.1 flow failed (code -33017, `ErrorCode.AuthorizationFailed`). `data` is
 * {@link OAuthErrorData}; `data.failure` says which step failed. Stored credentials are left as
 * they were: a failed flow never deletes anything.
 */
export class OAuthError extends LocalError {
  override name = 'OAuthError';
  declare readonly data: OAuthErrorData;

  constructor(message: string, data: OAuthErrorData, cause?: unknown) {
    super(AuthErrorCode.AuthorizationFailed, message, { data, cause });
  }
}

/** Why an {@link InsufficientScopeError} was raised instead of another authorization. */
export type InsufficientScopeReason =
  /** The refused token already holds every challenged scope: asking again cannot help. */
  | 'already-granted'
  /** The 403 named no `scope`, so there is nothing to ask for. */
  | 'no-scope-in-challenge'
  /** Step-ups for this scope challenge reached the attempt limit. */
  | 'retry-limit';

/** `data` of an {@link InsufficientScopeError}. */
export interface InsufficientScopeErrorData {
  /** The scopes the server's `insufficient_scope` challenge asked for (`scope` of `WWW-Authenticate`). */
  requiredScopes: string[];
  /** The scopes of the refused token, as granted (or as requested, when the server did not say). */
  grantedScopes: string[];
  /** Why no further authorization was started. */
  reason: InsufficientScopeReason;
  /** Authorization attempts made for this challenge. */
  attempts: number;
  /** `error_description` of the challenge, as the server sent it. */
  errorDescription?: string | undefined;
  /** `resource_metadata` of the challenge. */
  resourceMetadata?: string | undefined;
}

/**
 * The server answered HTTP 403 `insufficient_scope` and a step-up authorization cannot fix it
 * (code -33018, `ErrorCode.InsufficientScope`; spec: basic/authorization, "Scope Challenge
 * Handling"): the token already holds the scopes asked for, the challenge named none, or the
 * attempt limit was reached. `data` is {@link InsufficientScopeErrorData}; `requiredScopes`
 * lists the scopes the server asked for. The token is not reported as expired: it was valid,
 * only not permitted.
 */
export class InsufficientScopeError extends LocalError {
  override name = 'InsufficientScopeError';
  declare readonly data: InsufficientScopeErrorData;

  constructor(data: InsufficientScopeErrorData) {
    super(AuthErrorCode.InsufficientScope, insufficientScopeMessage(data), { data });
  }

  /** The scopes the server asked for. */
  get requiredScopes(): string[] {
    return this.data.requiredScopes;
  }
}

/** Why an {@link AuthorizationRequiredError} was raised. */
export type AuthorizationRequiredReason =
  /** The provider has no `redirectHandler`: it never opens a browser on its own. */
  | 'no-redirect-handler'
  /** The redirect handler returned `undefined`: the host declined to run the browser step now. */
  | 'declined';

/** `data` of an {@link AuthorizationRequiredError}. */
export interface AuthorizationRequiredErrorData {
  /**
   * The authorization URL to open in a browser. It carries a fresh `state` and PKCE challenge:
   * after the user authorizes, pass the URL the browser was redirected to to the provider's
   * `completeAuthorization()`.
   */
  authorizationUrl: string;
  /** The scopes requested. */
  scopes: string[];
  /** The authorization server's issuer. */
  issuer: string;
  /** The resource indicator (RFC 8707) the token is requested for. */
  resource: string;
  /** Why the flow stopped here. */
  reason: AuthorizationRequiredReason;
}

/**
 * The user must authorize in a browser, and the provider cannot run that step (code -33019,
 * `ErrorCode.AuthorizationRequired`): it has no redirect handler, or the handler declined.
 * `data` is {@link AuthorizationRequiredErrorData}, with the authorization URL and scopes to show;
 * `completeAuthorization(callbackUrl)` finishes the flow later.
 */
export class AuthorizationRequiredError extends LocalError {
  override name = 'AuthorizationRequiredError';
  declare readonly data: AuthorizationRequiredErrorData;

  constructor(data: AuthorizationRequiredErrorData) {
    const scopes = data.scopes.length === 0 ? '' : ` for scope "${data.scopes.join(' ')}"`;
    super(
      AuthErrorCode.AuthorizationRequired,
      `authorization required${scopes} at ${data.issuer}: open data.authorizationUrl in a browser`,
      { data },
    );
  }
}

/** True for an {@link OAuthError}, whichever copy of the package made it. */
export function isOAuthError(value: unknown): value is OAuthError {
  return McpError.is(value) && value.local && value.code === AuthErrorCode.AuthorizationFailed;
}

/** True for an {@link InsufficientScopeError}, whichever copy of the package made it. */
export function isInsufficientScopeError(value: unknown): value is InsufficientScopeError {
  return McpError.is(value) && value.local && value.code === AuthErrorCode.InsufficientScope;
}

/** True for an {@link AuthorizationRequiredError}, whichever copy of the package made it. */
export function isAuthorizationRequiredError(value: unknown): value is AuthorizationRequiredError {
  return McpError.is(value) && value.local && value.code === AuthErrorCode.AuthorizationRequired;
}

function insufficientScopeMessage(data: InsufficientScopeErrorData): string {
  const required =
    data.requiredScopes.length === 0 ? 'a scope it did not name' : `scope "${data.requiredScopes.join(' ')}"`;
  const why =
    data.reason === 'already-granted'
      ? 'the authorization already includes it, so the server does not permit this operation for this user'
      : data.reason === 'no-scope-in-challenge'
        ? 'there is nothing to ask the authorization server for'
        : `${data.attempts} authorization attempts did not obtain it`;
  const description = data.errorDescription === undefined ? '' : ` (${data.errorDescription})`;
  return `insufficient scope: the server requires ${required}; ${why}${description}`;
}
