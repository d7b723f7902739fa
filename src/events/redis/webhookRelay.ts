/**
 * Webhook deliveries that reach any worker of a fleet (mcp-live/redis). Each worker wraps its
 * {@link WebhookReceiver} in a {@link RedisWebhookRelay} and gives the relay to its webhook
 * subscriptions (`webhook.receiver`) and to its http server (`relay.handle`):
 *
 * - a route the subscription makes is kept locally (with its secret, which never leaves this
 *   process) and written to a shared route table, `<prefix>events:webhook-route:<sha256 of the
 *   subscription id>` → this worker's id;
 * - a delivery for an id this worker routes is answered by its own receiver;
 * - a delivery for an id another worker routes is read (bounded by `maxBodyBytes`) and forwarded
 *   raw (the four headers the receiver reads, and the body) onto that worker's inbox list,
 *   `<prefix>events:webhook-inbox:<worker>`; the consumer answers it with its receiver (verify,
 *   hand on, persist the cursor) and publishes the status on `<prefix>events:webhook-reply:<worker
 *   that forwarded>`, and only that status is answered: 2xx once the consumer persisted it, 401
 *   when its verification failed;
 * - 503 when no worker routes the id or the consumer does not answer within `timeoutMs` (the
 *   server retries; a retry the consumer already took is a repeat its receiver answers 200).
 *
 * What is written to Redis: the route (an id and a worker id), and each forwarded delivery for as
 * long as it waits in the inbox (its list expires after `timeoutMs`). Never a secret.
 */
import type { Redis, Cluster } from 'ioredis';
import { sha256Hex } from '../../util/sha256.js';
import { readBounded, type WebhookReceiver } from '../webhookReceiver.js';
import type { WebhookRoute, WebhookRoutes } from '../webhookRoutes.js';

/** Options of {@link RedisWebhookRelay}. */
export interface RedisWebhookRelayOptions {
  /** An ioredis connection the host owns (never closed here); two more are made from it (`duplicate()`) and closed by `close()`. */
  client: Redis | Cluster;
  /** This worker's receiver: the routes and their secrets stay in it. */
  receiver: WebhookReceiver;
  /** This worker's id. @default a random one */
  worker?: string | undefined;
  /** What every key starts with. @default "mcp-live:" */
  prefix?: string | undefined;
  /** How long a forwarded delivery waits for the consumer's answer (ms) before 503. @default 5000 */
  timeoutMs?: number | undefined;
  /** Largest body forwarded (bytes); larger ones get 413. @default 262144 (the receiver's default) */
  maxBodyBytes?: number | undefined;
  /** How long a route is kept in Redis without being routed or refreshed again (ms). @default 86400000 */
  routeTtlMs?: number | undefined;
  /** Failures of the relay itself (Redis errors); never given a secret or a body. */
  onError?: ((error: Error) => void) | undefined;
}

/** A forwarded delivery, as it waits in the consumer's inbox. */
interface Forwarded {
  /** The forwarding worker and its request id (where the reply goes). */
  from: string;
  request: string;
  /** `Date.now()` after which the forwarder no longer waits (the consumer then drops it). */
  deadline: number;
  headers: Record<string, string>;
  /** The raw body, base64. */
  body: string;
}

interface Reply {
  request: string;
  status: number;
  body?: string | undefined;
}

const FORWARDED_HEADERS = [
  'content-type',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'x-mcp-subscription-id',
];

/** One worker's side of the shared webhook route table (see the file's opening comment). */
export class RedisWebhookRelay implements WebhookRoutes {
  /** This worker's id, the value its routes hold. */
  readonly worker: string;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly routeTtlMs: number;
  private readonly local = new Set<string>();
  private readonly waiting = new Map<string, (reply: Reply) => void>();
  private readonly subscriber: Redis | Cluster;
  private readonly inbox: Redis | Cluster;
  private readonly started: Promise<void>;
  private closing = false;
  private readonly loop: Promise<void>;

  constructor(private readonly options: RedisWebhookRelayOptions) {
    this.worker = options.worker ?? globalThis.crypto.randomUUID();
    this.prefix = options.prefix ?? 'mcp-live:';
    this.timeoutMs = Math.max(100, options.timeoutMs ?? 5_000);
    this.maxBodyBytes = options.maxBodyBytes ?? 262_144;
    this.routeTtlMs = Math.max(1_000, options.routeTtlMs ?? 86_400_000);
    this.subscriber = duplicate(options.client);
    this.inbox = duplicate(options.client);
    this.subscriber.on('message', (_channel: string, message: string) => this.onReply(message));
    this.started = this.subscriber.subscribe(this.replyChannel(this.worker)).then(() => undefined);
    this.started.catch((error: unknown) => this.report(error));
    this.loop = this.consume();
  }

  /** Resolves once this worker hears replies (forwarding before that may wait for it). */
  ready(): Promise<void> {
    return this.started;
  }

  private routeKey(id: string): string {
    return `${this.prefix}events:webhook-route:${sha256Hex(id)}`;
  }
  private inboxKey(worker: string): string {
    return `${this.prefix}events:webhook-inbox:${worker}`;
  }
  private replyChannel(worker: string): string {
    return `${this.prefix}events:webhook-reply:${worker}`;
  }

  private report(error: unknown): void {
    if (this.closing) return;
    this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
  }

  expect(secret: string): () => void {
    return this.options.receiver.expect(secret);
  }

  route(id: string, secret: string, route: WebhookRoute): void {
    this.options.receiver.route(id, secret, route);
    this.local.add(id);
    this.options.client
      .set(this.routeKey(id), this.worker, 'PX', this.routeTtlMs)
      .catch((error: unknown) => this.report(error));
  }

