/**
 * How one OAuth provider obtains tokens from the authorization server: discovery (each server's
 * metadata kept by issuer), the client identity there, the grant (the authorization code flow
 * around the redirect handler with its pending authorizations, or a grant without a browser)
 * and the refresh token grant. Runtime-neutral.
 */
import type * as oauth from 'oauth4webapi';
import {
  redeemAuthorizationResponse,
  refreshAccessToken,
  startAuthorization,
  type PendingAuthorization,
} from './authorizationCode.js';
import { ClientIdentities, noClientIdentity } from './clientIdentity.js';
import { discoverAuthorizationServer, discoverResourceMetadata, type ResourceMetadata } from './discovery.js';
import type { DPoPProver } from './dpop.js';
import { AuthorizationRequiredError, OAuthError, isOAuthError } from './errors.js';
import { GrantRunner } from './grants.js';
import type { ResolvedOAuthOptions } from './oauthOptions.js';
import { parseScopes } from './scopes.js';
import type { TokenKeeper } from './tokenKeeper.js';
import type { HttpContext, StoredTokens } from './types.js';

/** Most authorization requests kept for `completeAuthorization()`. */
const MAX_PENDING = 8;

/** What discovery found for one authorization. */
export interface Discovered {
  readonly resource: ResourceMetadata;
  readonly as: oauth.AuthorizationServer;
}

/**
 * Obtains the tokens of one provider and hands them to its {@link TokenKeeper}, which stores
 * them. Internal to the OAuth session.
 */
export class Authorizer {
  private readonly identities: ClientIdentities;
  /** The grant without a browser, when the provider has one (else the authorization code flow). */
  private readonly runner: GrantRunner | undefined;
  /** Validated authorization server metadata, by issuer. */
  private readonly servers = new Map<string, oauth.AuthorizationServer>();
  /** Authorization requests whose callback may still come, by `state`. */
  private readonly pending = new Map<string, PendingAuthorization>();

  constructor(
    private readonly options: ResolvedOAuthOptions,
    private readonly tokens: TokenKeeper,
    private readonly dpop: DPoPProver | undefined,
  ) {
    this.runner = options.grant.type === 'authorization_code' ? undefined : new GrantRunner(options.grant);
    this.identities = new ClientIdentities({
      preRegistered: options.preRegistered,
      clientIdMetadataUrl: options.clientIdMetadataUrl,
      clientMetadata: options.clientMetadata,
      redirectUrl: options.redirectUrl,
      store: options.store,
      now: () => options.clock.now(),
    });
  }

  /** True when the grant needs no browser, so that running it again renews a token. */
  get headless(): boolean {
    return this.runner !== undefined;
  }

  /** The HTTP context of the requests made for one operation, aborted by `signal`. */
  http(signal: AbortSignal): HttpContext {
    return { fetch: this.options.fetch, allowInsecureHttp: this.options.allowInsecureHttp, signal };
  }

  /** The metadata of the authorization server `issuer`, when discovery has read it. */
  knownServer(issuer: string): oauth.AuthorizationServer | undefined {
    return this.servers.get(issuer);
  }

  /**
   * Protected resource metadata (read afresh: it is how a change of authorization server
   * shows), then the chosen server's metadata (read once per issuer).
   * @throws OAuthError `metadata-*`, `resource-mismatch`, `issuer-mismatch`,
   *   `pkce-unsupported`, `insecure-endpoint`, `network-error`.
   */
  async discover(advertised: string | undefined, http: HttpContext): Promise<Discovered> {
    const resource = await discoverResourceMetadata(this.options.serverUrl, advertised, http);
    const issuer = this.chooseIssuer(resource.authorizationServers);
    let as = this.servers.get(issuer);
    if (as === undefined) {
      as = await discoverAuthorizationServer(issuer, http, { requirePkce: this.runner === undefined });
      this.servers.set(issuer, as);
    }
    return { resource, as };
  }

  /**
   * Obtains tokens for `scopes` from the discovered authorization server with the grant: the
   * authorization code flow, or the grant without a browser. `admit` may veto the attempt by
   * returning an error (the step-up attempt limit).
   * @throws OAuthError, AuthorizationRequiredError (-33019) when no redirect handler runs the
   *   browser step, the veto of `admit`.
   */
  async obtain(
    found: Discovered,
    scopes: string[],
    http: HttpContext,
    admit: () => Error | undefined,
  ): Promise<StoredTokens> {
    if (this.runner !== undefined) {
      const refused = admit();
      if (refused !== undefined) throw refused;
      return this.grant(found.as, found.resource.resource, scopes, http);
    }
    const identity = await this.identities.resolve(found.as, http, true);
    if (identity === undefined) throw noClientIdentity(found.as);
    const refused = admit();
    if (refused !== undefined) throw refused;
    const redirectUrl = this.options.redirectUrl as string;
    const pending = await startAuthorization(
      {
        as: found.as,
        client: identity,
        redirectUri: redirectUrl,
        resource: found.resource.resource,
        scopes,
      },
      http,
    );
    this.remember(pending);
    const handler = this.options.redirectHandler;
    if (handler === undefined) throw authorizationRequired(pending, 'no-redirect-handler');
    const callback = await handler({
      authorizationUrl: new URL(pending.authorizationUrl.href),
      redirectUrl,
      state: pending.state,
      scopes: pending.scopes,
      issuer: found.as.issuer,
      signal: http.signal,
    });
    if (http.signal.aborted) throw http.signal.reason;
    if (callback === undefined) throw authorizationRequired(pending, 'declined');
    return this.redeem(pending, parseCallback(callback), http);
  }

