/**
 * `mcp-live task get|result|cancel <task id>`: a task (Tasks extension) picked up by id on a new
 * connection, as a host resumes one after a restart (`McpClient.resumeTask`). The task lives on
 * the server, so this is for servers that outlive one CLI run (`--url`), not a stdio server
 * spawned for the run.
 */
import {
  CancelledError,
  ErrorCode,
  type CallToolResult,
  type DetailedTask,
  type McpClient,
  type Task,
  type ToolTask,
} from '../index.js';
import type { GlobalOptions } from './args.js';
import { CliError, EXIT_ERROR, EXIT_OK } from './errors.js';
import { ProgressLine, type CliIo } from './io.js';
import { describeContent, type Style } from './render.js';

/** What the task commands need (a `CommandContext` is one). */
export interface TaskCommandContext {
  client: McpClient;
  io: CliIo;
  options: GlobalOptions;
  style: Style;
}

export type TaskAction = 'get' | 'result' | 'cancel';

/** Runs one task command; resolves with the exit code. @throws as `resumeTask` (TaskNotFoundError for an unknown id). */
export async function runTaskCommand(ctx: TaskCommandContext, action: TaskAction, taskId: string): Promise<number> {
  switch (action) {
    case 'get':
      return getTask(ctx, taskId);
    case 'result':
      return taskResult(ctx, taskId);
    case 'cancel':
      return cancelTask(ctx, taskId);
  }
}

const out = (ctx: TaskCommandContext, text: string): void => void ctx.io.stdout.write(`${text}\n`);

/** `tasks/get` once: the task as it is now. */
async function getTask(ctx: TaskCommandContext, taskId: string): Promise<number> {
  const task = await ctx.client.resumeTask(taskId, { task: 'manual', signal: ctx.io.signal });
  const state = task.task as DetailedTask;
  if (ctx.options.json) {
    out(ctx, JSON.stringify(state, null, 2));
    return EXIT_OK;
  }
  out(ctx, `task ${state.taskId}: ${state.status}${state.statusMessage ? ` (${state.statusMessage})` : ''}`);
  const times = [`created ${state.createdAt}`, `updated ${state.lastUpdatedAt}`];
  times.push(state.ttlMs === null ? 'no ttl' : `ttl ${state.ttlMs} ms`);
  if (state.pollIntervalMs !== undefined) times.push(`poll every ${state.pollIntervalMs} ms`);
  out(ctx, ctx.style.dim(times.join(', ')));
  if (state.status === 'input_required')
    for (const [key, request] of Object.entries(state.inputRequests)) {
      const message = (request.params as { message?: unknown } | undefined)?.message;
      out(ctx, `asks ${key}: ${request.method}${typeof message === 'string' ? ` "${message}"` : ''}`);
    }
  if (state.status === 'completed') printResult(ctx, state.result as unknown as CallToolResult);
  if (state.status === 'failed') out(ctx, `error ${state.error.code}: ${state.error.message}`);
  return EXIT_OK;
}

/**
 * Follows the task to its end and prints its result as `call` does. With stdin on a terminal
 * its questions are asked there; without one, the command fails when the task asks, and the
 * task is left as it is. Ctrl-C stops following; it does not cancel (that is `task cancel`).
 */
async function taskResult(ctx: TaskCommandContext, taskId: string): Promise<number> {
  const interactive = ctx.io.stdin?.isTTY === true;
  const task = await ctx.client.resumeTask(taskId, { task: interactive ? 'auto' : 'manual', signal: ctx.io.signal });
  const progress = new ProgressLine(ctx.io.stderr);
  const show = (state: Task | DetailedTask): void => {
    if (state.status === 'input_required') progress.clear();
    else progress.update(`task ${taskId}: ${state.status}${state.statusMessage ? ` (${state.statusMessage})` : ''}`);
  };
  show(task.task);
  let result: CallToolResult;
  try {
    result = await new Promise<CallToolResult>((resolve, reject) => {
      const stop = (error: unknown): void => {
        off();
        ctx.io.signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = (): void => stop(new CancelledError('tasks/get', ctx.io.signal?.reason));
      const off = task.on((event) => {
        if (event.type === 'status') show(event.task);
        if (event.type === 'inputRequired' && !interactive) stop(unanswerable(task, Object.keys(event.inputRequests)));
      });
      // Asking already when resumed: that state came before the listener.
      if (task.task.status === 'input_required' && !interactive) {
        const asked = (task.task as DetailedTask & { inputRequests?: object }).inputRequests ?? {};
        stop(unanswerable(task, Object.keys(asked)));
        return;
      }
      if (ctx.io.signal?.aborted) onAbort();
      ctx.io.signal?.addEventListener('abort', onAbort, { once: true });
      // No signal: an abort here stops following; it must not send tasks/cancel.
      task.result().then((value) => {
        off();
        ctx.io.signal?.removeEventListener('abort', onAbort);
        resolve(value);
      }, stop);
    });
  } finally {
    progress.clear();
  }
  printResult(ctx, result);
  if (result.isError === true) {
    ctx.io.stderr.write(`mcp-live: the tool of task ${taskId} reported an error (isError: true)\n`);
    return EXIT_ERROR;
  }
  return EXIT_OK;
}

/** `tasks/cancel`: asks the server to stop the task (it may still finish: cancellation is cooperative). */
async function cancelTask(ctx: TaskCommandContext, taskId: string): Promise<number> {
  const task = await ctx.client.resumeTask(taskId, { task: 'manual', signal: ctx.io.signal });
  const before = task.status;
  await task.cancel({ signal: ctx.io.signal });
  if (ctx.options.json) out(ctx, JSON.stringify({ taskId, cancelRequested: true, status: before }, null, 2));
  else out(ctx, `cancel requested: task ${taskId} was ${before}`);
  return EXIT_OK;
}

function printResult(ctx: TaskCommandContext, result: CallToolResult): void {
  if (ctx.options.json) {
    out(ctx, JSON.stringify(result, null, 2));
    return;
  }
  for (const block of result.content) out(ctx, describeContent(block));
  if (result.structuredContent !== undefined)
    out(ctx, `${ctx.style.dim('structured:')} ${JSON.stringify(result.structuredContent)}`);
}

function unanswerable(task: ToolTask, keys: string[]): CliError {
  return new CliError(
    'InputRequestFailedError',
    ErrorCode.InputRequestFailed,
    `task ${task.taskId} waits for input (${keys.join(', ')}) and stdin is not a terminal; the task is left as it is`,
    { taskId: task.taskId, keys, reason: 'unsupported' },
  );
}
