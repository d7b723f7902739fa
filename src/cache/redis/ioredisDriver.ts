/**
 * The {@link RedisDriver} on ioredis: a `Redis` (standalone, Sentinel, TLS) or a `Cluster`.
 * It never mutates the client it was given (no `defineCommand`, no listeners but the ones it
 * is asked for, each removable).
 */
import type { Cluster, Redis } from 'ioredis';
import type { RedisCommand, RedisDriver, RedisReply, SubscriberDeps, Subscription } from './redisDriver.js';

/** An ioredis connection: a `Redis` (standalone or Sentinel) or a `Cluster`. */
export type IoRedisClient = Redis | Cluster;

/**
 * True for an ioredis `Redis` or `Cluster` (by shape, so that a second copy of ioredis in
 * the host's tree is recognised too).
 */
export function isIoRedisClient(value: unknown): value is IoRedisClient {
  if (typeof value !== 'object' || value === null) return false;
  const client = value as Record<string, unknown>;
  return (
    typeof client['status'] === 'string' &&
    typeof client['isCluster'] === 'boolean' &&
    typeof client['pipeline'] === 'function' &&
    typeof client['call'] === 'function' &&
    typeof client['duplicate'] === 'function'
  );
}

export class IoRedisDriver implements RedisDriver {
  readonly library = 'ioredis';

  constructor(readonly client: IoRedisClient) {}

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  get connecting(): boolean {
    const status = this.client.status;
    return status === 'wait' || status === 'connecting' || status === 'connect';
  }

  command(name: string, ...args: Array<string | number>): Promise<unknown> {
    // Lower case: ioredis finds a command's keys (a cluster's slot) by its lower-case name.
    return this.client.call(name.toLowerCase(), ...args);
  }

  async pipeline(commands: readonly RedisCommand[]): Promise<RedisReply[]> {
    const replies = await this.client
      .pipeline(commands.map(([name, ...args]) => [name.toLowerCase(), ...args.map(String)]))
      .exec();
    if (replies === null) throw new Error('the pipeline was discarded');
    return replies.map(([error, value]) => (error ? { ok: false, error } : { ok: true, value }));
  }

  scanners(): Array<(cursor: string, pattern: string, count: number) => Promise<[string, string[]]>> {
    const nodes: Redis[] = this.client.isCluster ? (this.client as Cluster).nodes('master') : [this.client as Redis];
    return nodes.map((node) => (cursor, pattern, count) => node.scan(cursor, 'MATCH', pattern, 'COUNT', count));
  }

  onReady(listener: () => void): () => void {
    this.client.on('ready', listener);
    return () => void this.client.off('ready', listener);
  }

  onError(listener: (error: Error) => void): () => void {
    this.client.on('error', listener);
    return () => void this.client.off('error', listener);
  }

  subscribe(channel: string, hooks: SubscriberDeps): Subscription {
    // A new connection (a subscribed one can run nothing else), with the client's own options.
    const subscriber = this.client.isCluster
      ? (this.client as Cluster).duplicate()
      : (this.client as Redis).duplicate({ enableOfflineQueue: true, lazyConnect: false });
    subscriber.on('error', () => {
      // The channel's losses are handled on 'close'; ioredis reconnects and resubscribes.
    });
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) hooks.message(message);
    });
    subscriber.on('ready', () => hooks.up());
    subscriber.on('close', () => hooks.down());
    subscriber.subscribe(channel).then(
      () => {
        if (subscriber.status === 'ready') hooks.up();
      },
      () => {
        // retried by ioredis's reconnect (autoResubscribe)
      },
    );
    return { close: () => subscriber.disconnect() };
  }

  async quit(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
