/**
 * The options of `client.events.list()` and `client.events.subscribe()`, and the listing. Types only.
 */
import type { CallOptions } from '../wire/callOptions.js';
import type { EventDescriptor } from '../wire/events.js';
import type { CursorStore } from './cursorStore.js';
import type { DeliveryChoice } from './deliveryMode.js';
import type { EventLease } from './lease.js';
import type { PollOptions } from './pollLoop.js';
import type { PushOptions } from './pushLoop.js';
import type { WebhookOptions } from './webhookLoop.js';

/** Options of `client.events.list()`. */
export interface EventListOptions extends CallOptions {
  /** Read only the page at this cursor (uncached); omit for every page (cached). */
  cursor?: string | undefined;
  /** Most pages read for the whole list. @default 100 */
  maxPages?: number | undefined;
}

/** What `client.events.list()` resolves with. */
export interface EventListing {
  events: EventDescriptor[];
  /** With `cursor`: where the next page starts. */
  nextCursor?: string | undefined;
  /** One line per entry left out (no name, a repeated name, no known delivery mode). */
  skipped: string[];
}

/** Options of `client.events.subscribe()`. */
export interface EventSubscribeOptions extends DeliveryChoice {
  /** Aborts the wait for the first answer (the subscription is closed then). */
  signal?: AbortSignal | undefined;
  /** The cursor to start from; `null` starts from now. @default the stored cursor, else `null` */
  cursor?: string | null | undefined;
  /** Where the cursor is kept after each batch. @default one memory store per client */
  cursorStore?: CursorStore | undefined;
  /** Do not replay events older than this (ms), sent as `maxAgeMs` in every mode. */
  maxAgeMs?: number | undefined;
  /** Poll: most events per poll, sent as `maxEvents`. */
  maxEvents?: number | undefined;
  /** How many recent `eventId`s are remembered to drop repeats. @default 1000 */
  dedupWindow?: number | undefined;
  poll?: PollOptions | undefined;
  push?: PushOptions | undefined;
  /** Webhook delivery: needed for the webhook mode to be usable. */
  webhook?: WebhookOptions | undefined;
  /**
   * Consume only while this worker holds `lease` (e.g. `new RedisLease({ client, name:
   * client.events.cursorKey(name, args) })` of mcp-live/redis), so one worker of a fleet consumes the
   * subscription at a time. Without the lease, `subscribe()` resolves with the subscription in
   * state `standby` and it takes over (within the lease's `ttlMs` plus a third of it) once the
   * holder stops renewing, resuming from the stored cursor: give every worker the same shared
   * `cursorStore` (e.g. `RedisCursorStore`). A lease lost while consuming ends the subscription
   * (`EventSubscriptionEndedError`, reason `lease-lost`). @default none: this worker consumes
   */
  lease?: EventLease | undefined;
}
