/**
 * A {@link TaskStore} in Redis (spec: ext-tasks, Task Polling: "clients SHOULD persist task IDs
 * to durable storage so that polling can resume after a crash or restart"): the records of a
 * host's tasks outlive the process, and any instance of a fleet can resume them. See
 * docs/tasks.md, "Durable tasks".
 *
 * One Redis string per record, expiring with the task (`PX` = `expiresAt` − now):
 *
 *     <prefix>{<server tag>}task:<digest of the store key>   {"v":1,"key":…,"record":…}
 *
 * The server tag (a digest of the server identity) is a Redis Cluster hash tag, so the tasks of
 * one server share a slot; key names hold digests only, never a task id (a bearer token for the
 * task) or a server URL. The cache's keys under the same prefix never collide with these.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { InvalidArgumentError } from '../../errors/errors.js';
import { sha256Hex } from '../../util/sha256.js';
import { DEFAULT_PREFIX, globEscape } from '../../cache/redis/redisKeys.js';
import { RedisLink, RedisTimeout } from '../../cache/redis/redisLink.js';
import { isIoRedisClient, type IoRedisClient } from '../../cache/redis/ioredisDriver.js';
import { systemWallClock, type Timers, type WallClock } from '../../util/clock.js';
import { boundedTimers } from '../../util/timerBounds.js';
import { TASK_STATUSES } from '../../wire/tasks.js';
import { taskKeyPrefix, type TaskRecord, type TaskStore } from '../taskStore.js';
import { TaskStoreError } from './taskStoreError.js';

/** Options of {@link RedisTaskStore}. Give exactly one of `client` and `connection`. */
export interface RedisTaskStoreOptions {
  /**
   * A connection the host already has: an ioredis `Redis` (standalone, Sentinel, TLS) or
   * `Cluster`, e.g. the one its `RedisCacheStore` uses. The store sends its commands on it,
   * adds no listener to it and never closes it.
   */
  client?: IoRedisClient | undefined;
  /**
   * Or how to connect: a `redis://` / `rediss://` URL or ioredis options. The store owns that
   * connection (`close()` ends it). Commands sent while it is (re)connecting wait for it, up to
   * `timeoutMs`.
   */
  connection?: string | RedisOptions | undefined;
  /**
   * What every key of this store starts with; the same prefix as a `RedisCacheStore` is fine.
   * Must not hold `{` or `}`. @default "mcp-live:"
   */
  prefix?: string | undefined;
  /** Longest wait for one Redis operation, in ms; past it the call throws `TaskStoreError` (`timeout`). @default 2000 */
  timeoutMs?: number | undefined;
  /**
   * How long Redis keeps the record of a task without a TTL (`expiresAt: null`), in ms, counted
   * from each write; `null` keeps it until the task ends. A record with an `expiresAt` always
   * expires then. @default 604800000 (7 days)
   */
  untimedRecordTtlMs?: number | null | undefined;
  /**
   * Receives a `TaskStoreError` for each key holding text that is not a task record (read as
   * no record), and, for an owned connection, once each time the connection fails until it is
   * ready again. Never called with a task id. @default ignore
   */
  onError?: ((error: Error) => void) | undefined;
  /** Wall clock the records' `expiresAt` is read on, epoch ms. @default Date.now */
  wallClock?: WallClock | undefined;
  /** Timers for operation timeouts. @default the globals */
  timers?: Timers | undefined;
}

/** Default {@link RedisTaskStoreOptions.timeoutMs}. */
export const DEFAULT_TASK_STORE_TIMEOUT_MS = 2000;

const DEFAULT_UNTIMED_TTL_MS = 7 * 24 * 60 * 60_000;
/** Where every key of `taskKey()` starts (`taskKeyPrefix` with an empty identity, less its end). */
const TASK_NAMESPACE = taskKeyPrefix('').slice(0, -1);

/**
 * A {@link TaskStore} in Redis, for tasks that must survive a host restart or move between the
 * instances of a fleet (import from `mcp-live/redis`; ioredis is an optional peer dependency).
 * Pass it as `ClientOptions.tasks.store`; a client of another process with a store on the same
 * Redis and prefix then resumes the task with `client.resumeTask(taskId)`.
 *
 * - Each record expires in Redis when its task does (`expiresAt`, the task's `createdAt +
 *   ttlMs`); a record written after that is deleted instead.
 * - Every call is one or two round trips, bounded by `timeoutMs`; a Redis that is away or slow
 *   makes it throw `TaskStoreError` (-33032).
 *
 * @example
 * ```ts
 * import { RedisTaskStore } from 'mcp-live/redis';
 * const store = new RedisTaskStore({ connection: 'redis://cache.internal:6379' });
 * const client = new McpClient({ transport, clientInfo, tasks: { store } });
 * ```
 *
 * @throws InvalidArgumentError (-32602) when neither or both of `client` and `connection` are
 *   given, or an option is out of range.
 */
