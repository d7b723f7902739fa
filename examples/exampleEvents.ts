/**
 * The example server's event type, `demo.tick` (Triggers & Events extension,
 * experimental-ext-triggers-events design-sketch-proposal.md), offered in all three modes: a tick
 * every `EXAMPLE_EVENT_TICK_MS` ms (default 5000) kept in a ring buffer of the last 1000, the
 * cursor `<epoch>:<n>` (a cursor of another process, or older than the buffer, gives
 * `truncated: true` and a fresh cursor). It answers the raw JSON-RPC messages itself, before the
 * SDK sees them: over stdio through a transport wrapper, over HTTP before the handler. With
 * `EXAMPLE_EVENTS_STATS=<file>` it writes, after each send, how often each eventId was sent.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';

export const EVENTS_EXTENSION = 'io.modelcontextprotocol/events';
export const TICK_EVENT = 'demo.tick';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const RETAINED = 1_000;
const HEARTBEAT_MS = Number(process.env['EXAMPLE_EVENT_HEARTBEAT_MS'] ?? 15_000);

type Json = Record<string, unknown>;
type Message = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Json; result?: Json; error?: Json };
interface Tick {
  n: number;
  eventId: string;
  timestamp: string;
}

const DESCRIPTOR = {
  name: TICK_EVENT,
  description: 'A tick of the example server, numbered from 1 (for each process).',
  delivery: ['poll', 'push', 'webhook'],
  inputSchema: { type: 'object', properties: {} },
  payloadSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
};

/** The ticks of one process, their readers, and the delivery counts. */
export class ExampleEvents {
  private readonly epoch = randomBytes(4).toString('hex');
  private readonly ticks: Tick[] = [];
  private next = 1;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(tick: Tick) => void>();
  private readonly sent = new Map<string, number>();
  private readonly webhooks = new Map<string, { url: string; secret: string; stop: () => void }>();

  constructor(private readonly tickMs = Number(process.env['EXAMPLE_EVENT_TICK_MS'] ?? 5_000)) {}

  /** Starts ticking on the first events request (a server nobody subscribes to keeps no timer). */
  private start(): void {
    this.timer ??= setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  private tick(): void {
    const tick: Tick = { n: this.next, eventId: `${this.epoch}-${this.next}`, timestamp: new Date().toISOString() };
    this.next++;
    this.ticks.push(tick);
    if (this.ticks.length > RETAINED) this.ticks.shift();
    for (const listener of [...this.listeners]) listener(tick);
  }

  private cursorOf(n: number): string {
    return `${this.epoch}:${n}`;
  }

  /** The ticks after `cursor` and whether the cursor was outside what is kept (`null`: from now). */
  private after(cursor: unknown): { ticks: Tick[]; truncated: boolean } {
    if (typeof cursor !== 'string') return { ticks: [], truncated: false };
    const [epoch, at] = cursor.split(':');
    const n = Number(at);
    const oldest = this.ticks[0]?.n ?? this.next;
    if (epoch !== this.epoch || !Number.isInteger(n) || n < oldest - 1) return { ticks: [], truncated: true };
    return { ticks: this.ticks.filter((tick) => tick.n > n), truncated: false };
  }

  private occurrence(tick: Tick): Json {
    return {
      eventId: tick.eventId,
      name: TICK_EVENT,
      timestamp: tick.timestamp,
      data: { n: tick.n },
      cursor: this.cursorOf(tick.n),
    };
  }

  private count(ticks: Tick[]): void {
    for (const tick of ticks) this.sent.set(tick.eventId, (this.sent.get(tick.eventId) ?? 0) + 1);
    const file = process.env['EXAMPLE_EVENTS_STATS'];
    if (file !== undefined && ticks.length > 0) writeFileSync(file, JSON.stringify(Object.fromEntries(this.sent)));
  }

  private now(): string {
    return this.cursorOf(this.next - 1);
  }

  /** True for the messages this table answers (`events/*` requests, and cancellations of its streams). */
  handles(message: unknown): message is Message {
    const method = (message as Message | null)?.method;
    return typeof method === 'string' && method.startsWith('events/') && (message as Message).id !== undefined;
  }

  /**
   * Answers one `events/*` request: `send` gets each message (notifications of a stream, then
   * none: a stream ends by `signal`). Resolves once the answer is complete.
   */
  async answer(message: Message, send: (message: Message) => void, signal: AbortSignal): Promise<void> {
    this.start();
    const id = message.id!;
    const params = message.params ?? {};
    const reply = (result: Json): void => send({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } });
    const fail = (code: number, text: string, data?: Json): void =>
      send({ jsonrpc: '2.0', id, error: { code, message: text, ...(data !== undefined && { data }) } });
    if (message.method === 'events/list') return reply({ events: [DESCRIPTOR] });
    if (params['name'] !== TICK_EVENT) return fail(-32011, 'NotFound', { kind: 'event' });
    switch (message.method) {
      case 'events/poll': {
        const { ticks, truncated } = this.after(params['cursor']);
        const max = Math.max(1, Math.min(Number(params['maxEvents'] ?? 50) || 50, 500));
        const batch = ticks.slice(0, max);
        this.count(batch);
        const last = batch.at(-1);
        return reply({
          events: batch.map((tick) => this.occurrence(tick)),
          cursor:
            last === undefined
              ? truncated || params['cursor'] == null
                ? this.now()
                : params['cursor']
              : this.cursorOf(last.n),
          truncated,
          hasMore: ticks.length > batch.length,
          nextPollMs: Math.max(this.tickMs, 1_000),
        });
      }
      case 'events/stream':
        return this.stream(id, params, send, signal);
      case 'events/subscribe':
        return this.subscribe(params, reply, fail);
      case 'events/unsubscribe': {
        const delivery = params['delivery'] as Json | undefined;
        const key = `${String(delivery?.['url'])}\n${JSON.stringify(params['arguments'] ?? {})}`;
        const held = this.webhooks.get(key);
        if (held === undefined) return fail(-32011, 'NotFound', { kind: 'subscription' });
        held.stop();
        this.webhooks.delete(key);
        return reply({});
      }
      default:
        return fail(-32601, 'Method not found');
    }
  }

