/**
 * What a client needs of 2025-11-25 tasks (spec 2025-11-25: basic/utilities/tasks) before one
 * exists: whether the server runs tool tasks, each listed tool's `execution.taskSupport`, the
 * mode a call runs in, and a `CreateTaskResult` (`{ task }`) recognised and read as the
 * extension's seed. Pure; the requests that follow a task are in `legacyTasks.ts`.
 */
import { ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import type { ServerCapabilities, Tool } from '../wire/protocol.js';
import { readTask } from '../wire/taskState.js';
import type { Task } from '../wire/tasks.js';
import { checkTaskMode, type TaskMode } from './options.js';

/** `execution.taskSupport` of a 2025-11-25 tool (spec: Tool-Level Negotiation); absent reads as `forbidden`. */
export type LegacyTaskSupport = 'forbidden' | 'optional' | 'required';

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
