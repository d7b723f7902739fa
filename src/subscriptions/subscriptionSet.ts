/**
 * The subscriptions and live lists of one client, and the routes from its listen requests to
 * them (spec: basic/patterns/subscriptions). `SubscriptionManager` loads this at its first
 * `subscribe()`, `live()` or switch to the legacy wire, and makes one set per client then.
 *
 * The manager takes every notification first: it tells subscription traffic from the rest,
 * starts the cache invalidation of a change, and reports what names no listen request of this
 * client. The set finds the route a notification names and delivers to its subscription: in
 * arrival order, each change behind its invalidation. Its routing methods return true when the
 * id names a listen request of this client that is open, or that ended lately (its late
 * notifications are dropped quietly), and false when the manager should report it unmatched.
 */
import { InvalidArgumentError, ProtocolError } from '../errors/errors.js';
import { isRequestId, type JsonObject, type JsonRpcNotification, type RequestId } from '../wire/messages.js';
import type { ResponseCache } from '../cache/responseCache.js';
import type { SubscriptionFilter } from '../wire/protocol.js';
import type { Clock, Timers } from '../util/clock.js';
import type { Backoff } from '../resilience/backoff.js';
import type { ResolvedReopenPolicy } from '../resilience/reopenPolicy.js';
import type { FilterFlag } from './filter.js';
import type { Change, Invalidation } from './invalidation.js';
import type { LiveListDeps, LiveListImpl, PollSettings } from './liveList.js';
import type { ListenRoute, ManagedSubscription, SubscriptionDeps, SubscriptionHost } from './subscription.js';
import type { openSubscription } from './openSubscription.js';
import type { LegacyFeed, LegacyFeedHost } from './legacyFeed.js';
import { loadFilters, loadLegacyFeed, loadLiveLists, loadSubscriptions } from './loaders.js';
import type {
  LiveList,
  LiveListItems,
  LiveListKind,
  LiveListOptions,
  SubscribeOptions,
  Subscription,
  SubscriptionEvent,
} from './types.js';

/** How many ended listen ids are remembered, so their late notifications are dropped quietly. */
const RECENTLY_ENDED_LIMIT = 256;

/** What opens a subscription on the wire in use: the legacy feed, or the modern lifecycle. */
type Opener = { legacy: LegacyFeed } | { legacy: undefined; open: typeof openSubscription };

/** The cache operations the manager uses (a `ResponseCache`). */
export type CacheInvalidator = Pick<ResponseCache, 'invalidateList' | 'invalidateMethod' | 'invalidateUri'>;

/** What the manager lends a live list: the whole-list walk. */
export type ListWalker = LiveListDeps['walk'];

/** Options of `SubscriptionManager`, all resolved by the client. */
export interface SubscriptionManagerOptions {
  host: SubscriptionHost;
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

/** @internal What the set borrows from its manager. */
export interface SubscriptionSetDeps {
  readonly options: SubscriptionManagerOptions;
  /** The legacy wire's host while the client speaks that wire; `undefined` on the modern wire. */
  readonly legacyHost: () => LegacyFeedHost | undefined;
  /** Drops the cache entries named (errors are reported, never thrown). */
  readonly invalidate: (invalidations: readonly Invalidation[]) => Promise<void>;
  /** Hands `error` to the client's `onError`; never throws. */
  readonly report: (error: unknown) => void;
}

/** @internal Made by `SubscriptionManager`; see the module comment. */
export class SubscriptionSet {
  private readonly routes = new Map<RequestId, ListenRoute>();
  private readonly recentlyEnded = new Set<RequestId>();
  private readonly subscriptions = new Set<ManagedSubscription>();
  /** Open live lists: a polling one has no subscription to hear the client close. */
  private readonly lists = new Set<LiveListImpl<unknown>>();
  /** Deliveries wait for their invalidation, in arrival order. */
  private delivery: Promise<void> = Promise.resolve();
  private readonly subscriptionDeps: SubscriptionDeps;
  private readonly liveDeps: LiveListDeps;
  /** The legacy wire's feed, made at its first subscription on that wire (`legacyFeed.ts` loaded by then). */
  private legacy: LegacyFeed | undefined;

  constructor(private readonly deps: SubscriptionSetDeps) {
    const { options } = deps;
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
      invalidate: deps.invalidate,
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

  /** The client switched wires: the legacy feed, if any, is dropped (its subscriptions were closed). */
  wireChanged(): void {
    this.legacy = undefined;
  }

  /** See `SubscriptionManager.legacyWatches`. */
  legacyWatches(flag: FilterFlag): boolean {
    return this.legacy?.watches(flag) ?? false;
  }

  /** See `SubscriptionManager.connectionDropped`. */
  connectionDropped(error: Error): void {
    this.legacy?.suspend(error);
  }

  /** See `SubscriptionManager.resubscribeLegacy`. */
  resubscribeLegacy(): Promise<void> {
    return this.legacy?.resubscribe() ?? Promise.resolve();
  }

  /** Open subscriptions (including reopening ones). */
  get size(): number {
    return this.subscriptions.size;
  }

  /** See `SubscriptionManager.subscribe`. */
  async subscribe(filter: SubscriptionFilter, options: SubscribeOptions = {}): Promise<Subscription> {
    const { checkFilter } = loadFilters.value ?? (await Promise.all([loadFilters(), this.opener()]))[0];
    const wanted = checkFilter(filter);
    const timeoutMs = options.timeoutMs ?? this.deps.options.timeoutMs;
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0))
      throw new InvalidArgumentError('timeoutMs', timeoutMs, 'expected a positive number of milliseconds');
    const signal = options.signal;
    const host = this.deps.options.host;
    // While the client reconnects, a new subscription waits for it (within its ack timeout).
    if (host.reconnecting() && !signal?.aborted) await host.whenOpen(signal, timeoutMs);
    const opener = this.openerNow() ?? (await this.opener());
    if (opener.legacy !== undefined) return opener.legacy.subscribe(wanted, options);
    return opener.open(this.subscriptionDeps, { wanted, timeoutMs, reopen: this.deps.options.reopen, options });
  }

