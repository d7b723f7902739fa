/**
 * The `protocolVersion` element of a request's cache keys (`cacheKey.ts`): the protocol
 * version, and after it, when the request carries one, its language preference
 * (`_meta["io.modelcontextprotocol/acceptLanguage"]`, SEP-2792, a draft), so that a result in
 * one language never answers a request in another. A request without a language keys as before.
 * Pure and dependency-free: the client computes it on every cached read.
 */

/** `protocolVersion`, or `protocolVersion` NUL `acceptLanguage` (no version holds a NUL: injective). */
export function cacheKeyVersion(protocolVersion: string, acceptLanguage: string | undefined): string {
  return acceptLanguage === undefined ? protocolVersion : `${protocolVersion}\u0000${acceptLanguage}`;
}
