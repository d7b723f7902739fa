/**
 * The bound of a `close()`: how long the caller waits for the clean-up (a server process to
 * exit, a close handshake). Past it `close()` rejects; the clean-up itself goes on.
 */
import { TimeoutError, abortedError } from '../errors/errors.js';
import type { TimerHandle, Timers } from '../util/clock.js';
import { boundedTimers } from '../util/timerBounds.js';

/** Options of `McpClient.close()` and `McpHost.close()`. */
export interface CloseOptions {
  /** Stops waiting when it aborts; `close()` then rejects as a call does (`CancelledError`, or `TimeoutError` for `AbortSignal.timeout()`). */
  signal?: AbortSignal | undefined;
  /** Longest wait for the clean-up, in ms; `close()` then rejects with `TimeoutError` (-32001, method `close`). @default no bound */
  timeoutMs?: number | undefined;
}

/** `work`, or a rejection once `options` say the caller stops waiting (`work` is left to finish; its failure is dropped then). */
export function boundedWait(
  work: Promise<void>,
  method: string,
  options: CloseOptions,
  timers: Timers | undefined,
): Promise<void> {
  const { signal, timeoutMs } = options;
  if (signal === undefined && (timeoutMs === undefined || timeoutMs === Infinity)) return work;
  const bounded = boundedTimers(timers);
  return new Promise<void>((resolve, reject) => {
    let handle: TimerHandle;
    const finish = (): void => {
      signal?.removeEventListener('abort', onAbort);
      if (handle !== undefined) bounded.clearTimeout(handle);
    };
    const onAbort = (): void => {
      finish();
      work.catch(() => {});
      reject(abortedError(method, signal?.reason));
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined && timeoutMs !== Infinity)
      handle = bounded.setTimeout(() => {
        finish();
        work.catch(() => {});
        reject(new TimeoutError({ method, timeoutMs, kind: 'total' }));
      }, timeoutMs);
    work.then(
      () => {
        finish();
        resolve();
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
  });
}
