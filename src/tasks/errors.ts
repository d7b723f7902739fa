import { ErrorCode } from '../errors/codes.js';
import { CancelledError, LocalError, McpError, RpcError } from '../errors/errors.js';
import type { JsonRpcErrorObject } from '../wire/messages.js';
import type { TaskStatus } from '../wire/tasks.js';

/**
 * The task ended in status `failed` (spec: ext-tasks, Task Execution Errors): the request it ran
 * hit a JSON-RPC error. `code`, `message` and `data` are the task's `error` exactly as the server
 * sent it, so this is an `RpcError` (`local: false`); `taskId` and `statusMessage` say which task
 * and what the server said about it. A tool that reported `isError: true` completes instead.
 */
export class TaskFailedError extends RpcError {
  override name = 'TaskFailedError';
  /** The task that failed. */
  readonly taskId: string;
  /** The task's last `statusMessage`, when it had one. */
  readonly statusMessage: string | undefined;

  constructor(error: JsonRpcErrorObject, method: string, taskId: string, statusMessage: string | undefined) {
    super(error, method);
    this.taskId = taskId;
    this.statusMessage = statusMessage;
  }
}

/**
 * The task reached status `cancelled` (spec: ext-tasks, Task Cancellation): cancelled by the
 * server, by another client, or by `tasks/cancel` from this one. Code -32800 (a
 * `CancelledError`, `data` is `{ method }`); `taskId` and `statusMessage` name the task and
 * the server's reason. When the caller's own signal ends a call, the call rejects with a plain
 * `CancelledError` at once and the server gets `tasks/cancel`.
 */
export class TaskCancelledError extends CancelledError {
  override name = 'TaskCancelledError';
  /** The cancelled task. */
  readonly taskId: string;
  /** The task's last `statusMessage` (often the reason), when it had one. */
  readonly statusMessage: string | undefined;

  constructor(method: string, taskId: string, statusMessage: string | undefined) {
    super(method, undefined);
    this.message = `${method}: task ${taskId} was cancelled${statusMessage === undefined ? '' : `: ${statusMessage}`}`;
    this.taskId = taskId;
    this.statusMessage = statusMessage;
  }
}

/** `data` of {@link TaskExpiredError}. */
export interface TaskExpiredErrorData {
  /** The task given up on. */
  taskId: string;
  /** When it stopped being usable: `createdAt + ttlMs`, in epoch ms. */
  expiresAt: number;
  /** The last status seen, when one was. */
  status: TaskStatus | undefined;
}

/**
 * The task's time to live ran out before it reached a terminal status (spec: ext-tasks, Task
 * Polling: after `createdAt + ttlMs` a client may consider a task no longer usable), so
 * mcp-live stopped polling it, or refused to resume it without sending anything. Its stored
 * record is dropped. Local code -33031; `data` is `{ taskId, expiresAt, status }`
 * (epoch ms; the last status seen).
 */
export class TaskExpiredError extends LocalError {
  override name = 'TaskExpiredError';
  declare readonly data: TaskExpiredErrorData;

  constructor(data: TaskExpiredErrorData) {
    super(ErrorCode.TaskExpired, `task ${data.taskId} expired at ${new Date(data.expiresAt).toISOString()}`, { data });
  }
}

/**
 * The server answered a `tasks/get`, `tasks/update` or `tasks/cancel` with -32602 (Invalid
 * params), which the extension uses for an unknown task id: never issued, expired, or purged
 * (spec: ext-tasks, Protocol Errors). An `RpcError` with `code`, `message` and `data` as sent;
 * `taskId` is the id asked about. Its stored record is dropped.
 */
export class TaskNotFoundError extends RpcError {
  override name = 'TaskNotFoundError';
  /** The id the server did not know. */
  readonly taskId: string;

  constructor(error: JsonRpcErrorObject, method: string, taskId: string, httpStatus?: number) {
    super(error, method, httpStatus);
    this.taskId = taskId;
  }
}

/** True for a {@link TaskNotFoundError}, whichever copy of the package made it. */
export function isTaskNotFoundError(value: unknown): value is TaskNotFoundError {
  return McpError.is(value) && !value.local && value.name === 'TaskNotFoundError' && 'taskId' in value;
}

/** True for a {@link TaskExpiredError}, whichever copy of the package made it. */
export function isTaskExpiredError(value: unknown): value is TaskExpiredError {
  return McpError.is(value) && value.local && value.code === ErrorCode.TaskExpired;
}

/** Why the client stopped following a task (see {@link TaskAbandonedError}). */
export type TaskAbandonReason =
  /** Consecutive `tasks/get` polls failed with transient errors past `TasksOptions.pollRetry`. */
  | 'poll-failures'
  /** The call's `maxTotalTimeoutMs` passed. */
  | 'deadline'
  /** The client closed, or its connection was lost for good. */
  | 'closed';

/** `data` of {@link TaskAbandonedError}. */
export interface TaskAbandonedErrorData {
  /** The task given up on: what `resumeTask` takes. */
  taskId: string;
  reason: TaskAbandonReason;
  /**
   * Whether the task may still be running on the server: `true` when nothing ended it (no
   * `tasks/cancel` was sent), so its record is kept and `resumeTask(taskId)` can pick it up.
   */
  resumable: boolean;
  /** The last status seen. */
  status: TaskStatus;
  /** Polls that failed in a row before giving up (`poll-failures` only). */
  failedPolls?: number | undefined;
}

/**
 * The client stopped following a task that the server had not ended (local code -33033,
 * `ErrorCode.TaskAbandoned`): its `tasks/get` polls kept failing with transient errors (-32603,
 * timeouts, a dropped connection, HTTP 5xx or 429) past the retry budget, the call's
 * `maxTotalTimeoutMs` passed, or the client closed. Unlike `TaskFailedError` this says nothing
 * about the tool: the server may still be running it. `data` is
 * {@link TaskAbandonedErrorData}; `taskId` and `resumable` are copied on the error, and `cause`
 * is the last poll failure, the `TimeoutError` or the `ConnectionClosedError`.
 */
export class TaskAbandonedError extends LocalError {
  override name = 'TaskAbandonedError';
  declare readonly data: TaskAbandonedErrorData;
  /** The task given up on. */
  readonly taskId: string;
  /** Whether it may still run and can be resumed with `resumeTask(taskId)`. */
  readonly resumable: boolean;

  constructor(data: TaskAbandonedErrorData, cause: unknown) {
    super(ErrorCode.TaskAbandoned, `stopped following task ${data.taskId} (${abandonWhy(data)})`, { data, cause });
    this.taskId = data.taskId;
    this.resumable = data.resumable;
  }
}

function abandonWhy(data: TaskAbandonedErrorData): string {
  const tail = data.resumable ? `; it may still be ${data.status}: resumeTask() can pick it up` : '';
  switch (data.reason) {
    case 'poll-failures':
      return `${data.failedPolls ?? 0} polls failed in a row${tail}`;
    case 'deadline':
      return `the call's maxTotalTimeoutMs passed${tail}`;
    default:
      return `the client closed${tail}`;
  }
}

/** True for a {@link TaskAbandonedError}, whichever copy of the package made it. */
export function isTaskAbandonedError(value: unknown): value is TaskAbandonedError {
  return McpError.is(value) && value.local && value.code === ErrorCode.TaskAbandoned;
}
