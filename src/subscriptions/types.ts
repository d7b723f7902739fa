/**
 * Shapes of subscriptions and live lists (spec: basic/patterns/subscriptions). The machinery is
 * in `subscriptionManager.ts`, `subscription.ts` and `liveList.ts`.
 */
import type { RequestId } from '../wire/messages.js';
import type { Prompt, Resource, ResourceTemplate, SubscriptionFilter, Tool } from '../wire/protocol.js';
import type { ListMethod } from '../cache/types.js';
import type { BackoffOptions } from '../resilience/backoff.js';
import type { ReopenPolicy } from '../resilience/reopenPolicy.js';
import type { DetailedTask } from '../wire/tasks.js';

/**
 * Why one `subscriptions/listen` stream ended, or why a subscription closed for good
 * (spec: basic/patterns/subscriptions, "Cancellation").
 *
 * - `closed`: the host closed it (`close()`, or the `signal` it was opened with aborted).
 * - `client-closed`: `McpClient.close()` was called.
 * - `transport-closed`: the connection dropped (on stdio: the server process ended).
 * - `stream-dropped`: the listen request's own stream broke while the connection stayed up
 *   (Streamable HTTP: its SSE response ended without a result). Reopened like a server end.
 * - `server-ended`: the server answered the listen request with a result (graceful end).
 * - `server-cancelled`: the server sent `notifications/cancelled` for the listen request.
 * - `server-error`: the listen request got an error response.
 * - `ack-timeout`: no `notifications/subscriptions/acknowledged` within the timeout.
 * - `failed`: anything else (the error says what).
 */
export type SubscriptionEndReason =
  | 'closed'
  | 'client-closed'
  | 'transport-closed'
  | 'stream-dropped'
  | 'server-ended'
  | 'server-cancelled'
  | 'server-error'
  | 'ack-timeout'
  | 'failed';

/** What a subscription's `closed` promise resolves with. */
export interface SubscriptionClosed {
  /** Why it closed. For a subscription that stopped reopening, the reason of the last failure. */
  reason: SubscriptionEndReason;
  /** The error behind `reason`, when there was one (an `RpcError`, `TimeoutError`, ...). */
  error?: Error | undefined;
  /** How many times the stream was reopened before it closed. */
  reopens: number;
}

/**
 * One event of a {@link Subscription}. The four change events mirror the four notifications a
 * listen stream carries; the response cache has already dropped what they make stale when a
 * listener hears of them.
 *
 * - `toolsListChanged`, `promptsListChanged`, `resourcesListChanged`: the list changed
 *   (`notifications/<kind>/list_changed`).
 * - `resourceUpdated`: `notifications/resources/updated` for `uri` (which may be a
 *   sub-resource of a subscribed uri).
 * - `subscriptionLost`: the stream ended without the host asking; `willReopen` says whether
 *   the subscription reopens it (after `retryInMs` ms). Also emitted after each failed reopen.
 * - `resync`: the stream was reopened; changes in the gap may have been missed, so every cache
 *   entry the filter covers was dropped. Treat it as "everything may have changed".
 * - `taskStatus`: `notifications/tasks` for one of the filter's `taskIds` (Tasks extension):
 *   the whole task as `tasks/get` would return it now.
 */
export type SubscriptionEvent =
  | { type: 'toolsListChanged' }
  | { type: 'promptsListChanged' }
  | { type: 'resourcesListChanged' }
  | { type: 'resourceUpdated'; uri: string }
  | {
      type: 'subscriptionLost';
      reason: SubscriptionEndReason;
      error?: Error | undefined;
      willReopen: boolean;
      /** The wait before the next reopen attempt, in ms, when `willReopen`. */
      retryInMs?: number | undefined;
    }
  | { type: 'resync'; reopens: number; honoured: SubscriptionFilter; notHonoured: SubscriptionFilter }
  | { type: 'taskStatus'; task: DetailedTask };

/** The `type` of a change event: the ones a listen stream carries. */
export type SubscriptionChangeType =
  'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged' | 'resourceUpdated';

