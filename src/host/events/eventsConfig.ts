/**
 * The `events` section of a host's configuration file: the subscriptions the host starts with
 * `host.events().start()`. Each entry is `{ "event": "<server>__<name>", "arguments": {...},
 * "options": { "delivery", "prefer", "forbid", "maxAgeMs", "maxEvents", "dedupWindow" } }`
 * (only options JSON can hold; cursor stores, leases and webhook receivers are given in code).
 * A malformed entry is a `HostConfigError` (-33050) naming `events[i].<field>` with the value.
 */
import { HostConfigError } from '../catalog/errors.js';
import type { JsonObject } from '../../wire/messages.js';
import type { DeliveryMode } from '../../wire/events.js';
import type { DeclaredEventSubscription } from './hostEvents.js';

const MODES: readonly DeliveryMode[] = ['poll', 'push', 'webhook'];
const OPTION_FIELDS = ['delivery', 'prefer', 'forbid', 'maxAgeMs', 'maxEvents', 'dedupWindow'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The well-formed entries of `raw` (a file's `events`), and one error per malformed one. */
export function parseEventsSection(raw: unknown): { events: DeclaredEventSubscription[]; errors: HostConfigError[] } {
  const events: DeclaredEventSubscription[] = [];
  const errors: HostConfigError[] = [];
  if (raw === undefined) return { events, errors };
  if (!Array.isArray(raw)) {
    errors.push(
      new HostConfigError({
        server: undefined,
        field: 'events',
        reason: 'expected an array of subscriptions',
        value: raw,
      }),
    );
    return { events, errors };
  }
  raw.forEach((entry: unknown, i) => {
    try {
      events.push(parseEntry(entry, `events[${i}]`));
    } catch (error) {
      if (!(error instanceof HostConfigError)) throw error;
      errors.push(error);
    }
  });
  return { events, errors };
}

function parseEntry(entry: unknown, at: string): DeclaredEventSubscription {
  const fail = (field: string, reason: string, value: unknown): never => {
    throw new HostConfigError({ server: undefined, field: field === '' ? at : `${at}.${field}`, reason, value });
  };
  if (!isObject(entry)) return fail('', 'expected an object with "event"', entry);
  const event = entry['event'];
  if (typeof event !== 'string' || event === '')
    fail('event', 'expected an exposed event name (<server>__<name>)', event);
  const args = entry['arguments'];
  if (args !== undefined && !isObject(args)) fail('arguments', 'expected an object', args);
  const raw = entry['options'];
  if (raw !== undefined && !isObject(raw)) fail('options', 'expected an object', raw);
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (!OPTION_FIELDS.includes(name))
      fail(`options.${name}`, `not an option a file can give (${OPTION_FIELDS.join(', ')})`, value);
    if (name === 'delivery' && !MODES.includes(value as DeliveryMode))
      fail('options.delivery', 'expected "poll", "push" or "webhook"', value);
    if (
      (name === 'prefer' || name === 'forbid') &&
      !(Array.isArray(value) && value.every((mode) => MODES.includes(mode as DeliveryMode)))
    )
      fail(`options.${name}`, 'expected an array of "poll", "push", "webhook"', value);
    if (['maxAgeMs', 'maxEvents', 'dedupWindow'].includes(name) && !(Number.isInteger(value) && (value as number) > 0))
      fail(`options.${name}`, 'expected a positive integer', value);
    options[name] = value;
  }
  return {
    event: event as string,
    ...(args !== undefined && { arguments: args as JsonObject }),
    ...(raw !== undefined && { options }),
  };
}
