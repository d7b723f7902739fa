/**
 * `client.events` behind its facade: `events/list` (every page, cached until
 * `notifications/events/list_changed` or its `ttlMs`; a generation guard keeps a list read
 * across an invalidation out of the cache) and `subscribe()` (the mode picked, the cursor
 * loaded, the loop started). Loaded on the first call.
 */
import { CancelledError, InvalidArgumentError, ProtocolError } from '../errors/errors.js';
import type { Clock } from '../util/clock.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { JsonObject } from '../wire/messages.js';
import { EventsMethod, type DeliveryMode, type EventDescriptor } from '../wire/events.js';
import { checkListPage } from './checks.js';
import { cursorKey, MemoryCursorStore } from './cursorStore.js';
import { pickDeliveryMode } from './deliveryMode.js';
import { EventsUnsupportedError, typedEventsError } from './errors.js';
import type { EventLoopDeps } from './loopDeps.js';
import type { EventListing, EventListOptions, EventSubscribeOptions } from './options.js';
import { runPollLoop } from './pollLoop.js';
import { runPushLoop } from './pushLoop.js';
import type { EventsRouter } from './router.js';
import { SubscriptionCore, type EventSubscription } from './subscription.js';
import { runWebhookLoop } from './webhookLoop.js';
import { runLeased } from './lease.js';

/** What the events client borrows from its McpClient. */
export interface EventsClientDeps {
  /** Whether the server declares the extension. */
  supported(): boolean;
  /** One request with the protocol `_meta`, the extension declared. */
  request(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject>;
  loop: EventLoopDeps;
  router: EventsRouter;
  serverIdentity: string;
  /** Whom the client's requests are for now (its private cache partition), if it declares it: part of each cursor key. */
  principal(): string | undefined;
  clock: Clock;
  onError: (error: Error) => void;
}

const DEFAULT_MAX_PAGES = 100;
/** How long a whole list is kept without a `ttlMs` (ms). */
const DEFAULT_LIST_TTL_MS = 60_000;
const MAX_LIST_TTL_MS = 86_400_000;

export class EventsClient {
  private listed: { listing: EventListing; expiresAt: number } | undefined;
  private generation = 0;
  private readonly store = new MemoryCursorStore();
  private readonly open = new Set<SubscriptionCore>();

  constructor(private readonly deps: EventsClientDeps) {
    deps.router.onListChanged(() => this.invalidate());
  }

  /** Drops the cached list (a `notifications/events/list_changed`). */
  invalidate(): void {
    this.generation++;
    const wasListed = this.listed !== undefined;
    this.listed = undefined;
    // The design asks clients to list again on a change: done in the background for a list in use.
    if (wasListed && this.deps.supported())
      this.list().catch((error: unknown) =>
        this.deps.onError(error instanceof Error ? error : new Error(String(error))),
      );
  }

  private requireSupported(method: string): void {
    if (!this.deps.supported()) throw new EventsUnsupportedError(method);
  }

  async list(options: EventListOptions = {}): Promise<EventListing> {
    this.requireSupported(EventsMethod.list);
    const { cursor, maxPages, ...call } = options;
    if (cursor !== undefined) {
      if (typeof cursor !== 'string') throw new InvalidArgumentError('cursor', cursor, 'expected a string');
      return this.page(cursor, call);
    }
    const now = this.deps.clock.now();
    if (
      this.listed !== undefined &&
      this.listed.expiresAt > now &&
      call.cacheMode !== 'reload' &&
      call.cacheMode !== 'no-store'
    )
      return this.listed.listing;
    const generation = this.generation;
    const limit = Math.max(1, maxPages ?? DEFAULT_MAX_PAGES);
    const events: EventDescriptor[] = [];
    const skipped: string[] = [];
    const names = new Set<string>();
    const cursors = new Set<string>();
    let next: string | undefined;
    let ttlMs: number | undefined;
    for (let pages = 0; ; pages++) {
      if (pages >= limit)
        throw new ProtocolError(`more than ${limit} pages`, { method: EventsMethod.list, value: next });
      const page = await this.page(next, call, (raw) => {
        if (pages === 0 && typeof raw['ttlMs'] === 'number' && Number.isFinite(raw['ttlMs'])) ttlMs = raw['ttlMs'];
      });
      for (const descriptor of page.events) {
        if (names.has(descriptor.name)) skipped.push(`${descriptor.name}: repeated on a later page`);
        else {
          names.add(descriptor.name);
          events.push(descriptor);
        }
      }
      skipped.push(...page.skipped);
      if (page.nextCursor === undefined) break;
      if (cursors.has(page.nextCursor))
        throw new ProtocolError('a repeated nextCursor', { method: EventsMethod.list, value: page.nextCursor });
      cursors.add(page.nextCursor);
      next = page.nextCursor;
    }
    const listing: EventListing = { events, skipped };
    for (const line of skipped) this.deps.onError(new Error(`events/list entry left out: ${line}`));
    if (generation === this.generation && call.cacheMode !== 'no-store') {
      const keepMs = Math.min(Math.max(0, ttlMs ?? DEFAULT_LIST_TTL_MS), MAX_LIST_TTL_MS);
      this.listed = { listing, expiresAt: this.deps.clock.now() + keepMs };
    }
    return listing;
  }

