/**
 * The OAuth 2.1 client of an MCP server reached over HTTP (spec: basic/authorization), as an
 * `authProvider` for `StreamableHttpTransport`: it supplies `Authorization: Bearer <token>` per
 * request and, when the server refuses, discovers the authorization server, refreshes, runs
 * the authorization code flow or a scope step-up. Runtime-neutral.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { AuthRequestInfo, FetchLike } from '../transport/streamableHttp.js';
import { isLoopbackHost } from './authHttp.js';
import { MemoryCredentialStore, type CredentialStore } from './credentialStore.js';
import { OAuthSession } from './oauthSession.js';
import { parseScopes } from './scopes.js';
import type { OAuthClientMetadata, PreRegisteredClient, RedirectHandler, StoredTokens } from './types.js';

import type { WallClock } from '../util/clock.js';

/** Wall-clock time, in epoch milliseconds (token and secret expiry times are stored as such). */
export type { WallClock };

/** Options of {@link createOAuthProvider}. */
export interface OAuthProviderOptions {
  /**
   * The MCP endpoint, as given to the transport (e.g. `"https://mcp.example.com/mcp"`). The
   * provider serves only this endpoint: the protected resource metadata must name it (or a
   * parent path of it on the same origin), and a transport for another URL is refused.
   */
  serverUrl: string | URL;
  /** This client's metadata (RFC 7591 names), for Dynamic Client Registration. */
  clientMetadata: OAuthClientMetadata;
  /**
   * Where the authorization server sends the browser back, sent byte for byte as
   * `redirect_uri`. Must be `https:`, `http:` on a loopback host, or a private-use scheme
   * (native apps).
   */
  redirectUrl: string | URL;
  /**
   * Runs the browser step (see {@link RedirectHandler}); `createHeadlessRedirectHandler()` for
   * tests and CI. Without one the provider never starts a browser flow: a request that needs
   * one fails with `AuthorizationRequiredError` (-32019) carrying the URL. @default none
   */
  redirectHandler?: RedirectHandler | undefined;
  /** Where tokens and registered clients are kept. @default a new `MemoryCredentialStore` */
  store?: CredentialStore | undefined;
  /**
   * Client credentials registered out of band, used first when they match the authorization
   * server (spec: client-registration, priority 1). @default none
   */
  preRegistered?: PreRegisteredClient | readonly PreRegisteredClient[] | undefined;
  /**
   * The HTTPS URL of this client's Client ID Metadata Document, used as `client_id` with
   * authorization servers that advertise `client_id_metadata_document_supported` (priority 2).
   * The host publishes the document there. Must be `https:` with a path. @default none
   */
  clientIdMetadataUrl?: string | undefined;
  /** Scopes always asked for, on top of those the server's challenge or metadata names. @default none */
  scope?: string | readonly string[] | undefined;
  /**
   * Ask for `offline_access` (a refresh token) when the authorization server lists it in
   * `scopes_supported` (spec: basic/authorization, "Refresh Tokens"). @default true
   */
  offlineAccess?: boolean | undefined;
  /**
   * Step-up authorizations for one `insufficient_scope` challenge (the same scope set) before
   * giving up with `InsufficientScopeError` (`reason: "retry-limit"`). With the first
   * authorization, an operation sees at most `maxStepUps + 1` authorization attempts.
   * @default 2
   */
  maxStepUps?: number | undefined;
  /** Refresh an access token this long before its `expires_in` runs out, in ms. @default 30000 */
  refreshSkewMs?: number | undefined;
  /**
   * Allow plain `http:` authorization servers that are not on a loopback host. The spec
   * requires HTTPS; loopback hosts are always allowed. @default false
   */
  allowInsecureHttp?: boolean | undefined;
  /** The fetch for metadata, registration and token requests. @default globalThis.fetch, looked up at each call */
  fetch?: FetchLike | undefined;
  /** Wall-clock time for token and secret expiry. @default `{ now: Date.now }` */
  clock?: WallClock | undefined;
}

/**
 * An OAuth 2.1 provider: call it as the `authProvider` of a `StreamableHttpTransport` (it is
 * one), or use its methods to log in up front, finish a flow, read or forget the tokens.
 */
