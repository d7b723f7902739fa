/**
 * What a live list takes from one walk of a whole list (`liveList.ts`): its items, and the
 * smallest `ttlMs` its pages gave, which paces the list's polling. The client builds it with
 * {@link walkedList} when it lends the manager its walk; a file of its own so that the live
 * lists themselves can load on first use.
 */
import type { JsonObject } from '../wire/messages.js';

/** @internal One walk of the whole list. */
export interface WalkedList {
  items: readonly unknown[];
  /** The smallest `ttlMs` of its pages (ms), when any page gave one. */
  ttlMs?: number | undefined;
}

/**
 * @internal A whole-list walk as a live list takes it: the items, and the smallest `ttlMs` its
 * pages give (a value that is not a finite number `>= 0` counts as none).
 */
export function walkedList(walk: { items: readonly unknown[]; results: readonly JsonObject[] }): WalkedList {
  let ttlMs: number | undefined;
  for (const result of walk.results) {
    const raw = result['ttlMs'];
    if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0)
      ttlMs = ttlMs === undefined ? raw : Math.min(ttlMs, raw);
  }
  return { items: walk.items, ...(ttlMs !== undefined && { ttlMs }) };
}
