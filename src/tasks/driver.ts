/**
 * The task loop (spec: ext-tasks, Task Polling, Task Update Requests, Task Cancellation) as a
 * pure function over hooks: it never touches a transport, a store or a clock it was not given.
 */
import { InvalidArgumentError, ProtocolError, TimeoutError, type McpError } from '../errors/errors.js';
import { abortError } from '../inputRequired/errors.js';
import type { InputRequest, InputResponse } from '../wire/protocol.js';
import { systemClock, type Clock, type TimerHandle, type Timers } from '../util/clock.js';
import { boundedTimers } from '../util/timerBounds.js';
import type { MaybePromise } from '../util/maybePromise.js';
import { retry } from '../resilience/retry.js';
import { TaskAbandonedError, TaskExpiredError, type TaskAbandonReason } from './errors.js';
import { DEFAULT_TASK_POLL_RETRY, type ResolvedTaskPollRetry } from './pollRetry.js';
import { isTransientPollError, retryAfterOf } from './pollFailure.js';
import { isTerminalStatus } from '../wire/taskShape.js';
import { taskExpiresAt } from '../wire/taskState.js';
import { resolveTaskPoll, type TaskPollPolicy } from './options.js';
import type { DetailedTask, InputRequiredTask, Task, TerminalTask } from '../wire/tasks.js';

/** What the loop asks of its caller. Every hook gets the loop's signal and should honour it. */
export interface TaskDriverDeps {
  /** `tasks/get`: the task as it is now. */
  get(signal: AbortSignal): Promise<DetailedTask>;
  /**
   * Waits about `ms` before the next look. Resolves early with a snapshot the server pushed
   * (`notifications/tasks`), or with `undefined` to poll now (after the wait, or when the push
   * channel went down).
   */
  wait(ms: number, signal: AbortSignal): Promise<DetailedTask | undefined>;
  /**
   * Answers new input requests (all at once, keys kept), usually through the host's handlers.
   * Absent: the loop does not answer input itself (manual mode); it keeps looking until someone
   * else sends `tasks/update`.
   */
  fulfil?:
    | ((inputRequests: Record<string, InputRequest>, signal: AbortSignal) => Promise<Record<string, InputResponse>>)
    | undefined;
  /** `tasks/update` with `inputResponses`; needed with `fulfil`. */
  update?: ((inputResponses: Record<string, InputResponse>, signal: AbortSignal) => Promise<void>) | undefined;
  /**
   * `tasks/cancel`, sent when the caller's signal aborts; never awaited by the loop (its
   * failure is the hook's to report).
   */
  cancel(): void;
}

/** What the loop reports as answers move from the handlers to the server, for a durable record. */
export type TaskAnswerEvent =
  /** Answers given by `fulfil` and about to be sent; not acknowledged yet. */
  | { type: 'pending'; responses: Record<string, InputResponse> }
  /** `tasks/update` acknowledged these keys (or the server stopped listing them after we sent them). */
  | { type: 'delivered'; keys: string[] };

/** Options of {@link driveTask}. */
export interface DriveTaskOptions {
  /** The request the task runs, for errors: `tools/call`. */
  method: string;
  /** Where to start: a `CreateTaskResult` (seed) or a `tasks/get` snapshot. */
  first: Task | DetailedTask;
  /** Whether `first` carries its status's payload (a snapshot) or not (a seed, which is looked at again when not `working`). */
  firstIsDetailed: boolean;
  hooks: TaskDriverDeps;
  /** The caller's signal: when it aborts the task is cancelled (`hooks.cancel`) and the loop rejects with `CancelledError`. */
  signal?: AbortSignal | undefined;
  /**
   * Stops the loop without cancelling the task (the client closed): rejects with a
   * `TaskAbandonedError` (`reason: "closed"`, `cause` the stop reason).
   */
  stop?: AbortSignal | undefined;
  /**
   * A total budget on `clock`: past `at` the loop stops following, leaving the task running, and
   * rejects with a `TaskAbandonedError` (`reason: "deadline"`, `cause` a `TimeoutError` of
   * `kind: "total"`).
   */
  deadline?: { at: number; totalTimeoutMs: number } | undefined;
  /**
   * How failed `hooks.get` polls are retried; the backoff between them runs on the global
   * timers (p-retry), not on `timers`. @default DEFAULT_TASK_POLL_RETRY
   */
  pollRetry?: ResolvedTaskPollRetry | undefined;
  /**
   * Told once per field and run when a server's interval lies outside the policy's range, with a
   * `ProtocolError` (-32600) naming the field, the value as sent and the value used.
   */
  onOutOfRange?: ((error: ProtocolError) => void) | undefined;
  /** Monotonic clock for `deadline`. @default performance.now */
  clock?: Clock | undefined;
  /** Timers for the deadline. @default the globals */
  timers?: Timers | undefined;
  /** Wall clock (epoch ms) for the task's `createdAt + ttlMs`. @default Date.now */
  now?: (() => number) | undefined;
  /** Unset fields take {@link DEFAULT_TASK_POLL}. */
  poll?: Partial<TaskPollPolicy> | undefined;
  /**
   * Keys already answered for this task's lifetime (shared: the loop adds to it, and so may a
   * host that answers by hand); their requests are never answered again.
   */
  answered: Set<string>;
  /** Answers given but not acknowledged (a record resumed after a dropped connection). */
  pending?: Record<string, InputResponse> | undefined;
  /** Every snapshot that differs from the previous one (status, `statusMessage` or `lastUpdatedAt`). */
  onSnapshot?: ((task: Task | DetailedTask) => void) | undefined;
  /** Answers moving to the server; awaited, so a durable record is written before `tasks/update` goes out. */
  onAnswers?: ((event: TaskAnswerEvent) => MaybePromise<void>) | undefined;
}

