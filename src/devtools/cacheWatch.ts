/**
 * Follows the host's cache entries for the devtools' listeners at a bounded rate: while
 * started, the entries are read again once every {@link CACHE_REFRESH_MS}, or sooner (at most
 * one read every {@link CACHE_MIN_GAP_MS}) when something is likely to have changed them (a
 * cacheable request ended, an action), and a reading that differs from the last is handed on.
 * Stopped, it reads nothing and keeps nothing.
 */
import type { Timers, TimerHandle } from '../util/clock.js';
import type { DevtoolsCacheEntry } from './snapshot.js';

/** How often the entries are read again while someone listens, in ms. */
export const CACHE_REFRESH_MS = 1000;
/** The shortest wait between two readings, in ms. */
export const CACHE_MIN_GAP_MS = 200;

/** What a {@link CacheWatch} borrows. */
export interface CacheWatchDeps {
  /** Reads every server's entries now. */
  read(): Promise<DevtoolsCacheEntry[]>;
  /** Told of each reading that differs from the last. */
  changed(entries: DevtoolsCacheEntry[]): void;
  timers: Timers;
}

/** See the file's opening comment. */
export class CacheWatch {
  /** The last reading (empty while stopped). */
  latest: DevtoolsCacheEntry[] = [];
  private latestText = '[]';
  private started = false;
  private timer: TimerHandle = undefined;
  private reading = false;
  /** A read was asked for while one ran. */
  private again = false;
  /** The pending timer is a short one (a first reading or a soon), not the periodic one. */
  private pendingShort = false;

  constructor(private readonly deps: CacheWatchDeps) {}

  /** Starts following: a first reading at once. Idempotent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops following, and forgets the last reading. Idempotent. */
  stop(): void {
    this.started = false;
    this.clear();
    this.again = false;
    this.latest = [];
    this.latestText = '[]';
  }

  /** Reads again soon (within {@link CACHE_MIN_GAP_MS}), while started. */
  soon(): void {
    if (!this.started) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.schedule(CACHE_MIN_GAP_MS);
  }

  /** Takes a reading made elsewhere (a snapshot read it): kept while started, handed on if it differs. */
  take(entries: DevtoolsCacheEntry[]): void {
    if (!this.started) return;
    const text = JSON.stringify(entries);
    if (text === this.latestText) return;
    this.latest = entries;
    this.latestText = text;
    this.deps.changed(entries);
  }

  private clear(): void {
    if (this.timer === undefined) return;
    this.deps.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The next reading in `ms`; a short wait (a soon) already pending is kept. */
  private schedule(ms: number): void {
    const short = ms <= CACHE_MIN_GAP_MS;
    if (this.timer !== undefined && this.pendingShort && short) return;
    this.clear();
    this.pendingShort = short;
    this.timer = this.deps.timers.setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, ms);
  }

  private async run(): Promise<void> {
    if (!this.started) return;
    this.reading = true;
    try {
      this.take(await this.deps.read());
    } catch {
      // A store that cannot be listed now is listed at the next reading.
    } finally {
      this.reading = false;
    }
    if (!this.started) return;
    const again = this.again;
    this.again = false;
    this.schedule(again ? CACHE_MIN_GAP_MS : CACHE_REFRESH_MS);
  }
}
