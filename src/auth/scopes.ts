/**
 * Scope arithmetic for the authorization flow (spec: basic/authorization, "Scope Selection
 * Strategy" and "Step-Up Authorization Flow"). Pure; scopes are space-separated tokens
 * (RFC 6749 §3.3), compared as exact strings.
 */

/** The scope that asks for a refresh token (OpenID Connect; spec: basic/authorization, "Refresh Tokens"). */
export const OFFLINE_ACCESS = 'offline_access';

/** Splits a space-separated scope string into its scopes, in order, without duplicates or empty parts. */
export function parseScopes(scope: string | readonly string[] | undefined): string[] {
  if (scope === undefined) return [];
  const parts = typeof scope === 'string' ? scope.split(' ') : scope;
  return unionScopes(parts.filter((s) => s !== ''));
}

/** Every scope of every list, first occurrence first. */
export function unionScopes(...lists: ReadonlyArray<readonly string[]>): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const scope of list) seen.add(scope);
  return [...seen];
}

/** True when `have` holds every scope of `need` (an empty `need` is always covered). */
export function coversScopes(have: readonly string[], need: readonly string[]): boolean {
  const set = new Set(have);
  return need.every((s) => set.has(s));
}

/** An order-independent key of a scope set, for counting attempts per challenge. */
export function scopeKey(scopes: readonly string[]): string {
  return [...new Set(scopes)].sort().join(' ');
}

/** Inputs of {@link selectInitialScopes}. */
export interface InitialScopeInput {
  /** `scope` of the 401's `WWW-Authenticate` challenge, split. */
  challenged: readonly string[];
  /** `scopes_supported` of the protected resource metadata, when it has one. */
  resourceScopes: readonly string[] | undefined;
  /** Scopes the host always asks for in addition. */
  extra: readonly string[];
  /** `scopes_supported` of the authorization server metadata, when it has one. */
  serverScopes: readonly string[] | undefined;
  /** Whether to add `offline_access` when the authorization server lists it. */
  offlineAccess: boolean;
}

/**
 * The scopes of a first authorization, in the spec's priority order: the challenge's `scope`,
 * else every scope of the resource's `scopes_supported`, else none (the request then omits
 * `scope`). The host's `extra` scopes are added. `offline_access` is added when the
 * authorization server lists it in `scopes_supported` and at least one other scope is asked
 * for (asking for `offline_access` alone could narrow the server's default grant).
 */
export function selectInitialScopes(input: InitialScopeInput): string[] {
  const base = input.challenged.length > 0 ? input.challenged : (input.resourceScopes ?? []);
  return withOfflineAccess(unionScopes(base, input.extra), input.serverScopes, input.offlineAccess);
}

/**
 * The scopes of a step-up: what the refused token had plus what the challenge asks for (spec:
 * "Step-Up Authorization Flow", step 2), with `offline_access` as for a first authorization.
 */
export function selectStepUpScopes(
  granted: readonly string[],
  challenged: readonly string[],
  serverScopes: readonly string[] | undefined,
  offlineAccess: boolean,
): string[] {
  return withOfflineAccess(unionScopes(granted, challenged), serverScopes, offlineAccess);
}

function withOfflineAccess(
  scopes: string[],
  serverScopes: readonly string[] | undefined,
  offlineAccess: boolean,
): string[] {
  if (!offlineAccess || scopes.length === 0 || scopes.includes(OFFLINE_ACCESS)) return scopes;
  return serverScopes?.includes(OFFLINE_ACCESS) === true ? [...scopes, OFFLINE_ACCESS] : scopes;
}
