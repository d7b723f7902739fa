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
 * The manager is always there; what a use needs loads on first use (`onDemand`): the
 * subscription lifecycle (`openSubscription.lazy.ts` with `subscription.ts`, and live lists,
 * `liveList.ts`) at the first `subscribe()` on the modern wire or the first `live()`. The legacy
 * wire's subscriptions (`legacyFeed.ts`) come with that wire: the era's part (`era/fallback.lazy.ts`)
 * holds them, and the client hands their class over with {@link useLegacyFeed}. A failed load rejects
 * the call that needed it with `ModuleLoadError` (-33042), nothing sent. Routing, invalidation
 * and reporting never wait for a load: before one, no subscription is open, so a change
 * notification only invalidates (and on the modern wire is unmatched).
 */
import { InvalidArgumentError, ProtocolError } from '../errors/errors.js';
import { onDemand } from '../errors/moduleLoad.js';
import { isObject, isRequestId, type JsonObject, type JsonRpcNotification, type RequestId } from '../wire/messages.js';
import { MetaKey, type SubscriptionFilter } from '../wire/protocol.js';
import { TASK_STATUS_NOTIFICATION } from '../wire/tasks.js';
import type { ResponseCache } from '../cache/responseCache.js';
import type { Clock, Timers } from '../util/clock.js';
import type { Backoff } from '../resilience/backoff.js';
import type { ResolvedReopenPolicy } from '../resilience/reopenPolicy.js';
import { UnmatchedNotificationError } from './errors.js';
import { checkFilter, type FilterFlag } from './filter.js';
import {
  describeInvalidation,
  interpretChange,
  isChangeNotification,
  type Change,
  type Invalidation,
} from './invalidation.js';
import type { LegacyFeed, LegacyFeedWireDeps } from './legacyFeed.js';
import type { LiveListDeps, LiveListImpl, PollSettings } from './liveList.js';
import type { openSubscription } from './openSubscription.lazy.js';
import type { ListenRoute, ManagedSubscription, SubscriptionDeps, SubscriptionWireDeps } from './subscription.js';
import type {
  LiveList,
  LiveListItems,
  LiveListKind,
  LiveListOptions,
  SubscribeOptions,
  Subscription,
  SubscriptionEvent,
} from './types.js';

const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
const CANCELLED = 'notifications/cancelled';
/** How many ended listen ids are remembered, so their late notifications are dropped quietly. */
const RECENTLY_ENDED_LIMIT = 256;

/** The subscription lifecycle on the modern wire: at its first `subscribe()`. */
const loadSubscriptions = onDemand('subscriptions', () => import('./openSubscription.lazy.js'));

/** What opens a subscription on the wire in use: the legacy feed, or the modern lifecycle. */
type Opener = { legacy: LegacyFeed } | { legacy: undefined; open: typeof openSubscription };

/** The cache operations the manager uses (a `ResponseCache`). */
export type CacheInvalidator = Pick<ResponseCache, 'invalidateList' | 'invalidateMethod' | 'invalidateUri'>;

/** What the manager lends a live list: the whole-list walk. */
export type ListWalker = LiveListDeps['walk'];

/** Options of `SubscriptionManager`, all resolved by the client. */
export interface SubscriptionManagerOptions {
  host: SubscriptionWireDeps;
  /** The response cache to invalidate; `undefined` when caching is off. */
  cache: CacheInvalidator | undefined;
  walk: ListWalker;
  clock: Clock;
  timers: Timers;
  /** Random source in [0, 1) for every jitter. */
  random: () => number;
  onError: (error: Error) => void;
  /** Default ack timeout, in ms. */
  timeoutMs: number;
  /** Default reopen policy. */
  reopen: ResolvedReopenPolicy | false;
  /** Default live-list debounce, in ms. */
  liveDebounceMs: number;
  /** Backoff of live-list retries after a failed refresh. */
  liveRetry: Backoff;
  /** Polling of live lists whose changes are not pushed. */
  poll: PollSettings;
}

/** @internal One notification a {@link SubscriptionManager} handled, as its watchers hear it. */
export interface HeardNotification {
  readonly method: string;
  /** The subscription it names (`_meta` subscriptionId), as sent; `undefined` when none. */
  readonly subscriptionId: unknown;
  /** Its params, as sent (not frozen: do not change them). */
  readonly params: JsonObject | undefined;
}

