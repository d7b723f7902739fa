/**
 * The grants a provider can run without a browser, for agents and services: client credentials
 * (OAuth 2.1 §4.2), the JWT bearer grant with a JWT the host supplies (RFC 7523 §2.1, workload
 * identity federation), and enterprise-managed authorization (an identity assertion exchanged
 * at the enterprise IdP for an ID-JAG, RFC 8693, then presented as a JWT bearer grant): their
 * token requests, on `oauth4webapi`. The option shapes and their check are `grantOptions.ts`'s.
 * Runtime-neutral.
 */
import * as oauth from 'oauth4webapi';
import { InvalidArgumentError } from '../errors/errors.js';
import { secureEndpoint } from './authHttp.js';
import { discoverAuthorizationServer } from './discovery.js';
import type { DPoPProver } from './dpop.js';
import { OAuthError } from './errors.js';
import type { IdJagGrant, IdentityProvider, NonInteractiveGrant } from './grantOptions.js';
import { chooseAuthMethod, clientAuthentication, noClientAuthentication, type ClientIdentity } from './registration.js';
import { requestToken } from './tokenRequest.js';
import type { HttpContext } from './types.js';

/** `grant_type` of the JWT bearer grant (RFC 7523 §2.1). */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** `grant_type` of token exchange (RFC 8693 §2.1). */
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** The token type of an Identity Assertion JWT Authorization Grant. */
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
/** The token type of an OpenID Connect ID token (RFC 8693 §3). */
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/** The `grant_type` a grant sends to the MCP server's authorization server. */
export function grantTypeOf(grant: NonInteractiveGrant): string {
  return grant.type === 'client_credentials' ? 'client_credentials' : JWT_BEARER;
}

/** What one token request of a {@link GrantRunner} needs. */
export interface GrantInput {
  /** The MCP server's authorization server. */
  readonly as: oauth.AuthorizationServer;
  /** The client there, when one is configured. */
  readonly identity: ClientIdentity | undefined;
  /** The resource indicator, exactly as the protected resource metadata gives it. */
  readonly resource: string;
  readonly scopes: readonly string[];
  readonly http: HttpContext;
  readonly dpop: DPoPProver | undefined;
}

/** Runs one non-interactive grant for a provider; keeps the IdP metadata it read. */
export class GrantRunner {
  private idpServer: oauth.AuthorizationServer | undefined;

  constructor(readonly grant: NonInteractiveGrant) {}

  /**
   * Obtains a token from `input.as` with the grant, for `input.resource` and `input.scopes`.
   * @throws OAuthError `grant-unsupported` (the server lists `grant_types_supported` without
   *   this grant), `no-client-identity`, `token-request-failed` (at the IdP or the
   *   authorization server; `data.error` the server's code), `unsupported-token-type`,
   *   `metadata-*`, `network-error`, `insecure-endpoint`; InvalidArgumentError (-32602) when a
   *   callback returns something other than a non-empty string; what a callback throws; the
   *   signal's reason when aborted.
   */
  async token(input: GrantInput): Promise<oauth.TokenEndpointResponse> {
    const { as, http } = input;
    const grantType = grantTypeOf(this.grant);
    const supported = as.grant_types_supported;
    if (Array.isArray(supported) && !supported.includes(grantType)) {
      throw new OAuthError(`the authorization server ${as.issuer} does not support the ${grantType} grant`, {
        failure: 'grant-unsupported',
        issuer: as.issuer,
        expected: grantType,
      });
    }
    const params: Record<string, string> = { resource: input.resource };
    if (input.scopes.length > 0) params['scope'] = input.scopes.join(' ');
    const grant = this.grant;
    if (grant.type === 'client_credentials') {
      const identity = requireIdentity(input.identity, as, grant.type);
      const client: oauth.Client = { client_id: identity.clientId };
      return requestToken(
        { as, http, dpop: input.dpop, step: `client credentials request to ${as.issuer}` },
        (options) => oauth.clientCredentialsGrantRequest(as, client, clientAuthentication(identity), params, options),
        (response) => oauth.processClientCredentialsResponse(as, client, response),
      );
    }
    let assertion: string;
    if (grant.type === 'jwt-bearer') {
      secureEndpoint(as.token_endpoint, 'token_endpoint', http, as.issuer);
      assertion = checkedString(
        await grant.assertion({
          issuer: as.issuer,
          tokenEndpoint: as.token_endpoint as string,
          resource: input.resource,
          scopes: [...input.scopes],
          signal: http.signal,
        }),
        'grant.assertion()',
      );
    } else {
      requireIdentity(input.identity, as, grant.type);
      assertion = await this.exchangeForIdJag(grant, input);
    }
    if (http.signal.aborted) throw http.signal.reason;
    const identity = input.identity;
    const client: oauth.Client = { client_id: identity?.clientId ?? 'jwt-bearer' };
    const auth = identity === undefined ? noClientAuthentication : clientAuthentication(identity);
    return requestToken(
      { as, http, dpop: input.dpop, step: `JWT bearer grant request to ${as.issuer}` },
      (options) => oauth.genericTokenEndpointRequest(as, client, auth, JWT_BEARER, { ...params, assertion }, options),
      (response) => oauth.processGenericTokenEndpointResponse(as, client, response),
    );
  }