  /** Routes `id` and resolves once the route table has it (for a caller that must know). */
  async routeShared(id: string, secret: string, route: WebhookRoute): Promise<void> {
    this.options.receiver.route(id, secret, route);
    this.local.add(id);
    await this.options.client.set(this.routeKey(id), this.worker, 'PX', this.routeTtlMs);
  }

  rotate(id: string, secret: string, graceMs: number): void {
    this.options.receiver.rotate(id, secret, graceMs);
  }

  /** Renews `id`'s route in Redis for another `routeTtlMs`, when this worker routes it (a refresh of its subscription). */
  refreshed(id: string): void {
    if (!this.local.has(id)) return;
    this.options.client
      .set(this.routeKey(id), this.worker, 'PX', this.routeTtlMs)
      .catch((error: unknown) => this.report(error));
  }

  unroute(id: string): void {
    this.options.receiver.unroute(id);
    if (!this.local.delete(id)) return;
    const release = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
    this.options.client.eval(release, 1, this.routeKey(id), this.worker).catch((error: unknown) => this.report(error));
  }

  /** Handles one delivery reaching this worker (give it to the http server as the receiver's `handle`). Never rejects. */
  readonly handle = async (request: Request): Promise<Response> => {
    const id = request.headers.get('x-mcp-subscription-id');
    if (id === null || id === '' || this.options.receiver.has(id)) return this.options.receiver.handle(request);
    let consumer: string | null;
    try {
      consumer = await this.options.client.get(this.routeKey(id));
    } catch (error) {
      this.report(error);
      return new Response(null, { status: 503 });
    }
    // Unknown here and in the table: this worker's receiver decides (a challenge of a subscribe under way, 404, 410).
    if (consumer === null) {
      const answer = await this.options.receiver.handle(request);
      return answer.status === 404 ? new Response(null, { status: 503 }) : answer;
    }
    if (consumer === this.worker) return this.options.receiver.handle(request);
    return this.forward(consumer, request);
  };

  private async forward(consumer: string, request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) return new Response(null, { status: 413 });
    const body = await readBounded(request, this.maxBodyBytes);
    if (body === undefined) return new Response(null, { status: 413 });
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) headers[name] = value.slice(0, 4_096);
    }
    const requestId = globalThis.crypto.randomUUID();
    const forwarded: Forwarded = {
      from: this.worker,
      request: requestId,
      deadline: Date.now() + this.timeoutMs,
      headers,
      body: Buffer.from(body).toString('base64'),
    };
    const reply = new Promise<Reply | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(requestId);
        resolve(undefined);
      }, this.timeoutMs);
      this.waiting.set(requestId, (answer) => {
        clearTimeout(timer);
        this.waiting.delete(requestId);
        resolve(answer);
      });
    });
    try {
      await this.started;
      const key = this.inboxKey(consumer);
      await this.options.client.multi().rpush(key, JSON.stringify(forwarded)).pexpire(key, this.timeoutMs).exec();
    } catch (error) {
      this.waiting.get(requestId)?.({ request: requestId, status: 503 });
      this.report(error);
    }
    const answer = await reply;
    if (answer === undefined) return new Response(null, { status: 503 });
    return answer.body === undefined
      ? new Response(null, { status: answer.status })
      : new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
  }

  private onReply(message: string): void {
    let reply: Reply;
    try {
      reply = JSON.parse(message) as Reply;
    } catch {
      return;
    }
    if (typeof reply.request !== 'string' || typeof reply.status !== 'number') return;
    this.waiting.get(reply.request)?.(reply);
  }

  /** Takes the deliveries other workers forward to this one, answers each with the receiver, and publishes the status. */
  private async consume(): Promise<void> {
    const key = this.inboxKey(this.worker);
    while (!this.closing) {
      let item: [string, string] | null;
      try {
        item = await this.inbox.blpop(key, 1);
      } catch (error) {
        if (this.closing) return;
        this.report(error);
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      if (item === null) continue;
      void this.answerForwarded(item[1]);
    }
  }

  private async answerForwarded(raw: string): Promise<void> {
    let forwarded: Forwarded;
    try {
      forwarded = JSON.parse(raw) as Forwarded;
    } catch {
      return;
    }
    if (typeof forwarded.from !== 'string' || typeof forwarded.request !== 'string') return;
    if (!(forwarded.deadline > Date.now())) return; // the forwarder answered 503 already; the server retries
    const request = new Request('http://relay.invalid/', {
      method: 'POST',
      headers: forwarded.headers,
      body: Buffer.from(String(forwarded.body), 'base64'),
    });
    const answer = await this.options.receiver.handle(request);
    const text = answer.body === null ? undefined : (await answer.text()).slice(0, 2_048);
    const reply: Reply = { request: forwarded.request, status: answer.status, ...(text && { body: text }) };
    await this.options.client
      .publish(this.replyChannel(forwarded.from), JSON.stringify(reply))
      .catch((error: unknown) => this.report(error));
  }

  /** Stops taking forwarded deliveries and closes the two connections it made. Routes are left to their TTL. */
  async close(): Promise<void> {
    this.closing = true;
    for (const resolve of [...this.waiting.values()]) resolve({ request: '', status: 503 });
    this.subscriber.disconnect();
    this.inbox.disconnect();
    await this.loop.catch(() => undefined);
  }
}

/** A new connection with `client`'s options (both ioredis kinds have `duplicate()`, with unlike signatures). */
function duplicate(client: Redis | Cluster): Redis | Cluster {
  return (client as { duplicate(): Redis | Cluster }).duplicate();
}
