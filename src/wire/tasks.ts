/**
 * Shapes of the Tasks extension (`io.modelcontextprotocol/tasks`, repository
 * modelcontextprotocol/ext-tasks, specification/draft/tasks.md), transcribed from its schema.
 * As with the core types, every object may carry more fields than listed.
 */
import type { JsonObject, JsonRpcErrorObject } from './messages.js';
import type { InputRequest, InputResponse } from './protocol.js';

/** The extension's identifier, as declared under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The methods the extension adds. Over Streamable HTTP each carries `Mcp-Name: <params.taskId>`. */
export const TaskMethod = {
  get: 'tasks/get',
  update: 'tasks/update',
  cancel: 'tasks/cancel',
} as const;

/** The notification a server pushes on a `subscriptions/listen` stream that asked for `taskIds`. */
export const TASK_STATUS_NOTIFICATION = 'notifications/tasks';

/**
 * Where a task is (spec: Task Status): `working` → (`input_required` ⇄ `working`)* → one of
 * the terminal statuses `completed`, `failed`, `cancelled`.
 */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The three statuses a task never leaves. */
export type TerminalTaskStatus = 'completed' | 'failed' | 'cancelled';

/** Every status, in the spec's order. */
export const TASK_STATUSES: readonly TaskStatus[] = Object.freeze([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
]);

/** A task's operational metadata (spec: Tasks). */
export interface Task {
  /** The server-generated id, used for every `tasks/*` request. */
  taskId: string;
  status: TaskStatus;
  /** What the task is doing, for any status; may be shown to the user or the model. */
  statusMessage?: string;
  /** ISO 8601 time the task was created. */
  createdAt: string;
  /** ISO 8601 time the task last changed. */
  lastUpdatedAt: string;
  /** How long after `createdAt` the server may discard the task, in ms; `null` for no limit. May change. */
  ttlMs: number | null;
  /** The server's suggested wait between `tasks/get` polls, in ms. May change. */
  pollIntervalMs?: number;
}

/** A task being worked on. */
export interface WorkingTask extends Task {
  status: 'working';
}

/** A task waiting for the client: answer `inputRequests` (keys unique for the task's lifetime) with `tasks/update`. */
export interface InputRequiredTask extends Task {
  status: 'input_required';
  inputRequests: Record<string, InputRequest>;
}

/** A finished task; `result` is what the original request would have returned (a `CallToolResult` for `tools/call`). */
export interface CompletedTask extends Task {
  status: 'completed';
  result: JsonObject;
}

/** A task whose request ended in a JSON-RPC error. */
export interface FailedTask extends Task {
  status: 'failed';
  error: JsonRpcErrorObject;
}

/** A task cancelled before it completed. */
export interface CancelledTask extends Task {
  status: 'cancelled';
}

/** A task with its status's payload inlined: what `tasks/get` answers and `notifications/tasks` carries. */
export type DetailedTask = WorkingTask | InputRequiredTask | CompletedTask | FailedTask | CancelledTask;

/** A task in a terminal status. */
export type TerminalTask = CompletedTask | FailedTask | CancelledTask;

/**
 * The result a server returns instead of the request's own (`resultType: "task"`): the task's
 * seed state, usually `working`, without a status payload.
 */
export interface CreateTaskResult extends Task {
  resultType: 'task';
  _meta?: JsonObject;
}

/** `tasks/update` params: answers to outstanding `inputRequests`, keyed as they were. */
export interface UpdateTaskParams {
  taskId: string;
  inputResponses: Record<string, InputResponse>;
}
