/**
 * One event subscription as the application sees it ({@link EventSubscription}: an async
 * iterable of occurrences and gaps, and an emitter of everything that happens to it) and the
 * core the delivery loops drive ({@link SubscriptionCore}): deduplication by `eventId` in a
 * bounded window, the cursor (persisted after each batch is handed on), the state, the end.
 */
import { EventStream } from '../util/eventStream.js';
import type { DeliveryMode, DeliveryStatus, EventOccurrence } from '../wire/events.js';
import type { JsonObject } from '../wire/messages.js';
import type { CursorStore } from './cursorStore.js';
import { EventSubscriptionEndedError, type EventSubscriptionEndReason } from './errors.js';

/**
 * `starting` until the first answer, `active` while delivering, `reconnecting` between tries,
 * `standby` while another worker holds the subscription's lease (`EventSubscribeOptions.lease`),
 * `closed` for good.
 */
export type EventSubscriptionState = 'starting' | 'standby' | 'active' | 'reconnecting' | 'closed';

/** Where a gap was learned of: a poll result, a push `active`, a webhook subscribe/refresh answer, a webhook `gap` body. */
export type TruncatedVia = 'poll' | 'active' | 'subscribe' | 'gap';

/** What the iterator yields: the occurrences, and the gaps the application must see. */
export type EventMessage =
  | { type: 'occurrence'; occurrence: EventOccurrence }
  /**
   * The server started later than the cursor the client had: occurrences may have been skipped
   * (design: Gaps and `truncated`). Re-read authoritative state with tools if it matters.
   */
  | { type: 'truncated'; cursor: string | null; via: TruncatedVia };

/** Why a subscription closed: `closed` (by the application), `ended` (by the server or an error no retry mends). */
export type EventSubscriptionCloseReason = 'closed' | 'ended';

/** Everything a listener hears, in order. */
export type EventSubscriptionEvent =
  | EventMessage
  | { type: 'state'; state: EventSubscriptionState }
  /** A failure the loop retries after (a poll that timed out, a dropped stream, `notifications/events/error`). */
  | { type: 'error'; error: Error }
  /** A webhook refresh's `deliveryStatus` (design: Webhook Delivery Status). */
  | { type: 'delivery-status'; status: DeliveryStatus }
  | { type: 'closed'; reason: EventSubscriptionCloseReason; error?: EventSubscriptionEndedError | undefined };

/** How a subscription ended: what {@link EventSubscription.closed} resolves with (never rejects). */
export interface EventSubscriptionClosed {
  reason: EventSubscriptionCloseReason;
  /** For `ended`: why, with the server's error as `cause`. */
  error?: EventSubscriptionEndedError | undefined;
}

/**
 * A subscription to one event type with its arguments (design: Client SDK Guidance).
 *
 * ```ts
 * const subscription = await client.events.subscribe('incident.created', { severity: 'P1' });
 * for await (const message of subscription) {
 *   if (message.type === 'truncated') await resync();
 *   else console.log(message.occurrence.data); // untrusted server data
 * }
 * ```
 */
export interface EventSubscription extends AsyncIterable<EventMessage> {
  readonly name: string;
  readonly arguments: JsonObject;
  /** The delivery mode picked (see `EventSubscribeOptions.delivery`, `prefer`, `forbid`). */
  readonly mode: DeliveryMode;
  readonly state: EventSubscriptionState;
  /** The last cursor received (`null`: "now", or a type without replay). */
  readonly cursor: string | null;
  /** True once any answer said `truncated: true` (or a `gap` body came); it stays true. */
  readonly truncated: boolean;
  /** Webhook: the server-derived subscription id (`X-MCP-Subscription-Id`); `undefined` otherwise. */
  readonly webhookId: string | undefined;
  /** Webhook: the last `deliveryStatus` a refresh carried. */
  readonly deliveryStatus: DeliveryStatus | undefined;
  /** Adds a listener; returns the function that removes it. Listeners never see an event twice. */
  on(listener: (event: EventSubscriptionEvent) => void): () => void;
  /**
   * Stops delivery: the poll loop stops, the push stream is cancelled (an aborted request on
   * HTTP, `notifications/cancelled` on stdio), a webhook subscription is removed with
   * `events/unsubscribe` (a failure there is reported to `onError`; the TTL ends it anyway).
   * Idempotent; resolves once the loop has stopped.
   */
  close(): Promise<void>;
  /** Resolves (never rejects) when the subscription closes, with why. */
  readonly closed: Promise<EventSubscriptionClosed>;
}

/** What a subscription core is made with. */
export interface SubscriptionCoreOptions {
  name: string;
  args: JsonObject;
  mode: DeliveryMode;
  /** The cursor to start from (from the store or the options). */
  cursor: string | null;
  store: CursorStore;
  storeKey: string;
  /** How many recent `eventId`s are remembered to drop repeats. @default 1000 */
  dedupWindow?: number | undefined;
  onError: (error: Error) => void;
}

const DEFAULT_DEDUP_WINDOW = 1_000;
/** How many messages wait for the first iterator, and events for the first listener (the oldest dropped past it). */
const HELD_MESSAGES = 1_000;

