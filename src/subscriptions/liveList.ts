/**
 * A list kept current (see {@link LiveList}): the whole list from plain list requests, fetched
 * again after each change a subscription announces, with bursts coalesced, changes during a
 * refresh never lost, and the last good list kept when a refresh fails. Push is an
 * optimisation: while changes are not pushed (the listen was refused, never acknowledged,
 * keeps dropping, or the server does not announce this list) the list is fetched again on the
 * server's `ttlMs`, within a floor and a ceiling.
 */
import { abortedError, InvalidArgumentError, isRpcError, isTimeoutError } from '../errors/errors.js';
import type { ListMethod } from '../cache/types.js';
import type { SubscriptionFilter } from '../wire/protocol.js';
import type { TimerHandle, Timers } from '../util/clock.js';
import { SubscriptionClosedError } from './errors.js';
import { EventStream } from '../util/eventStream.js';
import type { FilterFlag } from './filter.js';
import type { WalkedList } from './walkedList.js';
import { backoffDelay, type Backoff } from '../resilience/backoff.js';
import { abortableDelay } from '../util/signals.js';
import {
  LIVE_LIST_METHODS,
  type LiveList,
  type LiveListEvent,
  type LiveListKind,
  type LiveListOptions,
  type LivePollReason,
  type SubscribeOptions,
  type Subscription,
  type SubscriptionChangeType,
  type SubscriptionClosed,
  type SubscriptionEvent,
} from './types.js';

/** The filter flag, and the event, that announce a change of each list. */
const WATCH: Readonly<Record<LiveListKind, { flag: FilterFlag; event: SubscriptionChangeType }>> = {
  tools: { flag: 'toolsListChanged', event: 'toolsListChanged' },
  prompts: { flag: 'promptsListChanged', event: 'promptsListChanged' },
  resources: { flag: 'resourcesListChanged', event: 'resourcesListChanged' },
  resourceTemplates: { flag: 'resourcesListChanged', event: 'resourcesListChanged' },
};

/**
 * Results known to be outdated (a change arrived while they were fetched) are dropped in favour
 * of the refresh that follows, at most this many times in a row; then one is published anyway,
 * so a server that changes its list faster than it can be walked still shows progress.
 */
export const MAX_DISCARDED_REFRESHES = 2;

/** @internal How often a list whose changes are not pushed is fetched again, in ms. */
export interface PollSettings {
  /** The shortest wait, whatever `ttlMs` the server gives. */
  minIntervalMs: number;
  /** The longest wait, whatever `ttlMs` the server gives. */
  maxIntervalMs: number;
  /** The wait when the list's pages carry no `ttlMs`. */
  defaultIntervalMs: number;
}

/** @internal What a live list needs from the client. */
export interface LiveListDeps {
  /** Walks the whole list (every page, through the cache; `no-cache` revalidates each page). */
  walk(
    method: ListMethod,
    options: {
      signal: AbortSignal;
      timeoutMs?: number | undefined;
      maxPages?: number | undefined;
      cacheMode?: 'no-cache' | undefined;
    },
  ): Promise<WalkedList>;
  subscribe(filter: SubscriptionFilter, options: SubscribeOptions): Promise<Subscription>;
  timers: Timers;
  random: () => number;
  onError: (error: Error) => void;
  /** Backoff of retries after a failed refresh. */
  retry: Backoff;
  poll: PollSettings;
}

/** @internal Settings of one live list. */
export interface LiveListSettings<T> {
  debounceMs: number;
  timeoutMs?: number | undefined;
  maxPages?: number | undefined;
  signal?: AbortSignal | undefined;
  onEvent?: ((event: LiveListEvent<T>) => void) | undefined;
  /** A subscription of the caller's to take changes from (never closed by the list). */
  shared?: Subscription | Promise<Subscription> | undefined;
}

/**
 * @internal Checks the arguments of `McpClient.live` and makes the list, not started yet
 * (`start()` subscribes and loads it).
 * @throws InvalidArgumentError (-32602) when `kind` is not one of the four lists or
 *   `debounceMs` (default `defaultDebounceMs`) is not a finite number of ms `>= 0`.
 */
export function makeLiveList<T>(
  kind: LiveListKind,
  deps: LiveListDeps,
  options: LiveListOptions<T>,
  defaultDebounceMs: number,
): LiveListImpl<T> {
  if (!Object.hasOwn(LIVE_LIST_METHODS, kind))
    throw new InvalidArgumentError('kind', kind, 'expected "tools", "prompts", "resources" or "resourceTemplates"');
  const debounceMs = options.debounceMs ?? defaultDebounceMs;
  if (typeof debounceMs !== 'number' || !Number.isFinite(debounceMs) || debounceMs < 0)
    throw new InvalidArgumentError('debounceMs', debounceMs, 'expected a finite number of ms >= 0');
  return new LiveListImpl<T>(kind, deps, {
    debounceMs,
    timeoutMs: options.timeoutMs,
    maxPages: options.maxPages,
    signal: options.signal,
    onEvent: options.onEvent,
    shared: options.subscription,
  });
}

