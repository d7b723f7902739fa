/**
 * Subscriptions on the legacy wire (spec 2025-11-25: server/tools, server/prompts and
 * server/resources, "List Changed Notification" and "Subscriptions"). A legacy server pushes
 * `notifications/{tools,prompts,resources}/list_changed` on its own, with no subscription id,
 * when its capability says `listChanged`, and `notifications/resources/updated` for the uris a
 * client asked for with `resources/subscribe`. The same `Subscription` objects, events, cache
 * invalidation and live lists as on the modern wire sit on top:
 *
 * - list-change flags are implicit: nothing is sent; they are honoured when the capability says
 *   `listChanged`. A notification the server sends anyway (no capability) still reaches every
 *   subscription that asked for that type (the cache is dropped regardless, by the manager).
 * - `resourceSubscriptions`: one `resources/subscribe` per uri, shared by every subscription
 *   that asks for it; `resources/unsubscribe` when the last of them closes. A uri the server
 *   refuses with an error response is not honoured (see `notHonoured`); any other failure
 *   (timeout, closed connection, abort) rejects `subscribe()`.
 * - `notifications/resources/updated` reaches the subscriptions whose honoured uris are that
 *   uri or a parent of it (`uri` under `parent/`).
 * - there is no acknowledgment and no stream to reopen: a subscription stays open until it is
 *   closed or the connection is lost. After a renewed HTTP session, or a reconnect (it hears
 *   `subscriptionLost` with `willReopen` at the drop), the uris are subscribed again and every
 *   subscription hears `resync`.
 */
import { abortedError, ConnectionClosedError, InvalidArgumentError, isRpcError } from '../errors/errors.js';
import type { RequestId } from '../wire/messages.js';
import type { ServerCapabilities, SubscriptionFilter } from '../wire/protocol.js';
import { EventStream } from '../util/eventStream.js';
import { FILTER_FLAGS, filterMinus, filterUnion, narrowToCapabilities, type FilterFlag } from './filter.js';
import { invalidationsForFilter } from './filterInvalidations.js';
import type { Invalidation } from './invalidation.js';
import type {
  SubscribeOptions,
  Subscription,
  SubscriptionClosed,
  SubscriptionEndReason,
  SubscriptionEvent,
  SubscriptionState,
} from './types.js';
import { HELD_EVENTS } from './options.js';

/** What the legacy feed needs from the client. */
export interface LegacyFeedWireDeps {
  /** The capabilities from the InitializeResult. */
  capabilities(): ServerCapabilities | undefined;
  connected(): boolean;
  /** Sends `resources/subscribe { uri }`. */
  subscribe(uri: string, options: { signal?: AbortSignal | undefined; timeoutMs: number }): Promise<unknown>;
  /** Sends `resources/unsubscribe { uri }`. */
  unsubscribe(uri: string): Promise<unknown>;
}

/** @internal What the feed borrows from the subscription manager. */
export interface LegacyFeedDeps {
  host: LegacyFeedWireDeps;
  onError: (error: Error) => void;
  invalidate: (invalidations: readonly Invalidation[]) => Promise<void>;
  /** Default timeout of each `resources/subscribe`, in ms. */
  timeoutMs: number;
}

/** One uri subscribed on the server, shared by the subscriptions that asked for it. */
interface UriClaim {
  holders: number;
  ready: Promise<unknown>;
}

/** @internal The legacy subscriptions of one client; owned by its `SubscriptionManager`. */
export class LegacyFeed {
  private readonly subscriptions = new Set<LegacySubscription>();
  private readonly claims = new Map<string, UriClaim>();

  constructor(private readonly deps: LegacyFeedDeps) {}

