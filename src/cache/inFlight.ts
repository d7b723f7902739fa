/**
 * The loads a response cache has in flight: one per key and auth context, shared by every
 * caller that asks meanwhile (each caller's abort ends only its own wait; the load is aborted
 * when its last waiter leaves, unless it is a background refresh), and marked when an
 * invalidation matches them so that their result is returned but not stored.
 */
import { abortedError } from '../errors/errors.js';
import type { Settled } from './listWalk.js';

/** One request in flight, shared by every caller with the same key and partition. */
export interface InFlight {
  readonly dedupeKey: string;
  readonly method: string;
  readonly param: string | null;
  readonly dedupeTag: string;
  readonly controller: AbortController;
  /** Background refreshes are never aborted by their joiners. */
  readonly pinned: boolean;
  /** Walk pages: the walk's commit stores them, not the load. */
  readonly deferStore: boolean;
  waiters: number;
  /** The store's fence (fleet stores), taken before the load was sent (a promise until it is known). */
  fence: unknown;
  /** Set when an invalidation matched while in flight: the result is returned but not stored. */
  invalidated: boolean;
  promise: Promise<Settled>;
}

/** What identifies a load when it starts. */
export type InFlightInit = Pick<
  InFlight,
  'dedupeKey' | 'method' | 'param' | 'dedupeTag' | 'pinned' | 'deferStore' | 'fence'
>;

/** The cache's loads in flight (see the file's opening comment). */
export class InFlightLoads {
  /** Loads that callers may still join, by dedupe key. */
  private readonly byKey = new Map<string, InFlight>();
  /** Every load not settled yet, joinable or not: invalidations mark them. */
  private readonly active = new Set<InFlight>();

  /** The joinable load of `dedupeKey`, if one runs. */
  get(dedupeKey: string): InFlight | undefined {
    return this.byKey.get(dedupeKey);
  }

  has(dedupeKey: string): boolean {
    return this.byKey.has(dedupeKey);
  }

  /**
   * Registers a load; the caller sets its `promise`, and calls {@link finish} when it settles.
   * Its controller's signal is what the load runs under.
   */
  start(init: InFlightInit): InFlight {
    const record: InFlight = {
      ...init,
      controller: new AbortController(),
      waiters: 0,
      invalidated: false,
      promise: undefined as unknown as Promise<Settled>,
    };
    this.byKey.set(init.dedupeKey, record);
    this.active.add(record);
    return record;
  }

  /** The load settled: nobody joins it any more. */
  finish(record: InFlight): void {
    if (this.byKey.get(record.dedupeKey) === record) this.byKey.delete(record.dedupeKey);
    this.active.delete(record);
  }

  /** Makes this caller wait for a shared load; its own abort only ends its own wait. */
  wait(record: InFlight, signal: AbortSignal | undefined, method: string): Promise<Settled> {
    record.waiters++;
    if (signal === undefined) return record.promise;
    return new Promise<Settled>((resolve, reject) => {
      const onAbort = (): void => {
        record.waiters--;
        reject(abortedError(method, signal.reason));
        if (record.waiters === 0 && !record.pinned) {
          if (this.byKey.get(record.dedupeKey) === record) this.byKey.delete(record.dedupeKey);
          record.controller.abort(signal.reason);
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      record.promise.then(
        (settled) => {
          signal.removeEventListener('abort', onAbort);
          resolve(settled);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  /** Marks every load `match` accepts as invalidated: its result will not be stored, and nobody joins it. */
  invalidate(match: (record: InFlight) => boolean): void {
    for (const record of this.active) {
      if (!match(record)) continue;
      record.invalidated = true;
      if (this.byKey.get(record.dedupeKey) === record) this.byKey.delete(record.dedupeKey);
    }
  }

  /** Aborts the background refreshes with `reason` (the cache is disposed). */
  abortPinned(reason: unknown): void {
    for (const record of this.active) if (record.pinned) record.controller.abort(reason);
  }
}