/** Options of `McpClient.subscribe()`. */
export interface SubscribeOptions {
  /**
   * Closes the subscription when aborted. Before the acknowledgment, `subscribe()` then rejects
   * with `CancelledError` (-32800) and the server is told (`notifications/cancelled`).
   */
  signal?: AbortSignal | undefined;
  /**
   * How long to wait for `notifications/subscriptions/acknowledged`, in ms; the open stream
   * itself never times out. @default the client's `timeoutMs` (60 000)
   */
  timeoutMs?: number | undefined;
  /**
   * A listener attached before the request is sent, so it hears every event as it comes.
   * Without it, the events that come before the first `on()` or iteration (up to 64, repeated
   * change events for the same list or uri kept once) are held and handed to that first
   * listener or iterator; later ones hear events from when they are attached.
   */
  onEvent?: ((event: SubscriptionEvent) => void) | undefined;
  /** Reopen policy of this subscription; `false` never reopens. @default the client's `subscriptions.reopen` */
  reopen?: ReopenPolicy | false | undefined;
}

/** Connection state of a {@link Subscription}: `open` (acknowledged), `reopening`, `closed`. */
export type SubscriptionState = 'open' | 'reopening' | 'closed';

/**
 * A subscription made by `McpClient.subscribe()`: one `subscriptions/listen` stream on the
 * wire (spec: basic/patterns/subscriptions), reopened when it ends unexpectedly.
 *
 * Events come through `on(listener)` (any number of listeners; the returned function removes
 * that listener only) and through `for await (const event of subscription)` (each iterator gets
 * the events from its creation; while it lags, repeated change events for the same list or uri
 * are kept once). Events that arrive before anything listens (a change sent with the
 * acknowledgment) are held for the first listener or iterator, in a microtask after it is
 * attached; see `SubscribeOptions.onEvent`. Iterators end when the subscription closes.
 *
 * ```ts
 * const sub = await client.subscribe({ toolsListChanged: true, resourceSubscriptions: ['file:///a.json'] });
 * const off = sub.on((event) => { if (event.type === 'resourceUpdated') reload(event.uri); });
 * console.log(sub.notHonoured); // what the server would not deliver
 * const { reason } = await sub.closed; // never rejects
 * ```
 */
export interface Subscription extends AsyncIterable<SubscriptionEvent> {
  /**
   * What was asked for on the wire: the host's filter without the types the server's
   * capabilities say it cannot deliver (`tools.listChanged`, `prompts.listChanged`,
   * `resources.listChanged`, `resources.subscribe`).
   */
  readonly requested: SubscriptionFilter;
  /** What the server's latest acknowledgment honoured (a subset of {@link requested}). */
  readonly honoured: SubscriptionFilter;
  /** What the host asked for and will not hear about: left out by capabilities or by the acknowledgment. */
  readonly notHonoured: SubscriptionFilter;
  /**
   * The `io.modelcontextprotocol/subscriptionId` of the current stream: the JSON-RPC id of its
   * `subscriptions/listen` request. `undefined` while reopening, once closed, and when nothing
   * the server can deliver was asked for (then no request is sent at all).
   */
  readonly subscriptionId: RequestId | undefined;
  /** See {@link SubscriptionState}. */
  readonly state: SubscriptionState;
  /** How many times the stream has been reopened. */
  readonly reopens: number;
  /** Adds a listener; returns the function that removes it. A throwing listener is reported to `onError`. */
  on(listener: (event: SubscriptionEvent) => void): () => void;
  /**
   * Ends the subscription: the server is told (`notifications/cancelled` on stdio), a pending
   * reopen stops, iterators finish, `closed` resolves with reason `closed`. Idempotent.
   */
  close(): Promise<void>;
  /** `close()`, for `await using sub = await client.subscribe(…)`. */
  [Symbol.asyncDispose](): Promise<void>;
  /** Resolves (never rejects) once the subscription is closed for good, with why. */
  readonly closed: Promise<SubscriptionClosed>;
}

