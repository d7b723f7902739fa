/**
 * The Triggers & Events extension's vocabulary (modelcontextprotocol/experimental-ext-triggers-events,
 * docs/design-sketch-proposal.md at 082166f; identifier `io.modelcontextprotocol/events`): the
 * methods, the shapes of `events/list`, `events/poll`, `events/stream` and `events/subscribe`,
 * the webhook bodies, and declaring or detecting the extension. Types and constants only, but for
 * the two capability helpers.
 */
import { isObject, type JsonObject } from './messages.js';
import type { ClientCapabilities, ServerCapabilities } from './protocol.js';

/** The identifier servers declare under `capabilities.extensions`, and clients in their `clientCapabilities`. */
export const EVENTS_EXTENSION = 'io.modelcontextprotocol/events';

/** The `_meta` key of every `notifications/events/*` on a push stream: the `events/stream` request's id. */
export const EVENTS_SUBSCRIPTION_ID_META = 'io.modelcontextprotocol/subscriptionId';

/** The extension's methods and notifications. */
export const EventsMethod = {
  list: 'events/list',
  poll: 'events/poll',
  stream: 'events/stream',
  subscribe: 'events/subscribe',
  unsubscribe: 'events/unsubscribe',
  listChanged: 'notifications/events/list_changed',
  active: 'notifications/events/active',
  event: 'notifications/events/event',
  heartbeat: 'notifications/events/heartbeat',
  error: 'notifications/events/error',
  terminated: 'notifications/events/terminated',
} as const;

/** How a server delivers occurrences of one event type. */
export type DeliveryMode = 'poll' | 'push' | 'webhook';

/** The delivery modes, in the order the SDK prefers them by default (design: Delivery Mode Selection). */
export const DELIVERY_MODES: readonly DeliveryMode[] = ['webhook', 'push', 'poll'];

/** One event type of `events/list` (design: Listing Available Events). */
export interface EventDescriptor {
  name: string;
  description?: string | undefined;
  /** The modes the server offers for this type: a non-empty subset of poll, push, webhook. */
  delivery: DeliveryMode[];
  /** JSON Schema of the subscription arguments. */
  inputSchema?: JsonObject | undefined;
  /** JSON Schema of an occurrence's `data`. */
  payloadSchema?: JsonObject | undefined;
  _meta?: JsonObject | undefined;
}

/** One occurrence (design: EventOccurrence schema). `data` is untrusted server data. */
export interface EventOccurrence {
  /** For deduplication; the upstream's stable id when it has one. */
  eventId: string;
  name: string;
  /** ISO 8601, as sent. */
  timestamp: string;
  data: JsonObject;
  /** The position after this event (push and webhook); `null` for a type without replay. */
  cursor?: string | null | undefined;
  _meta?: JsonObject | undefined;
}

/** The result of `events/poll`, after its checks. */
export interface PollEventsResult {
  events: EventOccurrence[];
  /** `null` (or absent on the wire) for a type without replay. */
  cursor: string | null;
  truncated: boolean;
  hasMore: boolean;
  /** As sent (ms), before the client's floor and ceiling; `undefined` when absent. */
  nextPollMs: number | undefined;
}

/** `deliveryStatus` of an `events/subscribe` refresh (design: Webhook Delivery Status). */
export interface DeliveryStatus {
  active: boolean;
  lastDeliveryAt?: string | null | undefined;
  /** A category: `connection_refused`, `timeout`, `tls_error`, `http_4xx`, `http_5xx`, `challenge_failed`. */
  lastError?: string | null | undefined;
  failedSince?: string | null | undefined;
}

/** The result of `events/subscribe`, after its checks. */
export interface SubscribeEventsResult {
  /** The server-derived routing id (sent as `X-MCP-Subscription-Id` on every delivery). */
  id: string;
  /** The grant's expiry, epoch ms; `null` for no expiry. */
  refreshBefore: number | null;
  cursor: string | null;
  truncated: boolean;
  deliveryStatus: DeliveryStatus | undefined;
}

/** A webhook control body (design: Non-event webhook bodies). */
export type WebhookControlBody =
  | { type: 'gap'; cursor: string | null }
  | { type: 'terminated'; error: { code: number; message: string; data?: unknown } }
  | { type: 'verification'; challenge: string };

/** The server's settings of the extension; `undefined` when it does not declare it (or not as an object). */
export function eventsCapabilityOf(capabilities: ServerCapabilities | undefined): JsonObject | undefined {
  const extensions = capabilities?.extensions;
  if (!isObject(extensions) || !Object.hasOwn(extensions, EVENTS_EXTENSION)) return undefined;
  const settings = extensions[EVENTS_EXTENSION];
  return isObject(settings) ? settings : undefined;
}

/** A copy of `capabilities` that also declares the extension (other extensions kept). */
export function withEventsExtension(capabilities: ClientCapabilities): ClientCapabilities {
  return { ...capabilities, extensions: { ...capabilities.extensions, [EVENTS_EXTENSION]: {} } };
}
