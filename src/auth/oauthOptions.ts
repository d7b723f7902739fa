/**
 * The options of the OAuth provider (`createOAuthProvider`), checked and with their defaults
 * applied: what `OAuthSession` runs on. Runtime-neutral.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { FetchLike } from '../transport/http/stack.js';
import type { WallClock } from '../util/clock.js';
import { MemoryCredentialStore, type CredentialStore } from './credentialStore.js';
import {
  guardedFetch,
  resolveAddressPolicy,
  unpinnedSend,
  type CheckedSend,
  type DiscoveryAddressPolicy,
  type ResolvedAddressPolicy,
} from './addressPolicy.js';
import { checkDPoPKeyPair, type DPoPKeySource, type DPoPOptions } from './dpopOptions.js';
import { checkGrant, type AuthorizationCodeGrant, type NonInteractiveGrant, type OAuthGrant } from './grantOptions.js';
import { isLoopbackHost } from './loopback.js';
import { parseScopes } from './scopes.js';
import type { OAuthClientMetadata, PreRegisteredClient, PrivateKeyInput, RedirectHandler } from './types.js';

/** Wall-clock time, in epoch milliseconds (token and secret expiry times are stored as such). */
export type { WallClock };

/** Options of {@link createOAuthProvider}, whatever its grant. */
export interface OAuthProviderBaseOptions {
  /**
   * The MCP endpoint, as given to the transport (e.g. `"https://mcp.example.com/mcp"`). The
   * provider serves only this endpoint: the protected resource metadata must name it (or a
   * parent path of it on the same origin), and a transport for another URL is refused.
   */
  serverUrl: string | URL;
  /** Where tokens and registered clients are kept. @default a new `MemoryCredentialStore` */
  store?: CredentialStore | undefined;
  /**
   * Client credentials registered out of band, used first when they match the authorization
   * server (spec: client-registration, priority 1): a secret, or a private key for
   * `private_key_jwt`. The `client_credentials` grant needs one. @default none
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
   * Step-up authorizations for one `insufficient_scope` challenge (the same scope set) before
   * giving up with `InsufficientScopeError` (`reason: "retry-limit"`). With the first
   * authorization, an operation sees at most `maxStepUps + 1` authorization attempts.
   * @default 2
   */
  maxStepUps?: number | undefined;
  /**
   * Renew an access token this long before its `expires_in` runs out, in ms: by refresh token,
   * or with a grant that needs no browser, by running it again. The margin is capped at half
   * the token's lifetime, so a token issued for 20 s is renewed after 10 s, not before every
   * request; concurrent requests share one renewal. @default 30000
   */
  refreshSkewMs?: number | undefined;
  /**
   * Sender-constrained tokens (RFC 9449 DPoP; MCP extension `io.modelcontextprotocol/auth/dpop`).
   * On: every token request carries a DPoP proof (and is sent once more when the authorization
   * server asks for a nonce); a token the server binds to the key (`token_type: "DPoP"`) is sent
   * as `Authorization: DPoP <token>` with a fresh proof per HTTP request (`htm`, `htu`, `iat`,
   * `jti`, `ath`), and a `use_dpop_nonce` 401 from the MCP server is retried once with its
   * nonce. A server that issues bearer tokens anyway gets them presented as bearer tokens.
   * `true` uses a key pair generated for this provider; {@link DPoPOptions} can give the host's
   * own. @default false
   */
  dpop?: boolean | DPoPOptions | undefined;
  /**
   * Allow plain `http:` authorization servers that are not on a loopback host. The spec
   * requires HTTPS; loopback hosts are always allowed. @default false
   */
  allowInsecureHttp?: boolean | undefined;
  /**
   * The fetch for metadata, registration and token requests. Given one, DNS pinning is its
   * job: the address policy checks each URL's addresses, and this fetch resolves the name again
   * when it connects. @default globalThis.fetch, looked up at each call; from `mcp-live/node`,
   * requests on `node:http` that connect to the addresses checked (DNS pinning)
   */
  fetch?: FetchLike | undefined;
  /**
   * The address policy of discovery: every URL the provider fetches that is not on the MCP
   * server's own host (`resource_metadata`, `authorization_servers`, metadata URLs, token and
   * registration endpoints, each redirect) is refused before any connection with `OAuthError`
   * `address-refused` when it points at a loopback, private, link-local, unique-local, CGNAT,
   * unspecified or cloud metadata address, unless the MCP server's URL is itself on that kind
   * (a literal address or `localhost`: local development). Host names are resolved once where
   * `node:dns` exists, and every address is checked; the provider of `mcp-live/node` then
   * connects to an address checked (DNS pinning), the root one's `fetch` resolves the name
   * again; in a browser only literal addresses and metadata names are checked. `false`
   * turns it off; {@link DiscoveryAddressPolicy} allows more kinds, replaces the check or the
   * resolver. See docs/auth.md, "Discovery addresses". @default on
   */
  addressPolicy?: DiscoveryAddressPolicy | false | undefined;
  /** Wall-clock time for token and secret expiry. @default `{ now: Date.now }` */
  clock?: WallClock | undefined;
}

