/**
 * The OAuth 2.1 client of an MCP server reached over HTTP (spec: basic/authorization), as an
 * `authProvider` for `StreamableHttpTransport`: it supplies `Authorization: Bearer <token>` (or
 * a DPoP-bound token with its proof) per request and, when the server refuses, discovers the
 * authorization server, refreshes, runs its grant (the authorization code flow, or one without
 * a browser) or a scope step-up. Runtime-neutral.
 */
import { onDemand } from '../errors/moduleLoad.js';
import type { AuthRequestInfo, ProofRequest, ProofResponse, RequestProof } from '../transport/http/auth.js';
import { linkSignals } from '../util/signals.js';
import { resolveOAuthOptions, type OAuthProviderOptions, type ResolvedOAuthOptions } from './oauthOptions.js';
import type { OAuthSession } from './oauthSession.lazy.js';
import type { StoredTokens } from './types.js';

/** The OAuth flows and `oauth4webapi` under them, loaded on the first call of any provider. */
export const loadOAuthSession = onDemand('oauth', () =>
  import('./oauthSession.lazy.js').then((module) => module.OAuthSession),
);

/**
 * An OAuth 2.1 provider: call it as the `authProvider` of a `StreamableHttpTransport` (it is
 * one), or use its methods to log in up front, finish a flow, read or forget the tokens.
 */
export interface OAuthProvider {
  /**
   * The transport's hook (see `AuthProvider`). Attempt 1: the current token (`Bearer`, or
   * `DPoP` for a DPoP-bound one), renewed first when it is about to expire and the
   * authorization server is known; `undefined` when
   * there is none yet (the server's 401 then starts the flow). Attempt 2, after a 401: the token
   * another request already obtained, else one refresh or authorization shared by every
   * concurrent caller. Attempt 2 after 403 `insufficient_scope`: a step-up authorization for the
   * union of the granted and the challenged scopes. Attempt 3 (a transport that reports the
   * refusal of the retried credential): the typed error below.
   * @throws InsufficientScopeError (-33018), AuthorizationRequiredError (-33019), OAuthError
   *   (-33017), InvalidArgumentError (-32602) for a transport URL that is not `serverUrl`;
   *   ModuleLoadError (-33042, `data.module` `"oauth"`) when the OAuth code cannot be loaded
   *   (the request is not sent; the next call loads again); `info.signal`'s reason when it aborts.
   */
  (info: AuthRequestInfo): Promise<string | undefined>;
  /** The MCP endpoint this provider serves (origin and path). */
  readonly serverUrl: string;
  /**
   * Logs in now, before any request: discovers the authorization server from the well-known
   * metadata URLs and runs the grant (the authorization code flow, by default) for `scope`
   * (else the resource's `scopes_supported`). No request timeout applies, unlike a flow
   * started by a request.
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
   *   the errors of the code exchange; ModuleLoadError (-33042) as the provider does.
   */
  completeAuthorization(callbackUrl: string | URL, options?: { signal?: AbortSignal | undefined }): Promise<void>;
  /**
   * The current tokens (secret values), or `undefined`. A copy.
   * @throws ModuleLoadError (-33042) as the provider does; what the store throws.
   */
  getTokens(): Promise<StoredTokens | undefined>;
  /**
   * Forgets the tokens of this server (here and in the store) and every pending authorization.
   * @throws ModuleLoadError (-33042) as the provider does; what the store throws.
   */
  signOut(): Promise<void>;
  /**
   * With `dpop` on: the DPoP proof of each HTTP request that presents a DPoP-bound token.
   * `headers()` throws ModuleLoadError (-33042) as the provider does.
   */
  readonly requestProof?: RequestProof | undefined;
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
 *   `client_secret_basic`, `client_secret_post`, `private_key_jwt` or `none`.
 * - Or, with `grant`, no browser: client credentials, the JWT bearer grant with a JWT the host
 *   supplies (workload identity), or enterprise-managed authorization (an ID-JAG from the
 *   enterprise IdP by token exchange); a refused grant is surfaced, never retried or swapped.
 * - With `dpop`, sender-constrained tokens (RFC 9449): proofs on token requests and on every
 *   MCP request, the `DPoP` scheme, each server's `DPoP-Nonce` retried once.
 * - Refresh tokens (with `offline_access` when offered); one refresh or authorization for any
 *   number of concurrent 401s; a refused refresh never deletes stored credentials.
 * - Step-up on 403 `insufficient_scope` for the union of granted and challenged scopes, at most
 *   one authorization per request and `maxStepUps` per challenge; a 403 for scopes the token
 *   already holds ends with `InsufficientScopeError`.
 *
 * The options are checked here, synchronously. The OAuth code itself (discovery, registration,
 * the grants, DPoP, refresh and step-up, on `oauth4webapi`) loads on the first call of the
 * provider or of one of its methods, with no request of its own: each of them rejects with
 * `ModuleLoadError` (-33042, `data.module` `"oauth"`) when that load fails, before anything is
 * sent, and the next call tries the load again.
 *
 * @throws InvalidArgumentError (-32602) for a `serverUrl`, `redirectUrl` or
 *   `clientIdMetadataUrl` that breaks the rules above, a bad number option, a malformed
 *   `grant`, a grant without the client it needs, or a `privateKey` / `dpop.keyPair` that is
 *   not a private signing `CryptoKey`.
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
  return oauthProviderOn(resolveOAuthOptions(options), loadOAuthSession);
}

/**
 * The provider of checked `options`, whose session class `load` supplies on its first call
 * (`createOAuthProvider`: the on-demand import of the OAuth code). One session per provider;
 * a rejected load leaves none, and the next call asks `load` again.
 */
export function oauthProviderOn(
  options: ResolvedOAuthOptions,
  load: () => Promise<typeof OAuthSession>,
): OAuthProvider {
  let session: OAuthSession | undefined;
  const open = async (): Promise<OAuthSession> => {
    if (session !== undefined) return session;
    const Session = await load();
    return (session ??= new Session(options));
  };
  const provider = async (info: AuthRequestInfo): Promise<string | undefined> => (await open()).authorization(info);
  const requestProof: RequestProof | undefined =
    options.dpop === undefined
      ? undefined
      : {
          headers: async (request: ProofRequest) => (await open()).proofHeaders(request),
          // Called only after `headers()` for the same request, so the session is there.
          response: (response: ProofResponse) => session?.proofResponse(response) ?? false,
        };
  return Object.assign(provider, {
    serverUrl: options.serverKey,
    authorize: (opts?: { signal?: AbortSignal | undefined; scope?: string | readonly string[] | undefined }) =>
      linked(opts?.signal, async (signal) => (await open()).authorize(opts?.scope, signal)),
    completeAuthorization: (callbackUrl: string | URL, opts?: { signal?: AbortSignal | undefined }) =>
      linked(opts?.signal, async (signal) => (await open()).complete(callbackUrl, signal)),
    getTokens: async () => (await open()).currentTokens(),
    signOut: async () => (await open()).signOut(),
    ...(requestProof !== undefined && { requestProof }),
  });
}

/** Runs `run` with a signal that follows `signal` (if any) and lets go of it when `run` settles. */
async function linked<T>(signal: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const link = linkSignals(signal);
  try {
    return await run(link.signal);
  } finally {
    link.dispose();
  }
}