/** The lists a {@link LiveList} can keep: the four paginated list methods. */
export type LiveListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** The item type of each {@link LiveListKind}. */
export interface LiveListItems {
  tools: Tool;
  prompts: Prompt;
  resources: Resource;
  resourceTemplates: ResourceTemplate;
}

/** The list method behind each {@link LiveListKind}. */
export const LIVE_LIST_METHODS: Readonly<Record<LiveListKind, ListMethod>> = Object.freeze({
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
});

/**
 * One event of a {@link LiveList}.
 *
 * - `updated`: a refresh finished; `items` is the whole list (every page). `changed` is false
 *   when it equals the previous list, in which case `items` is the previous array itself.
 * - `refreshFailed`: a refresh failed; `items` is the last good list, kept and now flagged
 *   stale. The list never becomes empty because a refresh failed. Another refresh follows after
 *   `retryInMs` ms (or sooner, on the next change).
 * - `subscriptionLost`, `resync`: forwarded from the list's subscription.
 * - `polling`: changes are not pushed, so the list is fetched again every `intervalMs` (the
 *   server's `ttlMs` within `subscriptions.poll`'s floor and ceiling) while that lasts; said
 *   once per live list. `reason` and `error` say why ({@link LivePollReason}).
 */
export type LiveListEvent<T> =
  | { type: 'updated'; items: readonly T[]; version: number; changed: boolean }
  | { type: 'refreshFailed'; error: Error; items: readonly T[]; retryInMs?: number | undefined }
  | { type: 'polling'; reason: LivePollReason; error?: Error | undefined; intervalMs: number }
  | Extract<SubscriptionEvent, { type: 'subscriptionLost' | 'resync' }>;

/**
 * Why a live list polls instead of hearing changes:
 * - `refused`: the server answered `subscriptions/listen` with an error (-32601 and the like);
 * - `unacknowledged`: no acknowledgment within the ack timeout;
 * - `dropped`: the stream ended and will not reopen soon (the server ended it, or the reopen
 *   budget waits long or gave up);
 * - `unsupported`: the server's capabilities or its acknowledgment leave this list out.
 */
export type LivePollReason = 'refused' | 'unacknowledged' | 'dropped' | 'unsupported';

/** Options of `McpClient.live()`. */
export interface LiveListOptions<T = unknown> {
  /**
   * The wait after the first change of a burst before the list is fetched again, in ms; every
   * change in that window is served by the one refresh. @default the client's `subscriptions.liveDebounceMs` (50)
   */
  debounceMs?: number | undefined;
  /** Idle timeout of each page request of a refresh, in ms. @default the client's `timeoutMs` */
  timeoutMs?: number | undefined;
  /** Page cap of each walk. @default 1000 */
  maxPages?: number | undefined;
  /** Closes the live list (and its subscription) when aborted. */
  signal?: AbortSignal | undefined;
  /** A listener attached before anything is sent, so it hears every event. */
  onEvent?: ((event: LiveListEvent<T>) => void) | undefined;
  /**
   * A subscription of yours to hear this list's changes on, instead of a listen stream of the
   * list's own: one stream for several lists (its filter must ask for this list's changes).
   * The list never closes it; it closes when that subscription closes for the host
   * (`close()`, `client-closed`), and polls when it fails or drops.
   * @default a subscription of its own
   */
  subscription?: Subscription | Promise<Subscription> | undefined;
}

