/**
 * What a subscription drops from the cache when notifications may have been missed (after a
 * reopen, a resubscribe, a renewed legacy session): everything its filter covers (spec:
 * basic/patterns/subscriptions; server/utilities/caching). Used only by open subscriptions, so
 * it loads with them.
 */
import type { SubscriptionFilter } from '../wire/protocol.js';
import { entryInvalidations, LIST_CHANGED, type Invalidation } from './invalidation.js';

/**
 * Everything a filter covers: every list the flags name (as their notification would drop it),
 * and every subscribed uri with the uris under it.
 */
export function invalidationsForFilter(filter: SubscriptionFilter): Invalidation[] {
  const out: Invalidation[] = [];
  for (const entry of Object.values(LIST_CHANGED)) {
    if (filter[entry.flag] !== true) continue;
    out.push(...entryInvalidations(entry));
  }
  for (const uri of filter.resourceSubscriptions ?? []) out.push({ kind: 'uri', uri });
  return out;
}