interface Waiter<T> {
  resolve(items: readonly T[]): void;
  reject(error: Error): void;
}

/** @internal The {@link LiveList} implementation. */
export class LiveListImpl<T> implements LiveList<T> {
  readonly method: ListMethod;
  readonly closed: Promise<SubscriptionClosed>;
  private itemsValue: readonly T[] = Object.freeze([]);
  private versionValue = 0;
  private failedValue = false;
  private lastErrorValue: Error | undefined;
  private sub: Subscription | undefined;
  private readonly lifetime = new AbortController();
  private timer: TimerHandle;
  private timerKind: 'debounce' | 'retry' | 'poll' | undefined;
  private running: Promise<void> | undefined;
  private dirty = false;
  /** Fetch once more after the refresh in progress, without discarding its result (the ack came during it). */
  private again = false;
  /** Why the list is fetched on a timer, once it has been said (see {@link startPolling}). */
  private pollReason: LivePollReason | undefined;
  /** The `polling` event, until it is said. */
  private unsaid: { reason: LivePollReason; error: Error | undefined } | undefined;
  /** The first load has started. */
  private loading = false;
  private ttlMs: number | undefined;
  private discarded = 0;
  private failures = 0;
  private waiters: Waiter<T>[] = [];
  private isClosed = false;
  private resolveClosed!: (info: SubscriptionClosed) => void;
  private readonly events: EventStream<LiveListEvent<T>>;
  private readonly onHostAbort: (() => void) | undefined;
  /** Removes this list's listener from a shared subscription. */
  private detachShared: () => void = () => {};

  constructor(
    readonly kind: LiveListKind,
    private readonly deps: LiveListDeps,
    private readonly settings: LiveListSettings<T>,
  ) {
    this.method = LIVE_LIST_METHODS[kind];
    this.closed = new Promise<SubscriptionClosed>((resolve) => {
      this.resolveClosed = resolve;
    });
    this.events = new EventStream<LiveListEvent<T>>({
      onError: deps.onError,
      keyOf: (event) => (event.type === 'updated' || event.type === 'refreshFailed' ? event.type : undefined),
    });
    if (settings.onEvent !== undefined) this.events.on(settings.onEvent);
    const signal = settings.signal;
    if (signal !== undefined) {
      this.onHostAbort = () => void this.close();
      signal.addEventListener('abort', this.onHostAbort, { once: true });
    }
  }

  get items(): readonly T[] {
    return this.itemsValue;
  }

  get version(): number {
    return this.versionValue;
  }

  get stale(): boolean {
    return this.failedValue || this.sub === undefined || this.sub.state !== 'open';
  }

  get lastError(): Error | undefined {
    return this.lastErrorValue;
  }

  get watching(): boolean {
    const sub = this.sub;
    return sub !== undefined && sub.state === 'open' && sub.honoured[WATCH[this.kind].flag] === true;
  }

  get subscription(): Subscription | undefined {
    return this.sub;
  }

  get polling(): boolean {
    return !this.isClosed && this.pollReason !== undefined && !this.watching;
  }

  on(listener: (event: LiveListEvent<T>) => void): () => void {
    return this.events.on(listener);
  }

  [Symbol.asyncIterator](): AsyncIterator<LiveListEvent<T>> {
    return this.events.iterate();
  }

  /**
   * Subscribes to the list's changes and loads the first list from plain list requests: after
   * the acknowledgment (so no change after it can be missed), or after
   * {@link LIVE_ACK_GRACE_MS} without one, whichever is first. An acknowledgment that arrives
   * after the load started fetches the list once more (a change in between was never
   * announced). A subscription that fails or closes for good leaves the list polling. Rejects,
   * closing everything, only when the first load fails.
   */
  async start(): Promise<void> {
    const signal = this.settings.signal;
    if (signal?.aborted) throw abortedError(this.method, signal.reason);
    const watch = WATCH[this.kind];
    let subscribing: Promise<Subscription>;
    const shared = this.settings.shared;
    if (shared !== undefined)
      subscribing = Promise.resolve(shared).then((sub) => {
        if (!this.isClosed) this.detachShared = sub.on((event) => this.onSubscriptionEvent(event));
        return sub;
      });
    else
      try {
        subscribing = this.deps.subscribe(
          { [watch.flag]: true },
          {
            timeoutMs: this.settings.timeoutMs,
            signal: this.lifetime.signal,
            onEvent: (event) => this.onSubscriptionEvent(event),
          },
        );
      } catch (error) {
        subscribing = Promise.reject(error);
      }
    const settled = subscribing.then(
      (sub) => this.subscribed(sub),
      (error: unknown) => this.startPolling(listenFailure(error), asError(error)),
    );
    const grace = new AbortController();
    await Promise.race([settled, abortableDelay(LIVE_ACK_GRACE_MS, this.deps.timers, grace.signal).catch(() => {})]);
    grace.abort();
    if (this.isClosed) {
      if (signal?.aborted) throw abortedError(this.method, signal.reason);
      throw new SubscriptionClosedError(`live ${this.kind} closed while starting`, { reason: 'closed' });
    }
    const first = this.nextOutcome();
    this.loading = true;
    this.runRefresh();
    try {
      await first;
    } catch (error) {
      await this.close();
      if (signal?.aborted) throw abortedError(this.method, signal.reason);
      throw error;
    }
  }

