/**
 * The options of the OAuth provider (`createOAuthProvider`), checked and with their defaults
 * applied: what `OAuthSession` runs on. Runtime-neutral.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { FetchLike } from '../transport/http/stack.js';
import type { WallClock } from '../util/clock.js';
import { isLoopbackHost } from './authHttp.js';
import { MemoryCredentialStore, type CredentialStore } from './credentialStore.js';
import { parseScopes } from './scopes.js';
import type { OAuthClientMetadata, PreRegisteredClient, RedirectHandler } from './types.js';

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
