/**
 * The Redis commands a fleet store sends, each bounded by a timeout, on whichever client
 * library it was given (through its {@link RedisDriver}; see clientDriver.ts).
 */
import { createHash } from 'node:crypto';
import type { TimerHandle, Timers } from '../../util/clock.js';
import { driverFor, type RedisClient } from './clientDriver.js';
import type { RedisDriver, RedisReply, SubscriberDeps, Subscription } from './redisDriver.js';

export type { RedisClient };

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
  /** True when the key holds a value of another Redis type (`WRONGTYPE`): not an entry. */
  readonly wrongType: boolean;
  /** `PTTL` of the entry key in ms, when asked for. */
  readonly pttl: number | undefined;
  /** The generation tokens of the asked methods (`null` for none yet), when asked for. */
  readonly generations: ReadonlyArray<string | null> | undefined;
}

const SCAN_COUNT = 1000;

/** True for Redis's answer to a command on a key holding another type of value. */
export function isWrongType(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('WRONGTYPE');
}

/**
 * Commands on one client, each bounded by `timeoutMs`.
 * @throws InvalidArgumentError (-32602) when `client` is neither an ioredis nor a node-redis client.
 */
export class RedisLink<C extends RedisClient = RedisClient> {
  readonly driver: RedisDriver;

  constructor(
    readonly client: C,
    private readonly timers: Timers,
    readonly timeoutMs: number,
  ) {
    this.driver = driverFor(client);
  }

  /** True when the client is connected and ready for commands. */
  get ready(): boolean {
    return this.driver.ready;
  }

  /** True while the client is opening a connection (`wait` for a lazy one, `connecting`, `connect`). */
  get connecting(): boolean {
    return this.driver.connecting;
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

  /** `GET key`; `wrongType` when the key holds another type. */
  async get(key: string): Promise<{ text: string | null; wrongType: boolean }> {
    try {
      return { text: await this.bounded('GET', () => this.driver.command('GET', key)).then(text), wrongType: false };
    } catch (error) {
      if (error instanceof RedisFailure && isWrongType(error.cause)) return { text: null, wrongType: true };
      throw error;
    }
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
      const read = await this.get(key);
      return { ...read, pttl: undefined, generations: undefined };
    }
    const replies = await this.bounded('GET', () =>
      this.driver.pipeline([
        ['GET', key],
        ...(withPttl ? [['PTTL', key] as const] : []),
        ...(generations === undefined ? [] : [['HMGET', generations.key, ...generations.methods] as const]),
      ]),
    );
    const first = replies[0]!;
    const wrongType = !first.ok && isWrongType(first.error);
    for (const reply of replies.slice(wrongType ? 1 : 0)) if (!reply.ok) throw reply.error;
    return {
      text: first.ok ? text(first.value) : null,
      wrongType,
      pttl: withPttl && !wrongType ? (value(replies[1]!) as number) : undefined,
      generations:
        generations === undefined ? undefined : (value(replies[replies.length - 1]!) as Array<string | null>),
    };
  }

  /** `GET key` and `EXISTS other` in one round trip (single-flight polls). */
  async readWithLock(key: string, lock: string): Promise<{ text: string | null; wrongType: boolean; locked: boolean }> {
    const replies = await this.bounded('GET', () =>
      this.driver.pipeline([
        ['GET', key],
        ['EXISTS', lock],
      ]),
    );
    const [first, second] = replies as [RedisReply, RedisReply];
    const wrongType = !first.ok && isWrongType(first.error);
    if (!first.ok && !wrongType) throw first.error;
    return { text: first.ok ? text(first.value) : null, wrongType, locked: value(second) === 1 };
  }

  /** `HMGET key ...fields`. */
  async hmget(key: string, fields: readonly string[]): Promise<Array<string | null>> {
    return (await this.bounded('HMGET', () => this.driver.command('HMGET', key, ...fields))) as Array<string | null>;
  }

  /** `HSET key field value ...`. */
  async hset(key: string, fields: Record<string, string>): Promise<void> {
    await this.bounded('HSET', () => this.driver.command('HSET', key, ...Object.entries(fields).flat()));
  }

  /** `SET key value PX ms`. */
  async set(key: string, value: string, px: number): Promise<void> {
    await this.bounded('SET', () => this.driver.command('SET', key, value, 'PX', px));
  }

  /** `SET key value NX PX ms`; true when set. */
  async setIfAbsent(key: string, value: string, px: number): Promise<boolean> {
    return (await this.bounded('SET', () => this.driver.command('SET', key, value, 'PX', px, 'NX'))) === 'OK';
  }

  /** `UNLINK` of each key (one command per key, pipelined: keys may sit in different slots). */
  async unlink(keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    if (keys.length === 1) return Number(await this.bounded('UNLINK', () => this.driver.command('UNLINK', keys[0]!)));
    const replies = await this.bounded('UNLINK', () => this.driver.pipeline(keys.map((key) => ['UNLINK', key])));
    let removed = 0;
    for (const reply of replies) removed += Number(value(reply));
    return removed;
  }

  /** `PUBLISH channel message`. */
  async publish(channel: string, message: string): Promise<void> {
    await this.bounded('PUBLISH', () => this.driver.command('PUBLISH', channel, message));
  }

  /** `PING`. */
  async ping(): Promise<void> {
    await this.bounded('PING', () => this.driver.command('PING'));
  }

  /** Runs a script (`EVALSHA`, then `EVAL` when Redis answers `NOSCRIPT`, e.g. after a restart). */
  async eval(script: LuaScript, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    return this.bounded('EVALSHA', async () => {
      try {
        return await this.driver.command('EVALSHA', script.sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return this.driver.command('EVAL', script.text, keys.length, ...keys, ...args);
      }
    });
  }

  /**
   * Every key matching `pattern`, with `SCAN` (never `KEYS`), on every master of a cluster.
   * Each `SCAN` call is bounded by the timeout; the walk as a whole is not.
   */
  async scan(pattern: string): Promise<string[]> {
    const found = new Set<string>();
    for (const scan of this.driver.scanners()) {
      let cursor = '0';
      do {
        const [next, keys] = await this.bounded('SCAN', () => scan(cursor, pattern, SCAN_COUNT));
        for (const key of keys) found.add(key);
        cursor = next;
      } while (cursor !== '0');
    }
    return [...found];
  }

  /** A new connection subscribed to `channel`, with the client's own options; the caller closes it. */
  subscribe(channel: string, hooks: SubscriberDeps): Subscription {
    return this.driver.subscribe(channel, hooks);
  }
}

/** A reply that must be a string or nil. */
function text(reply: unknown): string | null {
  if (reply === null || typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return Buffer.from(reply).toString('utf8');
  throw new Error(`expected a string reply, got ${typeof reply}`);
}

/** The value of a pipelined reply, or its error thrown. */
function value(reply: RedisReply): unknown {
  if (!reply.ok) throw reply.error;
  return reply.value;
}
