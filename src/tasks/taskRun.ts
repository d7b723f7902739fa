/**
 * What a `ToolTask` handle forwards to (spec: ext-tasks): the task's latest state, the
 * three methods on the wire (`tasks/get`, `tasks/update`, `tasks/cancel`), events, and
 * `result()`, which follows it to its end. Its record in the task store is kept current so
 * another client can resume it. Part of the task machinery, loaded once a task exists.
 */
import { CancelledError, InvalidArgumentError, ProtocolError } from '../errors/errors.js';
import type { JsonObject } from '../wire/messages.js';
import type { MaybePromise } from '../util/maybePromise.js';
import type { Progress } from '../wire/callOptions.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { CallToolResult, InputRequest, InputResponse } from '../wire/protocol.js';
import { EventStream } from '../util/eventStream.js';
import { abortableDelay } from '../util/signals.js';
import type { Clock, Timers } from '../util/clock.js';
import type { WallClock } from '../util/clock.js';
import { driveTask, type TaskAnswerEvent } from './driver.js';
import type { TaskPollPolicy } from './options.js';
import type { ResolvedTaskPollRetry } from './pollRetry.js';
import { isTaskExpiredError, isTaskNotFoundError, TaskCancelledError, TaskFailedError } from './errors.js';
import { isTerminalStatus, readDetailedTask } from '../wire/taskShape.js';
import { taskExpiresAt } from '../wire/taskState.js';
import { taskKey, type TaskRecord, type TaskStore } from './taskStore.js';
import type { TaskWatch } from './taskWatch.js';
import type { ToolTaskCore, ToolTaskEvent } from './toolTask.js';
import { TaskMethod, type DetailedTask, type Task, type TaskStatus, type TerminalTask } from '../wire/tasks.js';

/** @internal What a handle borrows from its client. */
export interface TaskRunDeps {
  readonly serverIdentity: string;
  readonly store: TaskStore;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly wallClock: WallClock;
  readonly poll: TaskPollPolicy;
  readonly pollRetry: ResolvedTaskPollRetry;
  /** Hears each `tasks/cancel` in flight, so that closing the client lets it finish (bounded). */
  trackCancel(sent: Promise<void>): void;
  /** Aborts (with a `ConnectionClosedError`) when the client closes: loops stop, tasks stay. */
  readonly lifetime: AbortSignal;
  /** Sends a `tasks/*` request: the extension declared, never `notifications/cancelled`. */
  request(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject>;
  /** Answers input requests with the client's handlers. */
  fulfil(inputRequests: Record<string, InputRequest>, signal: AbortSignal): Promise<Record<string, InputResponse>>;
  /** Push for `taskId`, or `undefined` to poll only. */
  watch(taskId: string): TaskWatch | undefined;
  /** The checks a `tools/call` result passes (`content`, the tool's `outputSchema`). */
  checkResult(toolName: string | undefined, result: JsonObject): MaybePromise<CallToolResult>;
  onError(error: unknown): void;
}

/** @internal How a handle starts. */
export interface ToolTaskInit {
  mode: 'auto' | 'manual';
  first: Task | DetailedTask;
  firstIsDetailed: boolean;
  record: TaskRecord;
}

/**
 * One task followed by this client: the state and the work behind its `ToolTask` handle, whose
 * members document the contract.
 */
export class TaskRun implements ToolTaskCore {
  readonly taskId: string;
  readonly toolName: string | undefined;
  readonly mode: 'auto' | 'manual';
  private current: Task | DetailedTask;
  private detailed: boolean;
  private readonly answered: Set<string>;
  private readonly announced = new Set<string>();
  private pending: Record<string, InputResponse> | undefined;
  private readonly events: EventStream<ToolTaskEvent>;
  private readonly key: string;
  /** Whose task this is (the record's `principal`), kept in every record written. */
  private readonly principal: string | undefined;
  private expiresAt: number | null;
  private readonly firstSeenAt: number;
  private running: Promise<CallToolResult> | undefined;
  private terminal: TerminalTask | undefined;
  private gone = false;
  private cancelSent = false;
  /** The `tasks/cancel` in flight. */
  private cancelling: Promise<void> | undefined;
  /** The handlers could not answer this run's input: the task would wait for ever. */
  private inputFailed = false;
  private readonly cancelled = new AbortController();
  private writes: Promise<void> = Promise.resolve();
  private progressListeners = new Set<(progress: Progress) => void>();
  private progressCount = 0;
  /** Interval fields of this task already reported out of range. */
  private readonly outOfRangeFields = new Set<string>();

