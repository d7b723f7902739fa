/**
 * What a {@link CacheStore} shared by several processes (a fleet) tells the response caches on
 * it, and what they tell it: invalidations, write fences and single-flight tickets. A store
 * kept in one process (the memory store) implements none of this.
 */
import type { CacheEntry } from './types.js';
import type { InvalidateTarget } from './types.js';

/**
 * One invalidation, as a cache hands it to its store and as the store hands it to the other
 * caches on it, in this process and in the rest of the fleet. Holds no secret: the server is
 * named by its tag (a digest of its identity) and an auth context by its partition digest.
 */
export interface FleetInvalidation {
  /** The `serverTag` of the server whose entries it covers (see `cacheKey.ts`). */
  readonly serverTag: string;
  /** What was invalidated. */
  readonly target: InvalidateTarget;
  /**
   * For `{ kind: 'list', authContext: 'current' }`: the partition (a digest, or `anonymous`)
   * whose pages were dropped. Absent otherwise.
   */
  readonly partition?: string | undefined;
  /**
   * Set by the cache that made the invalidation, so it can tell its own notice when the store
   * passes it back; never leaves the process.
   */
  readonly origin?: unknown;
}

/**
 * Why a store did not keep an entry, when it says more than `false` (which means `too-large`):
 * `invalidated`: the entry's method was invalidated somewhere in the fleet since the load's
 * fence was taken; `unavailable`: the store cannot be reached (it reports that itself).
 */
export type StoreRefusal = 'too-large' | 'invalidated' | 'unavailable';

/**
 * The answer of {@link CacheStore.flight}: another process stored the entry meanwhile (use it
 * and send nothing), or this process leads (send the request, store the result, then call
 * `release`).
 */
export type FlightTicket =
  | {
      /** The entry another process stored while this one waited. */
      readonly entry: CacheEntry;
    }
  | {
      /** Ends this process's lead: call it once the result is stored (or was not storable). */
      readonly release: () => void;
    };
