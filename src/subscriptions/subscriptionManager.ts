/**
 * The subscriptions of one client (spec: basic/patterns/subscriptions): opens them, routes each
 * incoming notification to the subscription its `_meta["io.modelcontextprotocol/subscriptionId"]`
 * names, and drops the cache entries a change makes stale before any listener hears of it.
 *
 * Routing rules:
 * - `notifications/subscriptions/acknowledged` settles the opening of the listen it names.
 * - `notifications/cancelled` naming an open listen request ends that stream (server teardown).
 *   Any other `notifications/cancelled` is not ours: the client passes it on.
 * - The four change notifications invalidate first (see `invalidation.ts`), whoever they are for,
 *   then reach only the subscription they name. One that names no open subscription (an unknown
 *   id, or none) is delivered to nobody and reported to `onError` as an
 *   `UnmatchedNotificationError`; late ones for a stream this client just closed are dropped
 *   quietly. Nothing is ever sent back for a notification.
 * - `notifications/tasks` (Tasks extension) reaches the subscription it names, if that one asked
 *   for the task's id; it invalidates nothing. Unmatched ones are reported the same way.
 *
 * The manager itself is small and always there: it sorts the notifications, starts each
 * change's invalidation and reports what names no subscription. The subscriptions, their routes
 * and the deliveries to them (`subscriptionSet.ts`) load on first use (`onDemand`), together with
 * what that use needs (`loaders.ts`): the filter checks and the subscription lifecycle
 * (`filter.ts`, `openSubscription.ts` with `subscription.ts`) at the first `subscribe()`, live
 * lists (`liveList.ts`) at the first `live()`, the legacy wire's subscriptions (`legacyFeed.ts`)
 * from the switch to that wire on. A failed load rejects the call that needed it with
 * `ModuleLoadError` (-33042), nothing sent. Routing, invalidation and reporting never wait for a
 * load: before one, no subscription is open, so a change notification only invalidates (and on
 * the modern wire is unmatched).
 */
import { ProtocolError } from '../errors/errors.js';
import { onDemand } from '../errors/moduleLoad.js';
import { isObject, type JsonObject, type JsonRpcNotification } from '../wire/messages.js';
import { MetaKey, type SubscriptionFilter } from '../wire/protocol.js';
import { TASK_STATUS_NOTIFICATION } from '../wire/tasks.js';
import { UnmatchedNotificationError } from './errors.js';
import type { FilterFlag } from './filter.js';
import { describeInvalidation, interpretChange, isChangeNotification, type Invalidation } from './invalidation.js';
import type { LegacyFeedHost } from './legacyFeed.js';
import { loadFilters, loadLegacyFeed, loadLiveLists, loadSubscriptions } from './loaders.js';
import type { SubscriptionManagerOptions, SubscriptionSet } from './subscriptionSet.js';
import type {
  LiveList,
  LiveListItems,
  LiveListKind,
  LiveListOptions,
  SubscribeOptions,
  Subscription,
} from './types.js';

export type { CacheInvalidator, ListWalker, SubscriptionManagerOptions } from './subscriptionSet.js';

const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
const CANCELLED = 'notifications/cancelled';

/** The subscriptions themselves: at the first `subscribe()` or `live()`, or the switch to the legacy wire. */
const loadSet = onDemand('subscriptions', () => import('./subscriptionSet.js'));
type SetModule = NonNullable<typeof loadSet.value>;

/** @internal Owned by `McpClient`; see the module comment. */
export class SubscriptionManager {
  /** This client's subscriptions, made at its first use of them (`subscriptionSet.ts` loaded by then). */
  private set: SubscriptionSet | undefined;
  /** Set while the client speaks the legacy wire: subscriptions go through a `LegacyFeed` instead. */
  private legacyHost: LegacyFeedHost | undefined;

  constructor(private readonly options: SubscriptionManagerOptions) {}

  /**
   * Switches to the legacy wire (spec 2025-11-25): from now on `subscribe()` and `live()` use
   * implicit list-change notifications and `resources/subscribe`, and change notifications
   * without a subscription id are delivered to every subscription that asked for their type.
   * Starts loading the legacy feed; until it has loaded there is no legacy subscription, and
   * `subscribe()` and `live()` wait for it.
   */
  useLegacyFeed(host: LegacyFeedHost): void {
    this.legacyHost = host;
    this.set?.wireChanged();
    // A failed load is tried again, and reported, by the first subscribe() on this wire.
    Promise.all([loadSet(), loadLegacyFeed()]).catch(() => {});
  }

  /** Back to the modern wire (a reconnect found the server upgraded): `subscribe()` sends `subscriptions/listen` again. */
  useModernWire(): void {
    this.legacyHost = undefined;
    this.set?.wireChanged();
  }

  /** On the legacy wire: whether an open subscription hears the list changes of `flag` (see `LegacyFeed.watches`). */
  legacyWatches(flag: FilterFlag): boolean {
    return this.set?.legacyWatches(flag) ?? false;
  }

  /**
   * The connection dropped and the client reconnects. Streams on the modern wire learn it from
   * their listen request and wait for the new connection themselves; legacy subscriptions hear
   * `subscriptionLost` here, and `resync` after {@link resubscribeLegacy}.
   */
  connectionDropped(error: Error): void {
    this.set?.connectionDropped(error);
  }

  /** After a new legacy session, or a reconnect to a legacy server: see `LegacyFeed.resubscribe`. */
  resubscribeLegacy(): Promise<void> {
    return this.set?.resubscribeLegacy() ?? Promise.resolve();
  }