/**
 * Follows a task until it reaches a terminal status, and resolves with that snapshot
 * (`completed` with `result`, `failed` with `error`, or `cancelled`); turning it into a result
 * or an error is the caller's business.
 *
 * - Looks at the task with `hooks.get` after each `hooks.wait` (the {@link TaskPollPolicy}
 *   interval, or sooner when a pushed snapshot arrives).
 * - `input_required`: the requests whose keys were never answered go to `hooks.fulfil`, then
 *   `hooks.update`; each key is answered once for the task's lifetime (spec: keys are unique over
 *   it). Answers given but not acknowledged (`pending`) are sent again, not asked again, while
 *   the server still lists their keys.
 * - Never waits past the task's `createdAt + ttlMs` (the last look is at that instant, even
 *   when the server asks for a longer `pollIntervalMs`), and gives up once the wall clock
 *   passes it with the task not terminal.
 *
 * - A `hooks.get` that fails transiently ({@link isTransientPollError}) is tried again after the
 *   `pollRetry` backoff (or the server's `Retry-After`), up to `pollRetry.retries` failures in
 *   a row; each poll is bounded by the hook itself (the request's `timeoutMs`), never the task.
 *
 * @throws CancelledError (-32800) when `signal` aborts (and `hooks.cancel()` runs once), or
 *   TimeoutError (-32001, `kind: "signal"`) when its reason is a timeout.
 * @throws TaskAbandonedError (-33033, `resumable: true`, the task left running) when `deadline`
 *   passes, `stop` aborts, or the polls fail past `pollRetry`.
 * @throws TaskExpiredError (-33031) past the task's TTL.
 * @throws InvalidArgumentError (-32602) for a bad `poll`.
 * Other errors from the hooks propagate unchanged. No timer or listener survives the returned promise.
 */