  /** The subscription was acknowledged: changes are pushed from now on. */
  private subscribed(sub: Subscription): void {
    if (this.isClosed) {
      if (this.settings.shared === undefined) void sub.close();
      return;
    }
    this.sub = sub;
    void sub.closed.then((info) => this.subscriptionClosed(info));
    if (sub.state === 'open' && sub.honoured[WATCH[this.kind].flag] !== true) {
      this.startPolling('unsupported', undefined);
      return;
    }
    if (this.timerKind === 'poll') this.clearTimer();
    // A change between the start of the first load and the acknowledgment was never announced.
    if (!this.loading) return;
    if (this.running !== undefined) this.again = true;
    else this.changed();
  }

  /**
   * The subscription closed for good. The host closing it, or the client, closes the list;
   * anything else (the server ended or refused the stream, the reopen budget ran out) leaves
   * the list polling.
   */
  private subscriptionClosed(info: SubscriptionClosed): void {
    if (this.isClosed) return;
    if (info.reason === 'closed' || info.reason === 'client-closed' || info.reason === 'transport-closed') {
      this.finish(info);
      return;
    }
    this.startPolling('dropped', info.error);
  }

  /**
   * Changes are not pushed: from now on the list is fetched on the server's `ttlMs`. Said once
   * per live list, with a `polling` event.
   */
  private startPolling(reason: LivePollReason, error: Error | undefined): void {
    if (this.isClosed) return;
    const first = this.pollReason === undefined;
    this.pollReason = reason;
    if (this.running === undefined && this.timer === undefined && this.versionValue > 0) this.schedulePoll();
    if (!first) return;
    this.unsaid = { reason, error };
    // Before the first load, the interval (the list's ttlMs) is not known yet: said after it.
    if (this.versionValue > 0) this.sayPolling();
  }

  private sayPolling(): void {
    const said = this.unsaid;
    if (said === undefined) return;
    this.unsaid = undefined;
    this.events.emit({
      type: 'polling',
      reason: said.reason,
      ...(said.error !== undefined && { error: said.error }),
      intervalMs: this.pollIntervalMs(),
    });
  }

  /** @internal The client closed, or its connection is gone for good: the list closes with `reason`. */
  closeFromClient(reason: 'client-closed' | 'transport-closed', error?: Error): void {
    this.finish({ reason, ...(error !== undefined && { error }), reopens: this.sub?.reopens ?? 0 });
  }

  /** The wait before the next poll, in ms: the list's `ttlMs` within the floor and the ceiling. */
  private pollIntervalMs(): number {
    const { minIntervalMs, maxIntervalMs, defaultIntervalMs } = this.deps.poll;
    const wanted = this.ttlMs ?? defaultIntervalMs;
    return Math.min(maxIntervalMs, Math.max(minIntervalMs, wanted));
  }

  private schedulePoll(): void {
    if (!this.polling) return;
    this.schedule(this.pollIntervalMs(), 'poll');
  }

  refresh(): Promise<readonly T[]> {
    if (this.isClosed)
      return Promise.reject(new SubscriptionClosedError(`live ${this.kind} is closed`, { reason: 'closed' }));
    const outcome = this.nextOutcome();
    if (this.running !== undefined) this.dirty = true;
    else this.runRefresh();
    return outcome;
  }

  close(): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    const sub = this.sub;
    this.finish({ reason: 'closed', reopens: sub?.reopens ?? 0 });
    return sub === undefined || this.settings.shared !== undefined ? Promise.resolve() : sub.close();
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private onSubscriptionEvent(event: SubscriptionEvent): void {
    if (event.type === 'subscriptionLost' || event.type === 'resync') this.events.emit(event);
    if (event.type === WATCH[this.kind].event || event.type === 'resync') this.changed();
    // A stream that keeps dropping may wait long to reopen (its budget's cool-down): poll meanwhile.
    if (
      event.type === 'subscriptionLost' &&
      event.willReopen &&
      event.retryInMs !== undefined &&
      event.retryInMs > this.pollIntervalMs()
    )
      this.startPolling('dropped', event.error);
  }

