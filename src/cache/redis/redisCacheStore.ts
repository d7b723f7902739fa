/**
 * A {@link CacheStore} in Redis, shared by a fleet of processes (spec: server/utilities/caching:
 * `cacheScope: "public"` results are reused by every user of every instance; `private` ones
 * never leave their auth context's partition). See docs/caching.md, "Fleet".
 */
import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { InvalidArgumentError } from '../../errors/errors.js';
import { systemClock, systemWallClock, type Clock, type Timers, type WallClock } from '../../util/clock.js';
import type { Closeable } from '../../util/disposable.js';
import { boundedTimers } from '../../util/timerBounds.js';
import type { CacheStore } from '../cacheStore.js';
import type { CacheEntry } from '../types.js';
import type { FleetInvalidation, FlightTicket, StoreRefusal } from '../fleet.js';
import { CACHEABLE_METHODS } from '../types.js';
import { Availability } from './availability.js';
import { CacheStoreError, outageError } from './errors.js';
import { FleetNotices } from './fleetNotices.js';
import { Generations, UNKNOWN_TOKEN, WRITE_ENTRY, type Fence } from './generations.js';
import { LocalTier, type LocalTierOptions } from './localTier.js';
import { RedisKeys, serverTagOf } from './redisKeys.js';
import { RedisLink, type RedisClient } from './redisLink.js';
import type { Subscription } from './redisDriver.js';
import { RemoteEntries } from './remoteEntries.js';
import { SingleFlight, type SingleFlightOptions } from './singleFlight.js';

/** Options of {@link RedisCacheStore}. Give exactly one of `client` and `connection`. */
export interface RedisCacheStoreOptions {
  /**
   * A connection the host already has: an ioredis `Redis` (standalone, Sentinel, TLS) or
   * `Cluster`, or a node-redis client of one node (`createClient()` of the `redis` package;
   * connected, or `connect()`ed after). The store sends its commands on it and never closes it;
   * it opens one more connection of the same kind (`duplicate()`) for the invalidation channel,
   * and closes that. Anything else is refused (InvalidArgumentError, -32602).
   */
  client?: RedisClient | undefined;
  /**
   * Or how to connect: a `redis://` / `rediss://` URL or ioredis options (Sentinel: `sentinels`
   * and `name`; TLS: `tls`). The store owns these connections (`close()` ends them) and turns
   * the offline queue off, so commands fail at once while Redis is away.
   */
  connection?: string | RedisOptions | undefined;
  /**
   * What every key and the channel of this fleet start with: fleets (or environments) sharing
   * one Redis use different prefixes. Must not hold `{` or `}`. @default "mcp-live:"
   */
  prefix?: string | undefined;
  /**
   * Longest wait for one Redis operation, in ms (monotonic). Past it the operation counts as
   * failed: the store reports it once and runs without Redis until a probe succeeds. A call
   * makes at most four operations in sequence (two lookups, a write, a delete), and after one
   * times out the rest answer at once, so a slow Redis delays a call by at most
   * `4 × timeoutMs`, and by about one `timeoutMs` in the usual case. @default 200
   */
  timeoutMs?: number | undefined;
  /** How often to probe Redis while it is away, in ms. @default 1000 */
  retryMs?: number | undefined;
  /**
   * How long Redis keeps an entry after it goes stale, in ms, for the cache's
   * stale-while-revalidate, stale-if-error and `force-cache` to use. With `0` Redis drops an
   * entry the moment it goes stale (`PX` = its remaining freshness). A positive value (or the
   * local tier) costs one `PTTL` beside each `GET`, in the same round trip. @default 0
   */
  retainStaleMs?: number | undefined;
  /** Largest entry kept, in characters of its text (header + result JSON). @default 1048576 */
  maxEntryBytes?: number | undefined;
  /**
   * A small in-process tier in front of Redis (bounded LRU, fresh entries only, dropped on any
   * invalidation notice and whenever the channel or Redis is lost). Hits from it cross no
   * network; the price is that another instance's invalidation reaches it one channel delivery
   * later (see docs/caching.md). `true` for the default bounds. @default false
   */
  localTier?: boolean | LocalTierOptions | undefined;
  /**
   * Single-flight across the fleet for cold public entries: the first instance to miss takes a
   * short Redis lock and loads; the others poll for its entry for up to `lockMs`, then load
   * themselves. `true` for the defaults. @default false
   */
  singleFlight?: boolean | SingleFlightOptions | undefined;
  /**
   * Receives each {@link CacheStoreError}: once per outage (Redis unreachable or too slow), and
   * for each entry text that is not an mcp-live entry. Never called with a credential. An outage
   * lasts until a probe succeeds with no failure seen while it ran. A slow start is not one: while
   * the first connection is still being opened (up to 10 s) the store is `starting` and reports
   * nothing; a failed connection attempt is reported. @default ignore
   */
  onError?: ((error: Error) => void) | undefined;
  /** Monotonic clock (timeouts, freshness handed to the cache). @default performance.now */
  clock?: Clock | undefined;
  /** Wall clock (absolute expiries shared with other processes). @default Date.now */
  wallClock?: WallClock | undefined;
  /** Timers for operation timeouts, probes and single-flight polls. @default the globals */
  timers?: Timers | undefined;
}

