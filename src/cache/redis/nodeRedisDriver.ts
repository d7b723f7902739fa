/**
 * The {@link RedisDriver} on node-redis (the `redis` package, v4 and later): a client of one
 * node (`createClient()`). Every command goes through `sendCommand` with its raw arguments, so
 * nothing depends on the option shapes of one major version; commands sent in the same tick
 * are written in one batch (node-redis pipelines them), which is one round trip.
 */
import type { RedisCommand, RedisDriver, RedisReply, SubscriberDeps, Subscription } from './redisDriver.js';

/**
 * The part of a node-redis client (`RedisClientType` of the `redis` package) the store uses:
 * a structural type, so that this package's types do not need `redis` installed. Pass the
 * client itself (connected, or connecting: `await client.connect()` may come after).
 */
export interface NodeRedisClient {
  /** True once the socket is open. */
  readonly isOpen: boolean;
  /** True once the client can send commands. */
  readonly isReady: boolean;
  /** Sends one raw command (`['GET', key]`). */
  sendCommand(args: string[]): Promise<unknown>;
  /** A second client with the same options (the store's subscriber). */
  duplicate(): NodeRedisClient;
  /** Opens the connection. */
  connect(): Promise<unknown>;
  /** Subscribes to a pub/sub channel. */
  subscribe(channels: string, listener: (message: string, channel: string) => unknown): Promise<unknown>;
  /** Closes at once (node-redis v5). */
  destroy?(): void;
  /** Closes at once (node-redis v4). */
  disconnect?(): Promise<unknown>;
  /** Closes after pending replies (node-redis v5). */
  close?(): Promise<unknown>;
  /** Closes after pending replies (node-redis v4). */
  quit?(): Promise<unknown>;
  /** Adds an event listener (`error`, `ready`, `end`). */
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  /** Removes an event listener. */
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** True for a node-redis client of one node (not a cluster, a Sentinel or a pool). */
export function isNodeRedisClient(value: unknown): value is NodeRedisClient {
  if (typeof value !== 'object' || value === null) return false;
  const client = value as Record<string, unknown>;
  return (
    typeof client['isOpen'] === 'boolean' &&
    typeof client['isReady'] === 'boolean' &&
    typeof client['sendCommand'] === 'function' &&
    typeof client['duplicate'] === 'function' &&
    typeof client['connect'] === 'function' &&
    typeof client['subscribe'] === 'function' &&
    typeof client['on'] === 'function' &&
    !('masters' in client) &&
    !('getMasterNode' in client)
  );
}

export class NodeRedisDriver implements RedisDriver {
  readonly library = 'node-redis';

  constructor(readonly client: NodeRedisClient) {}

  get ready(): boolean {
    return this.client.isReady;
  }

  get connecting(): boolean {
    return this.client.isOpen && !this.client.isReady;
  }

  command(name: string, ...args: Array<string | number>): Promise<unknown> {
    return this.client.sendCommand([name, ...args.map(String)]);
  }

  async pipeline(commands: readonly RedisCommand[]): Promise<RedisReply[]> {
    const settled = await Promise.allSettled(commands.map(([name, ...args]) => this.command(name, ...args)));
    return settled.map((s) =>
      s.status === 'fulfilled' ? { ok: true, value: s.value } : { ok: false, error: s.reason as unknown },
    );
  }

  scanners(): Array<(cursor: string, pattern: string, count: number) => Promise<[string, string[]]>> {
    return [
      async (cursor, pattern, count) => {
        const reply = await this.command('SCAN', cursor, 'MATCH', pattern, 'COUNT', count);
        const [next, keys] = reply as [unknown, unknown];
        if (typeof next !== 'string' || !Array.isArray(keys)) throw new Error('SCAN: unexpected reply');
        return [next, keys.map(String)];
      },
    ];
  }

  onReady(listener: () => void): () => void {
    this.client.on('ready', listener);
    return () => void this.client.off('ready', listener);
  }

  onError(listener: (error: Error) => void): () => void {
    const heard = (error: unknown): void => listener(error instanceof Error ? error : new Error(String(error)));
    this.client.on('error', heard);
    return () => void this.client.off('error', heard);
  }

  subscribe(channel: string, hooks: SubscriberDeps): Subscription {
    // A new connection with the client's options (a subscribed one can run nothing else); it
    // resubscribes by itself after a reconnect.
    const subscriber = this.client.duplicate();
    let state: 'none' | 'subscribing' | 'subscribed' = 'none';
    let closed = false;
    const listener = (message: string, from: string): void => {
      if (from === channel) hooks.message(message);
    };
    // node-redis throws an 'error' nobody listens to: the channel's losses are handled below.
    subscriber.on('error', () => {});
    subscriber.on('ready', () => {
      if (closed) return;
      if (state === 'subscribed') hooks.up();
      else if (state === 'none') {
        state = 'subscribing';
        subscriber.subscribe(channel, listener).then(
          () => {
            state = 'subscribed';
            if (subscriber.isReady && !closed) hooks.up();
          },
          () => {
            state = 'none'; // tried again on the next 'ready'
          },
        );
      }
    });
    subscriber.on('reconnecting', () => hooks.down());
    subscriber.on('end', () => hooks.down());
    subscriber.connect().catch(() => {
      // node-redis keeps reconnecting on its own; a closed store ended it.
    });
    return {
      close: () => {
        closed = true;
        endClient(subscriber);
      },
    };
  }

  async quit(): Promise<void> {
    endClient(this.client);
    return Promise.resolve();
  }
}

/** Ends a connection at once, on any major version (`destroy` since v5, `disconnect` before). */
function endClient(client: NodeRedisClient): void {
  try {
    if (typeof client.destroy === 'function') client.destroy();
    else void client.disconnect?.().catch(() => {});
  } catch {
    // already closed
  }
}