  constructor(
    private readonly runtime: TaskRunDeps,
    init: ToolTaskInit,
  ) {
    this.taskId = init.record.taskId;
    this.toolName = init.record.toolName;
    this.mode = init.mode;
    this.current = init.first;
    this.detailed = init.firstIsDetailed;
    this.answered = new Set(init.record.answeredKeys);
    this.pending = init.record.pendingResponses;
    this.expiresAt = init.record.expiresAt;
    this.firstSeenAt = runtime.wallClock.now();
    this.principal = init.record.principal;
    this.key = taskKey(runtime.serverIdentity, this.taskId, this.principal);
    this.events = new EventStream<ToolTaskEvent>({ onError: (error) => runtime.onError(error) });
  }

  get status(): TaskStatus {
    return this.current.status;
  }

  get task(): Task | DetailedTask {
    return this.current;
  }

  get answeredKeys(): readonly string[] {
    return [...this.answered];
  }

  /** A throwing listener is reported to `onError`. */
  on(listener: (event: ToolTaskEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** `tasks/get`, observed: see `ToolTask.get`. */
  get(options: CallOptions = {}): Promise<DetailedTask> {
    return this.fetch(options);
  }

  /** `tasks/update`, checked and recorded: see `ToolTask.update`. */
  async update(inputResponses: Record<string, InputResponse>, options: CallOptions = {}): Promise<void> {
    if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses))
      throw new InvalidArgumentError('inputResponses', inputResponses, 'expected an object keyed like inputRequests');
    const keys = Object.keys(inputResponses);
    if (keys.length === 0) throw new InvalidArgumentError('inputResponses', inputResponses, 'answers nothing');
    const again = keys.find((key) => this.answered.has(key));
    if (again !== undefined)
      throw new InvalidArgumentError(
        `inputResponses[${JSON.stringify(again)}]`,
        inputResponses[again],
        'this input key was answered already; each key is answered once per task',
      );
    await this.send(TaskMethod.update, { taskId: this.taskId, inputResponses: inputResponses }, options);
    await this.recordAnswers({ type: 'delivered', keys });
  }

  /** `tasks/cancel`, joined while in flight: see `ToolTask.cancel`. */
  cancel(options: CallOptions = {}): Promise<void> {
    if (this.terminal !== undefined) return Promise.resolve();
    this.cancelling ??= this.sendCancel(options).finally(() => {
      this.cancelling = undefined;
      this.cancelled.abort(new CancelledError('tools/call', 'cancelled with tasks/cancel'));
    });
    return this.cancelling;
  }

  /** The run in progress, a new one, or the settled outcome: see `ToolTask.result`. */
  result(options: CallOptions = {}): Promise<CallToolResult> {
    if (this.terminal !== undefined) return this.settle(this.terminal);
    if (this.running === undefined) {
      const run = this.drive(options).finally(() => {
        if (this.running === run) this.running = undefined;
      });
      this.running = run;
    }
    return this.running;
  }

