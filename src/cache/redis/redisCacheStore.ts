/**
 * A {@link CacheStore} in Redis, shared by a fleet of processes (spec: server/utilities/caching:
 * `cacheScope: "public"` results are reused by every user of every instance; `private` ones
 * never leave their auth context's partition). See docs/caching.md, "Fleet".
 */
import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { InvalidArgumentError, ProtocolError } from '../../errors/errors.js';
import { systemClock, systemWallClock, type Clock, type Timers, type WallClock } from '../../util/clock.js';
import type { Closeable } from '../../util/disposable.js';
import { boundedTimers } from '../../util/timerBounds.js';
import type { CacheStore } from '../cacheStore.js';
import type { CacheEntry } from '../types.js';
import { keyPrefix, parseCacheKey, quoteJson } from '../cacheKey.js';
import { recheckResult } from '../../wire/results.js';
import type { FleetInvalidation, FlightTicket, StoreRefusal } from '../fleet.js';
import { CACHEABLE_METHODS } from '../types.js';
import { Availability } from './availability.js';
import { decodeEntry, encodeEntry, type StoredEntry } from './entryCodec.js';
import { CacheStoreError } from './errors.js';
import {
  Generations,
  UNKNOWN_TOKEN,
  WRITE_ENTRY,
  decodeNotice,
  encodeNotice,
  methodsOf,
  type Fence,
} from './generations.js';
import { LocalTier, type LocalTierOptions } from './localTier.js';
import { RedisKeys, serverTagOf } from './redisKeys.js';
import { RedisFailure, RedisLink, RedisTimeout, type RedisClient } from './redisLink.js';
import type { Subscription } from './redisDriver.js';
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