  /**
   * One token from the grant without a browser ({@link headless} providers only), saved.
   * @throws as `GrantRunner.token`.
   */
  async grant(
    as: oauth.AuthorizationServer,
    resource: string,
    scopes: readonly string[],
    http: HttpContext,
  ): Promise<StoredTokens> {
    const runner = this.runner as GrantRunner;
    const identity = await this.identities.resolve(as, http, false);
    const response = await runner.token({ as, identity, resource, scopes, http, dpop: this.dpop });
    return this.tokens.save(
      await this.tokens.fromResponse(response, {
        issuer: as.issuer,
        resource,
        clientId: identity?.clientId,
        requested: [...scopes],
        previous: undefined,
      }),
    );
  }

  /**
   * Spends `refreshToken`. Resolves with the new tokens, or `undefined` when the server refused
   * the refresh token (another process sharing the store may have rotated it: then its tokens).
   * Other failures reject and leave every credential in place.
   */
  async refresh(
    current: StoredTokens,
    refreshToken: string,
    as: oauth.AuthorizationServer,
    http: HttpContext,
  ): Promise<StoredTokens | undefined> {
    const identity = await this.identities.resolve(as, http, false);
    if (identity === undefined || (current.clientId !== undefined && identity.clientId !== current.clientId))
      return undefined;
    try {
      const response = await refreshAccessToken(as, identity, refreshToken, current.resource, http, this.dpop);
      return await this.tokens.save(
        await this.tokens.fromResponse(response, {
          issuer: as.issuer,
          resource: current.resource,
          clientId: identity.clientId,
          requested: parseScopes(current.scope),
          previous: current,
        }),
      );
    } catch (error) {
      if (!(isOAuthError(error) && error.data.failure === 'token-request-failed' && error.data.error !== undefined))
        throw error;
      this.tokens.refused(refreshToken);
      const stored = await this.tokens.stored();
      if (
        stored !== undefined &&
        stored.accessToken !== current.accessToken &&
        stored.issuer === as.issuer &&
        stored.resource === current.resource
      )
        return this.tokens.adopt(stored);
      return undefined;
    }
  }

  /**
   * Finishes the authorization whose `state` the callback carries and redeems its code.
   * @throws OAuthError `invalid-callback` when no pending authorization has that `state`, and
   *   the errors of the code exchange.
   */
  async complete(callbackUrl: string | URL, http: HttpContext): Promise<StoredTokens> {
    const url = parseCallback(callbackUrl);
    const state = url.searchParams.get('state');
    const pending = state === null ? undefined : this.pending.get(state);
    if (pending === undefined)
      throw new OAuthError('no pending authorization has the state of this callback', {
        failure: 'invalid-callback',
      });
    return this.redeem(pending, url, http);
  }

  /** Forgets every pending authorization. */
  forgetPending(): void {
    this.pending.clear();
  }

  /** Checks a callback against its pending authorization and redeems the code. */
  private async redeem(pending: PendingAuthorization, callback: URL, http: HttpContext): Promise<StoredTokens> {
    const expected = new URL(pending.redirectUri);
    if (callback.origin !== expected.origin || callback.pathname !== expected.pathname) {
      throw new OAuthError('the redirect handler returned a URL that is not the redirect URL', {
        failure: 'invalid-callback',
        expected: `${expected.origin}${expected.pathname}`,
        actual: `${callback.origin}${callback.pathname}`,
      });
    }
    this.pending.delete(pending.state);
    const response = await redeemAuthorizationResponse(pending, callback, http, this.dpop);
    return this.tokens.save(
      await this.tokens.fromResponse(response, {
        issuer: pending.as.issuer,
        resource: pending.resource,
        clientId: pending.client.clientId,
        requested: [...pending.scopes],
        previous: undefined,
      }),
    );
  }

  /** A pinned pre-registered issuer when listed, else the issuer of the current tokens when listed, else the first. */
  private chooseIssuer(servers: readonly string[]): string {
    const pinned = this.identities.pinnedIssuerIn(servers);
    if (pinned !== undefined) return pinned;
    const current = this.tokens.current?.issuer;
    if (current !== undefined && servers.includes(current)) return current;
    return servers[0]!;
  }

  private remember(pending: PendingAuthorization): void {
    this.pending.set(pending.state, pending);
    while (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
  }
}

/** The scopes an authorization server lists in `scopes_supported`, when it lists them. */
export function serverScopes(as: oauth.AuthorizationServer): string[] | undefined {
  const scopes = as.scopes_supported;
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : undefined;
}

function authorizationRequired(
  pending: PendingAuthorization,
  reason: 'no-redirect-handler' | 'declined',
): AuthorizationRequiredError {
  return new AuthorizationRequiredError({
    authorizationUrl: pending.authorizationUrl.href,
    scopes: [...pending.scopes],
    issuer: pending.as.issuer,
    resource: pending.resource,
    reason,
  });
}

function parseCallback(value: string | URL): URL {
  try {
    return new URL(typeof value === 'string' ? value : value.href);
  } catch {
    throw new OAuthError('the redirect handler returned something that is not a URL', { failure: 'invalid-callback' });
  }
}
