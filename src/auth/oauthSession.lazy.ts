/**
 * The state machine behind `createOAuthProvider()`, loaded on the provider's first use: the
 * transport hook's three attempts (the current token, renewed early when it is about to
 * expire; the shared 401 recovery or step-up; the error when the new credential is refused
 * too), logging in up front, finishing a flow, signing out, and with DPoP on the proofs of MCP
 * requests. Tokens are the `TokenKeeper`'s, obtaining them the `Authorizer`'s, step-ups the
 * `StepUps`'. Runtime-neutral.
 */
import type * as oauth from 'oauth4webapi';
import { InvalidArgumentError } from '../errors/errors.js';
import type { AuthFailureInfo, AuthRequestInfo, ProofRequest, ProofResponse } from '../transport/http/auth.js';
import { Authorizer, serverScopes } from './authorizer.js';
import { DPoPProver } from './dpop.js';
import { OAuthError } from './errors.js';
import type { ResolvedOAuthOptions } from './oauthOptions.js';
import { coversScopes, parseScopes, selectInitialScopes, unionScopes } from './scopes.js';
import { FlightGroup } from './sharedFlight.js';
import { StepUps } from './stepUp.js';
import { authorizationOf, TokenKeeper } from './tokenKeeper.js';
import type { HttpContext, StoredTokens } from './types.js';

/**
 * One provider's state. `authorization()` is the transport hook; the other public methods back
 * the provider's methods of the same purpose. Internal: hosts use `createOAuthProvider()`.
 */
export class OAuthSession {
  /** The MCP endpoint served (origin and path); the key of its tokens in the store. */
  readonly serverKey: string;
  private readonly tokens: TokenKeeper;
  private readonly authorizer: Authorizer;
  private readonly stepUps: StepUps;
  /** 401 recoveries, by the refused `Authorization` value. */
  private readonly recoveries = new FlightGroup<StoredTokens>();
  /** Refreshes started before a request because the token is about to expire. */
  private readonly earlyRefreshes = new FlightGroup<StoredTokens>();
  /** The last transport URL found to be `serverKey`'s. */
  private checkedUrl: string | undefined;
  /** The DPoP key and proofs, when DPoP is on. */
  private readonly dpop: DPoPProver | undefined;

  constructor(private readonly options: ResolvedOAuthOptions) {
    this.serverKey = options.serverKey;
    this.dpop = options.dpop === undefined ? undefined : new DPoPProver(options.dpop.keyPair);
    this.tokens = new TokenKeeper(options, this.serverKey, this.dpop);
    this.authorizer = new Authorizer(options, this.tokens, this.dpop);
    this.stepUps = new StepUps(options, this.tokens, this.authorizer);
  }

  /** With DPoP on: the proof headers of one request presenting a DPoP token (`{}` for another). */
  async proofHeaders({ method, url, authorization }: ProofRequest): Promise<Readonly<Record<string, string>>> {
    const dpop = this.dpop;
    if (dpop === undefined || !/^dpop /i.test(authorization)) return {};
    return { dpop: await dpop.proof(method, url, authorization.slice(5).trim()) };
  }

  /** With DPoP on: reads the answer to a proved request; true for a `use_dpop_nonce` 401 worth one more try. */
  proofResponse({ url, status, header }: ProofResponse): boolean {
    return this.dpop?.noteResponse(url, status, header) ?? false;
  }

  async authorization(info: AuthRequestInfo): Promise<string | undefined> {
    this.checkUrl(info.url);
    const failure = info.failure;
    if (info.attempt <= 1 || failure === undefined) return this.currentHeader(info.signal);
    if (info.attempt >= 3) return this.refusedAfterRetry(failure);
    if (failure.status === 401) return this.onUnauthorized(failure, info.signal);
    if (failure.failure === 'insufficient_scope') {
      await this.tokens.load();
      return this.stepUps.onInsufficientScope(failure, info.signal, () => this.onUnauthorized(failure, info.signal));
    }
    return undefined;
  }

  /** Logs in for `scope` (else the resource's scopes); `signal` aborts it. */
  async authorize(scope: string | readonly string[] | undefined, signal: AbortSignal): Promise<void> {
    await this.tokens.load();
    const http = this.authorizer.http(signal);
    const found = await this.authorizer.discover(undefined, http);
    const scopes = selectInitialScopes({
      challenged: parseScopes(scope),
      resourceScopes: found.resource.scopesSupported,
      extra: this.options.extraScopes,
      serverScopes: serverScopes(found.as),
      offlineAccess: this.options.offlineAccess,
    });
    await this.authorizer.obtain(found, scopes, http, () => undefined);
    this.stepUps.reset();
  }

