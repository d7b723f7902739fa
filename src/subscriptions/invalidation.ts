/**
 * Pure tables: which cache entries a subscription notification makes stale, and which event a
 * listener hears (spec: basic/patterns/subscriptions; server/tools, server/prompts and
 * server/resources for the notifications; server/utilities/caching for the cache).
 *
 * | notification                           | invalidates                                       | event                  |
 * |----------------------------------------|---------------------------------------------------|------------------------|
 * | `notifications/tools/list_changed`     | every page of `tools/list`                        | `toolsListChanged`     |
 * | `notifications/prompts/list_changed`   | every page of `prompts/list`                      | `promptsListChanged`   |
 * | `notifications/resources/list_changed` | every page of `resources/list`, `resources/templates/list` and `skills/list`; every `skills/get` and `resources/directory/read` | `resourcesListChanged` |
 * | `notifications/resources/updated`      | the read of `params.uri` and of uris under `uri/` | `resourceUpdated {uri}`|
 *
 * Templates have no notification of their own in 2026-07-28; a resources list change is the
 * closest signal, so it drops the template pages too (the conservative choice). The Skills
 * extension (SEP-2640) serves skills as resources and announces a changed catalog with the same
 * notification, so it drops the skill listings, entries and directory pages as well.
 */
import { isObject, type JsonObject } from '../wire/messages.js';
import type { ListMethod } from '../cache/types.js';
import type { FilterFlag } from './filter.js';
import type { SubscriptionChangeType, SubscriptionEvent } from './types.js';

/** One cache invalidation: all pages of a list, or a uri and the uris under it. */
export type Invalidation =
  { kind: 'list'; method: ListMethod } | { kind: 'method'; method: string } | { kind: 'uri'; uri: string };

/** The three list-change notifications. */
export type ListChangedMethod =
  'notifications/tools/list_changed' | 'notifications/prompts/list_changed' | 'notifications/resources/list_changed';

/** The four notifications a listen stream carries. */
export type ChangeNotificationMethod = ListChangedMethod | 'notifications/resources/updated';

/** What a change notification means (see {@link interpretChange}). */
export interface Change {
  /** The cache entries it makes stale. */
  invalidations: Invalidation[];
  /** What the subscriptions that asked for it hear. */
  event: SubscriptionEvent;
  /** The filter field that asks for it. */
  flag: FilterFlag | 'resourceSubscriptions';
}

/** Per list-change notification: the lists it drops, its event type and the filter flag that asks for it. */
export const LIST_CHANGED: Readonly<
  Record<
    ListChangedMethod,
    {
      readonly lists: readonly ListMethod[];
      /** Methods, not lists, whose every entry the change drops. */
      readonly methods?: readonly string[];
      readonly event: SubscriptionChangeType;
      readonly flag: FilterFlag;
    }
  >
> = Object.freeze({
  'notifications/tools/list_changed': { lists: ['tools/list'], event: 'toolsListChanged', flag: 'toolsListChanged' },
  'notifications/prompts/list_changed': {
    lists: ['prompts/list'],
    event: 'promptsListChanged',
    flag: 'promptsListChanged',
  },
  'notifications/resources/list_changed': {
    lists: ['resources/list', 'resources/templates/list', 'skills/list'],
    methods: ['skills/get', 'resources/directory/read'],
    event: 'resourcesListChanged',
    flag: 'resourcesListChanged',
  },
});

/** The notification that `notifications/resources/updated` is. */
export const RESOURCE_UPDATED = 'notifications/resources/updated';

/** True for one of the four notifications a listen stream carries. */
export function isChangeNotification(method: string): method is ChangeNotificationMethod {
  return method === RESOURCE_UPDATED || Object.hasOwn(LIST_CHANGED, method);
}

/**
 * What a change notification means: the invalidations to apply and the event to deliver.
 * `undefined` for a `notifications/resources/updated` without a string `uri` (malformed) and for
 * any other method.
 */
export function interpretChange(method: string, params: JsonObject | undefined): Change | undefined {
  if (method === RESOURCE_UPDATED) {
    const uri = isObject(params) ? params['uri'] : undefined;
    if (typeof uri !== 'string' || uri === '') return undefined;
    return {
      invalidations: [{ kind: 'uri', uri }],
      event: { type: 'resourceUpdated', uri },
      flag: 'resourceSubscriptions',
    };
  }
  if (!Object.hasOwn(LIST_CHANGED, method)) return undefined;
  const entry = LIST_CHANGED[method as ListChangedMethod];
  return {
    invalidations: entryInvalidations(entry),
    event: { type: entry.event } as SubscriptionEvent,
    flag: entry.flag,
  };
}

/** A short label of an invalidation, for logs: `list tools/list`, `uri file:///a.json`. */
export function describeInvalidation(invalidation: Invalidation): string {
  if (invalidation.kind === 'uri') return `uri ${invalidation.uri}`;
  return `${invalidation.kind} ${invalidation.method}`;
}

/** The invalidations of one list-change notification: its lists, then its methods. */
export function entryInvalidations(entry: (typeof LIST_CHANGED)[ListChangedMethod]): Invalidation[] {
  return [
    ...entry.lists.map((method): Invalidation => ({ kind: 'list', method })),
    ...(entry.methods ?? []).map((method): Invalidation => ({ kind: 'method', method })),
  ];
}
