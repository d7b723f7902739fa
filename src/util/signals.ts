import type { Timers } from './clock.js';
import { boundedTimers } from './timerBounds.js';

/**
 * Waits `ms` milliseconds on the given timers, or rejects with `signal.reason` as soon as the
 * signal aborts. The timer is cleared either way. A delay beyond what one `setTimeout` holds is
 * waited in full (see `boundedTimers`).
 */
export function abortableDelay(ms: number, given: Timers, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  const timers = boundedTimers(given);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      timers.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** One signal that aborts when any of `signals` does (with its reason); `dispose()` detaches it. */
export function linkSignals(...signals: Array<AbortSignal | undefined>): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const listeners: Array<[AbortSignal, () => void]> = [];
  for (const signal of signals) {
    if (signal === undefined) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const listener = (): void => controller.abort(signal.reason);
    signal.addEventListener('abort', listener, { once: true });
    listeners.push([signal, listener]);
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const [signal, listener] of listeners) signal.removeEventListener('abort', listener);
    },
  };
}
