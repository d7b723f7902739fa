/**
 * The tasks of one client (spec: ext-tasks): when a call declares the extension, how a
 * `CreateTaskResult` becomes a {@link ToolTask}, how a stored task is resumed, and what every
 * handle borrows (requests, handlers, push, the store). The client owns one and wires it in.
 */
import { ErrorCode } from '../errors/codes.js';
import { InvalidArgumentError, RpcError, isRpcError } from '../errors/errors.js';
import type { JsonObject } from '../wire/messages.js';
import type { MaybePromise } from '../util/maybePromise.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { CallToolOptions } from './options.js';
import type { CallToolResult, InputRequest, InputResponse, SubscriptionFilter } from '../wire/protocol.js';
import type { Subscription, SubscribeOptions } from '../subscriptions/types.js';
import type { Clock, TimerHandle, Timers } from '../util/clock.js';
import { boundedTimers } from '../util/timerBounds.js';
import { TaskExpiredError, TaskNotFoundError } from './errors.js';
import { checkTaskMode, resolveTasksOptions, type ResolvedTasksOptions, type TaskMode } from './options.js';
import { readDetailedTask, readTask, taskExpiresAt } from '../wire/taskShape.js';
import { taskKey, taskKeyPrefix, type TaskRecord } from './taskStore.js';
import { openTaskWatch, type TaskWatch } from './taskWatch.js';
import { ToolTask, type TaskRuntime } from './toolTask.js';
import { TaskMethod } from '../wire/tasks.js';
import type { Tool } from '../wire/protocol.js';
import {
  LegacyTaskRequests,
  fromLegacyCreateTaskResult,
  isLegacyCreateTaskResult,
  legacyServerRunsToolTasks,
  legacyTaskMode,
  legacyTaskSupport,
  type LegacyTaskSupport,
} from './legacyTasks.js';
import type { ServerCapabilities } from '../wire/protocol.js';

/** What the manager needs from its client. */
export interface TaskManagerDeps {
  /** `transport.serverIdentity`: the one server this client's tasks live on. */
  serverIdentity: string;
  /** `ClientOptions.tasks`, resolved; `undefined` when the client did not turn tasks on. */
  options: ResolvedTasksOptions | undefined;
  /** Sends a request declaring the extension, never cancelled on the wire; resolves with its complete result. */
  send(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject>;
  /** Answers input requests with the client's handlers. */
  fulfil(inputRequests: Record<string, InputRequest>, signal: AbortSignal): Promise<Record<string, InputResponse>>;
  /** The client's `subscribe`. */
  subscribe(filter: SubscriptionFilter, options: SubscribeOptions): Promise<Subscription>;
  /** Whether the extension may be declared now: the 2026-07-28 wire, and the server listed it. */
  offered(): boolean;
  /** The server's capabilities when the client speaks the 2025-11-25 wire to it, else `undefined`. */
  legacyCapabilities(): ServerCapabilities | undefined;
  /** The checks a `tools/call` result passes. */
  checkResult(toolName: string | undefined, result: JsonObject): MaybePromise<CallToolResult>;
  clock: Clock;
  timers: Timers;
  onError(error: unknown): void;
}

/** Options of `McpClient.resumeTask`. */
export interface ResumeTaskOptions extends CallOptions {
  /** `auto` answers the task's input with the client's handlers; `manual` leaves it to the host. @default "auto" */
  task?: 'auto' | 'manual' | undefined;
}

/** @internal Owned by `McpClient`; see the module comment. */
export class TaskManager {
  private resolved: ResolvedTasksOptions | undefined;
  private readonly lifetime = new AbortController();
  /** The server refused (or did not honour) a listen for task ids: later tasks poll at once. */
  private pushRefused = false;
  private readonly runtime: TaskRuntime;
  /** 2025-11-25: each listed tool's `execution.taskSupport`; `undefined` until a listing was seen. */
  private legacySupport: Map<string, LegacyTaskSupport> | undefined;
  private readonly legacyRequests: LegacyTaskRequests;
  /** `tasks/cancel` requests in flight, which `drainCancels()` waits for. */
  private readonly cancels = new Set<Promise<void>>();

