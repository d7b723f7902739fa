/**
 * The tasks of one client (spec: ext-tasks): when a call declares the extension, what a
 * 2025-11-25 tool's `execution.taskSupport` allows, and the task machinery (`taskMachinery.lazy.ts`)
 * that makes a `CreateTaskResult` a {@link ToolTask}, resumes stored tasks and holds the
 * `tasks/cancel` requests in flight. The client owns one and wires it in. The manager is small
 * and loads with the client: it answers the checks every `tools/call` and `tools/list` makes,
 * and writes the record of a task the machinery could not load for. The machinery loads on
 * first use (a task answer, `resumeTask`, `storedTasks`), once per process.
 */
import { onDemand } from '../errors/moduleLoad.js';
import type { JsonObject } from '../wire/messages.js';
import type { CallToolResult, Tool } from '../wire/protocol.js';
import { readTask } from '../wire/taskState.js';
import {
  checkTaskMode,
  resolveTasksOptions,
  type CallToolOptions,
  type ResolvedTasksOptions,
  type TaskMode,
} from './options.js';
import { createdTaskRecord, taskKey, taskKeyPrefix, type TaskRecord } from './taskStore.js';
import type { ToolTask } from './toolTask.js';
import type { TaskMachinery } from './taskMachinery.lazy.js';
import type { ResumeTaskOptions, TaskManagerDeps, TaskMachineryDeps } from './types.js';
import {
  fromLegacyCreateTaskResult,
  isLegacyCreateTaskResult,
  legacyServerRunsToolTasks,
  legacyTaskMode,
  legacyTaskSupport,
  type LegacyTaskSupport,
} from './legacySupport.js';

const loadMachinery = onDemand('tasks', () => import('./taskMachinery.lazy.js'));

/** @internal Owned by `McpClient`; see the module comment. It is the {@link TaskMachineryDeps} of its machinery. */
export class TaskManager implements TaskMachineryDeps {
  private resolved: ResolvedTasksOptions | undefined;
  private readonly closed = new AbortController();
  /** 2025-11-25: each listed tool's `execution.taskSupport`; `undefined` until a listing was seen. */
  private legacySupport: Map<string, LegacyTaskSupport> | undefined;
  /** The task machinery of this client, once loaded and made. */
  private loaded: TaskMachinery | undefined;

  constructor(readonly deps: TaskManagerDeps) {
    this.resolved = deps.options;
  }

  /** The options in force; the defaults when the client did not set any but a call asked for a task. */
  get settings(): ResolvedTasksOptions {
    this.resolved ??= resolveTasksOptions(true) as ResolvedTasksOptions;
    return this.resolved;
  }

  /** Aborts (with the client's `ConnectionClosedError`) once the client closed. */
  get lifetime(): AbortSignal {
    return this.closed.signal;
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
   * What `callTool` returns for a `CreateTaskResult`: the handle in `manual` mode; in `auto`
   * mode the tool's result once the task is done, with `options.onTask` hearing each state.
   * Loads the task machinery (once per process) before the task is looked at again. When it
   * cannot load, the task's record is written all the same (and `onTask` hears its first state)
   * so that `resumeTask` can pick it up later, and the call rejects with `ModuleLoadError`.
   * The record keeps whom the client acts for as the answer comes ({@link TaskManagerDeps.principal}):
   * a user scope's own client, its user; a host's shared client, the entry's own partition (the
   * host resumes those through `host.client(name)`), never the user whose call started it.
   * @throws ModuleLoadError (-33042); ProtocolError (-32600) for a malformed task; as
   *   `ToolTask.result()`.
   */
  async take(
    toolName: string,
    result: JsonObject,
    mode: 'auto' | 'manual',
    options: CallToolOptions,
  ): Promise<CallToolResult | ToolTask> {
    const principal = this.deps.principal();
    let machinery: TaskMachinery;
    try {
      machinery = await this.machinery();
    } catch (error) {
      await this.keep(toolName, result, mode, options, principal);
      throw error;
    }
    return machinery.take(toolName, result, mode, options, principal);
  }

  /**
   * Picks up a task again, on this connection: checks the stored record (same server, TTL not
   * passed), then asks `tasks/get` for the task as it is now. A task this client has no record
   * of is resumed too (without its answered keys).
   * @throws ModuleLoadError (-33042), with nothing sent, when the task machinery cannot load;
   *   InvalidArgumentError (-32602), with nothing sent, for an empty id, a bad `task`
   *   option, or a record of another server; TaskExpiredError (-33031), with nothing sent,
   *   when the stored TTL has passed; TaskNotFoundError (-32602 as sent) when the server does
   *   not know the id; ProtocolError; any error of the request.
   */
  async resume(taskId: string, options: ResumeTaskOptions = {}): Promise<ToolTask> {
    return (await this.machinery()).resume(taskId, options);
  }

  /**
   * Every stored task of this server made for this client's principal (none declared: those
   * made for none), for a host picking up after a restart. Starts loading the task machinery,
   * which the `resumeTask` calls that usually follow need.
   */
  async stored(): Promise<TaskRecord[]> {
    void this.machinery().catch(() => undefined);
    const { store } = this.settings;
    const principal = this.deps.principal();
    const out: TaskRecord[] = [];
    for (const key of await store.keys(taskKeyPrefix(this.deps.serverIdentity, principal))) {
      const record = await store.get(key);
      if (record !== undefined && record.principal === principal) out.push(record);
    }
    return out;
  }

  /**
   * Waits until every `tasks/cancel` in flight has its answer, at most `graceMs` (then resolves
   * anyway): a client closing right after its caller aborted lets the cancel through instead of
   * cutting it off (and reporting it failed). Resolves at once when none is in flight (always
   * before the machinery loaded: only the machinery sends them). `graceMs` defaults to
   * `CANCEL_GRACE_MS` (2000).
   */
  async drainCancels(graceMs?: number): Promise<void> {
    await this.loaded?.drainCancels(graceMs);
  }

  /** The client closed: every loop stops with `error`; tasks and records stay for a resume. */
  close(error: Error): void {
    this.closed.abort(error);
  }

  /** The task machinery of this client, loaded (once per process) and made on first use. @throws ModuleLoadError (-33042) */
  private async machinery(): Promise<TaskMachinery> {
    const { TaskMachinery } = await loadMachinery();
    return (this.loaded ??= new TaskMachinery(this));
  }

  /**
   * The task machinery could not load for a task the server created: its record is written (a
   * store failure goes to `onError`) and an `auto` call's `onTask` hears its first state, so
   * that the task can be resumed once the machinery loads.
   * @throws ProtocolError (-32600) for a malformed task.
   */
  private async keep(
    toolName: string,
    result: JsonObject,
    mode: 'auto' | 'manual',
    options: CallToolOptions,
    principal: string | undefined,
  ): Promise<void> {
    const seed = readTask('tools/call', result);
    const { store, clock } = this.settings;
    const { serverIdentity } = this.deps;
    try {
      await store.set(
        taskKey(serverIdentity, seed.taskId, principal),
        createdTaskRecord(serverIdentity, toolName, seed, clock.now(), principal),
      );
    } catch (error) {
      this.deps.onError(error);
    }
    try {
      if (mode === 'auto') options.onTask?.(seed);
    } catch (error) {
      this.deps.onError(error);
    }
  }
}

/** True for a `tools/call` result that is a task (`resultType: "task"`). */
export function isCreateTaskResult(result: JsonObject): boolean {
  return result['resultType'] === 'task';
}
