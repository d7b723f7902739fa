/**
 * The authorization code grant with PKCE (OAuth 2.1 §4.1; spec: basic/authorization,
 * "Authorization Flow Steps") and the refresh token grant, on `oauth4webapi`: the authorization
 * URL, the checks of the authorization response (`state`, RFC 9207 `iss`) before the code is
 * sent anywhere, and the token requests with the `resource` indicator (RFC 8707).
 * Runtime-neutral.
 */
import * as oauth from 'oauth4webapi';
import { secureEndpoint } from './authHttp.js';
import type { DPoPProver } from './dpop.js';
import { OAuthError, type OAuthFailure } from './errors.js';
import { clientAuthentication, type ClientIdentity } from './registration.js';
import { requestToken } from './tokenRequest.js';
import type { HttpContext } from './types.js';

/**
 * One authorization request in flight: what is needed to check its response and redeem its
 * code. Holds the PKCE verifier: keep it in memory only.
 */
export interface PendingAuthorization {
  /** The full authorization URL. */
  readonly authorizationUrl: URL;
  /** The `state` sent. */
  readonly state: string;
  /** The PKCE code verifier (secret). */
  readonly codeVerifier: string;
  /** The redirect URI sent, byte for byte. */
  readonly redirectUri: string;
  /** The resource indicator sent, exactly as the resource metadata gives it. */
  readonly resource: string;
  /** The scopes requested (the `scope` parameter, or none). */
  readonly scopes: readonly string[];
  /** The validated metadata of the authorization server; its `issuer` is the recorded issuer. */
  readonly as: oauth.AuthorizationServer;
  /** The client identity used. */
  readonly client: ClientIdentity;
}

/** What {@link startAuthorization} needs. */
export interface AuthorizationRequestInput {
  readonly as: oauth.AuthorizationServer;
  readonly client: ClientIdentity;
  readonly redirectUri: string;
  readonly resource: string;
  readonly scopes: readonly string[];
}

/**
 * Builds an authorization request: a fresh PKCE verifier and S256 challenge, a fresh `state`,
 * and the URL `authorization_endpoint?response_type=code&client_id&redirect_uri&code_challenge
 * &code_challenge_method=S256&state&resource[&scope]`. `scope` is left out when no scope is
 * requested. Query parameters already in the endpoint URL are kept.
 * @throws OAuthError `metadata-invalid` (no authorization endpoint) or `insecure-endpoint`.
 */
export async function startAuthorization(
  input: AuthorizationRequestInput,
  http: HttpContext,
): Promise<PendingAuthorization> {
  const url = secureEndpoint(input.as.authorization_endpoint, 'authorization_endpoint', http, input.as.issuer);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const params = url.searchParams;
  params.set('response_type', 'code');
  params.set('client_id', input.client.clientId);
  params.set('redirect_uri', input.redirectUri);
  params.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  params.set('code_challenge_method', 'S256');
  params.set('state', state);
  params.set('resource', input.resource);
  if (input.scopes.length > 0) params.set('scope', input.scopes.join(' '));
  return {
    authorizationUrl: url,
    state,
    codeVerifier,
    redirectUri: input.redirectUri,
    resource: input.resource,
    scopes: [...input.scopes],
    as: input.as,
    client: input.client,
  };
}

/**
 * Checks an authorization response (the query of the redirect) and redeems its code.
 *
 * The checks run before the code is sent anywhere, in `oauth4webapi`'s
 * `validateAuthResponse`: `iss` per RFC 9207 §2.4 (a present `iss` must equal the recorded
 * issuer exactly, whether or not the server advertises
 * `authorization_response_iss_parameter_supported`; an absent one is refused when it does),
 * then `state`, then an `error` response. The token request carries `code_verifier`,
 * `redirect_uri` and `resource`, authenticated as the client identity says, with a DPoP proof
 * when `dpop` is given.
 * @throws OAuthError `iss-mismatch`, `iss-missing`, `state-mismatch`, `authorization-denied`
 *   (with the server's `error`; never acted on before `iss` matched), `token-request-failed`,
 *   `unsupported-token-type`, `network-error`; the signal's reason when aborted.
 */