  /** RFC 8693 at the IdP: the identity assertion for an ID-JAG whose audience is `input.as`. */
  private async exchangeForIdJag(grant: IdJagGrant, input: GrantInput): Promise<string> {
    const { http } = input;
    const idp = await this.identityProvider(grant.idp, http);
    const subjectToken = checkedString(
      await grant.subjectToken({
        idpIssuer: idp.issuer,
        audience: input.as.issuer,
        resource: input.resource,
        scopes: [...input.scopes],
        signal: http.signal,
      }),
      'grant.subjectToken()',
    );
    if (http.signal.aborted) throw http.signal.reason;
    const identity: ClientIdentity = {
      clientId: grant.idp.clientId,
      clientSecret: grant.idp.clientSecret,
      privateKey: grant.idp.privateKey,
      method:
        grant.idp.tokenEndpointAuthMethod ??
        chooseAuthMethod(
          idp.token_endpoint_auth_methods_supported,
          grant.idp.clientSecret !== undefined,
          grant.idp.privateKey !== undefined,
        ),
      source: 'pre-registered',
    };
    const client: oauth.Client = { client_id: identity.clientId };
    const params: Record<string, string> = {
      requested_token_type: ID_JAG_TOKEN_TYPE,
      audience: input.as.issuer,
      resource: input.resource,
      subject_token: subjectToken,
      subject_token_type: grant.subjectTokenType ?? ID_TOKEN_TYPE,
    };
    if (input.scopes.length > 0) params['scope'] = input.scopes.join(' ');
    const response = await requestToken(
      { as: idp, http, dpop: undefined, step: `token exchange at ${idp.issuer}`, anyTokenType: true },
      (options) =>
        oauth.genericTokenEndpointRequest(idp, client, clientAuthentication(identity), TOKEN_EXCHANGE, params, options),
      (answer) =>
        oauth.processGenericTokenEndpointResponse(idp, client, answer, { recognizedTokenTypes: { n_a: () => {} } }),
    );
    if (response['issued_token_type'] !== ID_JAG_TOKEN_TYPE) {
      throw new OAuthError(`the token exchange at ${idp.issuer} did not issue an ID-JAG`, {
        failure: 'token-request-failed',
        issuer: idp.issuer,
        expected: ID_JAG_TOKEN_TYPE,
        actual: typeof response['issued_token_type'] === 'string' ? response['issued_token_type'] : undefined,
      });
    }
    return response.access_token;
  }

  /** The IdP as `oauth4webapi` wants it: from `tokenEndpoint`, else from its metadata (read once). */
  private async identityProvider(idp: IdentityProvider, http: HttpContext): Promise<oauth.AuthorizationServer> {
    if (idp.tokenEndpoint !== undefined) return { issuer: idp.issuer, token_endpoint: idp.tokenEndpoint };
    this.idpServer ??= await discoverAuthorizationServer(idp.issuer, http, { requirePkce: false });
    return this.idpServer;
  }
}

function requireIdentity(
  identity: ClientIdentity | undefined,
  as: oauth.AuthorizationServer,
  grant: string,
): ClientIdentity {
  if (identity !== undefined) return identity;
  throw new OAuthError(
    `no client identity for ${as.issuer}: the ${grant} grant needs preRegistered credentials for this issuer`,
    { failure: 'no-client-identity', issuer: as.issuer },
  );
}

function checkedString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '')
    throw new InvalidArgumentError(name, typeof value, 'expected a non-empty string');
  return value;
}
