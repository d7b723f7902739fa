/**
 * The Redis commands a fleet store sends, on ioredis (a `Redis`, including Sentinel set-ups,
 * or a `Cluster`), each bounded by a timeout: the only file that knows the client library.
 * It never mutates a client it was given (no `defineCommand`, no listeners but `ready`).
 */
import { createHash } from 'node:crypto';
import { Cluster, type Redis } from 'ioredis';
import type { TimerHandle, Timers } from '../../util/clock.js';

/** A connection the store can use: an ioredis `Redis` (standalone or Sentinel) or `Cluster`. */
export type RedisClient = Redis | Cluster;

/** A Lua script, sent by SHA1 (`EVALSHA`) and by text again when Redis does not know it. */
export interface LuaScript {
  readonly text: string;
  readonly sha: string;
}

/** A script ready for {@link RedisLink.eval}. */
export function luaScript(text: string): LuaScript {
  return { text, sha: createHash('sha1').update(text).digest('hex') };
}

/** An operation took longer than its bound. */
export class RedisTimeout extends Error {
  override name = 'RedisTimeout';
  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
  ) {
    super(`Redis ${operation}: no answer within ${timeoutMs} ms`);
  }
}

/** An operation failed (the client's error is the `cause`). */
export class RedisFailure extends Error {
  override name = 'RedisFailure';
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`Redis ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** What one entry read brings back in one round trip. */
export interface EntryRead {
  /** The entry text, or `null`. */
  readonly text: string | null;
  /** `PTTL` of the entry key in ms, when asked for. */
  readonly pttl: number | undefined;
  /** The generation tokens of the asked methods (`null` for none yet), when asked for. */
  readonly generations: ReadonlyArray<string | null> | undefined;
}

const SCAN_COUNT = 1000;

/** Commands on one client, each bounded by `timeoutMs`. */
export class RedisLink {
  constructor(
    readonly client: RedisClient,
    private readonly timers: Timers,
    readonly timeoutMs: number,
  ) {}

  /** True when the client is connected and ready for commands. */
  get ready(): boolean {
    return this.client.status === 'ready';
  }

  /** True while the client is opening a connection (`wait` for a lazy one, `connecting`, `connect`). */
  get connecting(): boolean {
    const status = this.client.status;
    return status === 'wait' || status === 'connecting' || status === 'connect';
  }

  /** `run()`, or a {@link RedisTimeout} once `timeoutMs` pass first (the late answer is dropped). */
  bounded<T>(operation: string, run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let handle: TimerHandle = this.timers.setTimeout(() => {
        handle = undefined;
        reject(new RedisTimeout(operation, this.timeoutMs));
      }, this.timeoutMs);
      const settle = (): boolean => {
        if (handle === undefined) return false;
        this.timers.clearTimeout(handle);
        handle = undefined;
        return true;
      };
      let pending: Promise<T>;
      try {
        pending = run();
      } catch (error) {
        settle();
        reject(new RedisFailure(operation, error));
        return;
      }
      pending.then(
        (value) => {
          if (settle()) resolve(value);
        },
        (error: unknown) => {
          if (settle()) reject(new RedisFailure(operation, error));
        },
      );
    });
  }

  /**
   * `GET key`, and in the same round trip `PTTL key` and `HMGET generationKey ...methods` when
   * asked. The keys must share a hash slot (they share the server's hash tag).
   */
  async readEntry(
    key: string,
    withPttl: boolean,
    generations: { key: string; methods: readonly string[] } | undefined,
  ): Promise<EntryRead> {
    if (!withPttl && generations === undefined) {
      const text = await this.bounded('GET', () => this.client.get(key));
      return { text, pttl: undefined, generations: undefined };
    }
    const replies = await this.bounded('GET', () => {
      const pipeline = this.client.pipeline().get(key);
      if (withPttl) pipeline.pttl(key);
      if (generations !== undefined) pipeline.hmget(generations.key, ...generations.methods);
      return pipeline.exec();
    });
    if (replies === null) throw new Error('Redis GET: the pipeline was discarded');
    for (const [error] of replies) if (error) throw error;
    return {
      text: replies[0]![1] as string | null,
      pttl: withPttl ? (replies[1]![1] as number) : undefined,
      generations: generations === undefined ? undefined : (replies[replies.length - 1]![1] as Array<string | null>),
    };
  }

  /** `GET key` and `EXISTS other` in one round trip (single-flight polls). */
  async readWithLock(key: string, lock: string): Promise<{ text: string | null; locked: boolean }> {
    const replies = await this.bounded('GET', () => this.client.pipeline().get(key).exists(lock).exec());
    if (replies === null) throw new Error('Redis GET: the pipeline was discarded');
    for (const [error] of replies) if (error) throw error;
    return { text: replies[0]![1] as string | null, locked: replies[1]![1] === 1 };
  }

  /** `HMGET key ...fields`. */
  hmget(key: string, fields: readonly string[]): Promise<Array<string | null>> {
    return this.bounded('HMGET', () => this.client.hmget(key, ...fields));
  }

  /** `HSET key field value ...`. */
  async hset(key: string, fields: Record<string, string>): Promise<void> {
    await this.bounded('HSET', () => this.client.hset(key, fields));
  }

  /** `SET key value NX PX ms`; true when set. */
  async setIfAbsent(key: string, value: string, px: number): Promise<boolean> {
    return (await this.bounded('SET', () => this.client.set(key, value, 'PX', px, 'NX'))) === 'OK';
  }

  /** `UNLINK` of each key (one command per key, pipelined: keys may sit in different slots). */
  async unlink(keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    if (keys.length === 1) return this.bounded('UNLINK', () => this.client.unlink(keys[0]!));
    const replies = await this.bounded('UNLINK', () => {
      const pipeline = this.client.pipeline();
      for (const key of keys) pipeline.unlink(key);
      return pipeline.exec();
    });
    let removed = 0;
    for (const [error, count] of replies ?? []) {
      if (error) throw error;
      removed += count as number;
    }
    return removed;
  }

  /** `PUBLISH channel message`. */
  async publish(channel: string, message: string): Promise<void> {
    await this.bounded('PUBLISH', () => this.client.publish(channel, message));
  }

  /** `PING`. */
  async ping(): Promise<void> {
    await this.bounded('PING', () => this.client.ping());
  }

  /** Runs a script (`EVALSHA`, then `EVAL` when Redis answers `NOSCRIPT`, e.g. after a restart). */
  async eval(script: LuaScript, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    return this.bounded('EVALSHA', async () => {
      try {
        return await this.client.evalsha(script.sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return this.client.eval(script.text, keys.length, ...keys, ...args);
      }
    });
  }

  /**
   * Every key matching `pattern`, with `SCAN` (never `KEYS`), on every master of a cluster.
   * Each `SCAN` call is bounded by the timeout; the walk as a whole is not.
   */
  async scan(pattern: string): Promise<string[]> {
    const nodes: Redis[] = this.client instanceof Cluster ? this.client.nodes('master') : [this.client];
    const found = new Set<string>();
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, keys] = await this.bounded('SCAN', () => node.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT));
        for (const key of keys) found.add(key);
        cursor = next;
      } while (cursor !== '0');
    }
    return [...found];
  }

  /**
   * A new connection for pub/sub (a subscribed connection can run nothing else), with the
   * client's own options; the caller owns it.
   */
  duplicateForSubscribe(): RedisClient {
    return this.client instanceof Cluster
      ? this.client.duplicate()
      : this.client.duplicate({ enableOfflineQueue: true, lazyConnect: false });
  }
}
