/**
 * Single-flight across a fleet for cold public entries: one instance takes a short lock
 * (`SET NX PX`) and loads; the others poll for the entry it stores, and load themselves if the
 * lock goes away without an entry (a private or unstorable result, a failure) or `lockMs` runs
 * out. Off by default: it turns a burst of identical cold requests into one, at the price of a
 * lock round trip on every cold miss and up to `pollMs` of extra latency for the waiters.
 */
import type { Clock, Timers } from '../../util/clock.js';
import { abortableDelay } from '../../util/signals.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import type { CacheEntry } from '../types.js';
import type { FlightTicket } from '../fleet.js';
import type { Generations } from './generations.js';
import type { RedisKeys } from './redisKeys.js';
import { luaScript, type RedisLink } from './redisLink.js';

/** Options of single-flight (`RedisCacheStoreOptions.singleFlight`). */
export interface SingleFlightOptions {
  /** How long the lock lives, and the longest a waiter waits, in ms. @default 2000 */
  lockMs?: number | undefined;
  /** How often a waiter looks for the leader's entry, in ms. @default 10 */
  pollMs?: number | undefined;
}

/** KEYS: lock; ARGV: token. Deletes the lock only if it is still this holder's. */
const RELEASE_LOCK = luaScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

/** What single-flight needs from its store. */
export interface FlightDeps {
  up(): boolean;
  failed(error: unknown): void;
  /** The entry under `key` as read back, on this process's clock; `undefined` for none or a malformed one. */
  entry(read: { text: string | null; wrongType: boolean }, key: string): CacheEntry | undefined;
}

export class SingleFlight {
  private readonly lockMs: number;
  private readonly pollMs: number;

  /** @throws InvalidArgumentError (-32602) when `lockMs` or `pollMs` is not a positive number. */
  constructor(
    options: SingleFlightOptions,
    private readonly link: RedisLink,
    private readonly keys: RedisKeys,
    private readonly timers: Timers,
    private readonly clock: Clock,
    private readonly generations: Generations,
    private readonly hooks: FlightDeps,
  ) {
    this.lockMs = positive('singleFlight.lockMs', options.lockMs, 2000);
    this.pollMs = positive('singleFlight.pollMs', options.pollMs, 10);
  }

  /** Leads (lock taken), finds the leader's entry, or gives up (`undefined`: load without coordination). */
  async take(key: string, signal: AbortSignal): Promise<FlightTicket | undefined> {
    const lock = this.keys.lock(key);
    const token = this.generations.next();
    try {
      if (await this.link.setIfAbsent(lock, token, Math.ceil(this.lockMs)))
        return { release: () => void this.link.eval(RELEASE_LOCK, [lock], [token]).catch(() => {}) };
    } catch (error) {
      this.hooks.failed(error);
      return undefined;
    }
    const deadline = this.clock.now() + this.lockMs;
    const entryKey = this.keys.entry(key);
    while (this.clock.now() < deadline && this.hooks.up()) {
      try {
        await abortableDelay(this.pollMs, this.timers, signal);
      } catch {
        return undefined; // every waiter gave up: the load will see its aborted signal
      }
      let read: { text: string | null; wrongType: boolean; locked: boolean };
      try {
        read = await this.link.readWithLock(entryKey, lock);
      } catch (error) {
        this.hooks.failed(error);
        return undefined;
      }
      const entry = this.hooks.entry(read, key);
      if (entry !== undefined && this.clock.now() < entry.receivedAt + entry.ttlMs) return { entry };
      if (!read.locked) return undefined;
    }
    return undefined;
  }
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError(name, value, 'expected a positive number of milliseconds');
  return value;
}
