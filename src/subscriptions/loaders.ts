/**
 * The parts of subscriptions that load on first use (`onDemand`), shared by the manager, which
 * starts their loads together with its own implementation's, and that implementation, which
 * reads them once loaded. A failed load rejects with `ModuleLoadError` (-33042) naming the part.
 */
import { onDemand } from '../errors/moduleLoad.js';

/** The filter checks: at the first `subscribe()`, on either wire. */
export const loadFilters = onDemand('subscriptions', () => import('./filter.js'));
/** The subscription lifecycle on the modern wire: at its first `subscribe()`. */
export const loadSubscriptions = onDemand('subscriptions', () => import('./openSubscription.js'));
/** Live lists: at the first `live()`. */
export const loadLiveLists = onDemand('live lists', () => import('./liveList.js'));
/** Subscriptions on the legacy wire: from the switch to that wire on. */
export const loadLegacyFeed = onDemand('legacy subscriptions', () => import('./legacyFeed.js'));
