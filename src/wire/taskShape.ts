/**
 * Pure checks of the task objects a server sends once a task exists (spec: ext-tasks, Tasks and
 * Task Status): only the fields mcp-live reads, each once; the state every task carries is
 * checked by `taskState.ts`. Anything that breaks them is a `ProtocolError` (-32600) carrying
 * the value as received.
 */
import { ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from './messages.js';
import { readTask } from './taskState.js';
import type { DetailedTask, TaskStatus, TerminalTaskStatus } from './tasks.js';

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminalStatus(status: TaskStatus): status is TerminalTaskStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * Reads a `DetailedTask` (a `tasks/get` result or `notifications/tasks` params): a
 * `readTask` task plus its status's payload: `inputRequests` an object for
 * `input_required`, `result` an object for `completed`, `error` an object with a numeric
 * `code` and a string `message` for `failed`.
 *
 * @throws ProtocolError (-32600) when a field breaks those rules.
 */
export function readDetailedTask(method: string, value: unknown): DetailedTask {
  const task = readTask(method, value) as unknown as JsonObject;
  const fail = (reason: string): never => {
    throw new ProtocolError(reason, { method, value });
  };
  switch (task['status']) {
    case 'input_required':
      if (!isObject(task['inputRequests'])) fail('an input_required task needs an inputRequests object');
      break;
    case 'completed':
      if (!isObject(task['result'])) fail('a completed task needs a result object');
      break;
    case 'failed': {
      const error = task['error'];
      if (!isObject(error) || typeof error['code'] !== 'number' || typeof error['message'] !== 'string')
        fail('a failed task needs an error object with a numeric code and a string message');
      break;
    }
  }
  return task as unknown as DetailedTask;
}
