/**
 * What the subscription manager loads at the first `subscribe()` on the modern wire or the
 * first `live()` (spec: basic/patterns/subscriptions): the opening of a subscription
 * (`subscription.ts` holds its lifecycle), the reading of `notifications/tasks` for one, and
 * live lists (`liveList.ts`, which a live list's own subscription needs anyway).
 */
import { abortedError, ConnectionClosedError } from '../errors/errors.js';
import type { JsonObject } from '../wire/messages.js';
import type { SubscriptionFilter } from '../wire/protocol.js';
import { readDetailedTask } from '../wire/taskShape.js';
import { resolveReopenPolicy, type ResolvedReopenPolicy } from '../resilience/reopenPolicy.js';
import { narrowToCapabilities } from './filter.js';
import { ManagedSubscription, METHOD, type SubscriptionDeps } from './subscription.js';
import type { SubscribeOptions, Subscription, SubscriptionEvent } from './types.js';

export { makeLiveList } from './liveList.js';

/** @internal A `subscribe()` on the modern wire, its filter and ack timeout checked by the manager. */
export interface SubscribeRequest {
  /** The host's filter, normalized (`checkFilter`). */
  wanted: SubscriptionFilter;
  /** Ack timeout, in ms. */
  timeoutMs: number;
  /** The client's reopen policy, which `options.reopen` overrides. */
  reopen: ResolvedReopenPolicy | false;
  options: SubscribeOptions;
}

/**
 * @internal Opens a subscription on the modern wire: narrows the filter to the server's
 * capabilities, sends `subscriptions/listen` before it returns its promise, and resolves at the
 * acknowledgment. Errors as `McpClient.subscribe` (`CancelledError`, `ConnectionClosedError`,
 * `InvalidArgumentError` -32602 for a bad `reopen`, and what the listen request fails with).
 */
export async function openSubscription(deps: SubscriptionDeps, request: SubscribeRequest): Promise<Subscription> {
  const { options } = request;
  const signal = options.signal;
  if (signal?.aborted) throw abortedError(METHOD, signal.reason);
  if (!deps.host.connected()) throw new ConnectionClosedError(`${METHOD}: not connected`, { reason: 'not connected' });
  const reopen =
    options.reopen === undefined
      ? request.reopen
      : resolveReopenPolicy(options.reopen, request.reopen === false ? undefined : request.reopen);
  const { deliverable, unsupported } = narrowToCapabilities(request.wanted, deps.host.capabilities());
  const subscription = new ManagedSubscription(deps, {
    requested: deliverable,
    unsupported,
    timeoutMs: request.timeoutMs,
    reopen,
    signal,
    onEvent: options.onEvent,
  });
  deps.track(subscription);
  await subscription.open();
  return subscription;
}

/**
 * The event a `notifications/tasks` (Tasks extension) carries to the subscription it names:
 * its params, less `_meta`, read as a `DetailedTask`.
 * @throws ProtocolError (-32600) when they are not one (see `readDetailedTask`).
 */
export function taskStatusEvent(method: string, params: JsonObject | undefined): SubscriptionEvent {
  const fields: JsonObject = { ...params };
  delete fields['_meta'];
  return { type: 'taskStatus', task: readDetailedTask(method, fields) };
}