export interface OAuthProvider {
  /**
   * The transport's hook (see `AuthProvider`). Attempt 1: the current `Bearer` token, refreshed
   * first when it is about to expire and the authorization server is known; `undefined` when
   * there is none yet (the server's 401 then starts the flow). Attempt 2, after a 401: the token
   * another request already obtained, else one refresh or authorization shared by every
   * concurrent caller. Attempt 2 after 403 `insufficient_scope`: a step-up authorization for the
   * union of the granted and the challenged scopes. Attempt 3 (a transport that reports the
   * refusal of the retried credential): the typed error below.
   * @throws InsufficientScopeError (-32018), AuthorizationRequiredError (-32019), OAuthError
   *   (-32017), InvalidArgumentError (-32602) for a transport URL that is not `serverUrl`;
   *   `info.signal`'s reason when it aborts.
   */
  (info: AuthRequestInfo): Promise<string | undefined>;
  /** The MCP endpoint this provider serves (origin and path). */
  readonly serverUrl: string;
  /**
   * Logs in now, before any request: discovers the authorization server from the well-known
   * metadata URLs and runs the authorization code flow for `scope` (else the resource's
   * `scopes_supported`). No request timeout applies, unlike a flow started by a request.
   * @throws as the provider does.
   */
  authorize(options?: {
    signal?: AbortSignal | undefined;
    scope?: string | readonly string[] | undefined;
  }): Promise<void>;
  /**
   * Finishes a flow that stopped with `AuthorizationRequiredError`: `callbackUrl` is the URL
   * the browser was redirected to. Its `iss` and `state` are checked as usual.
   * @throws OAuthError `invalid-callback` when no pending authorization has its `state`, and
   *   the errors of the code exchange.
   */
  completeAuthorization(callbackUrl: string | URL, options?: { signal?: AbortSignal | undefined }): Promise<void>;
  /** The current tokens (secret values), or `undefined`. A copy. */
  getTokens(): Promise<StoredTokens | undefined>;
  /** Forgets the tokens of this server (here and in the store) and every pending authorization. */
  signOut(): Promise<void>;
}

/**
 * Creates an OAuth 2.1 provider for one MCP server (spec: basic/authorization, 2026-07-28).
 *
 * - Discovery: protected resource metadata (RFC 9728) from the 401's `resource_metadata`, else
 *   the path-based then root well-known URL; its `resource` must cover `serverUrl`; the first
 *   authorization server, its metadata by RFC 8414 / OpenID Connect Discovery with path
 *   insertion, issuer compared exactly, `S256` required.
 * - Client identity, per authorization server: pre-registered credentials, else the Client ID
 *   Metadata Document URL when the server supports it, else Dynamic Client Registration (with
 *   `application_type`), stored by issuer and never shown to another server.
 * - Authorization code with PKCE S256, `state`, `resource` exactly as the metadata gives it,
 *   `iss` checked (RFC 9207) before the code is redeemed; token endpoint auth
 *   `client_secret_basic`, `client_secret_post` or `none`.
 * - Refresh tokens (with `offline_access` when offered); one refresh or authorization for any
 *   number of concurrent 401s; a refused refresh never deletes stored credentials.
 * - Step-up on 403 `insufficient_scope` for the union of granted and challenged scopes, at most
 *   one authorization per request and `maxStepUps` per challenge; a 403 for scopes the token
 *   already holds ends with `InsufficientScopeError`.
 *
 * @throws InvalidArgumentError (-32602) for a `serverUrl`, `redirectUrl` or
 *   `clientIdMetadataUrl` that breaks the rules above, or a bad number option.
 *
 * @example
 * const oauth = createOAuthProvider({
 *   serverUrl: 'https://mcp.example.com/mcp',
 *   clientMetadata: { client_name: 'My Host' },
 *   redirectUrl: 'http://127.0.0.1:8765/callback',
 *   redirectHandler: async ({ authorizationUrl }) => openBrowserAndWaitForCallback(authorizationUrl),
 * });
 * const client = new McpClient({
 *   transport: new StreamableHttpTransport('https://mcp.example.com/mcp', { authProvider: oauth }),
 *   clientInfo: { name: 'my-host', version: '1.0.0' },
 * });
 */
