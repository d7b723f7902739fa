/**
 * The server side of the Tasks extension (`io.modelcontextprotocol/tasks`, repository
 * modelcontextprotocol/ext-tasks, specification/draft/tasks.md) for the example server's one
 * long tool, `generate_report`. The official @modelcontextprotocol/server 2.4 has no server side
 * for this extension, so this file writes the minimum by hand on its extension points
 * (`registerCapabilities({ extensions })`, custom-schema request handlers):
 *
 * - the capability in `server/discover`;
 * - `tasks/get`, `tasks/update` and `tasks/cancel`, refused with -32021 to a request that does
 *   not declare the extension, and with -32602 for an unknown task id;
 * - a task table shared by every server instance of the process, so a task outlives the
 *   connection (and, over HTTP, the request) that created it;
 * - over HTTP, `notifications/tasks` on a `subscriptions/listen` stream that asks for `taskIds`
 *   (spec: Task Status Notifications). The SDK's listen router knows only the core filter
 *   fields, so such a listen is answered here ({@link serveTaskListen}) before it reaches the
 *   SDK. Over stdio the SDK's router answers it without `taskIds`, and clients poll.
 */
import { randomUUID } from 'node:crypto';
import {
  McpServer,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  inputRequired,
} from '@modelcontextprotocol/server';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How long a task is kept after it was created, in ms. */
const TASK_TTL_MS = 10 * 60_000;
/** The key of the report's one input request (unique over the task's lifetime, as the spec asks). */
const APPROVAL_KEY = 'approval';

/** What the approval question asks for. */
export const approvalSchema = z.object({
  approve: z.boolean().describe('Publish the report?'),
  note: z.string().describe('A note for the report').optional(),
});

/** The question the report asks halfway (as a task) or first (without one). */
export function approvalRequest(topic: string): ReturnType<typeof inputRequired.elicit> {
  return inputRequired.elicit({ message: `Publish the report on "${topic}"?`, requestedSchema: approvalSchema });
}

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One report being written. */
interface ReportTask {
  taskId: string;
  status: Status;
  statusMessage: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  topic: string;
  steps: number;
  stepMs: number;
  step: number;
  asked: boolean;
  note: string | undefined;
  inputRequests?: Record<string, unknown>;
  result?: CallToolResult;
  timer?: ReturnType<typeof setTimeout>;
  expiry: ReturnType<typeof setTimeout>;
}

/** What the text of a finished report says. */
export function reportText(topic: string, steps: number, note: string | undefined): string {
  return `Report on "${topic}": ${steps} sections written and approved${note ? ` (${note})` : ''}.`;
}

/** The rejected report's tool result (`isError: true`: a tool-level failure, so the task completes). */
export function rejectedReport(topic: string): CallToolResult {
  return { content: [{ type: 'text', text: `The report on "${topic}" was not approved.` }], isError: true };
}

/**
 * The tasks of one process. A task works through `steps` steps of `stepMs` ms; halfway it asks
 * for approval (`input_required`), then finishes, or completes with `isError` when refused.
 */
export class ReportTasks {
  private readonly tasks = new Map<string, ReportTask>();
  private readonly watchers = new Set<(task: Record<string, unknown>) => void>();

