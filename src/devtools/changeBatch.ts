/**
 * Changes gathered for a viewer and handed over in batches: at most one batch per `intervalMs`,
 * the newer change replacing an older one of the same thing (the servers, the catalog, the
 * approvals; one request by its id), since every change carries the whole new value. A timer
 * runs only while a batch waits.
 */
import type { TimerHandle, Timers } from '../util/clock.js';
import type { DevtoolsChange } from './snapshot.js';

/** What one change replaces: the same key, newer value. */
function keyOf(change: DevtoolsChange): string {
  return change.type === 'request' ? `request:${change.request.id}` : change.type;
}

/** The recorder's changes for the pages, batched and coalesced. */
export class ChangeBatch {
  private readonly waiting = new Map<string, DevtoolsChange>();
  /** Set while a batch waits. */
  private timer: TimerHandle;
  private timing = false;

  /**
   * @param intervalMs the longest a change waits, in ms.
   * @param flush receives each batch, in the order the kept changes first came.
   */
  constructor(
    private readonly intervalMs: number,
    private readonly timers: Timers,
    private readonly flush: (changes: DevtoolsChange[]) => void,
  ) {}

  add(change: DevtoolsChange): void {
    const key = keyOf(change);
    // A newer value of the same thing keeps the older one's place.
    this.waiting.set(key, change);
    if (this.timing) return;
    this.timing = true;
    this.timer = this.timers.setTimeout(() => this.send(), this.intervalMs);
  }

  /** Drops what waits and the timer. */
  clear(): void {
    if (this.timing) this.timers.clearTimeout(this.timer);
    this.timing = false;
    this.waiting.clear();
  }

  private send(): void {
    this.timing = false;
    const changes = [...this.waiting.values()];
    this.waiting.clear();
    if (changes.length > 0) this.flush(changes);
  }
}
