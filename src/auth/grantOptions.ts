/**
 * The `grant` option of `createOAuthProvider()`: the authorization code flow with a browser (the
 * default), or a grant for agents and services without one: client credentials (OAuth 2.1
 * §4.2), the JWT bearer grant with a JWT the host supplies (RFC 7523 §2.1, workload identity),
 * enterprise-managed authorization (an ID-JAG, RFC 8693 then RFC 7523). The shapes and their
 * check; the token requests are `GrantRunner`'s. Runtime-neutral.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { PrivateKeyInput, TokenEndpointAuthMethod } from './types.js';

/** The authorization code flow with a browser (the default). */
export interface AuthorizationCodeGrant {
  readonly type: 'authorization_code';
}

/**
 * The client credentials grant (OAuth 2.1 §4.2; MCP extension
 * `io.modelcontextprotocol/oauth-client-credentials`): the client acts on its own behalf, with
 * no user and no browser. The client is the provider's `preRegistered` one for the
 * authorization server, authenticated by its private key (`private_key_jwt`, RFC 7523 §2.2,
 * recommended) or its secret (`client_secret_basic`, or `client_secret_post` when the server
 * lists only that).
 */
export interface ClientCredentialsGrant {
  readonly type: 'client_credentials';
}

/** What the JWT bearer grant's `assertion` callback is told. */
export interface AssertionRequest {
  /** The issuer of the authorization server the assertion goes to (its usual `aud`). */
  readonly issuer: string;
  /** That server's token endpoint (the `aud` some servers want instead). */
  readonly tokenEndpoint: string;
  /** The resource indicator (RFC 8707) the token is asked for: the MCP server's resource identifier. */
  readonly resource: string;
  /** The scopes asked for (may be empty). */
  readonly scopes: readonly string[];
  /** Aborted when every request waiting for the token was cancelled. */
  readonly signal: AbortSignal;
}

/**
 * The JWT bearer grant (RFC 7523 §2.1) with a JWT the host supplies: workload identity
 * federation (MCP extension `io.modelcontextprotocol/auth/wif`). The workload presents the
 * identity token its platform issued it (a Kubernetes service account token, a SPIFFE JWT-SVID,
 * a cloud metadata server's identity token) and needs no client secret. When `preRegistered`
 * has a client for the authorization server, the request is authenticated as that client too;
 * otherwise it carries no client authentication at all. A refused assertion ends the request
 * with the server's error: the provider never retries it or falls back to another grant.
 */
export interface JwtBearerGrant {
  readonly type: 'jwt-bearer';
  /**
   * Supplies the JWT for one token request (`assertion`). Called for every token request, so it
   * can return a fresh one. Its rejections pass through unchanged.
   */
  readonly assertion: (request: AssertionRequest) => Promise<string> | string;
}

/** The enterprise identity provider of an {@link IdJagGrant}: where the token exchange goes. */
export interface IdentityProvider {
  /** The IdP's issuer identifier. */
  readonly issuer: string;
  /**
   * Its token endpoint. @default read from its metadata (RFC 8414 / OpenID Connect Discovery
   * of `issuer`)
   */
  readonly tokenEndpoint?: string | undefined;
  /** This client's id at the IdP (the one it signs users in with). */
  readonly clientId: string;
  /** This client's secret at the IdP. Secret. */
  readonly clientSecret?: string | undefined;
  /** This client's private key at the IdP (`private_key_jwt`). Secret. */
  readonly privateKey?: PrivateKeyInput | undefined;
  /** @default chosen as for `preRegistered` clients, from the IdP metadata when read */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod | undefined;
}

/** What the `subjectToken` callback of an {@link IdJagGrant} is told. */
export interface SubjectTokenRequest {
  /** The IdP the assertion is exchanged at. */
  readonly idpIssuer: string;
  /** The issuer of the MCP server's authorization server (the ID-JAG's audience). */
  readonly audience: string;
  /** The MCP server's resource identifier. */
  readonly resource: string;
  /** The scopes asked for (may be empty). */
  readonly scopes: readonly string[];
  /** Aborted when every request waiting for the token was cancelled. */
  readonly signal: AbortSignal;
}

/**
 * Enterprise-managed authorization (MCP extension
 * `io.modelcontextprotocol/enterprise-managed-authorization`): the Identity Assertion JWT
 * Authorization Grant. The user signed in to the host through the enterprise IdP; the provider
 * exchanges that identity assertion at the IdP (RFC 8693: `subject_token`,
 * `requested_token_type` id-jag, `audience` the authorization server's issuer, `resource`,
 * `scope`) for an ID-JAG, then presents it to the MCP server's authorization server as a JWT
 * bearer grant, authenticated as the provider's `preRegistered` client there (or its Client ID
 * Metadata Document URL). No browser, no consent screen.
 */
export interface IdJagGrant {
  readonly type: 'id-jag';
  /** The enterprise IdP and this client's credentials there. */
  readonly idp: IdentityProvider;
  /**
   * Supplies the identity assertion (the ID token from the user's single sign-on, or what
   * `subjectTokenType` names). Called for every exchange; its rejections pass through unchanged.
   */
  readonly subjectToken: (request: SubjectTokenRequest) => Promise<string> | string;
  /** The type of `subjectToken` (RFC 8693 §3). @default `urn:ietf:params:oauth:token-type:id_token` */
  readonly subjectTokenType?: string | undefined;
}

/** How a provider obtains tokens: `createOAuthProvider({ grant })`. */
export type OAuthGrant = AuthorizationCodeGrant | ClientCredentialsGrant | JwtBearerGrant | IdJagGrant;

/** The grants that run without a browser. */
export type NonInteractiveGrant = ClientCredentialsGrant | JwtBearerGrant | IdJagGrant;

/**
 * Checks a `grant` option.
 * @throws InvalidArgumentError (-32602) for an unknown type or a missing or malformed field.
 */
export function checkGrant(grant: OAuthGrant | undefined): OAuthGrant {
  if (grant === undefined) return { type: 'authorization_code' };
  const type = (grant as { type?: unknown } | null)?.type;
  switch (type) {
    case 'authorization_code':
    case 'client_credentials':
      return grant;
    case 'jwt-bearer':
      if (typeof (grant as JwtBearerGrant).assertion !== 'function')
        throw new InvalidArgumentError(
          'grant.assertion',
          typeof (grant as JwtBearerGrant).assertion,
          'expected a function',
        );
      return grant;
    case 'id-jag': {
      const g = grant as IdJagGrant;
      if (typeof g.subjectToken !== 'function')
        throw new InvalidArgumentError('grant.subjectToken', typeof g.subjectToken, 'expected a function');
      if (typeof g.idp?.issuer !== 'string' || g.idp.issuer === '')
        throw new InvalidArgumentError('grant.idp.issuer', g.idp?.issuer, 'expected the IdP issuer URL');
      if (typeof g.idp.clientId !== 'string' || g.idp.clientId === '')
        throw new InvalidArgumentError('grant.idp.clientId', g.idp.clientId, 'expected a non-empty string');
      return grant;
    }
    default:
      throw new InvalidArgumentError(
        'grant.type',
        type,
        'expected authorization_code, client_credentials, jwt-bearer or id-jag',
      );
  }
}
