/**
 * Shapes shared by the authorization modules: what a credential store keeps, the client
 * metadata a host declares, the redirect handler contract. Runtime-neutral.
 */
import type { FetchLike } from '../transport/http/stack.js';

/** How the client authenticates at the token endpoint (RFC 8414 `token_endpoint_auth_methods_supported`). */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

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
  /** The access token, sent as `Authorization: Bearer <accessToken>`. */
  accessToken: string;
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
  /** `client_secret`, for a confidential client. */
  clientSecret?: string | undefined;
  /**
   * The issuer these credentials belong to. They are used only with that authorization server.
   * Without it they bind to the first authorization server they are used with, for the
   * provider's lifetime.
   */
  issuer?: string | undefined;
  /**
   * @default `client_secret_basic` with a secret (unless the server lists only
   * `client_secret_post`), `none` without
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
 * throws `AuthorizationRequiredError` (-32019) carrying the URL, to finish later with
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
