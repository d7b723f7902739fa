/**
 * The state machine behind `createOAuthProvider()`: the current tokens, discovery, the shared
 * 401 recoveries, early renewals and step-ups, and the grant that obtains tokens: the
 * authorization code flow around the redirect handler, or a grant without a browser. With DPoP
 * on, the key binding of tokens and the proofs of MCP requests. Runtime-neutral.
 */
import type * as oauth from 'oauth4webapi';
import { InvalidArgumentError } from '../errors/errors.js';
import type { AuthFailureInfo, AuthRequestInfo, RequestProof } from '../transport/http/auth.js';
import { linkSignals } from '../util/signals.js';
import {
  redeemAuthorizationResponse,
  refreshAccessToken,
  startAuthorization,
  type PendingAuthorization,
} from './authorizationCode.js';
import { ClientIdentities, noClientIdentity } from './clientIdentity.js';
import { discoverAuthorizationServer, discoverResourceMetadata, type ResourceMetadata } from './discovery.js';
import { DPoPProver } from './dpop.js';
import { AuthorizationRequiredError, InsufficientScopeError, OAuthError, isOAuthError } from './errors.js';
import { GrantRunner } from './grants.js';
import type { ResolvedOAuthOptions } from './oauthOptions.js';
import { coversScopes, parseScopes, scopeKey, selectInitialScopes, selectStepUpScopes, unionScopes } from './scopes.js';
import { FlightGroup } from './sharedFlight.js';
import type { HttpContext, StoredTokens } from './types.js';

/** The renewal margin is at most this fraction of a token's lifetime (see `expiring`). */
const RENEW_AT_LIFETIME_FRACTION = 0.5;

/** What discovery found for one recovery. */
interface Discovered {
  readonly resource: ResourceMetadata;
  readonly as: oauth.AuthorizationServer;
}

/** Most authorization requests kept for `completeAuthorization()`. */
const MAX_PENDING = 8;

/**
 * One provider's state. `authorization()` is the transport hook; the other public methods back
 * the provider's methods of the same purpose. Internal: hosts use `createOAuthProvider()`.
 */
export class OAuthSession {
  /** The MCP endpoint served (origin and path); the key of its tokens in the store. */
  readonly serverKey: string;
  private readonly identities: ClientIdentities;
  private tokens: StoredTokens | undefined;
  private loading: Promise<void> | undefined;
  /** Validated authorization server metadata, by issuer. */
  private readonly servers = new Map<string, oauth.AuthorizationServer>();
  /** 401 recoveries, by the refused `Authorization` value. */
  private readonly recoveries = new FlightGroup<StoredTokens>();
  /** Refreshes started before a request because the token is about to expire. */
  private readonly earlyRefreshes = new FlightGroup<StoredTokens>();
  /** Step-ups, by the refused `Authorization` value; with the scopes each asks for. */
  private readonly stepUps = new FlightGroup<StoredTokens>();
  private readonly stepUpTargets = new Map<string, string[]>();
  private readonly pending = new Map<string, PendingAuthorization>();
  /** Step-up authorizations made, by challenged scope set. */
  private readonly stepUpCounts = new Map<string, number>();
  /** A refresh token the server refused: not spent again. */
  private refusedRefreshToken: string | undefined;
  /** The last transport URL found to be `serverKey`'s. */
  private checkedUrl: string | undefined;
  /** The DPoP key and proofs, when DPoP is on. */
  private readonly dpop: DPoPProver | undefined;
  /** The grant without a browser, when the provider has one (else the authorization code flow). */
  private readonly runner: GrantRunner | undefined;