  /** A change was announced: refresh after the debounce, or once more after the refresh in progress. */
  private changed(): void {
    if (this.isClosed) return;
    if (this.running !== undefined) {
      this.dirty = true;
      return;
    }
    if (this.timerKind === 'debounce') return;
    this.schedule(this.settings.debounceMs, 'debounce');
  }

  private schedule(ms: number, kind: 'debounce' | 'retry' | 'poll'): void {
    this.clearTimer();
    this.timerKind = kind;
    this.timer = this.deps.timers.setTimeout(() => {
      this.timer = undefined;
      this.timerKind = undefined;
      this.runRefresh();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.deps.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerKind = undefined;
  }

  private runRefresh(): void {
    this.clearTimer();
    if (this.isClosed) return;
    const polled = this.polling;
    this.dirty = false;
    this.again = false;
    const run = this.refreshOnce(polled);
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = undefined;
      if (this.isClosed) return;
      if (this.dirty || this.again) this.schedule(this.settings.debounceMs, 'debounce');
      else if (this.timer === undefined) this.schedulePoll();
    });
  }

  /** One walk; `polled` revalidates every page (a poll must see past entries still fresh in the cache). */
  private async refreshOnce(polled: boolean): Promise<void> {
    let items: readonly unknown[];
    try {
      const walked = await this.deps.walk(this.method, {
        signal: this.lifetime.signal,
        timeoutMs: this.settings.timeoutMs,
        maxPages: this.settings.maxPages,
        ...(polled && { cacheMode: 'no-cache' as const }),
      });
      items = walked.items;
      this.ttlMs = walked.ttlMs;
    } catch (caught) {
      if (this.isClosed) return;
      const error = caught instanceof Error ? caught : new Error(String(caught));
      this.failedValue = true;
      this.lastErrorValue = error;
      this.failures++;
      let retryInMs: number | undefined;
      // A change during this refresh schedules the next one anyway (see runRefresh).
      if (!this.dirty) {
        retryInMs = backoffDelay(this.deps.retry, this.failures, this.deps.random);
        this.schedule(retryInMs, 'retry');
      }
      this.settleWaiters((waiter) => waiter.reject(error));
      this.events.emit({
        type: 'refreshFailed',
        error,
        items: this.itemsValue,
        ...(retryInMs !== undefined && { retryInMs }),
      });
      return;
    }
    if (this.isClosed) return;
    if (this.dirty && this.discarded < MAX_DISCARDED_REFRESHES) {
      this.discarded++;
      return;
    }
    this.discarded = 0;
    this.failures = 0;
    this.failedValue = false;
    this.lastErrorValue = undefined;
    const changed = this.versionValue === 0 || !sameItems(this.itemsValue, items);
    if (changed) {
      this.itemsValue = Object.freeze([...items]) as readonly T[];
      this.versionValue++;
    }
    const published = this.itemsValue;
    this.settleWaiters((waiter) => waiter.resolve(published));
    this.events.emit({ type: 'updated', items: published, version: this.versionValue, changed });
    this.sayPolling();
  }

  private nextOutcome(): Promise<readonly T[]> {
    return new Promise<readonly T[]>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private settleWaiters(settle: (waiter: Waiter<T>) => void): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) settle(waiter);
  }

  private finish(info: SubscriptionClosed): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.lifetime.abort(
      new SubscriptionClosedError(`live ${this.kind} closed (${info.reason})`, { reason: info.reason }),
    );
    this.clearTimer();
    this.detachShared();
    if (this.onHostAbort !== undefined) this.settings.signal?.removeEventListener('abort', this.onHostAbort);
    const error = new SubscriptionClosedError(`live ${this.kind} closed (${info.reason})`, { reason: info.reason });
    this.settleWaiters((waiter) => waiter.reject(error));
    this.events.end();
    this.resolveClosed(info);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Why a listen that never opened leaves the list polling. */
function listenFailure(error: unknown): LivePollReason {
  if (isTimeoutError(error)) return 'unacknowledged';
  if (isRpcError(error)) return 'refused';
  return 'dropped';
}

/**
 * How long a live list's first load waits for its subscription's acknowledgment, in ms; after
 * that it loads anyway (and once more when the acknowledgment comes).
 */
export const LIVE_ACK_GRACE_MS = 1000;

/** Whether two lists hold the same items (one JSON comparison; refreshes are rare). */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