/** Options of a provider that runs the authorization code flow in a browser (the default grant). */
export interface AuthorizationCodeProviderOptions extends OAuthProviderBaseOptions {
  /** @default `{ type: 'authorization_code' }` */
  grant?: AuthorizationCodeGrant | undefined;
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
   * one fails with `AuthorizationRequiredError` (-33019) carrying the URL. @default none
   */
  redirectHandler?: RedirectHandler | undefined;
  /**
   * Ask for `offline_access` (a refresh token) when the authorization server lists it in
   * `scopes_supported` (spec: basic/authorization, "Refresh Tokens"). @default true
   */
  offlineAccess?: boolean | undefined;
}

/**
 * Options of a provider for an agent or service without a browser: client credentials,
 * workload identity (JWT bearer) or enterprise-managed authorization (ID-JAG). No redirect,
 * no registration: the client is `preRegistered` (or its Client ID Metadata Document URL), or,
 * for the JWT bearer grant, needs no client at all.
 */
export interface NonInteractiveProviderOptions extends OAuthProviderBaseOptions {
  /** How tokens are obtained; see {@link ClientCredentialsGrant}, {@link JwtBearerGrant}, {@link IdJagGrant}. */
  grant: NonInteractiveGrant;
  clientMetadata?: undefined;
  redirectUrl?: undefined;
  redirectHandler?: undefined;
  offlineAccess?: undefined;
}

/** Options of {@link createOAuthProvider}: a browser flow, or a grant without a browser. */
export type OAuthProviderOptions = AuthorizationCodeProviderOptions | NonInteractiveProviderOptions;

/** {@link OAuthProviderOptions} checked, with their defaults applied. */
export interface ResolvedOAuthOptions {
  readonly serverUrl: URL;
  /** `serverUrl`'s origin and path: the endpoint served, and the key of its tokens in the store. */
  readonly serverKey: string;
  readonly grant: OAuthGrant;
  /** For the authorization code grant only. */
  readonly clientMetadata: OAuthClientMetadata | undefined;
  /** For the authorization code grant only. */
  readonly redirectUrl: string | undefined;
  readonly redirectHandler: RedirectHandler | undefined;
  readonly store: CredentialStore;
  readonly preRegistered: readonly PreRegisteredClient[];
  readonly clientIdMetadataUrl: string | undefined;
  readonly extraScopes: readonly string[];
  readonly offlineAccess: boolean;
  readonly maxStepUps: number;
  readonly refreshSkewMs: number;
  readonly allowInsecureHttp: boolean;
  /** `fetch` behind the address policy, when it is on. */
  readonly fetch: FetchLike;
  readonly addressPolicy: ResolvedAddressPolicy | undefined;
  readonly clock: WallClock;
  /** DPoP on, with the host's key source (`undefined`: generate one), or off. */
  readonly dpop: { readonly keyPair: DPoPKeySource | undefined } | undefined;
}

/**
 * Checks `options` and applies the defaults. `pinned` makes the sender of a provider without
 * its own `fetch` from its address policy (`mcp-live/node`: `pinnedSend`); without it, or
 * with the policy off, requests go to `globalThis.fetch`.
 * @throws InvalidArgumentError (-32602) as {@link createOAuthProvider} documents.
 */
