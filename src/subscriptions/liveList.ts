/**
 * A list kept current through a subscription (see {@link LiveList}): the whole list, fetched
 * again after each announced change, with bursts coalesced, changes during a refresh never
 * lost, and the last good list kept when a refresh fails.
 */
import { abortedError } from '../errors/errors.js';
import type { ListMethod } from '../cache/types.js';
import type { SubscriptionFilter } from '../wire/protocol.js';
import type { TimerHandle, Timers } from '../util/clock.js';
import { SubscriptionClosedError } from './errors.js';
import { EventStream } from '../util/eventStream.js';
import type { FilterFlag } from './filter.js';
import { backoffDelay, type Backoff } from '../resilience/backoff.js';
import {
  LIVE_LIST_METHODS,
  type LiveList,
  type LiveListEvent,
  type LiveListKind,
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

/** @internal What a live list needs from the client. */
export interface LiveListDeps {
  /** Walks the whole list (every page, through the cache). */
  walk(
    method: ListMethod,
    options: { signal: AbortSignal; timeoutMs?: number | undefined; maxPages?: number | undefined },
  ): Promise<readonly unknown[]>;
  subscribe(filter: SubscriptionFilter, options: SubscribeOptions): Promise<Subscription>;
  timers: Timers;
  random: () => number;
  onError: (error: Error) => void;
  /** Backoff of retries after a failed refresh. */
  retry: Backoff;
}

/** @internal Settings of one live list. */
export interface LiveListSettings<T> {
  debounceMs: number;
  timeoutMs?: number | undefined;
  maxPages?: number | undefined;
  signal?: AbortSignal | undefined;
  onEvent?: ((event: LiveListEvent<T>) => void) | undefined;
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
  private timerKind: 'debounce' | 'retry' | undefined;
  private running: Promise<void> | undefined;
  private dirty = false;
  private discarded = 0;
  private failures = 0;
  private waiters: Waiter<T>[] = [];
  private isClosed = false;
  private resolveClosed!: (info: SubscriptionClosed) => void;
  private readonly events: EventStream<LiveListEvent<T>>;
  private readonly onHostAbort: (() => void) | undefined;

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

  get subscription(): Subscription {
    if (this.sub === undefined) throw new Error('live list not started');
    return this.sub;
  }

  on(listener: (event: LiveListEvent<T>) => void): () => void {
    return this.events.on(listener);
  }

  [Symbol.asyncIterator](): AsyncIterator<LiveListEvent<T>> {
    return this.events.iterate();
  }

  /**
   * Subscribes, then loads the first list (after the acknowledgment, so no change after it
   * can be missed). Rejects, closing everything, when either fails.
   */
  async start(): Promise<void> {
    const signal = this.settings.signal;
    if (signal?.aborted) throw abortedError(this.method, signal.reason);
    const watch = WATCH[this.kind];
    let sub: Subscription;
    try {
      sub = await this.deps.subscribe(
        { [watch.flag]: true },
        {
          timeoutMs: this.settings.timeoutMs,
          signal: this.lifetime.signal,
          onEvent: (event) => this.onSubscriptionEvent(event),
        },
      );
    } catch (error) {
      this.finish({ reason: 'failed', error: error instanceof Error ? error : new Error(String(error)), reopens: 0 });
      if (signal?.aborted) throw abortedError(this.method, signal.reason);
      throw error;
    }
    this.sub = sub;
    void sub.closed.then((info) => this.finish(info));
    if (this.isClosed) {
      await sub.close();
      throw signal?.aborted === true
        ? abortedError(this.method, signal.reason)
        : new SubscriptionClosedError(`live ${this.kind} closed while starting`, { reason: 'closed' });
    }
    const first = this.nextOutcome();
    this.runRefresh();
    try {
      await first;
    } catch (error) {
      await this.close();
      if (signal?.aborted) throw abortedError(this.method, signal.reason);
      throw error;
    }
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
    return sub === undefined ? Promise.resolve() : sub.close();
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private onSubscriptionEvent(event: SubscriptionEvent): void {
    if (event.type === 'subscriptionLost' || event.type === 'resync') this.events.emit(event);
    if (event.type === WATCH[this.kind].event || event.type === 'resync') this.changed();
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

  private schedule(ms: number, kind: 'debounce' | 'retry'): void {
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
    this.dirty = false;
    const run = this.refreshOnce();
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = undefined;
      if (!this.isClosed && this.dirty) this.schedule(this.settings.debounceMs, 'debounce');
    });
  }

  private async refreshOnce(): Promise<void> {
    let items: readonly unknown[];
    try {
      items = await this.deps.walk(this.method, {
        signal: this.lifetime.signal,
        timeoutMs: this.settings.timeoutMs,
        maxPages: this.settings.maxPages,
      });
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
    if (this.onHostAbort !== undefined) this.settings.signal?.removeEventListener('abort', this.onHostAbort);
    const error = new SubscriptionClosedError(`live ${this.kind} closed (${info.reason})`, { reason: info.reason });
    this.settleWaiters((waiter) => waiter.reject(error));
    this.events.end();
    this.resolveClosed(info);
  }
}

/** Whether two lists hold the same items (one JSON comparison; refreshes are rare). */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