/** Default {@link RedisCacheStoreOptions.timeoutMs}. */
export const DEFAULT_REDIS_TIMEOUT_MS = 200;

/**
 * A {@link CacheStore} in Redis for a fleet of mcp-live clients (import from `mcp-live/redis`;
 * ioredis is an optional peer dependency). Pass it as `cache.store`, with an `authContext`
 * (a shared store caches private results only under a declared auth context).
 *
 * - **Shared**: public entries written by one instance are hits in every other; private ones are
 *   keyed by a digest of the auth context, so they are hits only for the same context.
 * - **Freshness across processes**: an entry keeps its absolute wall-clock expiry, and Redis
 *   drops it by itself (`PX`) when it goes stale (plus `retainStaleMs`). A reader takes the
 *   earliest of what its wall clock, Redis's expiry and the server's `ttlMs` allow, so a clock
 *   step in any process only shortens an entry's life.
 * - **Invalidation across the fleet**: each invalidation writes a new generation token in Redis
 *   and is published on the fleet's channel; every instance stops loads in flight from being
 *   stored, and a write fenced before any invalidation is refused by Redis itself.
 * - **Redis away or slow**: lookups are misses, nothing is stored, calls go to the server; one
 *   {@link CacheStoreError} goes to `onError`; the store resumes when Redis answers again.
 *
 * @example
 * ```ts
 * import { RedisCacheStore } from 'mcp-live/redis';
 * const store = new RedisCacheStore({ connection: 'redis://cache.internal:6379', prefix: 'gw:', onError: log });
 * const client = new McpClient({ transport, clientInfo, cache: { store, authContext: () => user.id } });
 * ```
 *
 * @throws InvalidArgumentError (-32602) when neither or both of `client` and `connection` are
 *   given, `client` is neither an ioredis nor a node-redis client (`data.value` says what it
 *   is: a node-redis cluster or Sentinel, a callback-era client, something else), or an option
 *   is out of range.
 */
export class RedisCacheStore implements CacheStore, Closeable {
  /** Key names of this fleet. */
  private readonly names: RedisKeys;
  private readonly link: RedisLink;
  private readonly ownsClient: boolean;
  private readonly subscriber: Subscription;
  private subscribed = false;
  private readonly clock: Clock;
  private readonly maxEntryBytes: number;
  private readonly local: LocalTier | undefined;
  /**
   * Whether reads also ask Redis for the entry's `PTTL`: needed when Redis keeps stale entries
   * (`retainStaleMs`) or when this process keeps what it read (the local tier), so that no
   * process's wall clock can make an entry last longer than Redis's own expiry says.
   */
  private readonly withPttl: boolean;
  private readonly flights: SingleFlight | undefined;
  private readonly generations = new Generations(randomUUID().replaceAll('-', '').slice(0, 16));
  private readonly availability: Availability;
  private readonly entries: RemoteEntries;
  private readonly notices: FleetNotices;
  private readonly onError: (error: Error) => void;
  /** Removes the store's listeners from the client. */
  private readonly unlisten: Array<() => void> = [];
  private closed = false;