  constructor(private readonly deps: TaskManagerDeps) {
    this.resolved = deps.options;
    this.legacyRequests = new LegacyTaskRequests((method, params, options) => deps.send(method, params, options));
    // Read at each use: the settings may be resolved later than this runtime is made.
    const settings = (): ResolvedTasksOptions => this.settings;
    this.runtime = {
      serverIdentity: deps.serverIdentity,
      get store() {
        return settings().store;
      },
      get poll() {
        return settings().poll;
      },
      get pollRetry() {
        return settings().pollRetry;
      },
      get wallClock() {
        return settings().clock;
      },
      clock: deps.clock,
      timers: deps.timers,
      lifetime: this.lifetime.signal,
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

  /** The options in force; the defaults when the client did not set any but a call asked for a task. */
  private get settings(): ResolvedTasksOptions {
    this.resolved ??= resolveTasksOptions(true) as ResolvedTasksOptions;
    return this.resolved;
  }

  /**
   * What a call does with a task answer: its own `task` option, else `auto` when the client
   * turned tasks on, else `off`; and `off` whenever the extension may not be declared.
   * @throws InvalidArgumentError (-32602) for a bad `task` option.
   */
  modeFor(callMode: unknown): TaskMode {
    const mode = checkTaskMode(callMode) ?? (this.deps.options === undefined ? 'off' : 'auto');
    return mode !== 'off' && this.deps.offered() ? mode : 'off';
  }

  /** Records the `execution.taskSupport` of listed tools (a listing replaces what was known of each). */
  learnTools(tools: readonly Tool[]): void {
    this.legacySupport ??= new Map();
    for (const tool of tools) this.legacySupport.set(tool.name, legacyTaskSupport(tool));
  }

  /**
   * 2025-11-25: how a `tools/call` of `toolName` runs (see `legacyTaskMode`); `off` on the
   * 2026-07-28 wire, or when the server does not declare `tasks.requests.tools.call`. The first
   * time, with no listing seen yet, `listTools` is called to learn the tools' `taskSupport`.
   * @throws InvalidArgumentError (-32602) for a bad `task` option; what `listTools` throws.
   */
  async legacyModeFor(
    toolName: string,
    callMode: unknown,
    listTools: () => Promise<readonly Tool[]>,
  ): Promise<TaskMode> {
    if (!legacyServerRunsToolTasks(this.deps.legacyCapabilities())) return 'off';
    if (this.legacySupport === undefined) this.learnTools(await listTools());
    const support = this.legacySupport?.get(toolName) ?? 'forbidden';
    return legacyTaskMode(support, callMode, this.deps.options === undefined ? 'off' : 'auto');
  }

  /** True for a 2025-11-25 `CreateTaskResult` (`{ task }`). */
  isLegacyCreated(result: JsonObject): boolean {
    return isLegacyCreateTaskResult(result);
  }

  /**
   * What `callTool` returns for a 2025-11-25 `CreateTaskResult`: as {@link take}.
   * @throws ProtocolError (-32600) for a malformed task; as `ToolTask.result()`.
   */
  takeLegacy(
    toolName: string,
    result: JsonObject,
    mode: 'auto' | 'manual',
    options: CallToolOptions,
  ): Promise<CallToolResult | ToolTask> {
    return this.take(toolName, fromLegacyCreateTaskResult(result), mode, options);
  }

  /**
   * A `CreateTaskResult` of `tools/call` as a handle; its record is written before this resolves.
   * @throws ProtocolError (-32600) for a malformed task.
   */
  async adopt(toolName: string, result: JsonObject, mode: 'auto' | 'manual'): Promise<ToolTask> {
    const seed = readTask('tools/call', result);
    const now = this.settings.clock.now();
    const record: TaskRecord = {
      taskId: seed.taskId,
      serverIdentity: this.deps.serverIdentity,
      method: 'tools/call',
      toolName,
      status: seed.status,
      expiresAt: taskExpiresAt(seed, now),
      answeredKeys: [],
      updatedAt: now,
    };
    const task = new ToolTask(this.runtime, { mode, first: seed, firstIsDetailed: false, record });
    await task.persist();
    return task;
  }

  /**
   * What `callTool` returns for a `CreateTaskResult`: the handle in `manual` mode; in `auto`
   * mode the tool's result once the task is done, with `options.onTask` hearing each state.
   * @throws as `ToolTask.result()`.
   */
  async take(
    toolName: string,
    result: JsonObject,
    mode: 'auto' | 'manual',
    options: CallToolOptions,
  ): Promise<CallToolResult | ToolTask> {
    const task = await this.adopt(toolName, result, mode);
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

  /**
   * Picks up a task again, on this connection: checks the stored record (same server, TTL not
   * passed), then asks `tasks/get` for the task as it is now. A task this client has no record
   * of is resumed too (without its answered keys).
   * @throws InvalidArgumentError (-32602), with nothing sent, for an empty id, a bad `task`
   *   option, or a record of another server; TaskExpiredError (-32031), with nothing sent,
   *   when the stored TTL has passed; TaskNotFoundError (-32602 as sent) when the server does
   *   not know the id; ProtocolError; any error of the request.
   */
  async resume(taskId: string, options: ResumeTaskOptions = {}): Promise<ToolTask> {
    if (typeof taskId !== 'string' || taskId === '')
      throw new InvalidArgumentError('taskId', taskId, 'expected a non-empty task id');
    const mode = checkTaskMode(options.task) ?? 'auto';
    if (mode === 'off') throw new InvalidArgumentError('task', mode, 'expected "auto" or "manual"');
    const { store, clock } = this.settings;
    const key = taskKey(this.deps.serverIdentity, taskId);
    const stored = await store.get(key);
    if (stored !== undefined && stored.serverIdentity !== this.deps.serverIdentity)
      throw new InvalidArgumentError('taskId', taskId, 'the stored task belongs to another server');
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
      serverIdentity: this.deps.serverIdentity,
      method: 'tools/call',
      status: snapshot.status,
      expiresAt: null,
      answeredKeys: [],
      updatedAt: now,
    };
    const task = new ToolTask(this.runtime, {
      mode,
      first: snapshot,
      firstIsDetailed: true,
      record: { ...record, expiresAt: taskExpiresAt(snapshot, now) },
    });
    await task.persist();
    return task;
  }

  /** Every stored task of this server, for a host picking up after a restart. */
  async stored(): Promise<TaskRecord[]> {
    const { store } = this.settings;
    const out: TaskRecord[] = [];
    for (const key of await store.keys(taskKeyPrefix(this.deps.serverIdentity))) {
      const record = await store.get(key);
      if (record !== undefined) out.push(record);
    }
    return out;
  }

  /**
   * Waits until every `tasks/cancel` in flight has its answer, at most `graceMs` (then resolves
   * anyway): a client closing right after its caller aborted lets the cancel through instead of
   * cutting it off (and reporting it failed). Resolves at once when none is in flight.
   */
  async drainCancels(graceMs = CANCEL_GRACE_MS): Promise<void> {
    if (this.cancels.size === 0) return;
    let handle: TimerHandle;
    const grace = new Promise<void>((resolve) => {
      handle = boundedTimers(this.deps.timers).setTimeout(resolve, graceMs);
    });
    try {
      await Promise.race([Promise.allSettled([...this.cancels]), grace]);
    } finally {
      boundedTimers(this.deps.timers).clearTimeout(handle);
    }
  }

  /** The client closed: every loop stops with `error`; tasks and records stay for a resume. */
  close(error: Error): void {
    this.lifetime.abort(error);
  }

  /** A `tasks/*` request; -32602 means an unknown task (spec: ext-tasks, Protocol Errors). */
  private async request(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    try {
      if (this.deps.legacyCapabilities() !== undefined)
        return await this.legacyRequests.request(method, params, options);
      return await this.deps.send(method, params, options);
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
    const { push, pushBackstopMs } = this.settings;
    if (!push || this.pushRefused || !this.deps.offered() || this.lifetime.signal.aborted) return undefined;
    return openTaskWatch(taskId, {
      subscribe: (filter, options) => this.deps.subscribe(filter, options),
      timers: this.deps.timers,
      backstopMs: pushBackstopMs,
      refused: (error) => {
        if (error === undefined || (isRpcError(error) && REFUSALS.has(error.code))) this.pushRefused = true;
      },
    });
  }
}

/** Longest wait `close()` gives the `tasks/cancel` requests in flight, in ms. */
export const CANCEL_GRACE_MS = 2000;

/** Listen errors that will not change on the next task: stop asking for push. */
const REFUSALS: ReadonlySet<number> = new Set([
  ErrorCode.MethodNotFound,
  ErrorCode.InvalidParams,
  ErrorCode.InvalidRequest,
  ErrorCode.MissingRequiredClientCapability,
]);

/** True for a `tools/call` result that is a task (`resultType: "task"`). */
export function isCreateTaskResult(result: JsonObject): boolean {
  return result['resultType'] === 'task';
}