  /** Opens a subscription for a normalized filter. Errors as `McpClient.subscribe`. */
  async subscribe(wanted: SubscriptionFilter, options: SubscribeOptions): Promise<Subscription> {
    const { host } = this.deps;
    const signal = options.signal;
    if (signal?.aborted) throw abortedError('resources/subscribe', signal.reason);
    if (!host.connected()) throw new ConnectionClosedError('subscribe: not connected', { reason: 'not connected' });
    const timeoutMs = options.timeoutMs ?? this.deps.timeoutMs;
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0))
      throw new InvalidArgumentError('timeoutMs', timeoutMs, 'expected a positive number of milliseconds');
    const { deliverable, unsupported } = narrowToCapabilities(wanted, host.capabilities());
    const subscription = new LegacySubscription(
      this,
      wanted,
      deliverable,
      unsupported,
      options.onEvent,
      this.deps.onError,
    );
    const claimed: string[] = [];
    try {
      for (const uri of deliverable.resourceSubscriptions ?? []) {
        try {
          await this.claim(uri, { signal, timeoutMs });
          claimed.push(uri);
        } catch (error) {
          if (!isRpcError(error)) throw error;
        }
      }
    } catch (error) {
      for (const uri of claimed) this.unclaim(uri);
      if (signal?.aborted) throw abortedError('resources/subscribe', signal.reason);
      throw error;
    }
    subscription.opened(claimed);
    this.subscriptions.add(subscription);
    // Updates before resources/subscribe were never announced: the cached reads may be stale.
    await this.deps.invalidate(claimed.map((uri) => ({ kind: 'uri', uri })));
    if (signal !== undefined) {
      if (signal.aborted) subscription.finish('closed');
      else signal.addEventListener('abort', () => subscription.finish('closed'), { once: true });
    }
    return subscription;
  }

  /**
   * Hands a change event to every open subscription that asked for it. The manager calls it
   * after the cache entries the change makes stale were dropped.
   */
  deliver(event: SubscriptionEvent, flag: FilterFlag | 'resourceSubscriptions'): void {
    for (const subscription of this.subscriptions) subscription.deliver(event, flag);
  }

  /**
   * After a new legacy session: subscribes every claimed uri again, drops what the
   * subscriptions cover from the cache (changes in the gap were missed), then tells each
   * subscription with `resync`. Failures are reported to `onError`.
   */
  async resubscribe(): Promise<void> {
    const timeoutMs = this.deps.timeoutMs;
    for (const [uri, claim] of this.claims) {
      claim.ready = this.deps.host.subscribe(uri, { timeoutMs });
      claim.ready.catch((error: unknown) => this.report(error));
    }
    await Promise.allSettled([...this.claims.values()].map((claim) => claim.ready));
    for (const subscription of [...this.subscriptions]) {
      await this.deps.invalidate(invalidationsForFilter(subscription.requested));
      subscription.resync();
    }
  }

  /**
   * The connection dropped and the client reconnects: every subscription hears
   * `subscriptionLost` (`willReopen: true`) and is `reopening` until {@link resubscribe}.
   */
  suspend(error: Error): void {
    for (const subscription of this.subscriptions) subscription.suspend(error);
  }

  /**
   * Whether an open subscription honours `flag`: the server declared `listChanged` for that
   * list, and its notifications reach this client. The client keeps such a list cached until
   * the notification arrives.
   */
  watches(flag: FilterFlag): boolean {
    for (const subscription of this.subscriptions) if (subscription.honoured[flag] === true) return true;
    return false;
  }

  /** Closes every subscription (client closed, or the connection dropped). */
  closeAll(reason: 'client-closed' | 'transport-closed', error?: Error): void {
    for (const subscription of [...this.subscriptions])
      subscription.finish(reason, error, reason === 'transport-closed');
  }

  /**
   * @internal A subscription closed: release its uris, and drop the lists that nobody hears
   * change any more (they were kept until a change; now none would be heard).
   */
  released(subscription: LegacySubscription, uris: readonly string[], tellServer: boolean): void {
    this.subscriptions.delete(subscription);
    for (const uri of uris) this.unclaim(uri, tellServer);
    const unwatched = FILTER_FLAGS.filter((flag) => subscription.honoured[flag] === true && !this.watches(flag));
    if (unwatched.length > 0) {
      const filter: SubscriptionFilter = Object.fromEntries(unwatched.map((flag) => [flag, true]));
      this.deps.invalidate(invalidationsForFilter(filter)).catch((error: unknown) => this.report(error));
    }
  }

  private async claim(uri: string, options: { signal?: AbortSignal | undefined; timeoutMs: number }): Promise<void> {
    const existing = this.claims.get(uri);
    if (existing !== undefined) {
      existing.holders++;
      try {
        await existing.ready;
      } catch (error) {
        this.unclaim(uri, false);
        throw error;
      }
      return;
    }
    const claim: UriClaim = { holders: 1, ready: this.deps.host.subscribe(uri, options) };
    this.claims.set(uri, claim);
    try {
      await claim.ready;
    } catch (error) {
      this.unclaim(uri, false);
      throw error;
    }
  }

  private unclaim(uri: string, tellServer = true): void {
    const claim = this.claims.get(uri);
    if (claim === undefined) return;
    claim.holders--;
    if (claim.holders > 0) return;
    this.claims.delete(uri);
    if (tellServer && this.deps.host.connected())
      this.deps.host.unsubscribe(uri).catch((error: unknown) => this.report(error));
  }

  private report(error: unknown): void {
    try {
      this.deps.onError(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // a throwing onError must not break the feed
    }
  }
}