/** @internal Owned by `McpClient`; see the module comment. */
export class SubscriptionManager {
  private readonly routes = new Map<RequestId, ListenRoute>();
  private readonly recentlyEnded = new Set<RequestId>();
  private readonly subscriptions = new Set<ManagedSubscription>();
  /** Open live lists: a polling one has no subscription to hear the client close. */
  private readonly lists = new Set<LiveListImpl<unknown>>();
  /** Deliveries wait for their invalidation, in arrival order. */
  private delivery: Promise<void> = Promise.resolve();
  private readonly subscriptionDeps: SubscriptionDeps;
  private readonly liveDeps: LiveListDeps;
  /** Set while the client speaks the legacy wire: subscriptions go through a `LegacyFeed` instead. */
  private legacyHost: LegacyFeedWireDeps | undefined;
  /** The legacy wire's feed class, handed over with the wire (see {@link useLegacyFeed}). */
  private legacyFeed: typeof LegacyFeed | undefined;
  /** The legacy wire's feed, made at its first subscription on that wire. */
  private legacy: LegacyFeed | undefined;
  /** Told of each notification handled here (a view: the devtools); `undefined` while nobody watches. */
  private watchers: Set<(heard: HeardNotification) => void> | undefined;

  constructor(private readonly options: SubscriptionManagerOptions) {
    this.subscriptionDeps = {
      host: options.host,
      clock: options.clock,
      random: options.random,
      onError: options.onError,
      register: (id, route) => {
        this.recentlyEnded.delete(id);
        this.routes.set(id, route);
      },
      unregister: (id) => {
        if (!this.routes.delete(id)) return;
        if (this.recentlyEnded.size >= RECENTLY_ENDED_LIMIT) {
          const oldest = this.recentlyEnded.values().next();
          if (oldest.done !== true) this.recentlyEnded.delete(oldest.value);
        }
        this.recentlyEnded.add(id);
      },
      invalidate: (invalidations) => this.invalidate(invalidations),
      track: (subscription) => {
        this.subscriptions.add(subscription);
      },
      release: (subscription) => {
        this.subscriptions.delete(subscription);
      },
    };
    this.liveDeps = {
      walk: options.walk,
      subscribe: (filter, subscribeOptions) => this.subscribe(filter, subscribeOptions),
      timers: options.timers,
      random: options.random,
      onError: options.onError,
      retry: options.liveRetry,
      poll: options.poll,
    };
  }

  /**
   * Switches to the legacy wire (spec 2025-11-25): from now on `subscribe()` and `live()` use
   * implicit list-change notifications and `resources/subscribe`, and change notifications
   * without a subscription id are delivered to every subscription that asked for their type.
   * `Feed` is the legacy feed's class, from the era's part the client loaded with that wire
   * (`era/fallback.lazy.ts`); the feed itself is made at the first subscription.
   */
  useLegacyFeed(host: LegacyFeedWireDeps, Feed: typeof LegacyFeed): void {
    this.legacyHost = host;
    this.legacyFeed = Feed;
    this.legacy = undefined;
  }

  /** Back to the modern wire (a reconnect found the server upgraded): `subscribe()` sends `subscriptions/listen` again. */
  useModernWire(): void {
    this.legacyHost = undefined;
    this.legacy = undefined;
  }

  /** On the legacy wire: whether an open subscription hears the list changes of `flag` (see `LegacyFeed.watches`). */
  legacyWatches(flag: FilterFlag): boolean {
    return this.legacy?.watches(flag) ?? false;
  }

  /**
   * The connection dropped and the client reconnects. Streams on the modern wire learn it from
   * their listen request and wait for the new connection themselves; legacy subscriptions hear
   * `subscriptionLost` here, and `resync` after {@link resubscribeLegacy}.
   */
  connectionDropped(error: Error): void {
    this.legacy?.suspend(error);
  }

  /** After a new legacy session, or a reconnect to a legacy server: see `LegacyFeed.resubscribe`. */
  resubscribeLegacy(): Promise<void> {
    return this.legacy?.resubscribe() ?? Promise.resolve();
  }

