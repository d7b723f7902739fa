/**
 * What the delivery loops borrow from the client ({@link EventLoopDeps}) and their shared
 * timing options. Types, and the one retry wait.
 */
import { backoffDelay, type BackoffOptions } from '../resilience/backoff.js';
import type { Timers, WallClock } from '../util/clock.js';
import type { JsonObject, JsonRpcNotification, RequestId } from '../wire/messages.js';
import { endsSubscription, typedEventsError } from './errors.js';
import type { SubscriptionCore } from './subscription.js';

/** One long-lived `events/stream` request as the client opens it. */
export interface OpenedStream {
  /** Resolves with the final `StreamEventsResult`, rejects as a request does. */
  readonly done: Promise<JsonObject>;
  /** The request id (the `subscriptionId` its notifications carry). */
  readonly id: RequestId;
  /** Ends its timeouts once the stream is confirmed (`notifications/events/active`). */
  disarm(): void;
}

/** What the loops need of the client. */
export interface EventLoopDeps {
  /** One `events/*` request with the protocol `_meta` and the extension declared. */
  request(
    method: string,
    params: JsonObject,
    options: { signal: AbortSignal; timeoutMs?: number | undefined },
  ): Promise<JsonObject>;
  /**
   * Opens `events/stream`: its notifications (on the POST's stream over HTTP, routed by
   * `_meta.subscriptionId` on stdio) go to `onNotification`; aborting `signal` cancels it.
   * @throws as a request does, synchronously rejected in `done`.
   */
  stream(
    params: JsonObject,
    options: { signal: AbortSignal; timeoutMs: number; onNotification: (notification: JsonRpcNotification) => void },
  ): OpenedStream;
  /** Resolves once the client is connected (at once when it is); rejects when it closes for good or `signal` aborts. */
  whenConnected(signal: AbortSignal): Promise<void>;
  /** True once the client closed (or gave up reconnecting): the subscription then ends. */
  lost(): boolean;
  timers: Timers;
  wallClock: WallClock;
  onError: (error: Error) => void;
}

/** The retry waits of every loop after a failure a retry may mend. */
export const RETRY_BACKOFF = { minDelayMs: 1_000, maxDelayMs: 60_000, factor: 2, jitter: true } as const;

/** The wait before retry number `retry` (1-based) with `options` over {@link RETRY_BACKOFF}. */
export function retryWait(retry: number, options: BackoffOptions | undefined): number {
  return backoffDelay(
    {
      minDelayMs: options?.minDelayMs ?? RETRY_BACKOFF.minDelayMs,
      maxDelayMs: options?.maxDelayMs ?? RETRY_BACKOFF.maxDelayMs,
      factor: options?.factor ?? RETRY_BACKOFF.factor,
      jitter: options?.jitter ?? RETRY_BACKOFF.jitter,
    },
    retry,
  );
}

/**
 * After a failed request of a loop: ends `core` (the client closed, or an error no retry mends)
 * and returns `undefined`, or marks it reconnecting, reports the typed error and returns it.
 */
export function failed(core: SubscriptionCore, deps: EventLoopDeps, error: unknown): Error | undefined {
  if (deps.lost()) {
    core.end('connection-lost', error);
    return undefined;
  }
  const typed = typedEventsError(error);
  if (endsSubscription(typed)) {
    core.end('rejected', typed);
    return undefined;
  }
  const reported = typed instanceof Error ? typed : new Error(String(typed));
  core.setState('reconnecting');
  core.reportError(reported);
  return reported;
}
