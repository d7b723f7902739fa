/**
 * The checks of what an events server sends, and the bounds on every number and string in it
 * before the client uses them: a list page, a poll result, an occurrence, a subscribe result, a
 * stream notification. Pure.
 */
import { ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import {
  DELIVERY_MODES,
  type DeliveryMode,
  type DeliveryStatus,
  type EventDescriptor,
  type EventOccurrence,
  type PollEventsResult,
  type SubscribeEventsResult,
} from '../wire/events.js';

/** The bounds applied to what a server sends (none is configurable: they guard, they do not tune). */
export const EVENT_LIMITS = {
  /** Longest cursor kept (characters): a longer one is a protocol error. */
  maxCursorLength: 8_192,
  /** Longest `eventId` (characters). */
  maxEventIdLength: 1_024,
  /** Most occurrences one poll result may carry. */
  maxBatch: 10_000,
  /** Most event types one `events/list` page may carry. */
  maxListPage: 10_000,
  /** Longest wait a `nextPollMs` may ask for (ms): one hour. */
  maxPollIntervalMs: 3_600_000,
  /** Longest a granted webhook TTL is taken at (ms): 30 days; a later `refreshBefore` is refreshed then. */
  maxGrantMs: 30 * 24 * 3_600_000,
} as const;

function fail(method: string, message: string, value: unknown): never {
  throw new ProtocolError(message, { method, value });
}

/** A cursor field: a bounded string, or `null` (also for an absent field). */
export function cursorField(method: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail(method, 'cursor is not a string or null', value);
  if (value.length > EVENT_LIMITS.maxCursorLength)
    fail(method, `cursor longer than ${EVENT_LIMITS.maxCursorLength} characters`, value.slice(0, 64));
  return value;
}

function booleanField(method: string, result: JsonObject, key: string): boolean {
  const value = result[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') fail(method, `${key} is not a boolean`, value);
  return value;
}

/** One occurrence (poll entry, push notification params, webhook body). */
export function checkOccurrence(method: string, value: unknown): EventOccurrence {
  if (!isObject(value)) fail(method, 'an occurrence is not an object', value);
  const { eventId, name, timestamp, data } = value;
  if (typeof eventId !== 'string' || eventId === '' || eventId.length > EVENT_LIMITS.maxEventIdLength)
    fail(method, 'an occurrence has no valid eventId', eventId);
  if (typeof name !== 'string' || name === '') fail(method, 'an occurrence has no name', name);
  if (typeof timestamp !== 'string') fail(method, 'an occurrence has no timestamp', timestamp);
  if (!isObject(data)) fail(method, 'an occurrence has no data object', data);
  const occurrence: EventOccurrence = { eventId, name, timestamp, data };
  if ('cursor' in value) occurrence.cursor = cursorField(method, value['cursor']);
  if (isObject(value['_meta'])) occurrence._meta = value['_meta'];
  return occurrence;
}

/** An `events/poll` result. `nextPollMs` is kept as sent when it is a finite number ≥ 0. */
export function checkPollResult(result: JsonObject): PollEventsResult {
  const method = 'events/poll';
  const events = result['events'];
  if (!Array.isArray(events)) fail(method, 'events is not an array', events);
  if (events.length > EVENT_LIMITS.maxBatch) fail(method, `more than ${EVENT_LIMITS.maxBatch} events`, events.length);
  const next = result['nextPollMs'];
  return {
    events: events.map((entry) => checkOccurrence(method, entry)),
    cursor: cursorField(method, result['cursor']),
    truncated: booleanField(method, result, 'truncated'),
    hasMore: booleanField(method, result, 'hasMore'),
    nextPollMs: typeof next === 'number' && Number.isFinite(next) && next >= 0 ? next : undefined,
  };
}

/** The wait before the next poll (ms): `nextPollMs` (or `fallbackMs`) within `[floorMs, maxPollIntervalMs]`. */
export function pollDelay(nextPollMs: number | undefined, floorMs: number, fallbackMs: number): number {
  const asked = nextPollMs ?? fallbackMs;
  return Math.min(Math.max(asked, floorMs), Math.max(floorMs, EVENT_LIMITS.maxPollIntervalMs));
}

function isDeliveryMode(value: unknown): value is DeliveryMode {
  return typeof value === 'string' && (DELIVERY_MODES as readonly string[]).includes(value);
}

/**
 * One `events/list` page: the entries that are valid, and one line for each left out (no name,
 * a repeated name, no known delivery mode). Unknown modes are dropped from `delivery`.
 */
export function checkListPage(result: JsonObject): {
  events: EventDescriptor[];
  nextCursor: string | undefined;
  skipped: string[];
} {
  const method = 'events/list';
  const entries = result['events'];
  if (!Array.isArray(entries)) fail(method, 'events is not an array', entries);
  if (entries.length > EVENT_LIMITS.maxListPage)
    fail(method, `more than ${EVENT_LIMITS.maxListPage} entries`, entries.length);
  const next = result['nextCursor'];
  if (next !== undefined && next !== null && typeof next !== 'string') fail(method, 'nextCursor is not a string', next);
  const events: EventDescriptor[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (!isObject(entry) || typeof entry['name'] !== 'string' || entry['name'] === '') {
      skipped.push(`entry #${index}: no name`);
      return;
    }
    const name = entry['name'];
    if (seen.has(name)) {
      skipped.push(`entry #${index} (${name}): repeated name`);
      return;
    }
    const delivery = Array.isArray(entry['delivery']) ? [...new Set(entry['delivery'].filter(isDeliveryMode))] : [];
    if (delivery.length === 0) {
      skipped.push(`entry #${index} (${name}): no known delivery mode`);
      return;
    }
    seen.add(name);
    const descriptor: EventDescriptor = { name, delivery };
    if (typeof entry['description'] === 'string') descriptor.description = entry['description'];
    if (isObject(entry['inputSchema'])) descriptor.inputSchema = entry['inputSchema'];
    if (isObject(entry['payloadSchema'])) descriptor.payloadSchema = entry['payloadSchema'];
    if (isObject(entry['_meta'])) descriptor._meta = entry['_meta'];
    events.push(descriptor);
  });
  return { events, nextCursor: typeof next === 'string' && next !== '' ? next : undefined, skipped };
}

function checkDeliveryStatus(value: unknown): DeliveryStatus | undefined {
  if (!isObject(value) || typeof value['active'] !== 'boolean') return undefined;
  const status: DeliveryStatus = { active: value['active'] };
  for (const key of ['lastDeliveryAt', 'lastError', 'failedSince'] as const) {
    const field = value[key];
    if (typeof field === 'string') status[key] = field.slice(0, 64);
    else if (field === null) status[key] = null;
  }
  return status;
}

/**
 * An `events/subscribe` result. `refreshBefore` (ISO 8601) becomes epoch ms, bounded to
 * `now + maxGrantMs`; `null` stays `null` (no expiry) only when `ttlMs: null` was asked for,
 * else it is read as the longest grant.
 */
export function checkSubscribeResult(result: JsonObject, now: number, askedNoExpiry: boolean): SubscribeEventsResult {
  const method = 'events/subscribe';
  const id = result['id'];
  if (typeof id !== 'string' || id === '' || id.length > 512) fail(method, 'id is not a non-empty string', id);
  const raw = result['refreshBefore'];
  let refreshBefore: number | null;
  if (raw === null || raw === undefined) refreshBefore = askedNoExpiry ? null : now + EVENT_LIMITS.maxGrantMs;
  else {
    const at = typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
    if (!Number.isFinite(at)) fail(method, 'refreshBefore is not an ISO 8601 time', raw);
    refreshBefore = Math.min(at, now + EVENT_LIMITS.maxGrantMs);
  }
  return {
    id,
    refreshBefore,
    cursor: cursorField(method, result['cursor']),
    truncated: booleanField(method, result, 'truncated'),
    deliveryStatus: checkDeliveryStatus(result['deliveryStatus']),
  };
}
