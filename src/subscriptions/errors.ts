import { ErrorCode } from '../errors/codes.js';
import { LocalError, McpError } from '../errors/errors.js';
import type { RequestId } from '../wire/messages.js';
import type { SubscriptionEndReason } from './types.js';

/** `data` of a {@link SubscriptionClosedError}. */
export interface SubscriptionClosedData {
  /** Why the subscription ended (see {@link SubscriptionEndReason}). */
  reason: SubscriptionEndReason;
  /** The JSON-RPC id of the `subscriptions/listen` request concerned, when one was sent. */
  subscriptionId?: RequestId | undefined;
}

/**
 * A subscription ended before the server acknowledged it: the server answered or cancelled the
 * `subscriptions/listen` request first (spec: basic/patterns/subscriptions). Also the rejection
 * of `LiveList.refresh()` once the live list is closed. Code -33008
 * (`ErrorCode.SubscriptionClosed`); `data` is {@link SubscriptionClosedData}.
 */
export class SubscriptionClosedError extends LocalError {
  override name = 'SubscriptionClosedError';
  constructor(message: string, data: SubscriptionClosedData, cause?: unknown) {
    super(ErrorCode.SubscriptionClosed, message, { data, cause });
  }
}

/** `data` of an {@link UnmatchedNotificationError}. */
export interface UnmatchedNotificationData {
  /** The notification method, e.g. `notifications/tools/list_changed`. */
  method: string;
  /** Its `_meta["io.modelcontextprotocol/subscriptionId"]` as received (`undefined` when absent). */
  subscriptionId: unknown;
  /** The cache invalidations applied anyway, e.g. `["list tools/list"]` or `["uri file:///b.json"]`. */
  invalidated: string[];
}

/**
 * Reported to the client's `onError`, never thrown: a change notification arrived that names
 * no open subscription of this client (an unknown or absent subscription id). It was delivered
 * to no listener; the cache entries it makes stale were dropped anyway, and nothing was sent
 * back. Code -33009 (`ErrorCode.UnmatchedNotification`); `data` is {@link UnmatchedNotificationData}.
 */
export class UnmatchedNotificationError extends LocalError {
  override name = 'UnmatchedNotificationError';
  constructor(data: UnmatchedNotificationData) {
    super(
      ErrorCode.UnmatchedNotification,
      `${data.method} for no open subscription (subscriptionId ${JSON.stringify(data.subscriptionId) ?? 'absent'}); not delivered`,
      { data },
    );
  }
}

/** True for a {@link SubscriptionClosedError}, whichever copy of the package made it. */
export function isSubscriptionClosedError(value: unknown): value is SubscriptionClosedError {
  return McpError.is(value) && value.local && value.code === ErrorCode.SubscriptionClosed;
}
