/**
 * What a webhook subscription registers with the receiver that takes its deliveries
 * ({@link WebhookRoutes}): the secret it is about to send (before the subscribe response, so a
 * verification challenge or an early delivery can be told to be ours), then its route by
 * subscription id, and each rotated secret. Types only.
 */
import type { JsonObject } from '../wire/messages.js';

/** One subscription's route: where its verified bodies go. */
export interface WebhookRoute {
  /**
   * Takes one verified body (an occurrence or a `gap`/`terminated` control body; never a
   * verification, which the receiver answers). Resolves once it is handed on and its cursor
   * persisted: only then does the receiver answer 2xx. Rejecting makes the receiver answer 500,
   * and the server retries.
   */
  deliver(body: JsonObject, webhookId: string): Promise<void>;
}

/** The receiver side a webhook subscription uses. */
export interface WebhookRoutes {
  /** Accepts challenges signed with `secret` before the route exists; returns the function that stops it. */
  expect(secret: string): () => void;
  /** Routes deliveries with `X-MCP-Subscription-Id: id`, verified against `secret`. */
  route(id: string, secret: string, route: WebhookRoute): void;
  /** Adds `secret` to `id`'s route; the older ones are kept for `graceMs` more (in-flight deliveries). */
  rotate(id: string, secret: string, graceMs: number): void;
  /** Removes the route: later deliveries for `id` get 410. */
  unroute(id: string): void;
  /**
   * The server granted `id`'s subscription another TTL (a refresh): a route table shared by a
   * fleet keeps the route as long (`RedisWebhookRelay` renews its Redis key). Optional.
   */
  refreshed?(id: string): void;
}
