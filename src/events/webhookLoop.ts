/**
 * Webhook delivery (design: Webhook-Based Delivery): `events/subscribe` with the callback URL and
 * a fresh `whsec_` secret, then a refresh (same key, the last cursor, a rotated secret) before
 * each `refreshBefore`; `deliveryStatus` is surfaced, bodies the receiver verified are handed on,
 * and `close()` sends `events/unsubscribe`.
 */
import type { BackoffOptions } from '../resilience/backoff.js';
import { abortableDelay } from '../util/signals.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import { EventsMethod } from '../wire/events.js';
import { checkOccurrence, checkSubscribeResult, cursorField, EVENT_LIMITS } from './checks.js';
import { eventsErrorOf } from './errors.js';
import { failed, retryWait, type EventLoopDeps } from './loopDeps.js';
import { generateWebhookSecret } from './secret.js';
import type { SubscriptionCore } from './subscription.js';
import type { WebhookRoutes } from './webhookRoutes.js';

/** Webhook options. */
export interface WebhookOptions {
  /** The `https` URL the server POSTs to (the receiver, or a proxy in front of it). */
  url: string;
  /** The receiver that verifies and routes the deliveries (`WebhookReceiver` of mcp-live/node). */
  receiver: WebhookRoutes;
  /** The lifetime suggested (ms); `null` asks for no expiry. @default 3600000 */
  ttlMs?: number | null | undefined;
  /** Share of the granted lifetime after which it is refreshed (0.1 to 0.95). @default 0.8 */
  refreshAt?: number | undefined;
  /** Between refreshes of a no-expiry grant (ms): the cursor advances and `deliveryStatus` is read. @default 3600000 */
  healthCheckMs?: number | undefined;
  /** How long a replaced secret still verifies (ms), for deliveries signed before the refresh. @default 300000 */
  secretGraceMs?: number | undefined;
  /** Rotate the secret on each refresh. @default true */
  rotateSecret?: boolean | undefined;
  /** How long `events/unsubscribe` may take on `close()` (ms). @default 5000 */
  unsubscribeTimeoutMs?: number | undefined;
  /** The waits after a failed subscribe or refresh. @default 1 s doubling to 60 s, with jitter */
  retry?: BackoffOptions | undefined;
}

const DEFAULT_TTL_MS = 3_600_000;
const MIN_REFRESH_WAIT_MS = 1_000;

/** Runs the webhook loop of `core` until it closes or ends. Never rejects. */
export async function runWebhookLoop(
  core: SubscriptionCore,
  deps: EventLoopDeps,
  request: { maxAgeMs?: number | undefined },
  options: WebhookOptions,
): Promise<void> {
  const { receiver, url } = options;
  const ttlMs = options.ttlMs === undefined ? DEFAULT_TTL_MS : options.ttlMs;
  const refreshAt = Math.min(0.95, Math.max(0.1, options.refreshAt ?? 0.8));
  const graceMs = options.secretGraceMs ?? 300_000;
  let secret = generateWebhookSecret();
  let routed: string | undefined;
  let release = receiver.expect(secret);
  let failures = 0;

  core.stop = async () => {
    release();
    if (routed === undefined) return;
    const id = routed;
    try {
      await deps.request(
        EventsMethod.unsubscribe,
        { name: core.name, arguments: core.arguments, delivery: { url } },
        { signal: AbortSignal.timeout(options.unsubscribeTimeoutMs ?? 5_000) },
      );
    } finally {
      receiver.unroute(id);
    }
  };

  const deliver = async (body: JsonObject): Promise<void> => {
    if (body['type'] === 'gap') return core.deliver([], cursorField('webhook gap', body['cursor']), 'gap');
    if (body['type'] === 'terminated') {
      const error = isObject(body['error']) ? body['error'] : {};
      core.end(
        'terminated',
        eventsErrorOf(
          {
            code: typeof error['code'] === 'number' ? error['code'] : -32603,
            message: typeof error['message'] === 'string' ? error['message'].slice(0, 500) : 'terminated',
            data: error['data'],
          },
          'webhook terminated',
        ),
      );
      release();
      if (routed !== undefined) receiver.unroute(routed);
      return;
    }
    const occurrence = checkOccurrence('webhook delivery', body);
    return core.deliver([occurrence], 'cursor' in occurrence ? occurrence.cursor : undefined);
  };

  while (!core.signal.aborted) {
    let wait: number;
    const next = routed !== undefined && options.rotateSecret !== false ? generateWebhookSecret() : secret;
    try {
      await deps.whenConnected(core.signal);
      if (routed !== undefined && next !== secret) receiver.rotate(routed, next, graceMs);
      const params: JsonObject = {
        name: core.name,
        arguments: core.arguments,
        delivery: { mode: 'webhook', url, secret: next },
        cursor: core.cursor,
        ttlMs,
      };
      if (request.maxAgeMs !== undefined) params['maxAgeMs'] = request.maxAgeMs;
      const raw = await deps.request(EventsMethod.subscribe, params, { signal: core.signal });
      const now = deps.wallClock.now();
      const result = checkSubscribeResult(raw, now, ttlMs === null);
      secret = next;
      if (routed === undefined) {
        receiver.route(result.id, secret, { deliver });
        routed = result.id;
        core.webhookId = result.id;
        release();
        release = () => {};
      } else if (routed !== result.id) {
        // The key did not change, so neither should the id; route both rather than lose deliveries.
        receiver.route(result.id, secret, { deliver });
      } else receiver.refreshed?.(routed);
      failures = 0;
      core.setState('active');
      if (result.deliveryStatus !== undefined) core.setDeliveryStatus(result.deliveryStatus);
      await core.deliver([], result.cursor, result.truncated ? 'subscribe' : undefined);
      wait =
        result.refreshBefore === null
          ? (options.healthCheckMs ?? 3_600_000)
          : refreshWait(result.refreshBefore - now, refreshAt);
      wait = Math.min(wait, EVENT_LIMITS.maxGrantMs);
    } catch (error) {
      if (core.signal.aborted) return;
      if (failed(core, deps, error) === undefined) {
        release();
        if (routed !== undefined) receiver.unroute(routed);
        return;
      }
      failures++;
      wait = retryWait(failures, options.retry);
    }
    try {
      await abortableDelay(wait, deps.timers, core.signal);
    } catch {
      return;
    }
  }
}

/** The wait before refreshing a grant `remainingMs` long: `refreshAt` of it, never under 100 ms nor, when there is room, 1 s. */
export function refreshWait(remainingMs: number, refreshAt: number): number {
  return Math.max(100, Math.min(MIN_REFRESH_WAIT_MS, remainingMs / 2), Math.floor(remainingMs * refreshAt));
}
