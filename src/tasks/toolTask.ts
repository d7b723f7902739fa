/**
 * The handle of one task (spec: ext-tasks): its latest state, the three methods on the wire
 * (`tasks/get`, `tasks/update`, `tasks/cancel`), events, and `result()`, which follows it to
 * its end. Its record in the task store is kept current so another client can resume it.
 *
 * The handle is small and loads with the client; what it forwards to (`taskRun.ts`) is part of
 * the task machinery, which loads once a task exists and is the only code that makes handles.
 */
import type { CallOptions } from '../wire/callOptions.js';
import type { CallToolResult, InputRequest, InputResponse } from '../wire/protocol.js';
import type { DetailedTask, InputRequiredTask, Task, TaskStatus } from '../wire/tasks.js';

/**
 * One event of a {@link ToolTask}:
 * - `status`: a new state of the task (created, or status, `statusMessage` or `lastUpdatedAt`
 *   changed), from a poll or a push.
 * - `inputRequired`: the task waits for input; `inputRequests` holds only the keys never
 *   answered and not announced before (each key is announced once). In `auto` mode the
 *   client's handlers are already answering them; in `manual` mode answer with `update()`.
 */
export type ToolTaskEvent =
  | { type: 'status'; task: Task | DetailedTask }
  | { type: 'inputRequired'; task: InputRequiredTask; inputRequests: Record<string, InputRequest> };

/** @internal What a {@link ToolTask} forwards to: its run in the task machinery, member for member. */
export interface ToolTaskCore {
  readonly taskId: string;
  readonly toolName: string | undefined;
  readonly mode: 'auto' | 'manual';
  readonly status: TaskStatus;
  readonly task: Task | DetailedTask;
  readonly answeredKeys: readonly string[];
  on(listener: (event: ToolTaskEvent) => void): () => void;
  get(options: CallOptions): Promise<DetailedTask>;
  update(inputResponses: Record<string, InputResponse>, options: CallOptions): Promise<void>;
  cancel(options: CallOptions): Promise<void>;
  result(options: CallOptions): Promise<CallToolResult>;
  persist(): Promise<void>;
}

/**
 * A task a tool call became (`resultType: "task"`), from `callTool(…, { task: 'manual' })` or
 * `resumeTask()`. `result()` follows it to the end; `get`, `update` and `cancel` are the
 * extension's three methods for hosts that drive it themselves.
 *
 * ```ts
 * const task = await client.resumeTask(taskId, { task: 'manual' });
 * task.on((event) => {
 *   if (event.type === 'inputRequired') void task.update(await askUser(event.inputRequests));
 * });
 * const result = await task.result();
 * ```
 */
export class ToolTask {
  /** The server's task id. */
  readonly taskId: string;
  /** The tool called, when known (this client created the task, or the store remembers it). */
  readonly toolName: string | undefined;
  /** `auto`: input is answered through the client's handlers; `manual`: by the host with {@link update}. */
  readonly mode: 'auto' | 'manual';

  /** @internal Made by the client; see `McpClient.callTool` and `McpClient.resumeTask`. */
  constructor(private readonly core: ToolTaskCore) {
    this.taskId = core.taskId;
    this.toolName = core.toolName;
    this.mode = core.mode;
  }

  /** The latest status seen. */
  get status(): TaskStatus {
    return this.core.status;
  }

  /** The latest state seen: the `CreateTaskResult`, a `tasks/get` answer or a pushed one. */
  get task(): Task | DetailedTask {
    return this.core.task;
  }

  /** Keys of `inputRequests` answered so far (acknowledged by the server). */
  get answeredKeys(): readonly string[] {
    return this.core.answeredKeys;
  }

  /** Adds a listener; returns the function that removes it. A throwing listener is reported to `onError`. */
  on(listener: (event: ToolTaskEvent) => void): () => void {
    return this.core.on(listener);
  }

  /**
   * `tasks/get`: the task as it is now (spec: ext-tasks, Task Polling). Emits its events.
   * @throws TaskNotFoundError (-32602 as sent) when the server does not know the id (the record
   *   is dropped); ProtocolError (-32600) for a malformed task; any error of the request.
   */
  get(options: CallOptions = {}): Promise<DetailedTask> {
    return this.core.get(options);
  }

  /**
   * `tasks/update`: answers input requests by key (spec: ext-tasks, Task Update Requests). Each
   * key is answered once for the task's lifetime; the keys are recorded once the server
   * acknowledges them.
   * @throws InvalidArgumentError (-32602), with nothing sent, for an empty or non-object
   *   `inputResponses` or a key answered before; TaskNotFoundError; any error of the request.
   */
  update(inputResponses: Record<string, InputResponse>, options: CallOptions = {}): Promise<void> {
    return this.core.update(inputResponses, options);
  }

  /**
   * `tasks/cancel` (spec: ext-tasks, Task Cancellation; 2025-11-25: basic/utilities/tasks):
   * asks the server to stop. Resolves once the server confirmed: then {@link status} is
   * `cancelled` (the state the server answered with, when it sent one), a `status` event is
   * emitted, the record is dropped, and a `result()` in progress rejects with `CancelledError`.
   * Cooperative: the server may still finish the work. Nothing is sent once the task is
   * terminal. A second call while one is in flight joins it.
   * @throws TaskNotFoundError (the server does not know the id, or the task had ended); any error
   *   of the request (then `status` is unchanged).
   */
  cancel(options: CallOptions = {}): Promise<void> {
    return this.core.cancel(options);
  }

  /**
   * Follows the task to its end (polling `tasks/get`, or through push) and returns the tool's
   * result. `auto` handles answer input with the client's handlers; `manual` ones wait for
   * {@link update}. Called again, it joins the run in progress (with that run's options), or
   * settles as the finished task did.
   *
   * `options.signal` cancels the task (`tasks/cancel`, never `notifications/cancelled`) and
   * rejects with `CancelledError`; `timeoutMs` applies to each request; `maxTotalTimeoutMs`,
   * when given, bounds the whole wait (`TimeoutError`, the task cancelled); `onProgress` hears
   * each state (`progress` counts them, `message` is the `statusMessage` or the status).
   *
   * @returns the `CallToolResult` of a `completed` task (`isError: true` included).
   * @throws TaskFailedError (the task's JSON-RPC error, as sent) for `failed`;
   *   TaskCancelledError (-32800) for `cancelled`; TaskExpiredError (-33031) past the TTL;
   *   TaskNotFoundError (-32602); CancelledError (-32800) on abort; TimeoutError (-32001);
   *   ConnectionClosedError (-32000) when the client closes (the task keeps running and can be
   *   resumed); InputRequestFailedError (-33007) when a handler cannot answer (the task is
   *   cancelled); ProtocolError (-32600) for a malformed task or result.
   */
  result(options: CallOptions = {}): Promise<CallToolResult> {
    return this.core.result(options);
  }

  /** @internal Writes the record (in order, after earlier writes); failures go to `onError`. */
  persist(): Promise<void> {
    return this.core.persist();
  }
}