export async function redeemAuthorizationResponse(
  pending: PendingAuthorization,
  callback: URL,
  http: HttpContext,
  dpop: DPoPProver | undefined,
): Promise<oauth.TokenEndpointResponse> {
  const { as } = pending;
  const client: oauth.Client = { client_id: pending.client.clientId };
  let validated: URLSearchParams;
  try {
    validated = oauth.validateAuthResponse(as, client, callback.searchParams, pending.state);
  } catch (error) {
    throw authorizationResponseError(error, callback.searchParams, pending);
  }
  return requestToken(
    { as, http, dpop, step: `token request to ${as.issuer}` },
    (options) =>
      oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuthentication(pending.client),
        validated,
        pending.redirectUri,
        pending.codeVerifier,
        { ...options, additionalParameters: { resource: pending.resource } },
      ),
    (response) => oauth.processAuthorizationCodeResponse(as, client, response),
  );
}

/**
 * Spends a refresh token (OAuth 2.1 §4.3) with the `resource` indicator (and a DPoP proof when
 * `dpop` is given). A rotated refresh token comes back in the response; a response without one
 * leaves the old one in force.
 * @throws OAuthError `token-request-failed` (`data.error` is the server's code, e.g.
 *   `invalid_grant`, when it refused), `unsupported-token-type`, `network-error`,
 *   `insecure-endpoint`; the signal's reason when aborted.
 */
export async function refreshAccessToken(
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  refreshToken: string,
  resource: string,
  http: HttpContext,
  dpop: DPoPProver | undefined,
): Promise<oauth.TokenEndpointResponse> {
  const client: oauth.Client = { client_id: identity.clientId };
  return requestToken(
    { as, http, dpop, step: `refresh at ${as.issuer}` },
    (options) =>
      oauth.refreshTokenGrantRequest(as, client, clientAuthentication(identity), refreshToken, {
        ...options,
        additionalParameters: { resource },
      }),
    (response) => oauth.processRefreshTokenResponse(as, client, response),
  );
}

/** Names why `validateAuthResponse` refused, from the parameters it saw. */
function authorizationResponseError(error: unknown, params: URLSearchParams, pending: PendingAuthorization): unknown {
  const issuer = pending.as.issuer;
  if (error instanceof oauth.AuthorizationResponseError) {
    const code = params.get('error') ?? undefined;
    const description = params.get('error_description') ?? undefined;
    return new OAuthError(
      `the authorization server refused the authorization: ${code ?? 'error'}${description === undefined ? '' : ` (${description})`}`,
      {
        failure: 'authorization-denied',
        issuer,
        error: code,
        errorDescription: description,
      },
      error,
    );
  }
  if (!(error instanceof oauth.OperationProcessingError)) return error;
  const iss = params.get('iss');
  let failure: OAuthFailure = 'invalid-callback';
  let message = `the authorization response is not valid: ${error.message}`;
  let actual: string | undefined;
  let expected: string | undefined;
  if (iss === null && pending.as.authorization_response_iss_parameter_supported === true) {
    failure = 'iss-missing';
    message = `the authorization response has no iss, though ${issuer} advertises it (RFC 9207): the code was not redeemed`;
    expected = issuer;
  } else if (iss !== null && iss !== issuer) {
    failure = 'iss-mismatch';
    message = `the authorization response comes from issuer ${iss}, not ${issuer} (RFC 9207): the code was not redeemed`;
    expected = issuer;
    actual = iss;
  } else if (params.get('state') !== pending.state) {
    failure = 'state-mismatch';
    message = 'the authorization response does not carry the state that was sent: the code was not redeemed';
  }
  return new OAuthError(
    message,
    { failure, issuer, ...(expected !== undefined && { expected }), ...(actual !== undefined && { actual }) },
    error,
  );
}
