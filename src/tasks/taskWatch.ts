/**
 * Push for one task (spec: ext-tasks, Task Status Notifications): a `subscriptions/listen` with
 * `taskIds: [taskId]`, turned into the driver's `wait` hook. While the stream is up and the
 * server honoured the id, a wait lasts until a `notifications/tasks` arrives (or the backstop);
 * while it is down or was never honoured, waits are the polling intervals. A server pushes only
 * the changes after its acknowledgement, so once it comes the task is looked at again at once:
 * a change between the last look and the acknowledgement is never pushed.
 */
import type { Subscription, SubscribeOptions, SubscriptionEvent } from '../subscriptions/types.js';
import type { SubscriptionFilter } from '../wire/protocol.js';
import type { TimerHandle, Timers } from '../util/clock.js';
import type { DetailedTask } from '../wire/tasks.js';

/** What a watch needs: the client's `subscribe`. */
export interface TaskWatchDeps {
  subscribe(filter: SubscriptionFilter, options: SubscribeOptions): Promise<Subscription>;
  timers: Timers;
  /** The longest wait while push is up, in ms. */
  backstopMs: number;
  /**
   * Told when push will not come: the listen request failed (`error`), or the server did not
   * honour the id (`undefined`); later tasks need not ask again.
   */
  refused(error: unknown): void;
}

/** The driver's `wait` hook over push, with `close()` for when the task is done. */
export interface TaskWatch {
  /** Whether pushed snapshots are arriving (the stream is up and the server honoured the id). */
  readonly live: boolean;
  /** See `TaskDriverDeps.wait`. Rejects with `signal.reason` when it aborts. */
  wait(ms: number, signal: AbortSignal): Promise<DetailedTask | undefined>;
  /** Closes the subscription; idempotent. */
  close(): void;
}

/** Opens push for `taskId` (in the background: waits poll until the server acknowledges). */
export function openTaskWatch(taskId: string, deps: TaskWatchDeps): TaskWatch {
  let live = false;
  let closed = false;
  let subscription: Subscription | undefined;
  let latest: DetailedTask | undefined;
  let wake: ((task: DetailedTask | undefined) => void) | undefined;
  /** Acknowledged while no wait was in progress: the next wait looks at once. */
  let lookNow = false;

  const poke = (task: DetailedTask | undefined) => {
    if (task !== undefined) latest = task;
    const resume = wake;
    wake = undefined;
    if (resume === undefined) return;
    lookNow = false;
    const pushed = latest;
    latest = undefined;
    resume(pushed);
  };

  const onEvent = (event: SubscriptionEvent) => {
    switch (event.type) {
      case 'taskStatus':
        if (event.task.taskId === taskId) poke(event.task);
        return;
      case 'subscriptionLost':
        // Poll now, and keep polling until the stream is back.
        live = false;
        poke(undefined);
        return;
      case 'resync':
        live = event.honoured.taskIds?.includes(taskId) === true;
        poke(undefined); // notifications may have been missed: look now
        return;
      default:
        return;
    }
  };

  deps.subscribe({ taskIds: [taskId] }, { onEvent }).then(
    (opened) => {
      subscription = opened;
      if (closed) {
        void opened.close();
        return;
      }
      live = opened.honoured.taskIds?.includes(taskId) === true;
      if (live) {
        // What changed before the acknowledgement was not pushed (nor seen, if the last look
        // came earlier): look now; later waits last until a push or the backstop.
        lookNow = true;
        poke(undefined);
      } else {
        // Not honoured: nothing will come; polling it is.
        void opened.close();
        subscription = undefined;
        deps.refused(undefined);
        return;
      }
      void opened.closed.then(() => {
        live = false;
        poke(undefined);
      });
    },
    (error: unknown) => {
      live = false;
      if (!closed) deps.refused(error);
    },
  );

  return {
    get live() {
      return live;
    },
    wait(ms, signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (latest !== undefined) {
        const pushed = latest;
        latest = undefined;
        return Promise.resolve(pushed);
      }
      if (lookNow) {
        lookNow = false;
        return Promise.resolve(undefined);
      }
      const delay = live ? Math.max(ms, deps.backstopMs) : ms;
      return new Promise<DetailedTask | undefined>((resolve, reject) => {
        let handle: TimerHandle;
        const finish = () => {
          if (handle !== undefined) deps.timers.clearTimeout(handle);
          signal.removeEventListener('abort', onAbort);
          if (wake === resume) wake = undefined;
        };
        const resume = (task: DetailedTask | undefined) => {
          finish();
          resolve(task);
        };
        const onAbort = () => {
          finish();
          reject(signal.reason);
        };
        wake = resume;
        handle = deps.timers.setTimeout(() => resume(undefined), delay);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    close() {
      if (closed) return;
      closed = true;
      live = false;
      const opened = subscription;
      subscription = undefined;
      if (opened !== undefined) void opened.close();
    },
  };
}
