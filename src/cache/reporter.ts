/**
 * What a response cache tells the host: its counters, its events (to `onEvent`, synchronously)
 * and its non-fatal problems (to `onError`). A throwing `onEvent` is reported to `onError`; a
 * throwing `onError` is ignored, so reporting never breaks the cache.
 */
import type { CacheEvent, CacheStats, SkipReason } from './types.js';

/** One cache's counters and reports (see the file's opening comment). */
export class CacheReporter {
  /** Counted as the cache works; `stats()` hands out copies. */
  readonly counters: CacheStats = {
    hits: 0,
    misses: 0,
    staleServes: 0,
    evictions: 0,
    stores: 0,
    invalidations: 0,
  };

  /**
   * @param onEvent the host's listener; callers check it is set before they build an event
   * @param onError the host's error sink
   */
  constructor(
    readonly onEvent: ((event: CacheEvent) => void) | undefined,
    private readonly onError: (error: Error) => void,
  ) {}

  emit(event: CacheEvent): void {
    try {
      this.onEvent?.(event);
    } catch (error) {
      this.report(error);
    }
  }

  report(error: unknown): void {
    try {
      this.onError(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // a throwing onError must not break the cache
    }
  }

  /** Reports that a result was not stored, and why; returns false (for `return skip(...)`). */
  skip(method: string, param: string | null, reason: SkipReason): false {
    if (this.onEvent !== undefined) this.emit({ type: 'skip', method, param, reason });
    return false;
  }
}
