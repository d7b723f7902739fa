/**
 * Freshness rules for cacheable results (spec: server/utilities/caching, "Cacheable Model").
 * Pure functions: no clock, no state. Every time is a reading of the injected monotonic
 * `Clock.now()` in milliseconds, so a wall-clock jump (`Date.now()` moving) never changes
 * whether an entry is fresh.
 */
import type { CacheScope } from '../wire/protocol.js';

/** Longest freshness mcp-live grants any result, in ms: 24 h. A larger `ttlMs` is capped to it. */
export const DEFAULT_MAX_TTL_MS = 86_400_000;

/** What freshness needs from a cached entry. Both values are in ms of the monotonic clock. */
export interface FreshnessInfo {
  /** `Clock.now()` when the response was received (`t_received` in the spec). */
  readonly receivedAt: number;
  /** The normalized TTL in ms (see {@link normalizeTtl}); `>= 0`. */
  readonly ttlMs: number;
}

/**
 * The TTL a result grants, in ms, from its raw `ttlMs` field.
 *
 * - a finite number `>= 0`: itself, capped at `maxTtlMs`;
 * - absent (legacy servers), `null`, a non-number (the string `"60000"` is **not** parsed),
 *   `NaN` or a negative number: `0`, i.e. immediately stale;
 * - above `maxTtlMs` (including `Infinity`): `maxTtlMs`.
 *
 * @param maxTtlMs cap in ms. @default {@link DEFAULT_MAX_TTL_MS} (24 h)
 */
export function normalizeTtl(raw: unknown, maxTtlMs: number = DEFAULT_MAX_TTL_MS): number {
  if (typeof raw !== 'number' || !(raw > 0)) return 0; // NaN, negatives and 0 all land here
  return raw > maxTtlMs ? maxTtlMs : raw;
}

/**
 * The scope a result asks for, from its raw `cacheScope` field. Only the exact string
 * `"public"` is public; anything else (absent, `"private"`, an unknown value such as
 * `"shared"`) is treated as `"private"`, the safe reading.
 */
export function normalizeScope(raw: unknown): CacheScope {
  return raw === 'public' ? 'public' : 'private';
}

/** When the entry stops being fresh, in ms of the monotonic clock: `receivedAt + ttlMs`. */
export function expiresAt(entry: FreshnessInfo): number {
  return entry.receivedAt + entry.ttlMs;
}

/** The spec's freshness test: `now < t_received + ttlMs`. An entry with `ttlMs` 0 is never fresh. */
export function isFresh(entry: FreshnessInfo, now: number): boolean {
  return now < entry.receivedAt + entry.ttlMs;
}

/** Milliseconds until the entry goes stale; `0` once it is stale. */
export function timeUntilStale(entry: FreshnessInfo, now: number): number {
  const left = entry.receivedAt + entry.ttlMs - now;
  return left > 0 ? left : 0;
}

/** How old the entry is, in ms (never negative). */
export function ageMs(entry: FreshnessInfo, now: number): number {
  const age = now - entry.receivedAt;
  return age > 0 ? age : 0;
}

/**
 * True while a stale entry is still within `windowMs` after it went stale:
 * `now < receivedAt + ttlMs + windowMs`. Used for stale-while-revalidate and stale-if-error
 * windows. A `windowMs` of `0` (or less) never matches; `Infinity` always does.
 */
export function isWithinStaleWindow(entry: FreshnessInfo, now: number, windowMs: number): boolean {
  return windowMs > 0 && now < entry.receivedAt + entry.ttlMs + windowMs;
}

/** One page as {@link combinePages} sees it. */
export interface PageFreshness extends FreshnessInfo {
  readonly scope: CacheScope;
}

/** The freshness and scope of a whole list, from its pages. */
export interface CombinedFreshness {
  /**
   * `"private"` when any page is private (or the pages disagree); `"public"` only when every
   * page is public. A list with no pages is `"private"`.
   */
  readonly scope: CacheScope;
  /** True when some pages are public and others private (the server broke "same cacheScope on all pages"). */
  readonly scopeMismatch: boolean;
  /** The earliest expiry of any page, in ms of the monotonic clock: the list is fresh while `now < freshUntil`. */
  readonly freshUntil: number;
}

/**
 * Combines per-page hints into the hints of the whole list (spec: server/utilities/caching,
 * "Interaction with Pagination"): the list is fresh only as long as its shortest-lived page,
 * and private as soon as one page is private.
 */
export function combinePages(pages: readonly PageFreshness[]): CombinedFreshness {
  let publicPages = 0;
  let freshUntil = Infinity;
  for (const page of pages) {
    if (page.scope === 'public') publicPages++;
    const until = page.receivedAt + page.ttlMs;
    if (until < freshUntil) freshUntil = until;
  }
  const allPublic = pages.length > 0 && publicPages === pages.length;
  return {
    scope: allPublic ? 'public' : 'private',
    scopeMismatch: publicPages > 0 && publicPages < pages.length,
    freshUntil: pages.length === 0 ? -Infinity : freshUntil,
  };
}