  constructor(options: RedisCacheStoreOptions) {
    const { client, connection } = options ?? {};
    if ((client === undefined) === (connection === undefined))
      throw new InvalidArgumentError('client', client, 'give exactly one of client and connection');
    this.names = new RedisKeys(options.prefix);
    const timeoutMs = positive('timeoutMs', options.timeoutMs, DEFAULT_REDIS_TIMEOUT_MS);
    const retryMs = positive('retryMs', options.retryMs, 1000);
    const retainStaleMs = nonNegative('retainStaleMs', options.retainStaleMs, 0);
    this.maxEntryBytes = positive('maxEntryBytes', options.maxEntryBytes, 1024 * 1024);
    this.clock = options.clock ?? systemClock;
    const wallClock = options.wallClock ?? systemWallClock;
    const timers = boundedTimers(options.timers);
    this.onError = options.onError ?? (() => {});
    this.local =
      options.localTier === undefined || options.localTier === false
        ? undefined
        : new LocalTier(options.localTier === true ? {} : options.localTier, this.clock, wallClock);

    this.withPttl = retainStaleMs > 0 || this.local !== undefined;
    this.ownsClient = client === undefined;
    const redis = client ?? ownedClient(connection as string | RedisOptions);
    this.link = new RedisLink(redis, timers, timeoutMs);
    const hooks = {
      up: () => this.availability.up,
      failed: (error: unknown) => this.failed(error),
      report: (error: unknown) => this.report(error),
    };
    this.entries = new RemoteEntries({
      link: this.link,
      names: this.names,
      clock: this.clock,
      wallClock,
      retainStaleMs,
      local: this.local,
      ...hooks,
    });
    this.notices = new FleetNotices(this.link, this.names, this.generations, this.local, hooks);
    this.flights =
      options.singleFlight === undefined || options.singleFlight === false
        ? undefined
        : new SingleFlight(
            options.singleFlight === true ? {} : options.singleFlight,
            this.link,
            this.names,
            timers,
            this.clock,
            this.generations,
            { ...hooks, entry: (read, key) => this.entries.readBack(read, undefined, key) },
          );
    this.availability = new Availability(
      this.link.ready,
      timers,
      retryMs,
      () => this.recover(),
      (error) => this.report(outageError(error)),
      () => {
        this.local?.clear();
        this.generations.forget();
      },
      () => this.link.connecting,
      () => this.clock.now(),
    );
    this.unlisten.push(this.link.driver.onReady(() => this.availability.ready()));
    // An owned connection's errors are ours to hear (ioredis logs unheard ones); a host's are the host's.
    if (this.ownsClient)
      this.unlisten.push(
        this.link.driver.onError((error: Error) =>
          this.failed(
            new CacheStoreError(
              `Redis connection failed (${error.message}); caching without Redis until it answers again`,
              { operation: 'connect', reason: 'unreachable' },
              error,
            ),
          ),
        ),
      );

    this.subscriber = this.link.subscribe(this.names.channel, {
      message: (message) => this.notices.heard(message),
      up: () => {
        this.subscribed = true;
      },
      down: () => {
        // Notices may be missed from now on: nothing in the local tier can be trusted.
        this.subscribed = false;
        this.local?.clear();
      },
    });
  }

  /** `up` (Redis in use), `starting`, `down` (running without Redis) or `recovering`. */
  get state(): 'starting' | 'up' | 'down' | 'recovering' {
    return this.availability.state;
  }

  /** Resolves once Redis is in use (connected, and anything owed to it replayed). */
  ready(): Promise<void> {
    return this.availability.whenUp();
  }

  // ---- CacheStore ---------------------------------------------------------------------------

  /**
   * The entry under `key`, its `receivedAt` on this process's clock. From the local tier
   * synchronously when it holds a fresh one; otherwise one round trip. Resolves `undefined`
   * (never rejects) when Redis is away.
   */
  get(key: string): CacheEntry | undefined | Promise<CacheEntry | undefined> {
    if (!this.availability.up) return undefined;
    if (this.local !== undefined && this.subscribed) {
      const hit = this.local.get(key);
      if (hit !== undefined) return hit;
    }
    return this.readRemote(key);
  }

  /**
   * Writes the entry with `PX` = its remaining freshness (+ `retainStaleMs`), through the
   * generation script when `fence` is a fence of this store.
   * @returns `true` when written (or nothing was left to keep), `'invalidated'` when refused by
   *   the fleet's generation guard, `'too-large'`, `'unavailable'` when Redis is away.
   */
  async set(key: string, entry: CacheEntry, fence?: unknown): Promise<true | StoreRefusal> {
    if (!this.availability.up) return 'unavailable';
    const toWrite = this.entries.toWrite(entry);
    if (toWrite === undefined) return true; // already stale and nothing retained: nothing to keep
    const { text, px } = toWrite;
    if (text.length > this.maxEntryBytes) return 'too-large';
    const redisKey = this.names.entry(key);
    try {
      if (isFence(fence)) {
        const [written, current] = (await this.link.eval(
          WRITE_ENTRY,
          [redisKey, this.names.generation(fence.serverTag)],
          [fence.method, fence.token ?? UNKNOWN_TOKEN, text, px],
        )) as [number, string];
        if (written !== 1) {
          this.generations.learn(fence.serverTag, [fence.method], current);
          return 'invalidated';
        }
      } else {
        await this.link.set(redisKey, text, px);
      }
    } catch (error) {
      this.failed(error);
      return 'unavailable';
    }
    if (this.local !== undefined && this.subscribed) this.local.set(key, entry);
    return true;
  }

  async delete(key: string): Promise<boolean> {
    this.local?.delete(key);
    if (!this.availability.up) return false;
    try {
      return (await this.link.unlink([this.names.entry(key)])) > 0;
    } catch (error) {
      this.failed(error);
      return false;
    }
  }

