/**
 * The few things a fleet store asks of a Redis client library, so that one store runs on
 * ioredis and on node-redis alike: raw commands, commands pipelined in one round trip, `SCAN`
 * on every master, the connection's state and a pub/sub connection of its own.
 */

/** A command's name and its arguments, e.g. `['GET', key]`. */
export type RedisCommand = readonly [name: string, ...args: Array<string | number>];

/** What one command of a pipeline brought back: its reply, or the error Redis answered. */
export type RedisReply =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** What the store hears from its pub/sub connection. */
export interface SubscriberDeps {
  /** A message on the channel. */
  message(text: string): void;
  /** Subscribed and connected: notices are heard from now on. */
  up(): void;
  /** The connection was lost: notices may be missed until {@link up} again. */
  down(): void;
}

/** The store's pub/sub connection; `close()` ends it. */
export interface Subscription {
  close(): void;
}

/** One client library, as a fleet store uses it. */
export interface RedisDriver {
  /** `ioredis` or `node-redis`. */
  readonly library: 'ioredis' | 'node-redis';
  /** True when the client is connected and ready for commands. */
  readonly ready: boolean;
  /** True while the client is opening a connection. */
  readonly connecting: boolean;
  /** Sends one command; resolves its reply, rejects with the client's error. */
  command(...command: RedisCommand): Promise<unknown>;
  /** Sends `commands` in one round trip (their keys share a hash slot); each one's reply or error. */
  pipeline(commands: readonly RedisCommand[]): Promise<RedisReply[]>;
  /** One `SCAN` function per master (one for a single node, every master of a cluster). */
  scanners(): Array<(cursor: string, pattern: string, count: number) => Promise<[string, string[]]>>;
  /** Calls `listener` each time the client is ready again; returns its removal. */
  onReady(listener: () => void): () => void;
  /** Calls `listener` with each connection error; returns its removal. */
  onError(listener: (error: Error) => void): () => void;
  /** Opens a connection of the same kind and options subscribed to `channel`. */
  subscribe(channel: string, hooks: SubscriberDeps): Subscription;
  /** Ends the connection (for a connection the store opened itself). */
  quit(): Promise<void>;
}
