/**
 * The task machinery of one client (spec: ext-tasks), loaded by its `TaskManager` the first
 * time a task exists (a `CreateTaskResult` arrived) or is asked for (`resumeTask`): a task made
 * a {@link ToolTask} and followed, a stored task resumed, the `tasks/*` requests (translated for
 * a 2025-11-25 server), push for a task, and the `tasks/cancel` requests in flight that closing
 * the client waits for. Only this module makes handles.
 */
import { ErrorCode } from '../errors/codes.js';
import { InvalidArgumentError, RpcError, isRpcError } from '../errors/errors.js';
import type { JsonObject } from '../wire/messages.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { CallToolResult } from '../wire/protocol.js';
import { readDetailedTask } from '../wire/taskShape.js';
import { readTask, taskExpiresAt } from '../wire/taskState.js';
import { TaskMethod } from '../wire/tasks.js';
import { TaskExpiredError, TaskNotFoundError } from './errors.js';
import { checkTaskMode, type CallToolOptions } from './options.js';
import { createdTaskRecord, taskKey, type TaskRecord } from './taskStore.js';
import { openTaskWatch, type TaskWatch } from './taskWatch.js';
import { TaskRun, type TaskRunDeps, type ToolTaskInit } from './taskRun.js';
import { ToolTask } from './toolTask.js';
import { LegacyTaskRequests } from './legacyTasks.js';
import type { ResumeTaskOptions, TaskMachineryDeps } from './types.js';
import type { TimerHandle } from '../util/clock.js';
import { boundedTimers } from '../util/timerBounds.js';

/** Longest wait `close()` gives the `tasks/cancel` requests in flight, in ms. */
export const CANCEL_GRACE_MS = 2000;

/** See the module comment; one per `TaskManager`, made once the module loaded. */
export class TaskMachinery {
  /** The server refused (or did not honour) a listen for task ids: later tasks poll at once. */
  private pushRefused = false;
  private readonly runtime: TaskRunDeps;
  private readonly legacyRequests: LegacyTaskRequests;
  /** `tasks/cancel` requests in flight, which `drainCancels()` waits for. */
  private readonly cancels = new Set<Promise<void>>();

  constructor(private readonly owner: TaskMachineryDeps) {
    const { deps } = owner;
    this.legacyRequests = new LegacyTaskRequests((method, params, options) => deps.send(method, params, options));
    this.runtime = {
      serverIdentity: deps.serverIdentity,
      // Read at each use: the settings may be resolved later than this runtime is made.
      get store() {
        return owner.settings.store;
      },
      get poll() {
        return owner.settings.poll;
      },
      get pollRetry() {
        return owner.settings.pollRetry;
      },
      get wallClock() {
        return owner.settings.clock;
      },
      clock: deps.clock,
      timers: deps.timers,
      lifetime: owner.lifetime,
      request: (method, params, options) => this.request(method, params, options),
      fulfil: (requests, signal) => deps.fulfil(requests, signal),
      watch: (taskId) => this.watch(taskId),
      trackCancel: (sent) => {
        this.cancels.add(sent);
        const done = () => this.cancels.delete(sent);
        sent.then(done, done);
      },
      checkResult: (toolName, result) => deps.checkResult(toolName, result),
      onError: (error) => deps.onError(error),
    };
  }

  /**
   * See `TaskManager.take`: the handle, or in `auto` mode the task followed to its end with
   * `onTask` hearing each state; the task's record is written before either.
   * @throws ProtocolError (-32600) for a malformed task; as `ToolTask.result()`.
   */
  async take(
    toolName: string,
    result: JsonObject,
    mode: 'auto' | 'manual',
    options: CallToolOptions,
    principal?: string,
  ): Promise<CallToolResult | ToolTask> {
    const seed = readTask('tools/call', result);
    const record = createdTaskRecord(
      this.owner.deps.serverIdentity,
      toolName,
      seed,
      this.owner.settings.clock.now(),
      principal,
    );
    const task = await this.handle({ mode, first: seed, firstIsDetailed: false, record });
    if (mode === 'manual') return task;
    const onTask = options.onTask;
    const off =
      onTask === undefined
        ? undefined
        : task.on((event) => {
            if (event.type === 'status') onTask(event.task);
          });
    try {
      return await task.result(options);
    } finally {
      off?.();
    }
  }