  private async page(
    cursor: string | undefined,
    call: CallOptions,
    peek?: (raw: JsonObject) => void,
  ): Promise<EventListing> {
    const raw = await this.deps
      .request(EventsMethod.list, cursor === undefined ? {} : { cursor }, call)
      .catch((error: unknown) => Promise.reject(typedEventsError(error)));
    peek?.(raw);
    const page = checkListPage(raw);
    return {
      events: page.events,
      skipped: page.skipped,
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    };
  }

  async subscribe(name: string, args: JsonObject, options: EventSubscribeOptions): Promise<EventSubscription> {
    this.requireSupported(EventsMethod.poll);
    if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('name', name, 'expected an event name');
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new InvalidArgumentError('args', args, 'expected an object');
    if (options.webhook !== undefined && !/^https:\/\//i.test(options.webhook.url))
      throw new InvalidArgumentError(
        'webhook.url',
        options.webhook.url,
        'expected an https URL (design: TLS requirement)',
      );
    const descriptor = (await this.list({ signal: options.signal })).events.find((event) => event.name === name);
    if (descriptor === undefined)
      throw new InvalidArgumentError('name', name, 'not an event type the server lists in events/list');
    const mode: DeliveryMode = pickDeliveryMode(name, descriptor.delivery, options, options.webhook !== undefined);
    const store = options.cursorStore ?? this.store;
    const storeKey = cursorKey(this.deps.serverIdentity, name, args, this.deps.principal());
    const cursor = options.cursor !== undefined ? options.cursor : ((await store.get(storeKey)) ?? null);
    const core = new SubscriptionCore({
      name,
      args,
      mode,
      cursor,
      store,
      storeKey,
      dedupWindow: options.dedupWindow,
      onError: this.deps.onError,
    });
    this.open.add(core);
    void core.closed.then(() => this.open.delete(core));
    const request = { maxAgeMs: options.maxAgeMs, maxEvents: options.maxEvents };
    const deps = this.deps.loop;
    const start = (): Promise<void> =>
      mode === 'poll'
        ? runPollLoop(core, deps, request, options.poll)
        : mode === 'push'
          ? runPushLoop(core, deps, request, options.push)
          : runWebhookLoop(core, deps, request, options.webhook!);
    const lease = options.lease;
    core.running = lease === undefined ? start() : runLeased(core, lease, deps.timers, () => core.reload(), start);
    await firstAnswer(core, options.signal);
    return core;
  }

  /** Ends every subscription of this client (it closed for good). */
  lost(error: Error): void {
    for (const core of [...this.open]) core.end('connection-lost', error);
  }
}

/** Resolves once the subscription has had its first answer (or a failure it retries); rejects if it ends first. */
function firstAnswer(core: SubscriptionCore, signal: AbortSignal | undefined): Promise<void> {
  if (core.state !== 'starting') return core.state === 'closed' ? ended(core) : Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      void core.close();
      reject(new CancelledError('events/subscribe', signal?.reason));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    core.onStarted = (state) => {
      signal?.removeEventListener('abort', onAbort);
      if (state === 'closed') ended(core).then(resolve, reject);
      else resolve();
    };
  });
}

async function ended(core: SubscriptionCore): Promise<void> {
  const { error } = await core.closed;
  const cause: unknown = error?.cause;
  throw cause instanceof Error ? cause : (error ?? new Error('subscription closed'));
}