/** The state of one subscription the loops drive (see the file's opening comment). */
export class SubscriptionCore implements EventSubscription {
  readonly name: string;
  readonly arguments: JsonObject;
  readonly mode: DeliveryMode;
  cursor: string | null;
  truncated = false;
  webhookId: string | undefined;
  deliveryStatus: DeliveryStatus | undefined;
  private stateValue: EventSubscriptionState = 'starting';
  private readonly events: EventStream<EventSubscriptionEvent>;
  private readonly messages: EventStream<EventMessage>;
  private readonly seen = new Set<string>();
  private readonly seenOrder: string[] = [];
  private readonly window: number;
  private readonly controller = new AbortController();
  private resolveClosed!: (closed: EventSubscriptionClosed) => void;
  readonly closed: Promise<EventSubscriptionClosed>;
  /** What `close()` runs before the end (the loop's own stop: unsubscribe, cancel); set by the loop. */
  stop: () => Promise<void> = () => Promise.resolve();
  private stopping: Promise<void> | undefined;
  /** The loop's promise, awaited by `close()`. */
  running: Promise<void> = Promise.resolve();

  constructor(private readonly options: SubscriptionCoreOptions) {
    this.name = options.name;
    this.arguments = options.args;
    this.mode = options.mode;
    this.cursor = options.cursor;
    this.window = Math.max(1, Math.min(options.dedupWindow ?? DEFAULT_DEDUP_WINDOW, 100_000));
    this.events = new EventStream({ onError: options.onError, holdUntilHeard: HELD_MESSAGES });
    this.messages = new EventStream({ onError: options.onError, holdUntilHeard: HELD_MESSAGES });
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  get state(): EventSubscriptionState {
    return this.stateValue;
  }

  /** Aborted when the subscription closes: every wait and request of the loop listens to it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  on(listener: (event: EventSubscriptionEvent) => void): () => void {
    return this.events.on(listener);
  }

  [Symbol.asyncIterator](): AsyncIterator<EventMessage> {
    return this.messages.iterate();
  }

  /** Told of the first state after `starting` (the subscribe call waits on it; not a listener, so held events wait for the app's). */
  onStarted: ((state: EventSubscriptionState) => void) | undefined;

  setState(state: EventSubscriptionState): void {
    if (this.stateValue === state || this.stateValue === 'closed') return;
    if (this.stateValue === 'starting') {
      const started = this.onStarted;
      this.onStarted = undefined;
      started?.(state);
    }
    this.stateValue = state;
    this.events.emit({ type: 'state', state });
  }

  reportError(error: Error): void {
    if (this.stateValue === 'closed') return;
    this.events.emit({ type: 'error', error });
  }

  setDeliveryStatus(status: DeliveryStatus): void {
    this.deliveryStatus = status;
    this.events.emit({ type: 'delivery-status', status });
  }

  /** True when `eventId` was delivered within the window (and remembers it otherwise). */
  private repeat(eventId: string): boolean {
    if (this.seen.has(eventId)) return true;
    this.seen.add(eventId);
    this.seenOrder.push(eventId);
    if (this.seenOrder.length > this.window) this.seen.delete(this.seenOrder.shift()!);
    return false;
  }

  /**
   * Hands on one batch: a gap first when `truncated`, then each occurrence not seen before,
   * then the cursor is kept and persisted (a `null` one is kept in memory only). Resolves once
   * the store has it.
   */
  async deliver(
    occurrences: readonly EventOccurrence[],
    cursor: string | null | undefined,
    truncated?: TruncatedVia,
  ): Promise<void> {
    if (this.stateValue === 'closed') return;
    if (truncated !== undefined) this.emitMessage({ type: 'truncated', cursor: cursor ?? null, via: truncated });
    for (const occurrence of occurrences) {
      if (this.repeat(occurrence.eventId)) continue;
      this.emitMessage({ type: 'occurrence', occurrence });
    }
    if (cursor !== undefined) await this.advance(cursor);
  }

  private emitMessage(message: EventMessage): void {
    if (message.type === 'truncated') this.truncated = true;
    this.messages.emit(message);
    this.events.emit(message);
  }

  /** Takes the stored cursor, when there is one (a worker that took a lease over resumes where the last holder stopped). */
  async reload(): Promise<void> {
    const stored = await this.options.store.get(this.options.storeKey);
    if (stored !== undefined) this.cursor = stored;
  }

  /** Keeps `cursor` (and writes it to the store when it is a string and it moved). */
  async advance(cursor: string | null): Promise<void> {
    const moved = cursor !== this.cursor;
    this.cursor = cursor;
    if (cursor !== null && moved) await this.options.store.set(this.options.storeKey, cursor);
  }

  /** Ends the subscription by the server's doing or an error no retry mends. */
  end(reason: EventSubscriptionEndReason, cause?: unknown): void {
    this.finish('ended', new EventSubscriptionEndedError(this.name, this.mode, reason, cause));
  }

  close(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.stateValue !== 'closed') {
        try {
          await this.stop();
        } catch (error) {
          this.options.onError(error instanceof Error ? error : new Error(String(error)));
        }
      }
      this.finish('closed', undefined);
      await this.running.catch(() => undefined);
    })();
    return this.stopping;
  }

  private finish(reason: EventSubscriptionCloseReason, error: EventSubscriptionEndedError | undefined): void {
    if (this.stateValue === 'closed') return;
    const started = this.onStarted;
    this.onStarted = undefined;
    this.stateValue = 'closed';
    started?.('closed');
    this.controller.abort(error ?? new Error('subscription closed'));
    this.events.emit({ type: 'state', state: 'closed' });
    this.events.emit({ type: 'closed', reason, ...(error !== undefined && { error }) });
    this.events.end();
    this.messages.end();
    this.resolveClosed({ reason, ...(error !== undefined && { error }) });
  }
}