  private stream(
    id: string | number,
    params: Json,
    send: (message: Message) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const meta = { [SUBSCRIPTION_ID]: id };
    const note = (method: string, body: Json): void =>
      send({ jsonrpc: '2.0', method, params: { ...body, _meta: meta } });
    const { ticks, truncated } = this.after(params['cursor']);
    // Delivery starts after the cursor (or now, for none or one this process cannot serve).
    const given = params['cursor'];
    let position = truncated || typeof given !== 'string' ? this.next - 1 : Number(given.split(':')[1]);
    note('notifications/events/active', { cursor: this.cursorOf(position), truncated });
    const deliver = (tick: Tick): void => {
      if (tick.n <= position) return;
      position = tick.n;
      this.count([tick]);
      note('notifications/events/event', this.occurrence(tick));
    };
    for (const tick of ticks) deliver(tick);
    this.listeners.add(deliver);
    const heartbeat = setInterval(
      () => note('notifications/events/heartbeat', { cursor: this.cursorOf(position) }),
      HEARTBEAT_MS,
    );
    return new Promise((resolve) => {
      const stop = (): void => {
        clearInterval(heartbeat);
        this.listeners.delete(deliver);
        resolve();
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }

  private subscribe(
    params: Json,
    reply: (result: Json) => void,
    fail: (code: number, text: string, data?: Json) => void,
  ): void {
    const delivery = (params['delivery'] ?? {}) as Json;
    const url = delivery['url'];
    const secret = delivery['secret'];
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return fail(-32602, 'delivery.url must be an https URL');
    if (typeof secret !== 'string' || !secret.startsWith('whsec_'))
      return fail(-32602, 'delivery.secret must be a whsec_ value');
    const bytes = Buffer.from(secret.slice(6), 'base64').length;
    if (bytes < 24 || bytes > 64) return fail(-32602, 'delivery.secret must hold 24 to 64 bytes');
    const key = `${url}\n${JSON.stringify(params['arguments'] ?? {})}`;
    const id = `sub_${Buffer.from(key).toString('base64url').slice(0, 16)}`;
    const held = this.webhooks.get(key);
    if (held !== undefined) held.secret = secret;
    else {
      const entry = { url, secret, stop: () => {} };
      let position = this.after(params['cursor']).ticks.at(-1)?.n ?? this.next - 1;
      const deliver = (tick: Tick): void => {
        if (tick.n <= position) return;
        position = tick.n;
        const body = JSON.stringify(this.occurrence(tick));
        const signer = new Webhook(entry.secret);
        void fetch(entry.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': tick.eventId,
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
            'webhook-signature': signer.sign(tick.eventId, new Date(), body),
            'x-mcp-subscription-id': id,
          },
          body,
          redirect: 'manual',
        })
          .then((response) => {
            if (response.ok) this.count([tick]);
          })
          .catch(() => undefined);
      };
      this.listeners.add(deliver);
      entry.stop = () => this.listeners.delete(deliver);
      this.webhooks.set(key, entry);
    }
    const ttl = typeof params['ttlMs'] === 'number' ? Math.min(params['ttlMs'], 3_600_000) : 3_600_000;
    reply({ id, refreshBefore: new Date(Date.now() + ttl).toISOString(), cursor: this.now(), truncated: false });
  }
}
