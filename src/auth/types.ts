/**
 * Shapes shared by the authorization modules: what a credential store keeps, the client
 * metadata a host declares, the redirect handler contract. Runtime-neutral.
 */
import type * as oauth from 'oauth4webapi';
import type { FetchLike } from '../transport/http/stack.js';

/**
 * How the client authenticates at the token endpoint (RFC 8414
 * `token_endpoint_auth_methods_supported`). `private_key_jwt` signs a client assertion
 * (RFC 7523 §2.2) with the client's private key.
 */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/**
 * A private key that signs JWTs (client assertions, RFC 7523 §2.2): a Web Crypto `CryptoKey`
 * of type `private` with the `sign` usage (ECDSA, RSASSA-PKCS1-v1_5, RSA-PSS or Ed25519; a
 * non-extractable key works, as its bytes are never read), optionally with the `kid` the
 * authorization server knows it by. Secret: it is never copied, logged or stored.
 */
export type PrivateKeyInput = oauth.CryptoKey | { readonly key: oauth.CryptoKey; readonly kid?: string | undefined };

/**
 * The tokens of one MCP server, as a {@link CredentialStore} keeps them. Times are wall-clock
 * epoch milliseconds. Secret: stores must keep it confidential (spec: basic/authorization,
 * "Refresh Tokens").
 */
export interface StoredTokens {
  /** The issuer of the authorization server that issued them (exactly as its metadata says). */
  issuer: string;
  /** The resource indicator (RFC 8707) they were requested for, exactly as the resource's metadata gives it. */
  resource: string;
  /** The client id they were issued to; a refresh uses the same client. */
  clientId?: string | undefined;
  /**
   * The access token, sent as `Authorization: Bearer <accessToken>`, or `DPoP <accessToken>`
   * with a proof when {@link tokenType} is `DPoP`.
   */
  accessToken: string;
  /**
   * `DPoP` for a token bound to the provider's DPoP key (RFC 9449, `token_type: "DPoP"`);
   * absent or `Bearer` for a bearer token.
   */
  tokenType?: 'Bearer' | 'DPoP' | undefined;
  /**
   * For a `DPoP` token: the JWK SHA-256 thumbprint (RFC 7638) of the key it is bound to. A
   * provider with another key does not use it.
   */
  dpopJkt?: string | undefined;
  /** The refresh token, when the server issued one. */
  refreshToken?: string | undefined;
  /** When the access token expires (epoch ms), from `expires_in`; absent when the server did not say. */
  expiresAt?: number | undefined;
  /** Space-separated scopes granted (the token response's `scope`, else the scopes requested). */
  scope?: string | undefined;
  /** When the tokens were obtained (epoch ms). */
  obtainedAt: number;
}

/**
 * A client registered by Dynamic Client Registration (RFC 7591), as a {@link CredentialStore}
 * keeps it: bound to the issuer that registered it and never used with another (spec:
 * basic/authorization/client-registration, "Authorization Server Binding").
 */
export interface StoredClient {
  /** The issuer of the authorization server that issued the client id. */
  issuer: string;
  /** `client_id`. */
  clientId: string;
  /** `client_secret`, for confidential registrations. Secret. */
  clientSecret?: string | undefined;
  /** When the secret expires (epoch ms); absent = never (`client_secret_expires_at: 0` or not given). */
  clientSecretExpiresAt?: number | undefined;
  /** The token endpoint authentication method to use with it. */
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** The redirect URIs it was registered with. */
  redirectUris: string[];
  /** When it was registered (epoch ms). */
  registeredAt: number;
}

/**
 * OAuth client metadata (RFC 7591 §2, snake_case as on the wire): sent in Dynamic Client
 * Registration, and what a Client ID Metadata Document at `clientIdMetadataUrl` should hold.
 * `redirect_uris`, `grant_types`, `response_types` and `token_endpoint_auth_method` are filled
 * in by the provider when absent.
 */