export function createOAuthProvider(options: OAuthProviderOptions): OAuthProvider {
  const session = new OAuthSession(resolveOAuthOptions(options));
  const provider = (info: AuthRequestInfo): Promise<string | undefined> => session.authorization(info);
  return Object.assign(provider, {
    serverUrl: session.serverKey,
    authorize: (opts?: { signal?: AbortSignal | undefined; scope?: string | readonly string[] | undefined }) =>
      session.authorize(opts),
    completeAuthorization: (callbackUrl: string | URL, opts?: { signal?: AbortSignal | undefined }) =>
      session.complete(callbackUrl, opts?.signal),
    getTokens: () => session.currentTokens(),
    signOut: () => session.signOut(),
  });
}

/** {@link OAuthProviderOptions} checked, with their defaults applied. */
export interface ResolvedOAuthOptions {
  readonly serverUrl: URL;
  readonly clientMetadata: OAuthClientMetadata;
  readonly redirectUrl: string;
  readonly redirectHandler: RedirectHandler | undefined;
  readonly store: CredentialStore;
  readonly preRegistered: readonly PreRegisteredClient[];
  readonly clientIdMetadataUrl: string | undefined;
  readonly extraScopes: readonly string[];
  readonly offlineAccess: boolean;
  readonly maxStepUps: number;
  readonly refreshSkewMs: number;
  readonly allowInsecureHttp: boolean;
  readonly fetch: FetchLike;
  readonly clock: WallClock;
}

/**
 * Checks `options` and applies the defaults.
 * @throws InvalidArgumentError (-32602) as {@link createOAuthProvider} documents.
 */
export function resolveOAuthOptions(options: OAuthProviderOptions): ResolvedOAuthOptions {
  const serverUrl = parseHttpUrl(options.serverUrl, 'serverUrl');
  serverUrl.hash = '';
  if (options.clientIdMetadataUrl !== undefined) checkMetadataDocumentUrl(options.clientIdMetadataUrl);
  if (typeof options.clientMetadata?.client_name !== 'string')
    throw new InvalidArgumentError('clientMetadata', options.clientMetadata, 'expected an object with a client_name');
  const pre = options.preRegistered;
  const preRegistered =
    pre === undefined
      ? []
      : Array.isArray(pre)
        ? [...(pre as readonly PreRegisteredClient[])]
        : [pre as PreRegisteredClient];
  for (const client of preRegistered) {
    if (typeof client.clientId !== 'string' || client.clientId === '')
      throw new InvalidArgumentError('preRegistered.clientId', client.clientId, 'expected a non-empty string');
  }
  return {
    serverUrl,
    clientMetadata: options.clientMetadata,
    redirectUrl: checkRedirectUrl(options.redirectUrl),
    redirectHandler: options.redirectHandler,
    store: options.store ?? new MemoryCredentialStore(),
    preRegistered,
    clientIdMetadataUrl: options.clientIdMetadataUrl,
    extraScopes: parseScopes(options.scope),
    offlineAccess: options.offlineAccess ?? true,
    maxStepUps: positiveInteger(options.maxStepUps, 2, 'maxStepUps'),
    refreshSkewMs: nonNegative(options.refreshSkewMs, 30_000, 'refreshSkewMs'),
    allowInsecureHttp: options.allowInsecureHttp ?? false,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    clock: options.clock ?? { now: () => Date.now() },
  };
}

function parseHttpUrl(value: string | URL, name: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(name, String(value), 'expected an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError(name, url.protocol, 'expected an http: or https: URL');
  if (url.username !== '' || url.password !== '')
    throw new InvalidArgumentError(name, `${url.origin}${url.pathname}`, 'credentials in the URL are not allowed');
  return url;
}

/** The redirect URL as given (sent byte for byte), after checking the spec's rule: https, loopback http, or a private-use scheme. */
function checkRedirectUrl(value: string | URL): string {
  const text = typeof value === 'string' ? value : value.href;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError('redirectUrl', text, 'expected an absolute URL');
  }
  if (url.hash !== '') throw new InvalidArgumentError('redirectUrl', text, 'must not have a fragment');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    throw new InvalidArgumentError('redirectUrl', text, 'must use https: unless on a loopback host');
  return text;
}

function checkMetadataDocumentUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('clientIdMetadataUrl', value, 'expected an absolute https: URL');
  }
  if (url.protocol !== 'https:' || url.pathname === '/' || url.hash !== '') {
    throw new InvalidArgumentError('clientIdMetadataUrl', value, 'must be an https: URL with a path and no fragment');
  }
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError(name, value, 'expected an integer >= 1');
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError(name, value, 'expected a number >= 0');
  return value;
}
