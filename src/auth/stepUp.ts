/**
 * Step-up authorization on HTTP 403 `insufficient_scope` (spec: basic/authorization, "Scope
 * Challenge Handling" and "Step-Up Authorization Flow"): one authorization per refused token for
 * the union of the granted and the challenged scopes, shared by concurrent requests, at most
 * `maxStepUps` per challenged scope set; and the `InsufficientScopeError` when asking again
 * cannot help. Runtime-neutral.
 */
import type { AuthFailureInfo } from '../transport/http/auth.js';
import { serverScopes, type Authorizer } from './authorizer.js';
import { InsufficientScopeError, type InsufficientScopeReason } from './errors.js';
import type { ResolvedOAuthOptions } from './oauthOptions.js';
import { coversScopes, parseScopes, scopeKey, selectStepUpScopes, unionScopes } from './scopes.js';
import { FlightGroup } from './sharedFlight.js';
import { authorizationOf, type TokenKeeper } from './tokenKeeper.js';
import type { StoredTokens } from './types.js';

/** The step-ups of one provider. Internal to the OAuth session. */
export class StepUps {
  /** Step-ups, by the refused `Authorization` value. */
  private readonly flights = new FlightGroup<StoredTokens>();
  /** The scopes each step-up under way asks for, by the refused `Authorization` value. */
  private readonly targets = new Map<string, string[]>();
  /** Step-up authorizations made, by challenged scope set. */
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly options: ResolvedOAuthOptions,
    private readonly tokens: TokenKeeper,
    private readonly authorizer: Authorizer,
  ) {}

  /**
   * Attempt 2 after 403 `insufficient_scope` (the tokens loaded): the `Authorization` value to
   * retry with. Without a token, `unauthorized` answers (as for a 401).
   * @throws InsufficientScopeError (-33018) when a step-up cannot help or the limit is reached;
   *   what the authorization throws; `signal`'s reason when it aborts.
   */
  async onInsufficientScope(
    failure: AuthFailureInfo,
    signal: AbortSignal,
    unauthorized: () => Promise<string>,
  ): Promise<string> {
    const challenged = parseScopes(failure.bearer?.scope);
    for (;;) {
      const current = this.tokens.current;
      if (current === undefined) return unauthorized();
      const key = authorizationOf(current);
      const granted = parseScopes(current.scope);
      if (key !== failure.rejected && (challenged.length === 0 || coversScopes(granted, challenged))) return key;
      if (challenged.length === 0) throw this.insufficientScope(failure, challenged, granted, 'no-scope-in-challenge');
      if (key === failure.rejected && coversScopes(granted, challenged))
        throw this.insufficientScope(failure, challenged, granted, 'already-granted');
      const running = this.targets.get(key);
      if (running !== undefined && !coversScopes(running, challenged)) {
        // A step-up from this token is under way for other scopes: wait, then step up from its result.
        await this.flights.settle(key, signal);
        continue;
      }
      if (signal.aborted) throw signal.reason;
      if (running === undefined) this.targets.set(key, unionScopes(granted, challenged));
      const tokens = await this.flights.join(key, signal, async (flightSignal) => {
        try {
          return await this.stepUp(current, failure, challenged, flightSignal);
        } finally {
          this.targets.delete(key);
        }
      });
      return authorizationOf(tokens);
    }
  }

  /** Forgets the step-ups counted: a full authorization starts the count again. */
  reset(): void {
    this.counts.clear();
  }

  /** The error that ends a scope challenge; `attempts` defaults to the step-ups made for `required`. */
  insufficientScope(
    failure: AuthFailureInfo,
    required: string[],
    granted: string[],
    reason: InsufficientScopeReason,
    attempts?: number,
  ): InsufficientScopeError {
    return new InsufficientScopeError({
      requiredScopes: required,
      grantedScopes: granted,
      reason,
      attempts: attempts ?? this.counts.get(scopeKey(required)) ?? 0,
      ...(failure.bearer?.errorDescription !== undefined && { errorDescription: failure.bearer.errorDescription }),
      ...(failure.bearer?.resourceMetadata !== undefined && { resourceMetadata: failure.bearer.resourceMetadata }),
    });
  }

  private async stepUp(
    current: StoredTokens,
    failure: AuthFailureInfo,
    challenged: string[],
    signal: AbortSignal,
  ): Promise<StoredTokens> {
    const http = this.authorizer.http(signal);
    const found = await this.authorizer.discover(failure.bearer?.resourceMetadata, http);
    const granted = parseScopes(current.scope);
    const scopes = selectStepUpScopes(granted, challenged, serverScopes(found.as), this.options.offlineAccess);
    const countKey = scopeKey(challenged);
    return this.authorizer.obtain(found, scopes, http, () => {
      const made = this.counts.get(countKey) ?? 0;
      if (made >= this.options.maxStepUps)
        return this.insufficientScope(failure, challenged, granted, 'retry-limit', made);
      this.counts.set(countKey, made + 1);
      return undefined;
    });
  }
}
