/**
 * Tasks on the 2025-11-25 wire (spec 2025-11-25: basic/utilities/tasks), driven by the same
 * loop as the extension's: a tool listed with `execution.taskSupport` is called with a `task`
 * field, the `CreateTaskResult` (`{ task }`) becomes the extension's seed, and the requests of
 * the loop are translated: `tasks/get` answers a bare `Task` (`ttl`, `pollInterval`) whose
 * outcome comes from `tasks/result`; input is asked for on that blocking `tasks/result`, where
 * the server sends its `elicitation/create` (answered by the client's handlers, as any server
 * request); `tasks/cancel` is the same method. There is no `tasks/update` on that wire. Loaded
 * with the rest of the task machinery, once a task exists; what a client needs before that is in
 * `legacySupport.ts`.
 */
import { ErrorCode } from '../errors/codes.js';
import { InvalidArgumentError, RpcError } from '../errors/errors.js';
import type { JsonObject } from '../wire/messages.js';
import type { CallOptions } from '../wire/callOptions.js';
import { isTerminalStatus } from '../wire/taskShape.js';
import { TaskMethod } from '../wire/tasks.js';
import { fromLegacyTask } from './legacySupport.js';

/** The 2025-11-25 method that returns a task's outcome, blocking until it is terminal. */
export const LEGACY_TASK_RESULT = 'tasks/result';

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