/**
 * A list kept current: the whole list (all pages), fetched again shortly after each change the
 * server announces, for hosts that bind a menu or picker to it. Made by `McpClient.live()`.
 *
 * - The list comes from plain list requests; the first load does not wait for the
 *   subscription's acknowledgment, and a listen that fails never fails the list.
 * - While changes are not pushed (refused, unacknowledged, dropping, unsupported), the list is
 *   fetched again on the server's `ttlMs` within a floor and a ceiling (`polling`).
 * - Bursts of changes coalesce into one refresh (`debounceMs` after the first).
 * - A change that arrives during a refresh is never lost: that refresh's result is known to be
 *   outdated and one more refresh follows.
 * - A failed refresh keeps the last good list, sets {@link stale} and {@link lastError}, emits
 *   `refreshFailed`, and retries with jittered exponential backoff.
 * - After the subscription reopens (`resync`) the list is fetched again.
 *
 * ```ts
 * const tools = await client.live('tools');
 * renderMenu(tools.items);
 * tools.on((event) => {
 *   if (event.type === 'updated' && event.changed) renderMenu(event.items);
 *   if (event.type === 'refreshFailed') showBadge(`stale: ${event.error.message}`);
 * });
 * ```
 */
export interface LiveList<T> extends AsyncIterable<LiveListEvent<T>> {
  /** Which list. */
  readonly kind: LiveListKind;
  /** The list method fetched. */
  readonly method: ListMethod;
  /** The last good whole list; a frozen array, replaced (never mutated) on each change. */
  readonly items: readonly T[];
  /** Increments each time {@link items} changes; 1 after the first load. */
  readonly version: number;
  /**
   * True when {@link items} may be out of date: the last refresh failed, or changes are no
   * longer watched (the subscription closed).
   */
  readonly stale: boolean;
  /** The error of the last refresh, when it failed; cleared by the next good refresh. */
  readonly lastError: Error | undefined;
  /** Whether the server announces changes of this list (its capability and acknowledgment say so) and the subscription is open. */
  readonly watching: boolean;
  /** Whether the list is fetched on a timer because changes are not pushed (see the `polling` event). */
  readonly polling: boolean;
  /** The subscription behind the list, once acknowledged; `undefined` before, and when the listen failed. */
  readonly subscription: Subscription | undefined;
  /** Adds a listener; returns the function that removes it. */
  on(listener: (event: LiveListEvent<T>) => void): () => void;
  /**
   * Fetches the list now (joining a refresh in progress, which then runs once more).
   * @returns the list after the refresh.
   * @throws the refresh's error (the list keeps its last good items); SubscriptionClosedError
   *   (-33008) once the live list is closed.
   */
  refresh(): Promise<readonly T[]>;
  /** Closes the live list and its subscription. Idempotent. */
  close(): Promise<void>;
  /** `close()`, for `await using list = await client.live(…)`. */
  [Symbol.asyncDispose](): Promise<void>;
  /** Resolves (never rejects) when the live list closed: with its subscription's reason, or `closed`. */
  readonly closed: Promise<SubscriptionClosed>;
}

/** Client-wide subscription settings (`ClientOptions.subscriptions`). */
export interface SubscriptionClientOptions {
  /**
   * How subscriptions reopen a stream that ended without the host asking; `false` never
   * reopens. Per subscription: `SubscribeOptions.reopen`.
   * @default DEFAULT_REOPEN_POLICY (1 s → 30 s jittered backoff; 3 quick retries within 10 s of
   *   opening; 5 reopens an hour; then a 15 min cool-down)
   */
  reopen?: ReopenPolicy | false | undefined;
  /** Default `LiveListOptions.debounceMs`, in ms. @default 50 */
  liveDebounceMs?: number | undefined;
  /**
   * Backoff of a live list's retries after a failed refresh (ms). @default { minDelayMs: 1000,
   * maxDelayMs: 60000, factor: 2, jitter: true }
   */
  liveRetry?: BackoffOptions | undefined;
  /** Random source in [0, 1) for every jitter. @default Math.random */
  random?: (() => number) | undefined;
  /**
   * How often a live list whose changes are not pushed is fetched again, in ms: the list's
   * `ttlMs` (the smallest of its pages), never below `minIntervalMs` nor above
   * `maxIntervalMs`; `defaultIntervalMs` when no page gives one.
   * @default { minIntervalMs: 5000, maxIntervalMs: 300000, defaultIntervalMs: 60000 }
   */
  poll?: { minIntervalMs?: number; maxIntervalMs?: number; defaultIntervalMs?: number } | undefined;
}