  /** Finishes the pending authorization `callbackUrl` answers; `signal` aborts the code exchange. */
  async complete(callbackUrl: string | URL, signal: AbortSignal): Promise<void> {
    await this.authorizer.complete(callbackUrl, this.authorizer.http(signal));
  }

  async currentTokens(): Promise<StoredTokens | undefined> {
    const tokens = await this.tokens.load();
    return tokens === undefined ? undefined : { ...tokens };
  }

  async signOut(): Promise<void> {
    this.authorizer.forgetPending();
    this.stepUps.reset();
    await this.tokens.forget();
  }

  /** Attempt 1: the token to send, renewed early when it is about to expire. */
  private async currentHeader(signal: AbortSignal): Promise<string | undefined> {
    const tokens = await this.tokens.load();
    if (tokens === undefined) return undefined;
    const as = this.authorizer.knownServer(tokens.issuer);
    if (as !== undefined && this.tokens.expiring(tokens) && this.renewable(tokens)) {
      try {
        const renewed = await this.earlyRefreshes.join(authorizationOf(tokens), signal, (flightSignal) =>
          this.renew(tokens, as, this.authorizer.http(flightSignal)),
        );
        return authorizationOf(renewed);
      } catch {
        if (signal.aborted) throw signal.reason;
        // Send the token we have: if the server refuses it, its 401 starts the full recovery.
      }
    }
    return authorizationOf(this.tokens.current ?? tokens);
  }

  /** Whether `tokens` can be renewed without a browser: a refresh token not refused, or a grant that needs none. */
  private renewable(tokens: StoredTokens): boolean {
    return this.authorizer.headless || this.tokens.refreshTokenOf(tokens) !== undefined;
  }

  /** An early renewal: the refresh token when there is one, else the grant again. */
  private async renew(tokens: StoredTokens, as: oauth.AuthorizationServer, http: HttpContext): Promise<StoredTokens> {
    const refreshToken = this.tokens.refreshTokenOf(tokens);
    if (refreshToken !== undefined) {
      const refreshed = await this.authorizer.refresh(tokens, refreshToken, as, http);
      if (refreshed !== undefined) return refreshed;
    }
    if (!this.authorizer.headless) throw new Error('refresh refused');
    return this.authorizer.grant(as, tokens.resource, parseScopes(tokens.scope), http);
  }

  /** Attempt 2 after a 401. */
  private async onUnauthorized(failure: AuthFailureInfo, signal: AbortSignal): Promise<string> {
    await this.tokens.load();
    const rejected = failure.rejected ?? '';
    await this.earlyRefreshes.settle(rejected, signal);
    const current = this.tokens.current;
    // Sent with an older token than the current one: retry with the current one, no refresh.
    if (current !== undefined && authorizationOf(current) !== failure.rejected) return authorizationOf(current);
    return authorizationOf(
      await this.recoveries.join(rejected, signal, (flightSignal) => this.recover(failure, flightSignal)),
    );
  }

  /** One 401 recovery: rediscover, adopt what another process stored, refresh, or authorize. */
  private async recover(failure: AuthFailureInfo, signal: AbortSignal): Promise<StoredTokens> {
    const http = this.authorizer.http(signal);
    const found = await this.authorizer.discover(failure.bearer?.resourceMetadata, http);
    const issuer = found.as.issuer;
    const resource = found.resource.resource;
    const stored = await this.tokens.stored();
    if (
      stored !== undefined &&
      authorizationOf(stored) !== failure.rejected &&
      stored.issuer === issuer &&
      stored.resource === resource &&
      !this.tokens.expiring(stored)
    )
      return this.tokens.adopt(stored);
    const current = this.tokens.current;
    const refreshToken = this.tokens.refreshTokenOf(current);
    if (
      current !== undefined &&
      refreshToken !== undefined &&
      current.issuer === issuer &&
      current.resource === resource
    ) {
      const refreshed = await this.authorizer.refresh(current, refreshToken, found.as, http);
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
    const tokens = await this.authorizer.obtain(found, scopes, http, () => undefined);
    this.stepUps.reset();
    return tokens;
  }

  /** Attempt 3: the credential obtained on attempt 2 was refused too. */
  private refusedAfterRetry(failure: AuthFailureInfo): never {
    const current = this.tokens.current;
    const granted = parseScopes(current?.scope);
    if (failure.failure === 'insufficient_scope') {
      const challenged = parseScopes(failure.bearer?.scope);
      throw this.stepUps.insufficientScope(
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
      issuer: current?.issuer,
      status: failure.status,
      error: failure.bearer?.error,
    });
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
