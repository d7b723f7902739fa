/** Timeouts that are cleared together (a close sequence's steps, say). Node only (`unref`). */
import { clampTimerDelay } from './timerBounds.js';

/** See the file's opening comment. */
export class TimeoutSet {
  private readonly handles = new Set<NodeJS.Timeout>();

  /**
   * Calls `fn` after `ms` milliseconds (clamped to what `setTimeout` can wait) unless cleared
   * before. `unref`: the timeout alone does not keep the process alive.
   */
  after(ms: number, fn: () => void, unref = false): void {
    const handle = setTimeout(() => {
      this.handles.delete(handle);
      fn();
    }, clampTimerDelay(ms));
    if (unref) handle.unref();
    this.handles.add(handle);
  }

  /** Clears every timeout not run yet. */
  clear(): void {
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
  }
}