export async function driveTask(options: DriveTaskOptions): Promise<TerminalTask> {
  const { method, hooks, answered } = options;
  const poll = resolveTaskPoll(options.poll);
  const now = options.now ?? Date.now;
  const firstSeenAt = now();
  const run = linkRun(method, options);
  const { signal } = run;
  const pending: Record<string, InputResponse> = { ...options.pending };
  let task: Task | DetailedTask = options.first;
  let detailed = options.firstIsDetailed;
  let previous: Task | DetailedTask | undefined;
  let growth = 0;
  const pollRetry = options.pollRetry ?? DEFAULT_TASK_POLL_RETRY;
  const reported = new Set<string>();
  try {
    for (;;) {
      if (signal.aborted) throw run.error();
      if (previous === undefined || changed(previous, task)) {
        if (previous !== undefined && previous.status !== task.status) growth = 0;
        previous = task;
        options.onSnapshot?.(task);
      }
      if (isTerminalStatus(task.status) && detailed) return task as TerminalTask;
      const expiresAt = isTerminalStatus(task.status) ? null : taskExpiresAt(task, firstSeenAt);
      if (expiresAt !== null && now() >= expiresAt)
        throw new TaskExpiredError({ taskId: task.taskId, expiresAt, status: task.status });
      if (task.status === 'input_required' && detailed && hooks.fulfil !== undefined) {
        await answer(task as InputRequiredTask);
      } else if (task.status === 'working' && detailed && Object.keys(pending).length > 0) {
        // Working again: the server is not waiting for the answers we sent.
        await settle(Object.keys(pending));
      }
      let next: DetailedTask | undefined;
      if (detailed || task.status === 'working') {
        const interval = waitMs(task, poll, growth, outOfRange);
        if (task.pollIntervalMs === undefined) growth += 1;
        // The last look is at the TTL, however long an interval the server asked for.
        const ms = expiresAt === null ? interval : Math.min(interval, Math.max(0, expiresAt - now()));
        next = await run.race(() => hooks.wait(ms, signal));
      }
      task = next ?? (await run.race(() => pollOnce(task)));
      detailed = true;
    }
  } catch (error) {
    const given = run.abandoned(error);
    if (given === undefined) throw error;
    throw new TaskAbandonedError(
      { taskId: task.taskId, reason: given.reason, resumable: true, status: task.status },
      given.cause,
    );
  } finally {
    run.dispose();
  }

  /** `hooks.get`, tried again while it fails transiently; past the budget, a `TaskAbandonedError`. */
  async function pollOnce(current: Task): Promise<DetailedTask> {
    try {
      return await retry(() => hooks.get(signal), {
        retries: pollRetry.retries,
        signal,
        backoff: pollRetry,
        next: (error) => {
          if (!isTransientPollError(error)) return undefined;
          const expiresAt = taskExpiresAt(current, firstSeenAt);
          if (expiresAt !== null && now() >= expiresAt)
            throw new TaskExpiredError({ taskId: current.taskId, expiresAt, status: current.status });
          const asked = retryAfterOf(error);
          return asked !== undefined && asked <= pollRetry.maxDelayMs ? asked : 'backoff';
        },
      });
    } catch (error) {
      if (signal.aborted || !isTransientPollError(error)) throw error;
      throw new TaskAbandonedError(
        {
          taskId: current.taskId,
          reason: 'poll-failures',
          resumable: true,
          status: current.status,
          failedPolls: pollRetry.retries + 1,
        },
        error,
      );
    }
  }

  /** Reports a server interval outside the policy's range, once per field for this run. */
  function outOfRange(field: string, value: number, used: number): void {
    if (reported.has(field)) return;
    reported.add(field);
    options.onOutOfRange?.(
      new ProtocolError(
        `task ${task.taskId}: ${field} ${value} is outside [${poll.minMs}, ${poll.maxSuggestedMs}] ms; ${used} ms is used`,
        {
          method: 'tasks/get',
          value: { taskId: task.taskId, field, value, used },
        },
      ),
    );
  }

  /** Answers what was never answered, resends what was never acknowledged. */
  async function answer(current: InputRequiredTask): Promise<void> {
    const requests = current.inputRequests;
    const keys = Object.keys(requests);
    const outstanding = new Set(keys);
    // Sent before, and no longer listed: the server has them (or dropped the request).
    const gone = Object.keys(pending).filter((key) => !outstanding.has(key));
    if (gone.length > 0) await settle(gone);
    const toSend: Record<string, InputResponse> = {};
    const fresh: Record<string, InputRequest> = {};
    for (const key of keys) {
      if (answered.has(key)) continue;
      if (Object.hasOwn(pending, key)) define(toSend, key, pending[key] as InputResponse);
      else define(fresh, key, requests[key] as InputRequest);
    }
    if (Object.keys(fresh).length > 0) {
      const fulfil = hooks.fulfil as NonNullable<TaskDriverDeps['fulfil']>;
      const responses = await run.race(() => fulfil(fresh, signal));
      const given: Record<string, InputResponse> = {};
      for (const key of Object.keys(fresh)) {
        if (!Object.hasOwn(responses, key)) continue;
        define(given, key, responses[key] as InputResponse);
        define(pending, key, responses[key] as InputResponse);
        define(toSend, key, responses[key] as InputResponse);
      }
      if (Object.keys(given).length > 0) await options.onAnswers?.({ type: 'pending', responses: given });
    }
    const sent = Object.keys(toSend);
    if (sent.length === 0) return;
    const update = hooks.update;
    if (update === undefined) throw new InvalidArgumentError('hooks.update', update, 'is needed with hooks.fulfil');
    await run.race(() => update(toSend, signal));
    await settle(sent);
  }

  async function settle(keys: string[]): Promise<void> {
    for (const key of keys) {
      answered.add(key);
      delete pending[key];
    }
    await options.onAnswers?.({ type: 'delivered', keys });
  }
}

/**
 * The wait before the next look at `task`, in ms, for the `growth`-th wait in a row without
 * `pollIntervalMs`: a suggestion held to [`minMs`, `maxSuggestedMs`], else the growing backoff
 * (at least `minMs`). Pure.
 */
export function taskWaitMs(task: Pick<Task, 'pollIntervalMs'>, policy: TaskPollPolicy, growth: number): number {
  return waitMs(task, policy, growth);
}

