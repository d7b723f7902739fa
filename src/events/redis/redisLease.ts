/**
 * A lease in Redis so that one worker of a fleet consumes a subscription at a time, and another
 * takes over within the lease when the first dies (mcp-live/redis). The lease is one key,
 * `<prefix>events:lease:<sha256 of the name>`, holding the owner's random id with a TTL: taken
 * with `SET NX PX`, renewed and released only by its owner (a Lua check-and-set), so a worker
 * whose lease lapsed can never renew or release another's.
 */
import type { Redis, Cluster } from 'ioredis';
import { sha256Hex } from '../../util/sha256.js';
import { abortableDelay } from '../../util/signals.js';
import { systemTimers, type Timers } from '../../util/clock.js';
import type { EventLease } from '../lease.js';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Options of {@link RedisLease}. */
export interface RedisLeaseOptions {
  /** An ioredis connection the host owns (never closed here). */
  client: Redis | Cluster;
  /** What the lease is of: a subscription's cursor key (`client.events.cursorKey(name, args)`), or any name. */
  name: string;
  /** How long the lease lasts without a renewal, in ms; renewed every third of it. @default 10000 */
  ttlMs?: number | undefined;
  /** This worker's id. @default a random one */
  owner?: string | undefined;
  /** What every key starts with. @default "mcp-live:" */
  prefix?: string | undefined;
  timers?: Timers | undefined;
}

/** One worker's side of a lease (see the file's opening comment). */
export class RedisLease implements EventLease {
  /** This worker's id, the value the key holds while it owns the lease. */
  readonly owner: string;
  readonly ttlMs: number;
  private readonly key: string;
  private readonly timers: Timers;

  constructor(private readonly options: RedisLeaseOptions) {
    this.owner = options.owner ?? globalThis.crypto.randomUUID();
    this.ttlMs = Math.max(100, options.ttlMs ?? 10_000);
    this.key = `${options.prefix ?? 'mcp-live:'}events:lease:${sha256Hex(options.name)}`;
    this.timers = options.timers ?? systemTimers;
  }

  /** Takes the lease if it is free (or renews it if it is already ours); true when this worker holds it. */
  async acquire(): Promise<boolean> {
    const taken = await this.options.client.set(this.key, this.owner, 'PX', this.ttlMs, 'NX');
    return taken === 'OK' || (await this.renew());
  }

  /** Extends the lease by `ttlMs` when this worker still holds it; false when it lapsed. */
  async renew(): Promise<boolean> {
    return (await this.options.client.eval(RENEW, 1, this.key, this.owner, String(this.ttlMs))) === 1;
  }

  /** Gives the lease up (only if it is still this worker's). */
  async release(): Promise<void> {
    await this.options.client.eval(RELEASE, 1, this.key, this.owner);
  }

  /**
   * Waits until this worker holds the lease (trying every third of `ttlMs`), runs `work` with a
   * signal that aborts when the lease is lost (a renewal that fails or finds it taken) or `signal`
   * aborts, renews it meanwhile, and releases it when `work` ends. Resolves with `work`'s result;
   * rejects with `signal.reason` when `signal` aborts before the lease is held.
   */
  async hold<T>(work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const every = Math.max(50, Math.floor(this.ttlMs / 3));
    while (!(await this.acquire())) await abortableDelay(every, this.timers, signal);
    const held = new AbortController();
    const stop = (): void => held.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    let timer: unknown;
    const renewLater = (): void => {
      timer = this.timers.setTimeout(() => {
        this.renew().then(
          (ours) => (ours ? renewLater() : held.abort(new Error('lease lost'))),
          (error: unknown) => held.abort(error),
        );
      }, every);
    };
    renewLater();
    try {
      return await work(held.signal);
    } finally {
      this.timers.clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      await this.release().catch(() => undefined); // owner-checked: never frees a lease another took
    }
  }
}
