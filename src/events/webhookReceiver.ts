/**
 * The webhook receiver, safe by default (design: Webhook Event Delivery, Webhook Security): a
 * fetch-style handler (`Request` → `Response`) that routes by `X-MCP-Subscription-Id` before
 * reading the body, verifies the Standard Webhooks signature over the raw bytes (the
 * `standardwebhooks` package: constant-time comparison, every space-separated signature tried,
 * timestamps more than 5 minutes off refused) against every live secret of that route, answers
 * verification challenges only for this client's subscriptions, drops repeats of a `webhook-id`
 * within a bounded window, and answers 2xx only once the body was handed on and its cursor
 * persisted. The Node `http` and Express-like adapters are in `webhookReceiverNode.ts`.
 *
 * | Answer | When |
 * |---|---|
 * | 200 | handed on (or a repeat of one that was); a challenge echoed as `{"challenge": …}` |
 * | 400 | a missing header, a body that is not JSON, an occurrence that breaks the schema |
 * | 401 | the signature or timestamp does not verify |
 * | 404 | an id this receiver never routed, and no subscribe of ours under way verifies it |
 * | 405 / 415 / 413 | not a POST / not `application/json` / over `maxBodyBytes` |
 * | 410 | an id whose subscription was closed |
 * | 425 | a delivery for a subscribe of ours whose response has not arrived yet (the server retries) |
 * | 500 | handing it on failed (the server retries) |
 */
import { onDemand } from '../errors/moduleLoad.js';
import type { JsonObject } from '../wire/messages.js';
import type { WebhookRoute, WebhookRoutes } from './webhookRoutes.js';

/** Options of {@link WebhookReceiver}. */
export interface WebhookReceiverOptions {
  /** Largest body accepted (bytes); larger ones get 413 (design: Delivery profile). @default 262144 */
  maxBodyBytes?: number | undefined;
  /** How many recent `webhook-id`s per route are remembered to drop repeats. @default 10000 */
  dedupWindow?: number | undefined;
  /** How many closed ids keep answering 410. @default 1000 */
  closedWindow?: number | undefined;
  /** Problems that are not the sender's: a route that failed to hand a body on. Never given a secret. */
  onError?: ((error: Error) => void) | undefined;
}

interface Verifier {
  verify(payload: Uint8Array, headers: Record<string, string>): unknown;
}

interface RouteEntry {
  route: WebhookRoute;
  /** Live secrets with the time (ms, `Date.now()`) after which each stops verifying; `Infinity` for the current one. */
  secrets: Array<{ verifier: Verifier; until: number }>;
  seen: Set<string>;
  seenOrder: string[];
}

const loadStandardWebhooks = onDemand('standardwebhooks', () => import('standardwebhooks'));