function waitMs(
  task: Pick<Task, 'pollIntervalMs'>,
  policy: TaskPollPolicy,
  growth: number,
  outOfRange?: (field: string, value: number, used: number) => void,
): number {
  const suggested = task.pollIntervalMs;
  if (suggested === undefined)
    return Math.max(policy.minMs, Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, growth)));
  const used = clampInterval(suggested, policy);
  if (used !== suggested) outOfRange?.('pollIntervalMs', suggested, used);
  return used;
}

/** A server-suggested interval held to [`minMs`, `maxSuggestedMs`]; NaN reads as `minMs`. Pure. */
export function clampInterval(ms: number, policy: Pick<TaskPollPolicy, 'minMs' | 'maxSuggestedMs'>): number {
  if (!(ms >= policy.minMs)) return policy.minMs;
  return ms > policy.maxSuggestedMs ? policy.maxSuggestedMs : ms;
}

function changed(a: Task, b: Task): boolean {
  return a.status !== b.status || a.statusMessage !== b.statusMessage || a.lastUpdatedAt !== b.lastUpdatedAt;
}

function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The loop's own signal: aborts when the caller's signal does (cancel the task), at the
 * deadline (cancel the task), or when `stop` does (leave it). `race` settles a hook early when
 * the signal aborts, so a hook that ignores its signal cannot hold the loop.
 */
function linkRun(method: string, options: DriveTaskOptions) {
  const controller = new AbortController();
  const { signal: outer, stop, deadline } = options;
  const clock = options.clock ?? systemClock;
  const timers = boundedTimers(options.timers);
  let cancelSent = false;
  const cancelTask = () => {
    if (cancelSent) return;
    cancelSent = true;
    try {
      options.hooks.cancel();
    } catch {
      // the hook reports its own failures
    }
  };
  const abort = (reason: unknown, cancel: boolean) => {
    if (controller.signal.aborted) return;
    if (cancel) cancelTask();
    controller.abort(reason);
  };
  const timeoutError = (): McpError =>
    new TimeoutError({ method, timeoutMs: deadline?.totalTimeoutMs ?? 0, kind: 'total' });
  const onOuter = () => abort(outer?.reason, true);
  const onStop = () => abort(stop?.reason, false);
  let deadlineError: McpError | undefined;
  const onDeadline = () => {
    deadlineError = timeoutError();
    abort(deadlineError, false);
  };
  let handle: TimerHandle;
  if (stop?.aborted) abort(stop.reason, false);
  else if (outer?.aborted) abort(outer.reason, true);
  else {
    outer?.addEventListener('abort', onOuter, { once: true });
    stop?.addEventListener('abort', onStop, { once: true });
    if (deadline !== undefined) {
      const left = deadline.at - clock.now();
      if (left <= 0) onDeadline();
      else handle = timers.setTimeout(onDeadline, left);
    }
  }
  const error = (): unknown => {
    const reason: unknown = controller.signal.reason;
    if (stop?.aborted && reason === stop.reason) return reason;
    if (deadlineError !== undefined && reason === deadlineError) return reason;
    return abortError(method, controller.signal);
  };
  return {
    signal: controller.signal,
    error,
    /** Why the loop gave up on a task it leaves running, when `thrown` says it did. */
    abandoned(thrown: unknown): { reason: TaskAbandonReason; cause: unknown } | undefined {
      if (!controller.signal.aborted || thrown !== controller.signal.reason) return undefined;
      if (deadlineError !== undefined && thrown === deadlineError) return { reason: 'deadline', cause: thrown };
      if (stop?.aborted && thrown === stop.reason) return { reason: 'closed', cause: thrown };
      return undefined;
    },
    race<T>(hook: () => Promise<T>): Promise<T> {
      if (controller.signal.aborted) return Promise.reject(error());
      let promise: Promise<T>;
      try {
        promise = Promise.resolve(hook());
      } catch (thrown) {
        return Promise.reject(thrown);
      }
      return new Promise<T>((resolve, reject) => {
        const onAbort = () => reject(error());
        controller.signal.addEventListener('abort', onAbort, { once: true });
        promise.then(
          (value) => {
            controller.signal.removeEventListener('abort', onAbort);
            resolve(value);
          },
          (thrown: unknown) => {
            controller.signal.removeEventListener('abort', onAbort);
            reject(controller.signal.aborted ? error() : thrown);
          },
        );
      });
    },
    dispose() {
      outer?.removeEventListener('abort', onOuter);
      stop?.removeEventListener('abort', onStop);
      if (handle !== undefined) timers.clearTimeout(handle);
    },
  };
}
