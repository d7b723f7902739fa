/**
 * How a response cache forgets (spec: server/utilities/caching): each invalidation moves a
 * generation (list walks compare them), marks the loads in flight it covers so that their results
 * are returned but not stored, tells a fleet store first (which refuses writes fenced before it)
 * and hears back the invalidations of other processes, deletes the matching entries, and emits
 * one `invalidate` event.
 */
import type { MaybePromise } from '../util/maybePromise.js';
import { isPromise } from '../util/maybePromise.js';
import type { CacheKeyParts } from './cacheKey.js';
import type { CacheStore } from './cacheStore.js';
import type { CacheEntries } from './entries.js';
import type { FleetInvalidation } from './fleet.js';
import type { InFlight, InFlightLoads } from './inFlight.js';
import type { CacheReporter } from './reporter.js';
import type { InvalidateTarget } from './types.js';

/** What {@link Invalidations} works on: the cache's store, loads, entries and reports. */
export interface InvalidationDeps {
  readonly store: CacheStore;
  /** The server tag every key of the cache carries. */
  readonly serverTag: string;
  readonly loads: InFlightLoads;
  readonly entries: CacheEntries;
  readonly reporter: CacheReporter;
}

/** One cache's invalidations (see the file's opening comment). */
export class Invalidations {
  /** Invalidation generations: all, per method, per method + partition (walks compare their sum). */
  private all = 0;
  private readonly byMethod = new Map<string, number>();
  private readonly byPartition = new Map<string, number>();
  /** Marks this cache's own invalidations when the store passes them back. */
  private readonly origin = {};

  constructor(private readonly deps: InvalidationDeps) {}

  /** The generation walks compare: all, per method, per method and auth context, summed. */
  generation(method: string, dedupeTag: string): number {
    return this.all + (this.byMethod.get(method) ?? 0) + (this.byPartition.get(`${method}\u0000${dedupeTag}`) ?? 0);
  }

  /**
   * One invalidation: counted, its generation moved and matching loads in flight marked (their
   * results are not stored), a fleet store told, matching entries deleted, one `invalidate` event.
   */
  run(
    target: InvalidateTarget,
    prefix: string,
    matchKey: (parts: CacheKeyParts) => boolean,
    partition: string | undefined,
  ): Promise<number> {
    this.deps.reporter.counters.invalidations++;
    this.mark(target, partition);
    let removed: Promise<number> | undefined;
    // Once: either the store runs it between its new token and its notice, or it runs after.
    const enumerate = (): Promise<number> =>
      (removed ??= this.deps.entries.deleteMatching(prefix, matchKey, (count) => {
        if (this.deps.reporter.onEvent !== undefined)
          this.deps.reporter.emit({ type: 'invalidate', target, removed: count });
        return count;
      }));
    let told: MaybePromise<void> = undefined;
    if (this.deps.store.invalidated !== undefined) {
      // A fleet store moves the fleet's generation (refusing writes fenced before now) before the entries go.
      try {
        told = this.deps.store.invalidated(
          {
            serverTag: this.deps.serverTag,
            target,
            ...(partition !== undefined && { partition }),
            origin: this.origin,
          },
          enumerate,
        );
      } catch (error) {
        this.deps.reporter.report(error);
      }
    }
    if (!isPromise(told)) return enumerate();
    return told.then(enumerate, (error: unknown) => {
      this.deps.reporter.report(error);
      return enumerate();
    });
  }

  /** An invalidation made by another cache on a fleet store: keep what is in flight here from being stored. */
  fromFleet(notice: FleetInvalidation): void {
    if (notice.origin === this.origin || notice.serverTag !== this.deps.serverTag) return;
    this.mark(notice.target, notice.partition);
  }

  /**
   * Moves the generation an invalidation covers (walks compare generations) and marks the loads
   * in flight it covers, so that their results are returned but not stored. `partition` is the
   * dedupe tag of a `list`/`current` invalidation.
   */
  private mark(target: InvalidateTarget, partition: string | undefined): void {
    let covers: (record: InFlight) => boolean;
    switch (target.kind) {
      case 'all':
        this.all++;
        covers = () => true;
        break;
      case 'uri':
        covers = (record) => record.method === 'resources/read' && isUnder(record.param, target.uri);
        break;
      default: {
        const method = target.method;
        if (target.kind === 'list' && target.authContext === 'current' && partition !== undefined) {
          this.bump(this.byPartition, `${method}\u0000${partition}`);
          covers = (record) => record.method === method && record.dedupeTag === partition;
        } else {
          this.bump(this.byMethod, method);
          covers = (record) => record.method === method;
        }
      }
    }
    this.deps.loads.invalidate(covers);
  }

  private bump(map: Map<string, number>, key: string): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
}

/** True for `uri` itself and the uris under it (`uri + "/..."`). */
export function isUnder(param: string | null, uri: string): boolean {
  return param !== null && (param === uri || param.startsWith(`${uri}/`));
}
