/**
 * The tokens of one OAuth provider: the current ones (read from the store once, saved to it on
 * every change), those made from a token response, the refresh token the server refused, and
 * when tokens are due for renewal. Runtime-neutral.
 */
import type * as oauth from 'oauth4webapi';
import type { DPoPProver } from './dpop.js';
import type { ResolvedOAuthOptions } from './oauthOptions.js';
import type { StoredTokens } from './types.js';

/** The renewal margin is at most this fraction of a token's lifetime (see {@link TokenKeeper.expiring}). */
const RENEW_AT_LIFETIME_FRACTION = 0.5;

/** Where the tokens of a token response come from, for {@link TokenKeeper.fromResponse}. */
export interface TokenOrigin {
  readonly issuer: string;
  readonly resource: string;
  readonly clientId: string | undefined;
  /** The scopes asked for: the tokens' scope when the response names none. */
  readonly requested: readonly string[];
  /** The tokens renewed, whose refresh token and scope carry over when the response omits them. */
  readonly previous: StoredTokens | undefined;
}

/** The `Authorization` value of `tokens`: `DPoP <token>` for a DPoP-bound token, else `Bearer <token>`. */
export function authorizationOf(tokens: StoredTokens): string {
  return `${tokens.tokenType === 'DPoP' ? 'DPoP' : 'Bearer'} ${tokens.accessToken}`;
}

/** The tokens one provider presents, and their place in its `CredentialStore`. */
export class TokenKeeper {
  /** The tokens presented now; `undefined` before any (or before {@link load}). */
  current: StoredTokens | undefined;
  private loading: Promise<void> | undefined;
  /** A refresh token the server refused: not spent again. */
  private refusedRefreshToken: string | undefined;

  /**
   * @param serverKey the MCP endpoint (origin and path): the key of the tokens in the store
   * @param dpop the provider's DPoP key, when DPoP is on
   */
  constructor(
    private readonly options: ResolvedOAuthOptions,
    readonly serverKey: string,
    private readonly dpop: DPoPProver | undefined,
  ) {}

  /** Loads the stored tokens once (again after a failed load); resolves with the current ones. */
  async load(): Promise<StoredTokens | undefined> {
    if (this.loading === undefined) {
      const loading = this.stored().then((stored) => {
        if (this.current === undefined && stored !== undefined) this.current = stored;
      });
      this.loading = loading;
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    await this.loading;
    return this.current;
  }

  /** The tokens in the store now (another process may have put them there), when this provider can present them. */
  async stored(): Promise<StoredTokens | undefined> {
    return this.usable(await this.options.store.getTokens(this.serverKey));
  }

  /** Makes `tokens` (read from the store) the current ones. */
  adopt(tokens: StoredTokens): StoredTokens {
    this.current = tokens;
    return tokens;
  }

  /** Makes `tokens` the current ones and stores them. */
  async save(tokens: StoredTokens): Promise<StoredTokens> {
    this.current = tokens;
    await this.options.store.setTokens(this.serverKey, tokens);
    return tokens;
  }

  /** Forgets the tokens, here and in the store; nothing is read from the store again. */
  async forget(): Promise<void> {
    this.current = undefined;
    this.refusedRefreshToken = undefined;
    this.loading = Promise.resolve();
    await this.options.store.deleteTokens(this.serverKey);
  }

  /** The refresh token of `tokens` when there is one the server has not refused. */
  refreshTokenOf(tokens: StoredTokens | undefined): string | undefined {
    const refreshToken = tokens?.refreshToken;
    return refreshToken !== this.refusedRefreshToken ? refreshToken : undefined;
  }

  /** Records that the server refused `refreshToken`: it is not spent again. */
  refused(refreshToken: string): void {
    this.refusedRefreshToken = refreshToken;
  }

  /** The tokens of a token response; a DPoP one records the thumbprint of the key it is bound to. */
  async fromResponse(response: oauth.TokenEndpointResponse, origin: TokenOrigin): Promise<StoredTokens> {
    const dpopJkt = response.token_type === 'dpop' ? await this.dpop?.thumbprint() : undefined;
    const now = this.options.clock.now();
    const scope = response.scope ?? (origin.requested.length > 0 ? origin.requested.join(' ') : origin.previous?.scope);
    const refreshToken = response.refresh_token ?? origin.previous?.refreshToken;
    return {
      issuer: origin.issuer,
      resource: origin.resource,
      ...(origin.clientId !== undefined && { clientId: origin.clientId }),
      accessToken: response.access_token,
      ...(dpopJkt !== undefined && { tokenType: 'DPoP' as const, dpopJkt }),
      ...(refreshToken !== undefined && { refreshToken }),
      ...(response.expires_in !== undefined && { expiresAt: now + response.expires_in * 1000 }),
      ...(scope !== undefined && scope !== '' && { scope }),
      obtainedAt: now,
    };
  }

  /**
   * Whether `tokens` are due for renewal: within `refreshSkewMs` of their expiry, that margin
   * capped at half their lifetime, so that a token living no longer than the margin is used
   * for half its life instead of being renewed before every request.
   */
  expiring(tokens: StoredTokens): boolean {
    if (tokens.expiresAt === undefined) return false;
    const lifetime = tokens.expiresAt - tokens.obtainedAt;
    const margin = Number.isFinite(lifetime)
      ? Math.min(this.options.refreshSkewMs, Math.max(0, lifetime) * RENEW_AT_LIFETIME_FRACTION)
      : this.options.refreshSkewMs;
    return this.options.clock.now() >= tokens.expiresAt - margin;
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
}