export class RedisTaskStore implements TaskStore {
  private readonly link: RedisLink<IoRedisClient>;
  private readonly prefix: string;
  private readonly ownsClient: boolean;
  private readonly untimedTtlMs: number | null;
  private readonly wallClock: WallClock;
  private readonly onError: (error: Error) => void;
  /** An owned connection's failure was reported and it has not been ready since. */
  private reportedOutage = false;
  private closed = false;

  constructor(options: RedisTaskStoreOptions) {
    const { client, connection } = options ?? {};
    if ((client === undefined) === (connection === undefined))
      throw new InvalidArgumentError('client', client, 'give exactly one of client and connection');
    // Its commands are ioredis calls: a node-redis client would be taken and store nothing.
    if (client !== undefined && !isIoRedisClient(client))
      throw new InvalidArgumentError('client', typeof client, 'expected an ioredis Redis or Cluster');
    const prefix = options.prefix ?? DEFAULT_PREFIX;
    if (typeof prefix !== 'string' || /[{}]/.test(prefix))
      throw new InvalidArgumentError('prefix', prefix, 'expected a string without "{" or "}"');
    this.prefix = prefix;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TASK_STORE_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
      throw new InvalidArgumentError('timeoutMs', timeoutMs, 'expected a positive number of ms');
    const untimed = options.untimedRecordTtlMs === undefined ? DEFAULT_UNTIMED_TTL_MS : options.untimedRecordTtlMs;
    if (untimed !== null && (typeof untimed !== 'number' || !Number.isFinite(untimed) || untimed < 1))
      throw new InvalidArgumentError('untimedRecordTtlMs', untimed, 'expected a positive number of ms or null');
    this.untimedTtlMs = untimed === null ? null : Math.ceil(untimed);
    this.wallClock = options.wallClock ?? systemWallClock;
    this.onError = options.onError ?? (() => {});
    this.ownsClient = client === undefined;
    const redis = client ?? ownedClient(connection as string | RedisOptions);
    this.link = new RedisLink(redis, boundedTimers(options.timers), timeoutMs);
    if (this.ownsClient) {
      // An owned connection's errors are ours to hear (ioredis logs unheard ones).
      redis.on('error', (error: Error) => {
        if (this.reportedOutage || this.closed) return;
        this.reportedOutage = true;
        this.onError(
          new TaskStoreError(
            `Redis connection failed (${error.message})`,
            { operation: 'connect', reason: 'unreachable' },
            error,
          ),
        );
      });
      redis.on('ready', () => {
        this.reportedOutage = false;
      });
    }
  }

  /**
   * The record under `key`, or `undefined` (also for a key holding something else, which goes
   * to `onError`). @throws TaskStoreError (-33032) when Redis is away or slow.
   */
  async get(key: string): Promise<TaskRecord | undefined> {
    const text = await this.run('GET', () => this.link.client.get(this.redisKey(key)));
    return this.decode(key, text);
  }

  /**
   * Stores `record` under `key`, expiring at `record.expiresAt` (or after `untimedRecordTtlMs`
   * when it is `null`); a record already past its `expiresAt` is deleted instead.
   * @throws TaskStoreError (-33032) when Redis is away or slow.
   */
  async set(key: string, record: TaskRecord): Promise<void> {
    const redisKey = this.redisKey(key);
    const px = record.expiresAt === null ? this.untimedTtlMs : Math.ceil(record.expiresAt - this.wallClock.now());
    if (px !== null && px < 1) {
      await this.run('UNLINK', () => this.link.client.unlink(redisKey));
      return;
    }
    const text = JSON.stringify({ v: 1, key, record });
    await this.run('SET', () =>
      px === null ? this.link.client.set(redisKey, text) : this.link.client.set(redisKey, text, 'PX', px),
    );
  }

  /** Removes the record under `key`; resolves `true` when there was one. @throws TaskStoreError (-33032) */
  async delete(key: string): Promise<boolean> {
    return (await this.run('UNLINK', () => this.link.client.unlink(this.redisKey(key)))) > 0;
  }