  /** Removes every entry of this fleet prefix (all servers), with `SCAN`; generations stay. */
  async clear(): Promise<void> {
    this.local?.clear();
    if (!this.availability.up) return;
    try {
      await this.link.unlink(await this.link.scan(this.names.pattern('')));
    } catch (error) {
      this.failed(error);
    }
  }

  /** Cache keys starting with `prefix`, with `SCAN` (never `KEYS`); none while Redis is away. */
  async keys(prefix: string): Promise<string[]> {
    if (!this.availability.up) return [];
    let found: string[];
    try {
      found = await this.link.scan(this.names.pattern(prefix));
    } catch (error) {
      this.failed(error);
      return [];
    }
    const out: string[] = [];
    for (const redisKey of found) {
      const key = this.names.cacheKey(redisKey);
      if (key !== undefined && key.startsWith(prefix)) out.push(key);
    }
    return out;
  }

  // ---- fleet --------------------------------------------------------------------------------

  /**
   * The token of `method` this process knows now (see generations.ts). The first time a server
   * is seen (and after Redis was lost) the tokens are read first: the promise resolves once
   * they are, and the cache sends its load only then.
   */
  fence(serverTag: string, method: string): Fence | Promise<Fence> {
    return this.notices.fence(serverTag, method);
  }

  /**
   * Tells the other caches of this process at once, writes a new generation token for the
   * covered methods, runs `removeEntries` (the cache's deletion of the covered entries) and
   * only then publishes the invalidation: another process that hears it and reads Redis finds
   * the entries gone, so its local tier cannot take an old one back. While Redis is away it is
   * kept and replayed (token, publish, and a `SCAN`/`UNLINK` of what it covers) before Redis is
   * used again.
   */
  invalidated(notice: FleetInvalidation, removeEntries?: () => Promise<unknown>): Promise<void> {
    return this.notices.invalidated(notice, removeEntries);
  }

  onInvalidation(listener: (notice: FleetInvalidation) => void): () => void {
    return this.notices.onInvalidation(listener);
  }

  flight(key: string, signal: AbortSignal): Promise<FlightTicket | undefined> {
    if (this.flights === undefined || !this.availability.up) return Promise.resolve(undefined);
    return this.flights.take(key, signal);
  }

  /**
   * Unsubscribes, closes the connections the store opened (not a `client` it was given) and
   * stops its probe. Entries stay in Redis. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.availability.close();
    this.notices.close();
    this.local?.clear();
    for (const unlisten of this.unlisten.splice(0)) unlisten();
    this.subscriber.close();
    if (this.ownsClient) await this.link.driver.quit();
  }

  /** The same as {@link close}, for `await using store = new RedisCacheStore(…)`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- inside -------------------------------------------------------------------------------

  private async readRemote(key: string): Promise<CacheEntry | undefined> {
    const tag = serverTagOf(key);
    // The first read of a server also brings its generation tokens (same slot, same round trip).
    const generations =
      tag !== '' && !this.generations.has(tag)
        ? { key: this.names.generation(tag), methods: CACHEABLE_METHODS }
        : undefined;
    let read;
    try {
      read = await this.link.readEntry(this.names.entry(key), this.withPttl, generations);
    } catch (error) {
      this.failed(error);
      return undefined;
    }
    if (read.generations !== undefined) this.generations.learnRead(tag, read.generations);
    const entry = this.entries.readBack(read, read.pttl, key);
    if (entry !== undefined && this.local !== undefined && this.subscribed) this.local.set(key, entry);
    return entry;
  }

  /** The probe: PING, then replay what was invalidated while away; only then is Redis used again. */
  private async recover(): Promise<void> {
    await this.link.ping();
    await this.notices.replay();
    this.generations.forget();
  }

  private failed(error: unknown): void {
    if (!this.closed) this.availability.failed(error);
  }

  private report(error: unknown): void {
    try {
      this.onError(asError(error));
    } catch {
      // a throwing onError must not break the store
    }
  }
}

function ownedClient(connection: string | RedisOptions): Redis {
  // Fail fast while disconnected (no offline queue); reconnect on ioredis's own backoff.
  const own = { enableOfflineQueue: false, maxRetriesPerRequest: 1 };
  // ioredis's option types do not allow `undefined` for absent options (exactOptionalPropertyTypes).
  type Options = RedisOptions & { replyMapping?: 'resp2' };
  return typeof connection === 'string' ? new Redis(connection, own) : new Redis({ ...connection, ...own } as Options);
}

function isFence(value: unknown): value is Fence {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Fence).serverTag === 'string' &&
    typeof (value as Fence).method === 'string'
  );
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError(name, value, 'expected a positive number');
  return value;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new InvalidArgumentError(name, value, 'expected a number >= 0');
  return value;
}
