import type { Timers } from './clock.js';

/**
 * Waits `ms` milliseconds on the given timers, or rejects with `signal.reason` as soon as the
 * signal aborts. The timer is cleared either way.
 */
export function abortableDelay(ms: number, timers: Timers, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
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