  /** Open subscriptions (including reopening ones). */
  get size(): number {
    return this.set?.size ?? 0;
  }

  /**
   * See `McpClient.subscribe`. Once its modules have loaded, the listen request is sent before
   * this returns its promise (no wait, unless the client is reconnecting).
   */
  subscribe(filter: SubscriptionFilter, options?: SubscribeOptions): Promise<Subscription> {
    // Once loaded, the set's own promise: no promise step between a subscription's ack and its caller.
    const set = this.setNow();
    if (set !== undefined) return set.subscribe(filter, options);
    // First use: the subscriptions, the filter checks and the wire's subscriptions load together.
    return this.load(this.subscribeModules()).then((loaded) => loaded.subscribe(filter, options));
  }

  /** See `McpClient.live`. */
  live<K extends LiveListKind>(
    kind: K,
    options: LiveListOptions<LiveListItems[K]> = {},
  ): Promise<LiveList<LiveListItems[K]>> {
    // First use: the live lists load, with what the list's own subscription will need.
    if (loadLiveLists.value === undefined && options.subscription === undefined)
      this.subscribeModules().catch(() => {}); // a failure is the list's subscribe() to report
    const set = this.setNow();
    if (set !== undefined) return set.live(kind, options);
    return this.load(loadLiveLists()).then((loaded) => loaded.live(kind, options));
  }

  /**
   * Takes the notifications that belong to subscriptions (see the module comment).
   * @returns true when the notification was handled here, false when the client should pass it on.
   */
  handleNotification(notification: JsonRpcNotification): boolean {
    const method = notification.method;
    const params = isObject(notification.params) ? notification.params : undefined;
    const set = this.set;
    if (method === CANCELLED) return set?.cancelled(params?.['requestId'], params?.['reason']) ?? false;
    const id = subscriptionIdOf(params);
    if (method === ACKNOWLEDGED) {
      if (set?.acknowledged(id, params?.['notifications']) !== true) this.unmatched(method, id, []);
      return true;
    }
    if (method === TASK_STATUS_NOTIFICATION && this.legacyHost === undefined) {
      if (set?.taskStatus(notification, params, id) !== true) this.unmatched(method, id, []);
      return true;
    }
    if (!isChangeNotification(method)) return false;
    const change = interpretChange(method, params);
    if (change === undefined) {
      this.report(new ProtocolError('malformed notification (no uri); ignored', { method, value: notification }));
      return true;
    }
    // Started now, synchronously: a request in flight for these entries will not be stored.
    const invalidated = this.invalidate(change.invalidations);
    // Legacy servers push these unasked and name no subscription: never "unmatched".
    if (this.legacyHost !== undefined) set?.deliverLegacy(change, invalidated);
    else if (set?.deliver(notification, id, change, invalidated) !== true)
      this.unmatched(method, id, change.invalidations.map(describeInvalidation));
    return true;
  }

  /**
   * Closes every subscription (and so every live list) for good with `reason`, as when the
   * client closes or the transport drops. A dropped transport is announced with
   * `subscriptionLost` first.
   */
  closeAll(reason: 'client-closed' | 'transport-closed', error?: Error): void {
    this.set?.closeAll(reason, error);
  }

  /** Starts loading what `subscribe()` needs on the wire in use. */
  private subscribeModules(): Promise<unknown> {
    return Promise.all([loadFilters(), this.legacyHost === undefined ? loadSubscriptions() : loadLegacyFeed()]);
  }

  /** This client's set, once its module has loaded; `undefined` before. */
  private setNow(): SubscriptionSet | undefined {
    const loaded = loadSet.value;
    return loaded === undefined ? undefined : this.made(loaded);
  }

  /** Loads the set's module with `also`, and makes this client's set. */
  private async load(also: Promise<unknown>): Promise<SubscriptionSet> {
    const [loaded] = await Promise.all([loadSet(), also]);
    return this.made(loaded);
  }

  private made({ SubscriptionSet }: SetModule): SubscriptionSet {
    return (this.set ??= new SubscriptionSet({
      options: this.options,
      legacyHost: () => this.legacyHost,
      invalidate: (invalidations) => this.invalidate(invalidations),
      report: (error) => this.report(error),
    }));
  }

  private unmatched(method: string, subscriptionId: unknown, invalidated: string[]): void {
    this.report(new UnmatchedNotificationError({ method, subscriptionId, invalidated }));
  }

  private invalidate(invalidations: readonly Invalidation[]): Promise<void> {
    const cache = this.options.cache;
    if (cache === undefined || invalidations.length === 0) return Promise.resolve();
    const pending: Promise<unknown>[] = [];
    for (const invalidation of invalidations) {
      try {
        pending.push(
          (invalidation.kind === 'list'
            ? cache.invalidateList(invalidation.method)
            : invalidation.kind === 'method'
              ? cache.invalidateMethod(invalidation.method)
              : cache.invalidateUri(invalidation.uri)
          ).catch((error: unknown) => this.report(error)),
        );
      } catch (error) {
        this.report(error);
      }
    }
    return Promise.all(pending).then(() => undefined);
  }

  private report(error: unknown): void {
    try {
      this.options.onError(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // a throwing onError must not break routing
    }
  }
}

function subscriptionIdOf(params: JsonObject | undefined): unknown {
  const meta = params?.['_meta'];
  return isObject(meta) ? meta[MetaKey.subscriptionId] : undefined;
}