  /** See `TaskManager.resume`. */
  async resume(taskId: string, options: ResumeTaskOptions): Promise<ToolTask> {
    if (typeof taskId !== 'string' || taskId === '')
      throw new InvalidArgumentError('taskId', taskId, 'expected a non-empty task id');
    const mode = checkTaskMode(options.task) ?? 'auto';
    if (mode === 'off') throw new InvalidArgumentError('task', mode, 'expected "auto" or "manual"');
    const { serverIdentity } = this.owner.deps;
    const { store, clock } = this.owner.settings;
    const principal = this.owner.deps.principal();
    const key = taskKey(serverIdentity, taskId, principal);
    const found = await store.get(key);
    if (found !== undefined && found.serverIdentity !== serverIdentity)
      throw new InvalidArgumentError('taskId', taskId, 'the stored task belongs to another server');
    // Another principal's record (a store that ignores keys' shape) is no record of this client's.
    const stored = found?.principal === principal ? found : undefined;
    if (stored?.expiresAt != null && clock.now() >= stored.expiresAt) {
      await store.delete(key);
      throw new TaskExpiredError({ taskId, expiresAt: stored.expiresAt, status: stored.status });
    }
    let snapshot;
    try {
      const requestOptions: ResumeTaskOptions = { ...options };
      delete requestOptions.task;
      snapshot = readDetailedTask(TaskMethod.get, await this.request(TaskMethod.get, { taskId }, requestOptions));
    } catch (error) {
      if (error instanceof TaskNotFoundError) await store.delete(key);
      throw error;
    }
    const now = clock.now();
    const record: TaskRecord = stored ?? {
      taskId,
      serverIdentity,
      ...(principal !== undefined && { principal }),
      method: 'tools/call',
      status: snapshot.status,
      expiresAt: null,
      answeredKeys: [],
      updatedAt: now,
    };
    return this.handle({
      mode,
      first: snapshot,
      firstIsDetailed: true,
      record: { ...record, expiresAt: taskExpiresAt(snapshot, now) },
    });
  }

  /** See `TaskManager.drainCancels`. */
  async drainCancels(graceMs = CANCEL_GRACE_MS): Promise<void> {
    if (this.cancels.size === 0) return;
    const timers = boundedTimers(this.owner.deps.timers);
    let handle: TimerHandle;
    const grace = new Promise<void>((resolve) => {
      handle = timers.setTimeout(resolve, graceMs);
    });
    try {
      await Promise.race([Promise.allSettled([...this.cancels]), grace]);
    } finally {
      timers.clearTimeout(handle);
    }
  }

  /** A handle over a new run of the task; resolves once its record is written. */
  private async handle(init: ToolTaskInit): Promise<ToolTask> {
    const run = new TaskRun(this.runtime, init);
    await run.persist();
    return new ToolTask(run);
  }

  /** A `tasks/*` request; -32602 means an unknown task (spec: ext-tasks, Protocol Errors). */
  private async request(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    const { deps } = this.owner;
    try {
      if (deps.legacyCapabilities() !== undefined) return await this.legacyRequests.request(method, params, options);
      return await deps.send(method, params, options);
    } catch (error) {
      if (error instanceof RpcError && error.code === ErrorCode.InvalidParams && !(error instanceof TaskNotFoundError))
        throw new TaskNotFoundError(
          { code: error.code, message: error.message, data: error.data },
          method,
          String(params['taskId']),
          error.httpStatus,
        );
      throw error;
    }
  }

  private watch(taskId: string): TaskWatch | undefined {
    const { deps, settings, lifetime } = this.owner;
    if (!settings.push || this.pushRefused || !deps.offered() || lifetime.aborted) return undefined;
    return openTaskWatch(taskId, {
      subscribe: (filter, options) => deps.subscribe(filter, options),
      timers: deps.timers,
      backstopMs: settings.pushBackstopMs,
      refused: (error) => {
        if (error === undefined || (isRpcError(error) && REFUSALS.has(error.code))) this.pushRefused = true;
      },
    });
  }
}

/** Listen errors that will not change on the next task: stop asking for push. */
const REFUSALS: ReadonlySet<number> = new Set([
  ErrorCode.MethodNotFound,
  ErrorCode.InvalidParams,
  ErrorCode.InvalidRequest,
  ErrorCode.MissingRequiredClientCapability,
]);