  /**
   * Every stored key starting with `prefix`. For a `taskKeyPrefix(serverIdentity)` it walks that
   * server's keys only (`SCAN`, never `KEYS`), then reads them in one round trip; for any other
   * prefix it walks every task key of this store's prefix.
   * @throws TaskStoreError (-33032) when Redis is away or slow.
   */
  async keys(prefix: string): Promise<string[]> {
    const scope = scopeOfPrefix(prefix);
    const slot = scope === undefined ? '{*}' : `{${globEscape(serverTag(scope))}}`;
    // Each SCAN call is bounded by the link; the walk as a whole is not.
    const found = await this.guard('SCAN', () => this.link.scan(`${globEscape(this.prefix)}${slot}task:*`));
    if (found.length === 0) return [];
    const texts =
      scope === undefined
        ? await Promise.all(found.map((redisKey) => this.run('GET', () => this.link.client.get(redisKey))))
        : // One server's keys share a slot: one MGET, Cluster included.
          await this.run('MGET', () => this.link.client.mget(...found));
    const keys: string[] = [];
    for (const text of texts) {
      const stored = text === null ? undefined : parseStored(text);
      if (stored !== undefined && stored.key.startsWith(prefix)) keys.push(stored.key);
    }
    return keys;
  }

  /** Closes the connection the store opened (not a `client` it was given). Records stay in Redis. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsClient) await this.link.client.quit().catch(() => this.link.client.disconnect());
  }

  /** The Redis key of a store key: the server's hash tag and a digest, nothing in clear. */
  private redisKey(key: string): string {
    return `${this.prefix}{${serverTag(scopeOfKey(key))}}task:${sha256Hex(`mcp-live/task/key\u0000${key}`).slice(0, 32)}`;
  }

  private decode(key: string, text: string | null): TaskRecord | undefined {
    if (text === null) return undefined;
    const stored = parseStored(text);
    if (stored !== undefined && stored.key === key) return stored.record;
    this.onError(
      new TaskStoreError('A task key in Redis held something that is not a task record; read as no record', {
        operation: 'GET',
        reason: 'malformed-record',
      }),
    );
    return undefined;
  }

  /** One operation bounded by `timeoutMs`; its failure as a {@link TaskStoreError}. */
  private run<T>(operation: string, command: () => Promise<T>): Promise<T> {
    return this.guard(operation, () => this.link.bounded(operation, command));
  }

  /** `work`'s failure as a {@link TaskStoreError}. */
  private async guard<T>(operation: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
      if (error instanceof RedisTimeout)
        throw new TaskStoreError(error.message, { operation, reason: 'timeout' }, error);
      throw new TaskStoreError(
        `Redis ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
        { operation, reason: 'unreachable' },
        cause,
      );
    }
  }
}

/** The server part of a store key (`taskKey(serverIdentity, id)`), or `''` for a key of another shape. */
function scopeOfKey(key: string): string {
  return scopeOfPrefix(key) ?? '';
}

/** The server identity a key or prefix names, when it is one of `taskKey`'s shape and names it whole. */
function scopeOfPrefix(prefix: string): string | undefined {
  if (!prefix.startsWith(TASK_NAMESPACE)) return undefined;
  const end = prefix.indexOf('\u0000', TASK_NAMESPACE.length);
  return end < 0 ? undefined : prefix.slice(TASK_NAMESPACE.length, end);
}

/** The hash tag of a server's task keys: a digest of its identity. */
function serverTag(scope: string): string {
  return sha256Hex(`mcp-live/task/server\u0000${scope}`).slice(0, 16);
}

/** A stored text as `{ key, record }`, or `undefined` when it is not one this store wrote. */
function parseStored(text: string): { key: string; record: TaskRecord } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, key, record } = value as { v?: unknown; key?: unknown; record?: unknown };
  if (v !== 1 || typeof key !== 'string' || !isTaskRecord(record)) return undefined;
  return { key, record };
}

function isTaskRecord(value: unknown): value is TaskRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<Record<keyof TaskRecord, unknown>>;
  return (
    typeof record.taskId === 'string' &&
    typeof record.serverIdentity === 'string' &&
    (record.principal === undefined || typeof record.principal === 'string') &&
    typeof record.method === 'string' &&
    TASK_STATUSES.includes(record.status as TaskRecord['status']) &&
    (record.expiresAt === null || typeof record.expiresAt === 'number') &&
    Array.isArray(record.answeredKeys) &&
    record.answeredKeys.every((key) => typeof key === 'string') &&
    typeof record.updatedAt === 'number'
  );
}

function ownedClient(connection: string | RedisOptions): Redis {
  // Commands wait in the offline queue while (re)connecting; `timeoutMs` bounds each one.
  const own = { maxRetriesPerRequest: 1 };
  // ioredis's option types do not allow `undefined` for absent options (exactOptionalPropertyTypes).
  type Options = RedisOptions & { replyMapping?: 'resp2' };
  return typeof connection === 'string' ? new Redis(connection, own) : new Redis({ ...connection, ...own } as Options);
}
