/**
 * Tasks on the 2025-11-25 wire (spec 2025-11-25: basic/utilities/tasks), driven by the same
 * loop as the extension's: a tool listed with `execution.taskSupport` is called with a `task`
 * field, the `CreateTaskResult` (`{ task }`) becomes the extension's seed, and the requests of
 * the loop are translated: `tasks/get` answers a bare `Task` (`ttl`, `pollInterval`) whose
 * outcome comes from `tasks/result`; input is asked for on that blocking `tasks/result`, where
 * the server sends its `elicitation/create` (answered by the client's handlers, as any server
 * request); `tasks/cancel` is the same method. There is no `tasks/update` on that wire.
 */
import { ErrorCode } from '../errors/codes.js';
import { InvalidArgumentError, ProtocolError, RpcError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { ServerCapabilities, Tool } from '../wire/protocol.js';
import { isTerminalStatus, readTask } from '../wire/taskShape.js';
import { TaskMethod, type Task } from '../wire/tasks.js';
import { checkTaskMode, type TaskMode } from './options.js';

/** `execution.taskSupport` of a 2025-11-25 tool (spec: Tool-Level Negotiation); absent reads as `forbidden`. */
export type LegacyTaskSupport = 'forbidden' | 'optional' | 'required';

/** The 2025-11-25 method that returns a task's outcome, blocking until it is terminal. */
export const LEGACY_TASK_RESULT = 'tasks/result';

/** True when a 2025-11-25 server accepts task-augmented `tools/call` (`capabilities.tasks.requests.tools.call`). */
export function legacyServerRunsToolTasks(capabilities: ServerCapabilities | undefined): boolean {
  const tasks = (capabilities as JsonObject | undefined)?.['tasks'];
  if (!isObject(tasks) || !isObject(tasks['requests'])) return false;
  const tools = tasks['requests']['tools'];
  return isObject(tools) && isObject(tools['call']);
}

/** A tool's `execution.taskSupport`, `forbidden` when absent or not one of the three. */
export function legacyTaskSupport(tool: Pick<Tool, 'name'> & { execution?: unknown }): LegacyTaskSupport {
  const execution = tool.execution;
  const support = isObject(execution) ? execution['taskSupport'] : undefined;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

/**
 * Why a 2025-11-25 tool cannot be called here, or `undefined` when it can: one that requires a
 * task on a server that does not declare `tasks.requests.tools.call` (the spec then forbids
 * task augmentation, and the server refuses the plain call). For a host to leave it out.
 */
export function legacyToolUncallable(
  tool: Pick<Tool, 'name'> & { execution?: unknown },
  capabilities: ServerCapabilities | undefined,
): string | undefined {
  if (legacyTaskSupport(tool) !== 'required' || legacyServerRunsToolTasks(capabilities)) return undefined;
  return 'it requires task-augmented execution (execution.taskSupport "required"), which the server does not declare (capabilities.tasks.requests.tools.call)';
}

/**
 * How one `callTool` runs a 2025-11-25 tool: `off` (a plain call) unless the server runs tool
 * tasks and the tool allows them; a `required` tool runs as a task in every mode but `off`
 * (`auto` unless the call says `manual`); an `optional` one when the call or the client asks
 * for tasks (`clientMode`, the mode the client's options give).
 * @throws InvalidArgumentError (-32602) for a bad `task` option.
 */
export function legacyTaskMode(support: LegacyTaskSupport, callMode: unknown, clientMode: TaskMode): TaskMode {
  const asked = checkTaskMode(callMode);
  if (support === 'forbidden' || asked === 'off') return 'off';
  if (support === 'required') return asked ?? 'auto';
  return asked ?? clientMode;
}

/** True for a 2025-11-25 `CreateTaskResult`: `{ task: Task }` and no `content`. */
export function isLegacyCreateTaskResult(result: JsonObject): boolean {
  return isObject(result['task']) && !Array.isArray(result['content']);
}

/**
 * A 2025-11-25 `Task` in the extension's shape (`ttl` → `ttlMs`, `pollInterval` →
 * `pollIntervalMs`), checked as any task is.
 * @throws ProtocolError (-32600) for a malformed task.
 */
export function fromLegacyTask(method: string, value: unknown): Task {
  if (!isObject(value)) throw new ProtocolError('a task must be an object', { method, value });
  const { ttl, pollInterval, ...rest } = value;
  const task: JsonObject = { ...rest, ttlMs: ttl === undefined ? null : ttl };
  if (pollInterval !== undefined) task['pollIntervalMs'] = pollInterval;
  return readTask(method, task);
}

/** A 2025-11-25 `CreateTaskResult` as the extension's (`resultType: "task"` and the seed state). */
export function fromLegacyCreateTaskResult(result: JsonObject): JsonObject {
  return { resultType: 'task', ...(fromLegacyTask('tools/call', result['task']) as unknown as JsonObject) };
}

/** How a task's outcome came back from `tasks/result`: the request's result, or its JSON-RPC error. */
type Outcome = { result: JsonObject } | { error: RpcError };

/** Sends one request on the 2025-11-25 wire; resolves with its result. */
export type LegacySend = (method: string, params: JsonObject, options: CallOptions) => Promise<JsonObject>;

/**
 * The extension's `tasks/*` requests over a 2025-11-25 server, for the task loop and `ToolTask`:
 * `tasks/get` resolves with a detailed task (its `result` or `error` fetched with `tasks/result`
 * once terminal); while it is `input_required`, one `tasks/result` stays open so the server
 * can send its requests. One per client; `forget(taskId)` drops what a finished task left.
 */
export class LegacyTaskRequests {
  private readonly outcomes = new Map<string, Promise<Outcome>>();

  constructor(private readonly send: LegacySend) {}

  /**
   * One request in the extension's terms.
   * @throws InvalidArgumentError (-32602), nothing sent, for `tasks/update`; ProtocolError for a
   *   malformed task; any error of the request.
   */
  async request(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    const taskId = String(params['taskId']);
    if (method === TaskMethod.update)
      throw new InvalidArgumentError(
        'method',
        method,
        'a 2025-11-25 server has no tasks/update: it asks for input on tasks/result, answered by the client handlers',
      );
    if (method === TaskMethod.cancel) {
      const answer = await this.send(TaskMethod.cancel, { taskId }, options);
      return { resultType: 'complete', ...(fromLegacyTask(method, answer) as unknown as JsonObject) };
    }
    const task = fromLegacyTask(method, await this.send(TaskMethod.get, { taskId }, options));
    const detailed: JsonObject = { resultType: 'complete', ...(task as unknown as JsonObject) };
    if (task.status === 'input_required') {
      // The server asks on the blocking tasks/result (spec: Input Required Status): keep one open.
      void this.outcome(taskId, options);
      detailed['inputRequests'] = {};
      return detailed;
    }
    if (!isTerminalStatus(task.status) || task.status === 'cancelled') return detailed;
    const outcome = await this.outcome(taskId, options);
    this.forget(taskId);
    if ('error' in outcome) {
      const { code, message, data } = outcome.error;
      return { ...detailed, status: 'failed', error: { code, message, ...(data !== undefined && { data }) } };
    }
    // A tool that reported isError: true is `failed` on this wire; here it is a result, as elsewhere.
    return { ...detailed, status: 'completed', result: outcome.result };
  }

  /** Drops the outcome kept for `taskId`. */
  forget(taskId: string): void {
    this.outcomes.delete(taskId);
  }

  /** The task's `tasks/result`, sent once and shared; a failure that is not the request's own error is not kept. */
  private outcome(taskId: string, options: CallOptions): Promise<Outcome> {
    let pending = this.outcomes.get(taskId);
    if (pending === undefined) {
      pending = this.send(LEGACY_TASK_RESULT, { taskId }, options).then(
        (result): Outcome => ({ result }),
        (error: unknown): Outcome => {
          this.outcomes.delete(taskId);
          if (error instanceof RpcError && error.code !== ErrorCode.InvalidParams) return { error };
          throw error;
        },
      );
      // Kept for the next look; its failure (aborted, timed out, connection gone) is seen there.
      pending.catch(() => undefined);
      this.outcomes.set(taskId, pending);
    }
    return pending;
  }
}