  private async drive(options: CallOptions): Promise<CallToolResult> {
    const runtime = this.runtime;
    const onProgress = options.onProgress;
    if (onProgress !== undefined) this.progressListeners.add(onProgress);
    const signal = linkAbort(options.signal, this.cancelled.signal);
    const watch = runtime.watch(this.taskId);
    const totalMs = options.maxTotalTimeoutMs;
    const requestOptions: CallOptions = {
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    };
    try {
      const final = await driveTask({
        method: 'tools/call',
        first: this.current,
        firstIsDetailed: this.detailed,
        signal: signal.signal,
        stop: runtime.lifetime,
        ...(totalMs !== undefined && { deadline: { at: runtime.clock.now() + totalMs, totalTimeoutMs: totalMs } }),
        clock: runtime.clock,
        timers: runtime.timers,
        now: () => runtime.wallClock.now(),
        poll: runtime.poll,
        pollRetry: runtime.pollRetry,
        onOutOfRange: (error) => this.outOfRange(error),
        answered: this.answered,
        pending: this.pending,
        hooks: {
          get: (hookSignal) => this.fetch({ ...requestOptions, signal: hookSignal }, false),
          wait: (ms, hookSignal) =>
            watch !== undefined
              ? watch.wait(ms, hookSignal)
              : abortableDelay(ms, runtime.timers, hookSignal).then(() => undefined),
          fulfil:
            this.mode === 'auto'
              ? (requests, hookSignal) =>
                  runtime.fulfil(requests, hookSignal).catch((error: unknown) => {
                    if (!hookSignal.aborted) this.inputFailed = true;
                    throw error;
                  })
              : undefined,
          update: (inputResponses, hookSignal) =>
            this.send(
              TaskMethod.update,
              { taskId: this.taskId, inputResponses: inputResponses },
              { ...requestOptions, signal: hookSignal },
            ).then(() => undefined),
          cancel: () => {
            if (this.cancelSent) return;
            // -32602: the task ended (or was dropped) before the cancel arrived; nothing to report.
            this.cancelling ??= this.sendCancel({ ...requestOptions }).catch((error: unknown) => {
              if (!isTaskNotFoundError(error)) runtime.onError(error);
            });
          },
        },
        onSnapshot: (task) => this.observe(task),
        onAnswers: (event) => this.recordAnswers(event),
      });
      return await this.settle(final);
    } catch (error) {
      await this.failed(error);
      throw error;
    } finally {
      watch?.close();
      signal.dispose();
      if (onProgress !== undefined) this.progressListeners.delete(onProgress);
    }
  }

  /**
   * What a run's error means for the record: gone for good (unknown, expired, cancelled by the
   * caller's abort or deadline), or kept for a resume (the client closed, a request failed).
   */
  private async failed(error: unknown): Promise<void> {
    if (isTaskNotFoundError(error) || isTaskExpiredError(error) || this.cancelSent) return this.forget();
    if (this.inputFailed) {
      // Nobody here can answer it: cancel rather than leave it waiting.
      this.inputFailed = false;
      await this.sendCancel({}).catch((cancelError: unknown) => this.runtime.onError(cancelError));
      return this.forget();
    }
  }

  /** A server interval outside the documented range: reported to `onError` once per field for this task. */
  private outOfRange(error: ProtocolError): void {
    const field = String((error.data.value as { field?: unknown } | undefined)?.field);
    if (this.outOfRangeFields.has(field)) return;
    this.outOfRangeFields.add(field);
    this.runtime.onError(error);
  }

  /** A terminal snapshot as the call's outcome. */
  private async settle(task: TerminalTask): Promise<CallToolResult> {
    this.terminal = task;
    await this.forget();
    switch (task.status) {
      case 'completed':
        return this.runtime.checkResult(this.toolName, task.result);
      case 'failed':
        throw new TaskFailedError(task.error, 'tools/call', task.taskId, task.statusMessage);
      default:
        throw new TaskCancelledError('tools/call', task.taskId, task.statusMessage);
    }
  }

  /** `tasks/get`, checked, observed and recorded. */
  private async fetch(options: CallOptions, emit = true): Promise<DetailedTask> {
    const result = await this.send(TaskMethod.get, { taskId: this.taskId }, options);
    const task = readDetailedTask(TaskMethod.get, result);
    if (task.taskId !== this.taskId) {
      throw new ProtocolError(`tasks/get answered for task ${JSON.stringify(task.taskId)}`, {
        method: TaskMethod.get,
        value: result,
      });
    }
    if (emit) this.observe(task);
    return task;
  }

  /** One `tasks/*` request; a -32602 drops the record (the runtime maps it to TaskNotFoundError). */
  private async send(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    try {
      return await this.runtime.request(method, params, options);
    } catch (error) {
      if (isTaskNotFoundError(error)) await this.forget();
      throw error;
    }
  }

  /**
   * `tasks/cancel`; on the server's confirmation the task is `cancelled` (the answer's state
   * when it carries this task, else the last one with that status). Registered with the runtime
   * so that `close()` lets it finish.
   */
  private sendCancel(options: CallOptions): Promise<void> {
    this.cancelSent = true;
    const sent = (async () => {
      const answer = await this.send(TaskMethod.cancel, { taskId: this.taskId }, options);
      const confirmed = this.cancelledState(answer);
      this.terminal = confirmed;
      this.observe(confirmed);
      await this.forget();
    })();
    this.runtime.trackCancel(sent);
    return sent;
  }