/** Invalidations kept for replay while Redis is away, per server; past it they merge into one `all`. */
const MAX_PENDING_PER_SERVER = 32;

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
  private readonly wallClock: WallClock;
  private readonly retainStaleMs: number;
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
  private readonly listeners = new Set<(notice: FleetInvalidation) => void>();
  /** Invalidations made while Redis was away, per server tag, replayed before it is used again. */
  private readonly pending = new Map<string, FleetInvalidation[]>();
  /** Reads of generation hashes in progress, per server tag. */
  private readonly generationReads = new Map<string, Promise<void>>();
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
    this.retainStaleMs = nonNegative('retainStaleMs', options.retainStaleMs, 0);
    this.maxEntryBytes = positive('maxEntryBytes', options.maxEntryBytes, 1024 * 1024);
    this.clock = options.clock ?? systemClock;
    this.wallClock = options.wallClock ?? systemWallClock;
    const timers = boundedTimers(options.timers);
    this.onError = options.onError ?? (() => {});
    this.local =
      options.localTier === undefined || options.localTier === false
        ? undefined
        : new LocalTier(options.localTier === true ? {} : options.localTier, this.clock, this.wallClock);

    this.withPttl = this.retainStaleMs > 0 || this.local !== undefined;
    this.ownsClient = client === undefined;
    const redis = client ?? ownedClient(connection as string | RedisOptions);
    this.link = new RedisLink(redis, timers, timeoutMs);
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
            {
              up: () => this.availability.up,
              failed: (error) => this.failed(error),
              entry: (read, key) => this.readBack(read, undefined, key),
            },
          );
    this.availability = new Availability(
      this.link.ready,
      timers,
      retryMs,
      () => this.recover(),
      (error) => this.report(unavailable(error)),
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
      message: (message) => this.heard(message),
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
    const left = entry.receivedAt + entry.ttlMs - this.clock.now();
    const px = Math.floor(left + this.retainStaleMs);
    if (px < 1) return true; // already stale and nothing retained: nothing to keep
    const text = encodeEntry({
      value: entry.value,
      expiresAt: entry.expiresAt ?? this.wallClock.now() + left,
      ttlMs: entry.ttlMs,
      scope: entry.scope,
      bytes: entry.bytes,
    });
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
    if (this.generations.has(serverTag) || !this.availability.up) return this.generations.fence(serverTag, method);
    return this.readGenerations(serverTag).then(() => this.generations.fence(serverTag, method));
  }

  /**
   * Tells the other caches of this process at once, writes a new generation token for the
   * covered methods, runs `removeEntries` (the cache's deletion of the covered entries) and
   * only then publishes the invalidation: another process that hears it and reads Redis finds
   * the entries gone, so its local tier cannot take an old one back. While Redis is away it is
   * kept and replayed (token, publish, and a `SCAN`/`UNLINK` of what it covers) before Redis is
   * used again.
   */
  async invalidated(notice: FleetInvalidation, removeEntries?: () => Promise<unknown>): Promise<void> {
    this.deliver(notice);
    const methods = methodsOf(notice.target);
    this.local?.dropServer(notice.serverTag, notice.target.kind === 'all' ? undefined : new Set(methods));
    if (!this.availability.up) {
      this.keep(notice);
      return;
    }
    try {
      await this.announce(notice, methods, removeEntries);
    } catch (error) {
      this.failed(error);
      this.keep(notice);
    }
  }

  onInvalidation(listener: (notice: FleetInvalidation) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
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
    this.listeners.clear();
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

  /** Reads the generation hash of a server once (concurrent callers share the read); never rejects. */
  private readGenerations(serverTag: string): Promise<void> {
    let pending = this.generationReads.get(serverTag);
    if (pending === undefined) {
      pending = this.link
        .hmget(this.names.generation(serverTag), CACHEABLE_METHODS)
        .then(
          (tokens) => this.generations.learnRead(serverTag, tokens),
          (error: unknown) => this.failed(error),
        )
        .finally(() => this.generationReads.delete(serverTag));
      this.generationReads.set(serverTag, pending);
    }
    return pending;
  }

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
    const entry = this.readBack(read, read.pttl, key);
    if (entry !== undefined && this.local !== undefined && this.subscribed) this.local.set(key, entry);
    return entry;
  }

  /**
   * What a `GET` of the entry under `key` brought back, as an entry; `undefined` for none. A
   * key of another Redis type, a text that is not an entry, or a result that fails the checks
   * the client runs on a server's (another writer's, a corrupted value) is a miss: reported as
   * `malformed-entry` and removed, so the next load replaces it.
   */
  private readBack(
    read: { text: string | null; wrongType: boolean },
    pttl: number | undefined,
    key: string,
  ): CacheEntry | undefined {
    if (read.wrongType) return this.malformed(key, 'holds a value of another Redis type (WRONGTYPE)');
    if (read.text === null) return undefined;
    const method = parseCacheKey(key)?.method;
    let problem: string | undefined;
    const stored: StoredEntry | undefined = decodeEntry(read.text, (value) => {
      problem = method === undefined ? undefined : recheckResult(method, value);
      return problem === undefined;
    });
    if (stored === undefined)
      return this.malformed(
        key,
        problem === undefined ? 'is not an mcp-live cache entry' : `holds a result that fails its checks (${problem})`,
      );
    return this.entryOf(stored, pttl);
  }

  /** Reports the entry under `key` as malformed and removes it; a miss. */
  private malformed(key: string, why: string): undefined {
    const redisKey = this.names.entry(key);
    this.report(
      new CacheStoreError(`Redis key ${redisKey} of this store ${why}; served as a miss and removed`, {
        operation: 'GET',
        reason: 'malformed-entry',
        key: redisKey,
      }),
    );
    this.local?.delete(key);
    this.link.unlink([redisKey]).catch((error: unknown) => this.failed(error));
    return undefined;
  }

  /**
   * An entry read from Redis, on this process's clock: its remaining freshness is the least of
   * the server's `ttlMs`, its wall-clock expiry and (with `retainStaleMs`) Redis's own `PTTL`.
   */
  private entryOf(stored: StoredEntry, pttl: number | undefined): CacheEntry {
    let left = Math.min(stored.ttlMs, stored.expiresAt - this.wallClock.now());
    if (pttl !== undefined && pttl >= 0) left = Math.min(left, pttl - this.retainStaleMs);
    return {
      value: stored.value,
      receivedAt: this.clock.now() - (stored.ttlMs - left),
      ttlMs: stored.ttlMs,
      scope: stored.scope,
      bytes: stored.bytes,
      expiresAt: stored.expiresAt,
    };
  }

  /**
   * Writes the new token (every later fenced write checks it), removes the covered entries when
   * given how, then publishes (a process that hears it finds them gone).
   */
  private async announce(
    notice: FleetInvalidation,
    methods: readonly string[],
    removeEntries?: () => Promise<unknown>,
  ): Promise<void> {
    const token = this.generations.next();
    await this.link.hset(this.names.generation(notice.serverTag), Object.fromEntries(methods.map((m) => [m, token])));
    this.generations.learn(notice.serverTag, methods, token);
    // The cache reports its own deletion failures; the notice goes out whatever happened.
    if (removeEntries !== undefined) await removeEntries().catch(() => undefined);
    await this.link.publish(this.names.channel, encodeNotice(this.generations.origin, token, methods, notice));
  }

  /** A message on the channel. */
  private heard(message: string): void {
    const decoded = decodeNotice(message);
    if (decoded === undefined) {
      this.report(new ProtocolError('not an mcp-live invalidation notice; ignored', { value: message.slice(0, 200) }));
      return;
    }
    if (decoded.origin === this.generations.origin) return; // our own, already delivered here
    this.generations.learn(decoded.notice.serverTag, decoded.methods, decoded.token);
    this.local?.dropServer(
      decoded.notice.serverTag,
      decoded.notice.target.kind === 'all' ? undefined : new Set(decoded.methods),
    );
    this.deliver(decoded.notice);
  }

  private deliver(notice: FleetInvalidation): void {
    for (const listener of this.listeners) {
      try {
        listener(notice);
      } catch (error) {
        this.report(error);
      }
    }
  }

  private keep(notice: FleetInvalidation): void {
    let list = this.pending.get(notice.serverTag);
    if (list === undefined) {
      list = [];
      this.pending.set(notice.serverTag, list);
    }
    if (list.length >= MAX_PENDING_PER_SERVER || notice.target.kind === 'all') {
      list.length = 0;
      list.push({ serverTag: notice.serverTag, target: { kind: 'all' } });
    } else if (list[0]?.target.kind !== 'all') {
      list.push(notice);
    }
  }

  /** The probe: PING, then replay what was invalidated while away; only then is Redis used again. */
  private async recover(): Promise<void> {
    await this.link.ping();
    for (const [tag, notices] of [...this.pending]) {
      for (const notice of [...notices]) {
        await this.announce(notice, methodsOf(notice.target));
        await this.link.unlink(await this.link.scan(this.names.pattern(coveredPrefix(notice))));
        notices.shift();
      }
      this.pending.delete(tag);
    }
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

/** The key prefix of everything an invalidation covers (for replays: a superset is fine). */
function coveredPrefix(notice: FleetInvalidation): string {
  const target = notice.target;
  if (target.kind === 'all') return keyPrefix(notice.serverTag);
  if (target.kind === 'uri') return keyPrefix(notice.serverTag, 'resources/read') + quoteJson(target.uri).slice(0, -1);
  return keyPrefix(notice.serverTag, target.method);
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

/** The error reported for an outage. */
function unavailable(error: unknown): CacheStoreError {
  if (error instanceof CacheStoreError) return error;
  if (error instanceof RedisTimeout)
    return new CacheStoreError(
      `Redis ${error.operation}: no answer within ${error.timeoutMs} ms; caching without Redis until it answers again`,
      { operation: error.operation, reason: 'timeout' },
      error,
    );
  const operation = error instanceof RedisFailure ? error.operation : 'command';
  const cause = error instanceof RedisFailure ? error.cause : error;
  const why = cause instanceof Error ? cause.message : String(cause);
  return new CacheStoreError(
    `Redis ${operation} failed (${why}); caching without Redis until it answers again`,
    { operation, reason: 'unreachable' },
    cause,
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