  /** Open subscriptions (including reopening ones). */
  get size(): number {
    return this.subscriptions.size;
  }

  /**
   * See `McpClient.subscribe`. Once its module has loaded, the listen request is sent before
   * this returns its promise (no wait, unless the client is reconnecting).
   */
  async subscribe(filter: SubscriptionFilter, options: SubscribeOptions = {}): Promise<Subscription> {
    const wanted = checkFilter(filter);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0))
      throw new InvalidArgumentError('timeoutMs', timeoutMs, 'expected a positive number of milliseconds');
    const signal = options.signal;
    const host = this.options.host;
    // While the client reconnects, a new subscription waits for it (within its ack timeout).
    if (host.reconnecting() && !signal?.aborted) {
      this.opener().catch(() => {}); // loads meanwhile; a failure is reported below
      await host.whenOpen(signal, timeoutMs);
    }
    const opener = this.openerNow() ?? (await this.opener());
    if (opener.legacy !== undefined) return opener.legacy.subscribe(wanted, options);
    return opener.open(this.subscriptionDeps, { wanted, timeoutMs, reopen: this.options.reopen, options });
  }

  /** See `McpClient.live`. */
  async live<K extends LiveListKind>(
    kind: K,
    options: LiveListOptions<LiveListItems[K]> = {},
  ): Promise<LiveList<LiveListItems[K]>> {
    // First use: the live lists load with the modern wire's subscriptions (one part).
    const { makeLiveList } = loadSubscriptions.value ?? (await loadSubscriptions());
    const list = makeLiveList(kind, this.liveDeps, options, this.options.liveDebounceMs);
    const entry = list as LiveListImpl<unknown>;
    this.lists.add(entry);
    void list.closed.then(() => this.lists.delete(entry));
    await list.start();
    return list;
  }

  /** @internal The subscriptions open now on the modern wire, oldest first (for views: the devtools). */
  openSubscriptions(): readonly Subscription[] {
    return [...this.subscriptions];
  }

  /**
   * @internal Calls `listener` with each notification this manager handles (acknowledgments,
   * list and resource changes, task statuses), before it is routed; for views (the devtools).
   * Returns the function that removes it. A listener that throws is reported to `onError`.
   */
  watch(listener: (heard: HeardNotification) => void): () => void {
    const watchers = (this.watchers ??= new Set());
    const registration = (heard: HeardNotification): void => listener(heard);
    watchers.add(registration);
    return () => {
      watchers.delete(registration);
      if (watchers.size === 0 && this.watchers === watchers) this.watchers = undefined;
    };
  }

  /**
   * Takes the notifications that belong to subscriptions (see the module comment).
   * @returns true when the notification was handled here, false when the client should pass it on.
   */
  handleNotification(notification: JsonRpcNotification): boolean {
    const method = notification.method;
    const params = isObject(notification.params) ? notification.params : undefined;
    if (method === CANCELLED) return this.cancelled(params?.['requestId'], params?.['reason']);
    const id = subscriptionIdOf(params);
    if (
      this.watchers !== undefined &&
      (method === ACKNOWLEDGED || method === TASK_STATUS_NOTIFICATION || isChangeNotification(method))
    )
      this.tellWatchers({ method, subscriptionId: id, params });
    if (method === ACKNOWLEDGED) {
      if (!this.acknowledged(id, params?.['notifications'])) this.unmatched(method, id, []);
      return true;
    }
    if (method === TASK_STATUS_NOTIFICATION && this.legacyHost === undefined) {
      if (!this.taskStatus(notification, params, id)) this.unmatched(method, id, []);
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
    if (this.legacyHost !== undefined) this.deliverLegacy(change, invalidated);
    else if (!this.deliver(notification, id, change, invalidated))
      this.unmatched(method, id, change.invalidations.map(describeInvalidation));
    return true;
  }

  /**
   * Closes every subscription (and so every live list) for good with `reason`, as when the
   * client closes or the transport drops. A dropped transport is announced with
   * `subscriptionLost` first.
   */
  closeAll(reason: 'client-closed' | 'transport-closed', error?: Error): void {
    for (const subscription of [...this.subscriptions]) subscription.closeFromClient(reason, error);
    for (const list of [...this.lists]) list.closeFromClient(reason, error);
    this.legacy?.closeAll(reason, error);
  }

  private tellWatchers(heard: HeardNotification): void {
    for (const watcher of [...(this.watchers ?? [])]) {
      try {
        watcher(heard);
      } catch (error) {
        this.report(error);
      }
    }
  }

  /** `notifications/subscriptions/acknowledged` naming listen `id`: settles its opening. */
  private acknowledged(id: unknown, notifications: unknown): boolean {
    const route = this.route(id);
    if (route === undefined) return this.endedLately(id);
    route.acknowledged(notifications);
    return true;
  }

  /** `notifications/cancelled` for request `id`: true when that is an open listen request, which ends. */
  private cancelled(id: unknown, reason: unknown): boolean {
    const route = this.route(id);
    if (route === undefined) return false;
    route.cancelledByServer(typeof reason === 'string' ? reason : undefined);
    return true;
  }

  /** `notifications/tasks` naming listen `id`: checked, then delivered in arrival order. */
  private taskStatus(notification: JsonRpcNotification, params: JsonObject | undefined, id: unknown): boolean {
    const route = this.route(id);
    if (route === undefined) return this.endedLately(id);
    // A route is a listen request of a subscription: its module has loaded.
    const loaded = loadSubscriptions.value;
    if (loaded === undefined) return true;
    const method = notification.method;
    let event: SubscriptionEvent;
    try {
      event = loaded.taskStatusEvent(method, params);
    } catch (error) {
      this.report(error);
      return true;
    }
    const target = route.subscription;
    this.delivery = this.delivery.then(() => {
      if (!target.deliver(event, 'taskIds') && target.state !== 'closed')
        this.report(
          new ProtocolError('notifications/tasks for a task this subscription did not ask for; not delivered', {
            method,
            value: notification,
          }),
        );
    });
    return true;
  }

  /** A change naming listen `id` on the modern wire: delivered once `invalidated` settles. */
  private deliver(notification: JsonRpcNotification, id: unknown, change: Change, invalidated: Promise<void>): boolean {
    const route = this.route(id);
    if (route === undefined) return this.endedLately(id);
    const target = route.subscription;
    this.delivery = this.delivery
      .then(() => invalidated)
      .then(() => {
        if (!target.deliver(change.event, change.flag) && target.state !== 'closed')
          this.report(
            new ProtocolError('notification of a type this subscription did not ask for; not delivered', {
              method: notification.method,
              value: notification,
            }),
          );
      });
    return true;
  }

  /**
   * A change on the legacy wire (no subscription id): delivered, once `invalidated` settles, to
   * every legacy subscription that asked for its type. Without a feed yet there is none.
   */
  private deliverLegacy(change: Change, invalidated: Promise<void>): void {
    const legacy = this.legacy;
    if (legacy !== undefined)
      this.delivery = this.delivery.then(() => invalidated).then(() => legacy.deliver(change.event, change.flag));
  }

  private route(id: unknown): ListenRoute | undefined {
    return isRequestId(id) ? this.routes.get(id) : undefined;
  }

  private endedLately(id: unknown): boolean {
    return isRequestId(id) && this.recentlyEnded.has(id);
  }

  /** What opens a subscription on the wire in use, once its module has loaded; `undefined` before. */
  private openerNow(): Opener | undefined {
    const host = this.legacyHost;
    if (host === undefined) {
      const loaded = loadSubscriptions.value;
      return loaded === undefined ? undefined : { legacy: undefined, open: loaded.openSubscription };
    }
    const Feed = this.legacyFeed;
    if (Feed === undefined) return undefined;
    this.legacy ??= new Feed({
      host,
      onError: (error) => this.report(error),
      invalidate: (invalidations) => this.invalidate(invalidations),
      timeoutMs: this.options.timeoutMs,
    });
    return { legacy: this.legacy };
  }

  /** {@link openerNow}, loading the module of the wire in use first (the wire may change meanwhile). */
  private async opener(): Promise<Opener> {
    for (;;) {
      const opener = this.openerNow();
      if (opener !== undefined) return opener;
      await loadSubscriptions();
    }
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