/** Verifies with one secret; false for any verification failure. */
function verifies(verifier: Verifier, body: Uint8Array, headers: Record<string, string>): boolean {
  try {
    verifier.verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

/** The receiver of one process (see the file's opening comment). Give its {@link handle} to any fetch-style server. */
export class WebhookReceiver implements WebhookRoutes {
  private readonly routes = new Map<string, RouteEntry>();
  private readonly pending = new Map<symbol, Promise<Verifier>>();
  private readonly closedIds = new Set<string>();
  private readonly closedOrder: string[] = [];
  private readonly maxBodyBytes: number;
  private readonly dedupWindow: number;
  private readonly closedWindow: number;

  constructor(private readonly options: WebhookReceiverOptions = {}) {
    this.maxBodyBytes = options.maxBodyBytes ?? 262_144;
    this.dedupWindow = Math.max(1, options.dedupWindow ?? 10_000);
    this.closedWindow = Math.max(1, options.closedWindow ?? 1_000);
  }

  private async verifier(secret: string): Promise<Verifier> {
    const { Webhook } = await loadStandardWebhooks();
    return new Webhook(secret);
  }

  expect(secret: string): () => void {
    const key = Symbol('pending');
    const verifier = this.verifier(secret);
    verifier.catch(() => undefined);
    this.pending.set(key, verifier);
    return () => void this.pending.delete(key);
  }

  route(id: string, secret: string, route: WebhookRoute): void {
    const verifier = this.verifier(secret);
    verifier.catch(() => undefined);
    const entry: RouteEntry = { route, secrets: [], seen: new Set(), seenOrder: [] };
    this.routes.set(id, entry);
    this.closedIds.delete(id);
    void verifier.then((v) => entry.secrets.push({ verifier: v, until: Infinity }));
    this.ready.set(id, verifier);
  }

  /** The first secret's verifier of each route, awaited before a delivery for it is verified. */
  private readonly ready = new Map<string, Promise<Verifier>>();

  rotate(id: string, secret: string, graceMs: number): void {
    const entry = this.routes.get(id);
    if (entry === undefined) return;
    const verifier = this.verifier(secret);
    verifier.catch(() => undefined);
    const previous = this.ready.get(id) ?? Promise.resolve(undefined);
    const done = Promise.all([previous, verifier]).then(([, v]) => {
      const until = Date.now() + graceMs;
      for (const live of entry.secrets) live.until = Math.min(live.until, until);
      entry.secrets.push({ verifier: v, until: Infinity });
      return v;
    });
    this.ready.set(id, done);
  }

  /** True while deliveries for `id` are routed here. */
  has(id: string): boolean {
    return this.routes.has(id);
  }

  unroute(id: string): void {
    if (!this.routes.delete(id)) return;
    this.ready.delete(id);
    this.closedIds.add(id);
    this.closedOrder.push(id);
    if (this.closedOrder.length > this.closedWindow) this.closedIds.delete(this.closedOrder.shift()!);
  }

  /** Handles one delivery. Never rejects. */
  readonly handle = async (request: Request): Promise<Response> => {
    try {
      return await this.answer(request);
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
      return status(500);
    }
  };

  private async answer(request: Request): Promise<Response> {
    if (request.method !== 'POST') return status(405);
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(type.trim())) return status(415);
    const headers = {
      'webhook-id': request.headers.get('webhook-id') ?? '',
      'webhook-timestamp': request.headers.get('webhook-timestamp') ?? '',
      'webhook-signature': request.headers.get('webhook-signature') ?? '',
    };
    const id = request.headers.get('x-mcp-subscription-id');
    if (
      id === null ||
      id === '' ||
      headers['webhook-id'] === '' ||
      headers['webhook-timestamp'] === '' ||
      headers['webhook-signature'] === ''
    )
      return status(400);
    const entry = this.routes.get(id);
    if (entry === undefined && this.closedIds.has(id)) return status(410);
    if (entry === undefined && this.pending.size === 0) return status(404);
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) return status(413);
    const body = await readBounded(request, this.maxBodyBytes);
    if (body === undefined) return status(413);
    if (entry === undefined) return this.beforeRoute(body, headers);
    await this.ready.get(id);
    const now = Date.now();
    entry.secrets = entry.secrets.filter((live) => live.until > now);
    if (!entry.secrets.some((live) => verifies(live.verifier, body, headers))) return status(401);
    const parsed = parseObject(body);
    if (parsed === undefined) return status(400);
    if (parsed['type'] === 'verification') return challengeAnswer(parsed);
    const webhookId = headers['webhook-id'];
    if (entry.seen.has(webhookId)) return status(200);
    try {
      await entry.route.deliver(parsed, webhookId);
    } catch (error) {
      if (isProtocolError(error)) return status(400);
      throw error;
    }
    entry.seen.add(webhookId);
    entry.seenOrder.push(webhookId);
    if (entry.seenOrder.length > this.dedupWindow) entry.seen.delete(entry.seenOrder.shift()!);
    return status(200);
  }

  /** A delivery for an id not routed yet: ours only if a subscribe under way signed it. */
  private async beforeRoute(body: Uint8Array, headers: Record<string, string>): Promise<Response> {
    const verifiers = await Promise.all(this.pending.values());
    if (!verifiers.some((verifier) => verifies(verifier, body, headers))) return status(404);
    const parsed = parseObject(body);
    if (parsed === undefined) return status(400);
    if (parsed['type'] === 'verification') return challengeAnswer(parsed);
    return status(425);
  }
}

function status(code: number): Response {
  return new Response(null, { status: code });
}

function challengeAnswer(body: JsonObject): Response {
  const challenge = body['challenge'];
  if (typeof challenge !== 'string' || challenge.length > 1_024) return status(400);
  return Response.json({ challenge });
}

function parseObject(body: Uint8Array): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

function isProtocolError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ProtocolError';
}

/** The body's bytes, or `undefined` once more than `limit` arrived (the rest is not read). */
export async function readBounded(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