  /** Hears every change of every task, as `tasks/get` would answer it then; returns the unsubscribe. */
  onChange(listener: (task: Record<string, unknown>) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** Whether `taskId` names a task of this table. */
  has(taskId: string): boolean {
    return this.tasks.has(taskId);
  }

  /** Starts a report; the task exists (a `tasks/get` finds it) before this returns. */
  create(topic: string, steps: number, stepMs: number): Record<string, unknown> {
    const now = new Date().toISOString();
    const taskId = randomUUID();
    const task: ReportTask = {
      taskId,
      status: 'working',
      statusMessage: `writing section 1 of ${steps}`,
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: TASK_TTL_MS,
      pollIntervalMs: Math.min(1000, Math.max(50, stepMs)),
      topic,
      steps,
      stepMs,
      step: 0,
      asked: false,
      note: undefined,
      expiry: unref(setTimeout(() => this.drop(taskId), TASK_TTL_MS)),
    };
    this.tasks.set(taskId, task);
    this.schedule(task);
    return { resultType: 'task', ...this.view(task, false) };
  }

  /** `tasks/get`: the task with its status's payload. @throws ProtocolError -32602 for an unknown id. */
  get(taskId: string): Record<string, unknown> {
    return this.view(this.find(taskId), true);
  }

  /** `tasks/update`: the approval answer; keys not outstanding are ignored (spec: Task Update Requests). */
  update(taskId: string, inputResponses: Record<string, unknown> | undefined): Record<string, never> {
    const task = this.find(taskId);
    const answer = inputResponses?.[APPROVAL_KEY] as { action?: unknown; content?: unknown } | undefined;
    if (task.status !== 'input_required' || answer === undefined) return {};
    const parsed = approvalSchema.safeParse(answer.content);
    delete task.inputRequests;
    if (answer.action === 'accept' && parsed.success && parsed.data.approve) {
      task.note = parsed.data.note;
      this.set(task, 'working', `approved; writing section ${task.step + 1} of ${task.steps}`);
      this.schedule(task);
    } else {
      this.finish(task, rejectedReport(task.topic), 'not approved');
    }
    return {};
  }

  /** `tasks/cancel`: stops the work; a finished task stays as it was. */
  cancel(taskId: string): Record<string, never> {
    const task = this.find(taskId);
    if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return {};
    if (task.timer !== undefined) clearTimeout(task.timer);
    delete task.inputRequests;
    this.set(task, 'cancelled', 'cancelled by the client');
    return {};
  }

  private find(taskId: string): ReportTask {
    const task = this.tasks.get(taskId);
    if (task === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
    return task;
  }

  private schedule(task: ReportTask): void {
    task.timer = unref(setTimeout(() => this.step(task), task.stepMs));
  }

  private step(task: ReportTask): void {
    if (task.status !== 'working') return;
    task.step += 1;
    if (task.step >= task.steps) {
      const text = reportText(task.topic, task.steps, task.note);
      this.finish(task, { content: [{ type: 'text', text }] }, 'done');
      return;
    }
    if (!task.asked && task.step >= Math.ceil(task.steps / 2)) {
      task.asked = true;
      task.inputRequests = { [APPROVAL_KEY]: approvalRequest(task.topic) };
      this.set(task, 'input_required', 'waiting for approval');
      return;
    }
    this.set(task, 'working', `writing section ${task.step + 1} of ${task.steps}`);
    this.schedule(task);
  }

  private finish(task: ReportTask, result: CallToolResult, message: string): void {
    task.result = result;
    this.set(task, 'completed', message);
  }

  private set(task: ReportTask, status: Status, statusMessage: string): void {
    task.status = status;
    task.statusMessage = statusMessage;
    task.lastUpdatedAt = new Date().toISOString();
    const view = this.view(task, true);
    for (const listener of this.watchers) listener(view);
  }

  private drop(taskId: string): void {
    const task = this.tasks.get(taskId);
    if (task?.timer !== undefined) clearTimeout(task.timer);
    this.tasks.delete(taskId);
  }

  private view(task: ReportTask, detailed: boolean): Record<string, unknown> {
    const base: Record<string, unknown> = {
      taskId: task.taskId,
      status: task.status,
      statusMessage: task.statusMessage,
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: task.ttlMs,
      pollIntervalMs: task.pollIntervalMs,
    };
    if (!detailed) return base;
    if (task.status === 'input_required') base['inputRequests'] = task.inputRequests;
    if (task.status === 'completed') base['result'] = task.result;
    return base;
  }
}

/** Whether the request declared the extension in its `clientCapabilities` (2026-07-28 envelope). */
export function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.['io.modelcontextprotocol/clientCapabilities'] as
    { extensions?: Record<string, unknown> } | undefined;
  const declared = capabilities?.extensions?.[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null;
}

/** Lists the extension and serves `tasks/get`, `tasks/update` and `tasks/cancel` from `tasks`. Call before connecting. */
export function serveTaskMethods(server: McpServer, tasks: ReportTasks): void {
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  const params = z.object({ taskId: z.string() }).passthrough();
  const requireDeclared = (ctx: ServerContext): void => {
    if (!declaresTasks(ctx))
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        'Missing required client capability',
      );
  };
  server.server.setRequestHandler('tasks/get', { params }, (request, ctx) => {
    requireDeclared(ctx);
    return tasks.get(request.taskId);
  });
  server.server.setRequestHandler('tasks/update', { params }, (request, ctx) => {
    requireDeclared(ctx);
    // The SDK lifts `inputResponses` out of params, as it does for every multi round-trip request.
    return tasks.update(request.taskId, ctx.mcpReq.inputResponses);
  });
  server.server.setRequestHandler('tasks/cancel', { params }, (request, ctx) => {
    requireDeclared(ctx);
    return tasks.cancel(request.taskId);
  });
}

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** How often an open task stream gets an SSE comment, so that idle proxies keep it, in ms. */
const KEEP_ALIVE_MS = 15_000;

/**
 * Answers a `subscriptions/listen` (a parsed Streamable HTTP POST body) that asks for `taskIds`,
 * or returns `undefined` for any other message, which the SDK then serves. The stream
 * acknowledges the ids of tasks this table holds (and only `taskIds`: ask for list changes on
 * a listen of their own), then carries one `notifications/tasks` with the task as `tasks/get`
 * would answer it for each change, until the client goes (`signal`). With no id honoured it
 * closes at once with the listen's result. A request that does not declare the extension gets
 * -32021 (spec: Task Status Notifications).
 */
export function serveTaskListen(tasks: ReportTasks, message: unknown, signal: AbortSignal): Response | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
  const filter = params?.['notifications'] as { taskIds?: unknown } | undefined;
  if (method !== 'subscriptions/listen' || !Array.isArray(filter?.taskIds) || filter.taskIds.length === 0)
    return undefined;
  const meta = params?.['_meta'] as Record<string, { extensions?: Record<string, unknown> }> | undefined;
  if (typeof meta?.[CLIENT_CAPABILITIES]?.extensions?.[TASKS_EXTENSION] !== 'object') {
    const error = {
      code: -32021,
      message: 'Missing required client capability',
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    };
    return Response.json({ jsonrpc: '2.0', id, error });
  }
  const honoured = filter.taskIds.filter((taskId): taskId is string => typeof taskId === 'string' && tasks.has(taskId));
  const stamp = { [SUBSCRIPTION_ID]: id };
  const frame = (payload: object) => new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(payload)}\n\n`);
  let stop = (): void => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const ack = { notifications: honoured.length > 0 ? { taskIds: honoured } : {}, _meta: stamp };
      controller.enqueue(frame({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: ack }));
      if (honoured.length === 0) {
        controller.enqueue(frame({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: stamp } }));
        controller.close();
        return;
      }
      const unsubscribe = tasks.onChange((task) => {
        if (!honoured.includes(task['taskId'] as string)) return;
        const note = { jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task, _meta: stamp } };
        controller.enqueue(frame(note));
      });
      const keepAlive = unref(
        setInterval(() => controller.enqueue(new TextEncoder().encode(': keepalive\n\n')), KEEP_ALIVE_MS),
      );
      stop = () => {
        stop = () => {};
        unsubscribe();
        clearInterval(keepAlive);
        signal.removeEventListener('abort', onAbort);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      const onAbort = () => stop();
      if (signal.aborted) stop();
      else signal.addEventListener('abort', onAbort, { once: true });
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform' },
  });
}

/** A timer (or interval) that does not keep the process alive (a stdio server exits when its client goes). */
function unref<T extends ReturnType<typeof setTimeout>>(timer: T): T {
  timer.unref?.();
  return timer;
}