/** @internal A {@link Subscription} on the legacy wire. */
class LegacySubscription implements Subscription {
  readonly requested: SubscriptionFilter;
  readonly closed: Promise<SubscriptionClosed>;
  private honouredValue: SubscriptionFilter = {};
  private stateValue: SubscriptionState = 'open';
  private claimed: readonly string[] = [];
  private readonly events: EventStream<SubscriptionEvent>;
  private resyncs = 0;
  private resolveClosed!: (info: SubscriptionClosed) => void;

  constructor(
    private readonly feed: LegacyFeed,
    /** The host's filter as given: a type the server announces anyway still reaches it. */
    private readonly wanted: SubscriptionFilter,
    deliverable: SubscriptionFilter,
    private readonly unsupported: SubscriptionFilter,
    onEvent: ((event: SubscriptionEvent) => void) | undefined,
    onError: (error: Error) => void,
  ) {
    this.requested = Object.freeze({ ...deliverable });
    this.closed = new Promise<SubscriptionClosed>((resolve) => {
      this.resolveClosed = resolve;
    });
    this.events = new EventStream<SubscriptionEvent>({
      onError,
      keyOf: (event) =>
        event.type === 'resourceUpdated'
          ? `resourceUpdated ${event.uri}`
          : event.type.endsWith('Changed')
            ? event.type
            : undefined,
      holdUntilHeard: HELD_EVENTS,
    });
    if (onEvent !== undefined) this.events.on(onEvent);
  }

  get honoured(): SubscriptionFilter {
    return this.honouredValue;
  }

  get notHonoured(): SubscriptionFilter {
    return filterUnion(this.unsupported, filterMinus(this.requested, this.honouredValue));
  }

  /** Always `undefined`: the legacy wire names no subscription. */
  get subscriptionId(): RequestId | undefined {
    return undefined;
  }

  get state(): SubscriptionState {
    return this.stateValue;
  }

  /** How many times the uris were subscribed again after a new session. */
  get reopens(): number {
    return this.resyncs;
  }

  on(listener: (event: SubscriptionEvent) => void): () => void {
    return this.events.on(listener);
  }

  [Symbol.asyncIterator](): AsyncIterator<SubscriptionEvent> {
    return this.events.iterate();
  }

  close(): Promise<void> {
    this.finish('closed');
    return Promise.resolve();
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The uris the server accepted; the refused ones end up in `notHonoured`. */
  opened(claimed: readonly string[]): void {
    this.claimed = claimed;
    const honoured: SubscriptionFilter = { ...this.requested };
    delete honoured.resourceSubscriptions;
    if (claimed.length > 0) honoured.resourceSubscriptions = [...claimed];
    this.honouredValue = honoured;
  }

  deliver(event: SubscriptionEvent, flag: FilterFlag | 'resourceSubscriptions'): void {
    if (this.stateValue === 'closed') return;
    if (flag === 'resourceSubscriptions') {
      if (event.type !== 'resourceUpdated' || !this.claimed.some((uri) => covers(uri, event.uri))) return;
    } else if (this.wanted[flag] !== true) {
      return;
    }
    this.events.emit(event);
  }

  suspend(error: Error): void {
    if (this.stateValue !== 'open') return;
    this.stateValue = 'reopening';
    this.events.emit({ type: 'subscriptionLost', reason: 'transport-closed', error, willReopen: true });
  }

  resync(): void {
    if (this.stateValue === 'closed') return;
    this.stateValue = 'open';
    this.resyncs++;
    this.events.emit({
      type: 'resync',
      reopens: this.resyncs,
      honoured: this.honouredValue,
      notHonoured: this.notHonoured,
    });
  }

  finish(reason: SubscriptionEndReason, error?: Error, lost = false): void {
    if (this.stateValue === 'closed') return;
    this.stateValue = 'closed';
    if (lost) this.events.emit({ type: 'subscriptionLost', reason, error, willReopen: false });
    this.feed.released(this, this.claimed, reason === 'closed');
    this.events.end();
    this.resolveClosed({ reason, ...(error !== undefined && { error }), reopens: this.resyncs });
  }
}

/** True when `uri` is `subscribed` or lies under it (`subscribed/...`). */
function covers(subscribed: string, uri: string): boolean {
  return uri === subscribed || uri.startsWith(subscribed.endsWith('/') ? subscribed : `${subscribed}/`);
}