  /** The confirmed state of a cancelled task, from the `tasks/cancel` answer when it holds one. */
  private cancelledState(answer: JsonObject): TerminalTask {
    if (answer['taskId'] === this.taskId && answer['status'] === 'cancelled') {
      try {
        return readDetailedTask(TaskMethod.cancel, answer) as TerminalTask;
      } catch {
        // Not a task after all: the status is what the confirmation means.
      }
    }
    return { ...this.current, status: 'cancelled' };
  }

  /** A new state: kept, recorded, announced. Anything but the first state came from `tasks/get` or a push. */
  private observe(task: Task | DetailedTask): void {
    const changed =
      task !== this.current &&
      (task.status !== this.current.status ||
        task.statusMessage !== this.current.statusMessage ||
        task.lastUpdatedAt !== this.current.lastUpdatedAt);
    const first = this.progressCount === 0;
    if (task !== this.current) this.detailed = true;
    this.current = task;
    this.expiresAt = taskExpiresAt(task, this.firstSeenAt);
    if (!changed && !first) return;
    this.progressCount += 1;
    // persist() reports its own failures; the writes chain keeps their order.
    if (!isTerminalStatus(task.status)) void this.persist();
    this.events.emit({ type: 'status', task });
    const progress: Progress = { progress: this.progressCount, message: task.statusMessage ?? task.status };
    for (const listener of this.progressListeners) {
      try {
        listener(progress);
      } catch (error) {
        this.runtime.onError(error);
      }
    }
    if (task.status === 'input_required' && 'inputRequests' in task) {
      const fresh: Record<string, InputRequest> = {};
      for (const [key, request] of Object.entries(task.inputRequests)) {
        if (this.answered.has(key) || this.announced.has(key)) continue;
        this.announced.add(key);
        Object.defineProperty(fresh, key, { value: request, enumerable: true, writable: true, configurable: true });
      }
      if (Object.keys(fresh).length > 0) this.events.emit({ type: 'inputRequired', task, inputRequests: fresh });
    }
  }

  private async recordAnswers(event: TaskAnswerEvent): Promise<void> {
    if (event.type === 'pending') {
      this.pending = { ...this.pending, ...event.responses };
    } else {
      for (const key of event.keys) this.answered.add(key);
      if (this.pending !== undefined) {
        const left = { ...this.pending };
        for (const key of event.keys) delete left[key];
        this.pending = Object.keys(left).length === 0 ? undefined : left;
      }
    }
    void this.persist();
    await this.writes;
  }

  /** The record as of now. */
  private record(): TaskRecord {
    const task = this.current;
    return {
      taskId: this.taskId,
      serverIdentity: this.runtime.serverIdentity,
      ...(this.principal !== undefined && { principal: this.principal }),
      method: 'tools/call',
      ...(this.toolName !== undefined && { toolName: this.toolName }),
      status: task.status,
      ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
      expiresAt: this.expiresAt,
      ...(task.pollIntervalMs !== undefined && { pollIntervalMs: task.pollIntervalMs }),
      answeredKeys: [...this.answered],
      ...(this.pending !== undefined && { pendingResponses: this.pending }),
      updatedAt: this.runtime.wallClock.now(),
    };
  }

  /** Writes the record (in order, after earlier writes); failures go to `onError`. */
  persist(): Promise<void> {
    if (this.gone) return this.writes;
    this.writes = this.writes
      .then(() => {
        if (this.gone) return;
        return this.runtime.store.set(this.key, this.record());
      })
      .catch((error: unknown) => this.runtime.onError(error));
    return this.writes;
  }

  /** Drops the record for good (terminal, cancelled, unknown or expired). */
  private forget(): Promise<void> {
    if (this.gone) return this.writes;
    this.gone = true;
    this.writes = this.writes
      .then(() => this.runtime.store.delete(this.key))
      .then(
        () => undefined,
        (error: unknown) => this.runtime.onError(error),
      );
    return this.writes;
  }
}

/** A signal that aborts when either input does; `dispose()` removes the listeners. */
function linkAbort(a: AbortSignal | undefined, b: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const fromA = () => controller.abort(a?.reason);
  const fromB = () => controller.abort(b.reason);
  if (a?.aborted) controller.abort(a.reason);
  else if (b.aborted) controller.abort(b.reason);
  else {
    a?.addEventListener('abort', fromA, { once: true });
    b.addEventListener('abort', fromB, { once: true });
  }
  return {
    signal: controller.signal,
    dispose() {
      a?.removeEventListener('abort', fromA);
      b.removeEventListener('abort', fromB);
    },
  };
}
