/**
 * Push delivery (design: Push-Based Delivery): one long-lived `events/stream` per subscription.
 * Its `notifications/events/*` are handled in order (each batch's cursor persisted before the
 * next); a stream silent for longer than `heartbeatTimeoutMs` is cancelled and opened again from
 * the last cursor, as is one the server closes or a drop breaks. Cancelling is the session's:
 * an aborted request on HTTP, `notifications/cancelled` on stdio.
 */
import type { BackoffOptions } from '../resilience/backoff.js';
import { abortableDelay, linkSignals } from '../util/signals.js';
import { isObject, type JsonObject, type JsonRpcNotification } from '../wire/messages.js';
import { EventsMethod } from '../wire/events.js';
import { checkOccurrence, cursorField } from './checks.js';
import { endsSubscription, eventsErrorOf, typedEventsError } from './errors.js';
import { retryWait, type EventLoopDeps } from './loopDeps.js';
import type { SubscriptionCore } from './subscription.js';

/** Push options (all ms). */
export interface PushOptions {
  /**
   * Silence (no event, heartbeat or confirmation) after which the stream is taken for dead and
   * opened again from the cursor: twice the 30 s the design asks servers to beat at. @default 60000
   */
  heartbeatTimeoutMs?: number | undefined;
  /** How long the request may wait for its confirmation (`notifications/events/active`). @default 30000 */
  openTimeoutMs?: number | undefined;
  /** The waits after a failed open. @default 1 s doubling to 60 s, with jitter */
  retry?: BackoffOptions | undefined;
}

const DEFAULT_HEARTBEAT_TIMEOUT_MS = 60_000;
const DEFAULT_OPEN_TIMEOUT_MS = 30_000;
/** The wait before opening again a stream the server closed itself. */
const REOPEN_AFTER_CLOSE_MS = 1_000;

/** The abort reason of a stream given up for silence. */
class SilentStream extends Error {
  override name = 'SilentStream';
}

/** Runs the push loop of `core` until it closes or ends. Never rejects. */
export async function runPushLoop(
  core: SubscriptionCore,
  deps: EventLoopDeps,
  request: { maxAgeMs?: number | undefined },
  options: PushOptions = {},
): Promise<void> {
  const heartbeatTimeoutMs = Math.max(1, options.heartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS);
  const openTimeoutMs = options.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
  let failures = 0;
  while (!core.signal.aborted) {
    let wait: number;
    const attempt = new AbortController();
    const linked = linkSignals(core.signal, attempt.signal);
    let watchdog: unknown;
    let queue = Promise.resolve();
    const arm = (): void => {
      deps.timers.clearTimeout(watchdog);
      watchdog = deps.timers.setTimeout(
        () => attempt.abort(new SilentStream(`no event or heartbeat for ${heartbeatTimeoutMs} ms`)),
        heartbeatTimeoutMs,
      );
    };
    try {
      await deps.whenConnected(core.signal);
      const params: JsonObject = { name: core.name, arguments: core.arguments, cursor: core.cursor };
      if (request.maxAgeMs !== undefined) params['maxAgeMs'] = request.maxAgeMs;
      let opened: { disarm(): void } | undefined;
      const onNotification = (notification: JsonRpcNotification): void => {
        if (attempt.signal.aborted) return;
        arm();
        queue = queue
          .then(() => handle(notification))
          .catch((error: unknown) => core.reportError(error instanceof Error ? error : new Error(String(error))));
      };
      const handle = async (notification: JsonRpcNotification): Promise<void> => {
        const body = notification.params ?? {};
        switch (notification.method) {
          case EventsMethod.active: {
            opened?.disarm();
            failures = 0;
            core.setState('active');
            const truncated = body['truncated'] === true;
            await core.deliver([], cursorField(notification.method, body['cursor']), truncated ? 'active' : undefined);
            return;
          }
          case EventsMethod.event: {
            const occurrence = checkOccurrence(notification.method, body);
            await core.deliver([occurrence], 'cursor' in occurrence ? occurrence.cursor : undefined);
            return;
          }
          case EventsMethod.heartbeat:
            if ('cursor' in body) await core.advance(cursorField(notification.method, body['cursor']));
            return;
          case EventsMethod.error:
            core.reportError(eventsErrorOf(wireError(body), notification.method));
            return;
          case EventsMethod.terminated:
            core.end('terminated', eventsErrorOf(wireError(body), notification.method));
            attempt.abort();
            return;
          default:
            return;
        }
      };
      arm();
      const stream = deps.stream(params, { signal: linked.signal, timeoutMs: openTimeoutMs, onNotification });
      opened = stream;
      await stream.done;
      await queue;
      wait = REOPEN_AFTER_CLOSE_MS;
    } catch (error) {
      if (core.signal.aborted) return;
      if (deps.lost()) {
        core.end('connection-lost', error);
        return;
      }
      const silent = attempt.signal.reason instanceof SilentStream ? attempt.signal.reason : undefined;
      const typed = typedEventsError(error);
      if (silent === undefined && endsSubscription(typed)) {
        core.end('rejected', typed);
        return;
      }
      core.setState('reconnecting');
      core.reportError(silent ?? (typed instanceof Error ? typed : new Error(String(typed))));
      failures++;
      // A silent stream is opened again at once the first time; repeated failures back off.
      wait = silent !== undefined && failures === 1 ? 0 : retryWait(failures, options.retry);
    } finally {
      deps.timers.clearTimeout(watchdog);
      // What was handed on is persisted before the loop moves on (or ends).
      await queue;
      linked.dispose();
      if (!attempt.signal.aborted) attempt.abort();
    }
    try {
      if (wait > 0) await abortableDelay(wait, deps.timers, core.signal);
    } catch {
      return;
    }
  }
}

function wireError(body: JsonObject): { code: number; message: string; data?: unknown } {
  const error = body['error'];
  if (isObject(error) && typeof error['code'] === 'number' && typeof error['message'] === 'string')
    return { code: error['code'], message: error['message'].slice(0, 500), data: error['data'] };
  return { code: -32603, message: 'malformed error notification', data: error };
}
