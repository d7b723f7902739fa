/**
 * `WWW-Authenticate` parsing for hosts (RFC 9110 §11.6.1; Bearer parameters from RFC 6750 §3
 * and RFC 9728 §5.1), as the root entry exports it. The parser is `challenges.ts`, which the
 * transports load only when a 401 or 403 arrives; these functions call it. Pure and
 * runtime-neutral.
 */
import type { AuthChallenge, BearerChallenge } from './auth.js';
import { parseChallenges, pickBearerChallenge } from './challenges.js';

/**
 * Parses a `WWW-Authenticate` field value into its challenges, in order. Several challenges
 * may share one value (fetch joins repeated header lines with `", "`). Malformed parts are
 * skipped up to the next comma; the function never throws.
 *
 * @example
 * parseWwwAuthenticate('Bearer error="insufficient_scope", scope="a b", Basic realm="x"')
 * // → [{ scheme: 'Bearer', params: { error: 'insufficient_scope', scope: 'a b' } },
 * //    { scheme: 'Basic', params: { realm: 'x' } }]
 */
export function parseWwwAuthenticate(header: string | null | undefined): AuthChallenge[] {
  return parseChallenges(header);
}

/**
 * The parameters of the challenge an OAuth client acts on, as {@link BearerChallenge}: the first
 * challenge in the scheme of the credential `sent` (its `Authorization` value, e.g. `"DPoP …"`),
 * else the first `Bearer` one, else the first `DPoP` one (RFC 9449 §7.1 uses the same
 * parameters). Schemes compare case-insensitively. `undefined` when there is none.
 */
export function bearerChallenge(challenges: readonly AuthChallenge[], sent?: string): BearerChallenge | undefined {
  return pickBearerChallenge(challenges, sent);
}