export function resolveOAuthOptions(
  options: OAuthProviderOptions,
  pinned?: (policy: ResolvedAddressPolicy) => CheckedSend | undefined,
): ResolvedOAuthOptions {
  const serverUrl = parseHttpUrl(options.serverUrl, 'serverUrl');
  serverUrl.hash = '';
  const grant = checkGrant(options.grant);
  const interactive = grant.type === 'authorization_code';
  if (options.clientIdMetadataUrl !== undefined) checkMetadataDocumentUrl(options.clientIdMetadataUrl);
  if (interactive && typeof options.clientMetadata?.client_name !== 'string')
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
    if (client.privateKey !== undefined) checkPrivateKey(client.privateKey, 'preRegistered.privateKey');
    if (client.tokenEndpointAuthMethod === 'private_key_jwt' && client.privateKey === undefined)
      throw new InvalidArgumentError('preRegistered.privateKey', undefined, 'private_key_jwt needs a privateKey');
  }
  if (grant.type === 'client_credentials' && preRegistered.length === 0)
    throw new InvalidArgumentError('preRegistered', pre, 'the client_credentials grant needs a pre-registered client');
  if (grant.type === 'id-jag') {
    if (preRegistered.length === 0 && options.clientIdMetadataUrl === undefined)
      throw new InvalidArgumentError(
        'preRegistered',
        pre,
        'the id-jag grant needs a pre-registered client (or clientIdMetadataUrl) at the MCP authorization server',
      );
    if (grant.idp.privateKey !== undefined) checkPrivateKey(grant.idp.privateKey, 'grant.idp.privateKey');
  }
  const baseFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  // The hosts the app named itself: the MCP server's, and an enterprise IdP's.
  const appHosts = [serverUrl.hostname];
  if (grant.type === 'id-jag') appHosts.push(hostnameOf(grant.idp.issuer));
  const addressPolicy = resolveAddressPolicy(serverUrl, appHosts, checkAddressPolicy(options.addressPolicy));
  return {
    serverUrl,
    serverKey: `${serverUrl.origin}${serverUrl.pathname}`,
    grant,
    clientMetadata: interactive ? options.clientMetadata : undefined,
    redirectUrl: interactive ? checkRedirectUrl(options.redirectUrl) : undefined,
    redirectHandler: interactive ? options.redirectHandler : undefined,
    store: options.store ?? new MemoryCredentialStore(),
    preRegistered,
    clientIdMetadataUrl: options.clientIdMetadataUrl,
    extraScopes: parseScopes(options.scope),
    offlineAccess: interactive && (options.offlineAccess ?? true),
    maxStepUps: positiveInteger(options.maxStepUps, 2, 'maxStepUps'),
    refreshSkewMs: nonNegative(options.refreshSkewMs, 30_000, 'refreshSkewMs'),
    allowInsecureHttp: options.allowInsecureHttp ?? false,
    fetch:
      addressPolicy === undefined
        ? baseFetch
        : guardedFetch(
            (options.fetch === undefined ? pinned?.(addressPolicy) : undefined) ?? unpinnedSend(baseFetch),
            addressPolicy,
          ),
    addressPolicy,
    clock: options.clock ?? { now: () => Date.now() },
    dpop: resolveDPoP(options.dpop),
  };
}

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

function checkAddressPolicy(value: unknown): DiscoveryAddressPolicy | false | undefined {
  if (value === undefined || value === false) return value;
  if (typeof value !== 'object' || value === null)
    throw new InvalidArgumentError(
      'addressPolicy',
      typeof value,
      'expected false or { allow, check, lookup, maxRedirects }',
    );
  const policy = value as DiscoveryAddressPolicy;
  if (policy.check !== undefined && typeof policy.check !== 'function')
    throw new InvalidArgumentError('addressPolicy.check', typeof policy.check, 'expected a function');
  if (policy.lookup !== undefined && typeof policy.lookup !== 'function')
    throw new InvalidArgumentError('addressPolicy.lookup', typeof policy.lookup, 'expected a function');
  if (policy.allow !== undefined && !Array.isArray(policy.allow))
    throw new InvalidArgumentError('addressPolicy.allow', policy.allow, 'expected an array of address kinds');
  nonNegative(policy.maxRedirects, 5, 'addressPolicy.maxRedirects');
  return policy;
}

function resolveDPoP(dpop: boolean | DPoPOptions | undefined): ResolvedOAuthOptions['dpop'] {
  if (dpop === undefined || dpop === false) return undefined;
  if (dpop === true) return { keyPair: undefined };
  const keyPair = (dpop as DPoPOptions | null)?.keyPair;
  if (
    typeof dpop !== 'object' ||
    dpop === null ||
    (keyPair !== undefined && typeof keyPair !== 'function' && (typeof keyPair !== 'object' || keyPair === null))
  )
    throw new InvalidArgumentError('dpop', typeof dpop, 'expected a boolean or { keyPair }');
  if (keyPair !== undefined && typeof keyPair !== 'function') checkDPoPKeyPair(keyPair, 'dpop.keyPair');
  return { keyPair };
}

/** A private signing key: a `CryptoKey` of type `private` with the `sign` usage. */
function checkPrivateKey(input: PrivateKeyInput, name: string): void {
  const key = (input as { key?: unknown }).key ?? input;
  const { type, usages } = (key ?? {}) as { type?: unknown; usages?: unknown };
  if (type !== 'private' || !Array.isArray(usages) || !usages.includes('sign'))
    throw new InvalidArgumentError(name, '(hidden)', 'expected a private CryptoKey with the sign usage');
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
function checkRedirectUrl(value: string | URL | undefined): string {
  if (typeof value !== 'string' && !(value instanceof URL))
    throw new InvalidArgumentError('redirectUrl', value, 'the authorization_code grant needs a redirect URL');
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