  /** See `SubscriptionManager.live`. */
  async live<K extends LiveListKind>(
    kind: K,
    options: LiveListOptions<LiveListItems[K]>,
  ): Promise<LiveList<LiveListItems[K]>> {
    const { makeLiveList } = loadLiveLists.value ?? (await loadLiveLists());
    const list = makeLiveList(kind, this.liveDeps, options, this.deps.options.liveDebounceMs);
    const entry = list as LiveListImpl<unknown>;
    this.lists.add(entry);
    void list.closed.then(() => this.lists.delete(entry));
    await list.start();
    return list;
  }

  /** `notifications/subscriptions/acknowledged` naming listen `id`: settles its opening. */
  acknowledged(id: unknown, notifications: unknown): boolean {
    const route = this.route(id);
    if (route === undefined) return this.endedLately(id);
    route.acknowledged(notifications);
    return true;
  }

  /** `notifications/cancelled` for request `id`: true when that is an open listen request, which ends. */
  cancelled(id: unknown, reason: unknown): boolean {
    const route = this.route(id);
    if (route === undefined) return false;
    route.cancelledByServer(typeof reason === 'string' ? reason : undefined);
    return true;
  }

  /** `notifications/tasks` naming listen `id`: checked, then delivered in arrival order. */
  taskStatus(notification: JsonRpcNotification, params: JsonObject | undefined, id: unknown): boolean {
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
      this.deps.report(error);
      return true;
    }
    const target = route.subscription;
    this.delivery = this.delivery.then(() => {
      if (!target.deliver(event, 'taskIds') && target.state !== 'closed')
        this.deps.report(
          new ProtocolError('notifications/tasks for a task this subscription did not ask for; not delivered', {
            method,
            value: notification,
          }),
        );
    });
    return true;
  }

  /** A change naming listen `id` on the modern wire: delivered once `invalidated` settles. */
  deliver(notification: JsonRpcNotification, id: unknown, change: Change, invalidated: Promise<void>): boolean {
    const route = this.route(id);
    if (route === undefined) return this.endedLately(id);
    const target = route.subscription;
    this.delivery = this.delivery
      .then(() => invalidated)
      .then(() => {
        if (!target.deliver(change.event, change.flag) && target.state !== 'closed')
          this.deps.report(
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
  deliverLegacy(change: Change, invalidated: Promise<void>): void {
    const legacy = this.legacy;
    if (legacy !== undefined)
      this.delivery = this.delivery.then(() => invalidated).then(() => legacy.deliver(change.event, change.flag));
  }

  /** See `SubscriptionManager.closeAll`. */
  closeAll(reason: 'client-closed' | 'transport-closed', error?: Error): void {
    for (const subscription of [...this.subscriptions]) subscription.closeFromClient(reason, error);
    for (const list of [...this.lists]) list.closeFromClient(reason, error);
    this.legacy?.closeAll(reason, error);
  }

  private route(id: unknown): ListenRoute | undefined {
    return isRequestId(id) ? this.routes.get(id) : undefined;
  }

  private endedLately(id: unknown): boolean {
    return isRequestId(id) && this.recentlyEnded.has(id);
  }

  /** What opens a subscription on the wire in use, once its module has loaded; `undefined` before. */
  private openerNow(): Opener | undefined {
    const host = this.deps.legacyHost();
    if (host === undefined) {
      const loaded = loadSubscriptions.value;
      return loaded === undefined ? undefined : { legacy: undefined, open: loaded.openSubscription };
    }
    const loaded = loadLegacyFeed.value;
    if (loaded === undefined) return undefined;
    this.legacy ??= new loaded.LegacyFeed({
      host,
      onError: (error) => this.deps.report(error),
      invalidate: this.deps.invalidate,
      timeoutMs: this.deps.options.timeoutMs,
    });
    return { legacy: this.legacy };
  }

  /** {@link openerNow}, loading the module of the wire in use first (the wire may change meanwhile). */
  private async opener(): Promise<Opener> {
    for (;;) {
      const opener = this.openerNow();
      if (opener !== undefined) return opener;
      await (this.deps.legacyHost() === undefined ? loadSubscriptions() : loadLegacyFeed());
    }
  }
}