  constructor(private readonly options: ResolvedOAuthOptions) {
    this.serverKey = `${options.serverUrl.origin}${options.serverUrl.pathname}`;
    this.dpop = options.dpop === undefined ? undefined : new DPoPProver(options.dpop.keyPair);
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

  /** The transport's proof hook, when DPoP is on: a proof for each request presenting a DPoP token. */
  requestProof(): RequestProof | undefined {
    const dpop = this.dpop;
    if (dpop === undefined) return undefined;
    return {
      headers: async ({ method, url, authorization }) => {
        if (!/^dpop /i.test(authorization)) return {};
        return { dpop: await dpop.proof(method, url, authorization.slice(5).trim()) };
      },
      response: ({ url, status, header }) => dpop.noteResponse(url, status, header),
    };
  }

  async authorization(info: AuthRequestInfo): Promise<string | undefined> {
    this.checkUrl(info.url);
    const failure = info.failure;
    if (info.attempt <= 1 || failure === undefined) return this.currentHeader(info.signal);
    if (info.attempt >= 3) return this.refusedAfterRetry(failure);
    if (failure.status === 401) return this.onUnauthorized(failure, info.signal);
    if (failure.failure === 'insufficient_scope') return this.onInsufficientScope(failure, info.signal);
    return undefined;
  }

  async authorize(
    opts: { signal?: AbortSignal | undefined; scope?: string | readonly string[] | undefined } = {},
  ): Promise<void> {
    const linked = linkSignals(opts.signal);
    try {
      await this.load();
      const http = this.http(linked.signal);
      const found = await this.discover(undefined, http);
      const scopes = selectInitialScopes({
        challenged: parseScopes(opts.scope),
        resourceScopes: found.resource.scopesSupported,
        extra: this.options.extraScopes,
        serverScopes: serverScopes(found.as),
        offlineAccess: this.options.offlineAccess,
      });
      await this.authorizeWith(found, scopes, http, () => undefined);
      this.stepUpCounts.clear();
    } finally {
      linked.dispose();
    }
  }

  async complete(callbackUrl: string | URL, signal: AbortSignal | undefined): Promise<void> {
    const linked = linkSignals(signal);
    try {
      const url = parseCallback(callbackUrl);
      const state = url.searchParams.get('state');
      const pending = state === null ? undefined : this.pending.get(state);
      if (pending === undefined)
        throw new OAuthError('no pending authorization has the state of this callback', {
          failure: 'invalid-callback',
        });
      await this.redeem(pending, url, this.http(linked.signal));
    } finally {
      linked.dispose();
    }
  }

  async currentTokens(): Promise<StoredTokens | undefined> {
    await this.load();
    return this.tokens === undefined ? undefined : { ...this.tokens };
  }

  async signOut(): Promise<void> {
    this.tokens = undefined;
    this.pending.clear();
    this.stepUpCounts.clear();
    this.refusedRefreshToken = undefined;
    this.loading = Promise.resolve();
    await this.options.store.deleteTokens(this.serverKey);
  }

  /** Attempt 1: the token to send, renewed early when it is about to expire. */
  private async currentHeader(signal: AbortSignal): Promise<string | undefined> {
    const tokens = await this.load();
    if (tokens === undefined) return undefined;
    const as = this.servers.get(tokens.issuer);
    if (as !== undefined && this.expiring(tokens) && this.renewable(tokens)) {
      try {
        const renewed = await this.earlyRefreshes.join(authorizationOf(tokens), signal, (flightSignal) =>
          this.renew(tokens, as, this.http(flightSignal)),
        );
        return authorizationOf(renewed);
      } catch {
        if (signal.aborted) throw signal.reason;
        // Send the token we have: if the server refuses it, its 401 starts the full recovery.
      }
    }
    return authorizationOf(this.tokens ?? tokens);
  }

  /** Whether `tokens` can be renewed without a browser: a refresh token not refused, or a grant that needs none. */
  private renewable(tokens: StoredTokens): boolean {
    return (
      this.runner !== undefined ||
      (tokens.refreshToken !== undefined && tokens.refreshToken !== this.refusedRefreshToken)
    );
  }

  /** An early renewal: the refresh token when there is one, else the grant again. */
  private async renew(tokens: StoredTokens, as: oauth.AuthorizationServer, http: HttpContext): Promise<StoredTokens> {
    const refreshToken = tokens.refreshToken;
    if (refreshToken !== undefined && refreshToken !== this.refusedRefreshToken) {
      const refreshed = await this.refresh(tokens, refreshToken, as, http);
      if (refreshed !== undefined) return refreshed;
    }
    if (this.runner === undefined) throw new Error('refresh refused');
    return this.grantToken(as, tokens.resource, parseScopes(tokens.scope), http);
  }

  /** Attempt 2 after a 401. */
  private async onUnauthorized(failure: AuthFailureInfo, signal: AbortSignal): Promise<string> {
    await this.load();
    const rejected = failure.rejected ?? '';
    await this.earlyRefreshes.settle(rejected, signal);
    const current = this.tokens;
    // Sent with an older token than the current one: retry with the current one, no refresh.
    if (current !== undefined && authorizationOf(current) !== failure.rejected) return authorizationOf(current);
    return authorizationOf(
      await this.recoveries.join(rejected, signal, (flightSignal) => this.recover(failure, flightSignal)),
    );
  }

  /** One 401 recovery: rediscover, adopt what another process stored, refresh, or authorize. */
  private async recover(failure: AuthFailureInfo, signal: AbortSignal): Promise<StoredTokens> {
    const http = this.http(signal);
    const found = await this.discover(failure.bearer?.resourceMetadata, http);
    const issuer = found.as.issuer;
    const resource = found.resource.resource;
    const stored = await this.usable(await this.options.store.getTokens(this.serverKey));
    if (
      stored !== undefined &&
      authorizationOf(stored) !== failure.rejected &&
      stored.issuer === issuer &&
      stored.resource === resource &&
      !this.expiring(stored)
    ) {
      this.tokens = stored;
      return stored;
    }
    const current = this.tokens;
    const refreshToken = current?.refreshToken;
    if (
      current !== undefined &&
      refreshToken !== undefined &&
      refreshToken !== this.refusedRefreshToken &&
      current.issuer === issuer &&
      current.resource === resource
    ) {
      const refreshed = await this.refresh(current, refreshToken, found.as, http);
      if (refreshed !== undefined) return refreshed;
    }
    const previous = current !== undefined && current.resource === resource ? parseScopes(current.scope) : [];
    const scopes = unionScopes(
      selectInitialScopes({
        challenged: parseScopes(failure.bearer?.scope),
        resourceScopes: found.resource.scopesSupported,
        extra: this.options.extraScopes,
        serverScopes: serverScopes(found.as),
        offlineAccess: this.options.offlineAccess,
      }),
      previous,
    );
    const tokens = await this.authorizeWith(found, scopes, http, () => undefined);
    this.stepUpCounts.clear();
    return tokens;
  }

  /**
   * Spends `refreshToken`. Resolves with the new tokens, or `undefined` when the server refused
   * the refresh token (another process sharing the store may have rotated it: then its tokens).
   * Other failures reject and leave every credential in place.
   */
  private async refresh(
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
      return await this.save(
        await this.tokensFrom(response, {
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
      this.refusedRefreshToken = refreshToken;
      const stored = await this.usable(await this.options.store.getTokens(this.serverKey));
      if (
        stored !== undefined &&
        stored.accessToken !== current.accessToken &&
        stored.issuer === as.issuer &&
        stored.resource === current.resource
      ) {
        this.tokens = stored;
        return stored;
      }
      return undefined;
    }
  }

  /** Attempt 2 after 403 `insufficient_scope`. */
  private async onInsufficientScope(failure: AuthFailureInfo, signal: AbortSignal): Promise<string> {
    await this.load();
    const challenged = parseScopes(failure.bearer?.scope);
    for (;;) {
      const current = this.tokens;
      if (current === undefined) return this.onUnauthorized(failure, signal);
      const key = authorizationOf(current);
      const granted = parseScopes(current.scope);
      if (key !== failure.rejected && (challenged.length === 0 || coversScopes(granted, challenged))) return key;
      if (challenged.length === 0) throw this.insufficientScope(failure, challenged, granted, 'no-scope-in-challenge');
      if (key === failure.rejected && coversScopes(granted, challenged))
        throw this.insufficientScope(failure, challenged, granted, 'already-granted');
      const running = this.stepUpTargets.get(key);
      if (running !== undefined && !coversScopes(running, challenged)) {
        // A step-up from this token is under way for other scopes: wait, then step up from its result.
        await this.stepUps.settle(key, signal);
        continue;
      }
      if (signal.aborted) throw signal.reason;
      if (running === undefined) this.stepUpTargets.set(key, unionScopes(granted, challenged));
      const tokens = await this.stepUps.join(key, signal, async (flightSignal) => {
        try {
          return await this.stepUp(current, failure, challenged, flightSignal);
        } finally {
          this.stepUpTargets.delete(key);
        }
      });
      return authorizationOf(tokens);
    }
  }

  private async stepUp(
    current: StoredTokens,
    failure: AuthFailureInfo,
    challenged: string[],
    signal: AbortSignal,
  ): Promise<StoredTokens> {
    const http = this.http(signal);
    const found = await this.discover(failure.bearer?.resourceMetadata, http);
    const granted = parseScopes(current.scope);
    const scopes = selectStepUpScopes(granted, challenged, serverScopes(found.as), this.options.offlineAccess);
    const countKey = scopeKey(challenged);
    return this.authorizeWith(found, scopes, http, () => {
      const made = this.stepUpCounts.get(countKey) ?? 0;
      if (made >= this.options.maxStepUps)
        return this.insufficientScope(failure, challenged, granted, 'retry-limit', made);
      this.stepUpCounts.set(countKey, made + 1);
      return undefined;
    });
  }

  /** Attempt 3: the credential obtained on attempt 2 was refused too. */
  private refusedAfterRetry(failure: AuthFailureInfo): never {
    const granted = parseScopes(this.tokens?.scope);
    if (failure.failure === 'insufficient_scope') {
      const challenged = parseScopes(failure.bearer?.scope);
      throw this.insufficientScope(
        failure,
        challenged,
        granted,
        challenged.length === 0
          ? 'no-scope-in-challenge'
          : coversScopes(granted, challenged)
            ? 'already-granted'
            : 'retry-limit',
      );
    }
    throw new OAuthError('the server refused the token it was just issued', {
      failure: 'retry-limit',
      issuer: this.tokens?.issuer,
      status: failure.status,
      error: failure.bearer?.error,
    });
  }

  private insufficientScope(
    failure: AuthFailureInfo,
    required: string[],
    granted: string[],
    reason: 'already-granted' | 'no-scope-in-challenge' | 'retry-limit',
    attempts?: number,
  ): InsufficientScopeError {
    return new InsufficientScopeError({
      requiredScopes: required,
      grantedScopes: granted,
      reason,
      attempts: attempts ?? this.stepUpCounts.get(scopeKey(required)) ?? 0,
      ...(failure.bearer?.errorDescription !== undefined && { errorDescription: failure.bearer.errorDescription }),
      ...(failure.bearer?.resourceMetadata !== undefined && { resourceMetadata: failure.bearer.resourceMetadata }),
    });
  }

  /**
   * Obtains tokens for `scopes` from the discovered authorization server with the grant: the
   * authorization code flow, or the grant without a browser. `admit` may veto the attempt by
   * returning an error (the step-up attempt limit).
   */
  private async authorizeWith(
    found: Discovered,
    scopes: string[],
    http: HttpContext,
    admit: () => Error | undefined,
  ): Promise<StoredTokens> {
    if (this.runner !== undefined) {
      const refused = admit();
      if (refused !== undefined) throw refused;
      return this.grantToken(found.as, found.resource.resource, scopes, http);
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
    if (handler === undefined) throw this.authorizationRequired(pending, 'no-redirect-handler');
    const callback = await handler({
      authorizationUrl: new URL(pending.authorizationUrl.href),
      redirectUrl,
      state: pending.state,
      scopes: pending.scopes,
      issuer: found.as.issuer,
      signal: http.signal,
    });
    if (http.signal.aborted) throw http.signal.reason;
    if (callback === undefined) throw this.authorizationRequired(pending, 'declined');
    return this.redeem(pending, parseCallback(callback), http);
  }

  /** One token from the grant without a browser, saved. */
  private async grantToken(
    as: oauth.AuthorizationServer,
    resource: string,
    scopes: readonly string[],
    http: HttpContext,
  ): Promise<StoredTokens> {
    const runner = this.runner as GrantRunner;
    const identity = await this.identities.resolve(as, http, false);
    const response = await runner.token({ as, identity, resource, scopes, http, dpop: this.dpop });
    return this.save(
      await this.tokensFrom(response, {
        issuer: as.issuer,
        resource,
        clientId: identity?.clientId,
        requested: [...scopes],
        previous: undefined,
      }),
    );
  }

  private authorizationRequired(
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
    return this.save(
      await this.tokensFrom(response, {
        issuer: pending.as.issuer,
        resource: pending.resource,
        clientId: pending.client.clientId,
        requested: [...pending.scopes],
        previous: undefined,
      }),
    );
  }

  /** Protected resource metadata (fresh: it is how a change of authorization server shows), then the chosen server's metadata (cached). */
  private async discover(advertised: string | undefined, http: HttpContext): Promise<Discovered> {
    const resource = await discoverResourceMetadata(this.options.serverUrl, advertised, http);
    const issuer = this.chooseIssuer(resource.authorizationServers);
    let as = this.servers.get(issuer);
    if (as === undefined) {
      as = await discoverAuthorizationServer(issuer, http, { requirePkce: this.runner === undefined });
      this.servers.set(issuer, as);
    }
    return { resource, as };
  }

  /** A pinned pre-registered issuer when listed, else the issuer of the current tokens when listed, else the first. */
  private chooseIssuer(servers: readonly string[]): string {
    const pinned = this.identities.pinnedIssuerIn(servers);
    if (pinned !== undefined) return pinned;
    const current = this.tokens?.issuer;
    if (current !== undefined && servers.includes(current)) return current;
    return servers[0]!;
  }

  /** The tokens of a token response; a DPoP one records the thumbprint of the key it is bound to. */
  private async tokensFrom(
    response: oauth.TokenEndpointResponse,
    context: {
      issuer: string;
      resource: string;
      clientId: string | undefined;
      requested: string[];
      previous: StoredTokens | undefined;
    },
  ): Promise<StoredTokens> {
    const dpopJkt = response.token_type === 'dpop' ? await this.dpop?.thumbprint() : undefined;
    const now = this.options.clock.now();
    const scope =
      response.scope ?? (context.requested.length > 0 ? context.requested.join(' ') : context.previous?.scope);
    const refreshToken = response.refresh_token ?? context.previous?.refreshToken;
    return {
      issuer: context.issuer,
      resource: context.resource,
      ...(context.clientId !== undefined && { clientId: context.clientId }),
      accessToken: response.access_token,
      ...(dpopJkt !== undefined && { tokenType: 'DPoP' as const, dpopJkt }),
      ...(refreshToken !== undefined && { refreshToken }),
      ...(response.expires_in !== undefined && { expiresAt: now + response.expires_in * 1000 }),
      ...(scope !== undefined && scope !== '' && { scope }),
      obtainedAt: now,
    };
  }

  private async save(tokens: StoredTokens): Promise<StoredTokens> {
    this.tokens = tokens;
    await this.options.store.setTokens(this.serverKey, tokens);
    return tokens;
  }

  /** Loads the stored tokens once (again after a failed load). */
  private async load(): Promise<StoredTokens | undefined> {
    if (this.loading === undefined) {
      const loading = Promise.resolve(this.options.store.getTokens(this.serverKey))
        .then((stored) => this.usable(stored))
        .then((stored) => {
          if (this.tokens === undefined && stored !== undefined) this.tokens = stored;
        });
      this.loading = loading;
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    await this.loading;
    return this.tokens;
  }

  /**
   * `tokens` when this provider can present them: bearer tokens always, a DPoP token only when
   * it is bound to this provider's key (another process's key, or none, cannot prove it).
   */
  private async usable(tokens: StoredTokens | undefined): Promise<StoredTokens | undefined> {
    if (tokens === undefined || tokens.tokenType !== 'DPoP') return tokens;
    if (this.dpop === undefined || tokens.dpopJkt === undefined) return undefined;
    return tokens.dpopJkt === (await this.dpop.thumbprint()) ? tokens : undefined;
  }

  private remember(pending: PendingAuthorization): void {
    this.pending.set(pending.state, pending);
    while (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
  }

  /**
   * Whether `tokens` are due for renewal: within `refreshSkewMs` of their expiry, that margin
   * capped at half their lifetime, so that a token living no longer than the margin is used
   * for half its life instead of being renewed before every request.
   */
  private expiring(tokens: StoredTokens): boolean {
    if (tokens.expiresAt === undefined) return false;
    const lifetime = tokens.expiresAt - tokens.obtainedAt;
    const margin = Number.isFinite(lifetime)
      ? Math.min(this.options.refreshSkewMs, Math.max(0, lifetime) * RENEW_AT_LIFETIME_FRACTION)
      : this.options.refreshSkewMs;
    return this.options.clock.now() >= tokens.expiresAt - margin;
  }

  private http(signal: AbortSignal): HttpContext {
    return { fetch: this.options.fetch, allowInsecureHttp: this.options.allowInsecureHttp, signal };
  }

  private checkUrl(url: string): void {
    if (url === this.checkedUrl) return;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidArgumentError('url', url, 'not a URL');
    }
    if (`${parsed.origin}${parsed.pathname}` !== this.serverKey) {
      throw new InvalidArgumentError(
        'url',
        `${parsed.origin}${parsed.pathname}`,
        `this OAuth provider serves ${this.serverKey} only; its tokens are not sent elsewhere`,
      );
    }
    this.checkedUrl = url;
  }
}

/** The `Authorization` value of `tokens`: `DPoP <token>` for a DPoP-bound token, else `Bearer <token>`. */
function authorizationOf(tokens: StoredTokens): string {
  return `${tokens.tokenType === 'DPoP' ? 'DPoP' : 'Bearer'} ${tokens.accessToken}`;
}

function serverScopes(as: oauth.AuthorizationServer): string[] | undefined {
  const scopes = as.scopes_supported;
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : undefined;
}

function parseCallback(value: string | URL): URL {
  try {
    return new URL(typeof value === 'string' ? value : value.href);
  } catch {
    throw new OAuthError('the redirect handler returned something that is not a URL', { failure: 'invalid-callback' });
  }
}