export interface OAuthClientMetadata {
  /** Human-readable name shown on the consent screen. */
  client_name: string;
  /** Home page of the client. */
  client_uri?: string | undefined;
  /** Logo shown on the consent screen. */
  logo_uri?: string | undefined;
  /** Terms of service. */
  tos_uri?: string | undefined;
  /** Privacy policy. */
  policy_uri?: string | undefined;
  /** Contacts (e-mail addresses). */
  contacts?: string[] | undefined;
  /** Software id (RFC 7591 §2). */
  software_id?: string | undefined;
  /** Software version (RFC 7591 §2). */
  software_version?: string | undefined;
  /**
   * `native` (desktop, CLI, apps redirecting to `localhost`) or `web` (remote browser apps), as
   * OpenID Connect Dynamic Client Registration defines it; MCP clients must send one (spec:
   * client-registration, "Application Type"). @default `native` when the redirect URL is on a
   * loopback host or uses a private-use scheme, else `web`
   */
  application_type?: 'native' | 'web' | undefined;
  /** Redirect URIs; `redirectUrl` is always included. */
  redirect_uris?: string[] | undefined;
  /** @default `["authorization_code", "refresh_token"]` */
  grant_types?: string[] | undefined;
  /** @default `["code"]` */
  response_types?: string[] | undefined;
  /** Requested token endpoint authentication method. @default chosen from the server's supported methods */
  token_endpoint_auth_method?: TokenEndpointAuthMethod | undefined;
}

/**
 * Client credentials registered with an authorization server out of band (spec:
 * client-registration, "Pre-registration").
 */
export interface PreRegisteredClient {
  /** `client_id`. */
  clientId: string;
  /** `client_secret`, for a confidential client. Secret. */
  clientSecret?: string | undefined;
  /**
   * The client's private key, for `private_key_jwt` (RFC 7523 §2.2): each token request carries
   * a fresh assertion signed with it (`iss` and `sub` the client id, `aud` the issuer, 60 s
   * lifetime).
   */
  privateKey?: PrivateKeyInput | undefined;
  /**
   * The issuer these credentials belong to. They are used only with that authorization server.
   * Without it they bind to the first authorization server they are used with, for the
   * provider's lifetime.
   */
  issuer?: string | undefined;
  /**
   * @default `private_key_jwt` with a private key (unless the server lists only secret-based
   * methods and there is a secret), else `client_secret_basic` with a secret (unless the server
   * lists only `client_secret_post`), else `none`
   */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod | undefined;
}

/** What the provider asks a {@link RedirectHandler} to do. */
export interface RedirectRequest {
  /** The authorization URL to open in the user's browser (authorization endpoint with all parameters). */
  readonly authorizationUrl: URL;
  /** The redirect URL the authorization server will send the browser back to. */
  readonly redirectUrl: string;
  /** The `state` sent; the callback must carry it back. */
  readonly state: string;
  /** The scopes requested. */
  readonly scopes: readonly string[];
  /** The authorization server's issuer. */
  readonly issuer: string;
  /** Aborted when every request waiting for this authorization was cancelled. */
  readonly signal: AbortSignal;
}

/**
 * Runs the browser step of the authorization code flow: sends the user to
 * `request.authorizationUrl`, waits for the authorization server to redirect back to
 * `request.redirectUrl`, and resolves with the full URL of that redirect (with its `code`,
 * `state` and `iss` query parameters). Resolving with `undefined` declines: the provider then
 * throws `AuthorizationRequiredError` (-33019) carrying the URL, to finish later with
 * `completeAuthorization()`. Rejections (including `request.signal`'s reason) pass through.
 */
export type RedirectHandler = (request: RedirectRequest) => Promise<string | URL | undefined>;

/** How the authorization modules reach the network. */
export interface HttpContext {
  /** The fetch to use. */
  readonly fetch: FetchLike;
  /** Whether plain `http:` is allowed for a non-loopback authorization server. */
  readonly allowInsecureHttp: boolean;
  /** Aborts the requests. */
  readonly signal: AbortSignal;
}
