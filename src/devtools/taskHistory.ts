/**
 * The tasks the devtools saw (spec: ext-tasks), with their status history: heard from the
 * results that pass the recorder's middleware (a `tools/call` answered with a task, then each
 * `tasks/get`, `tasks/update` and `tasks/cancel` answer). A status pushed on a listen stream
 * (`notifications/tasks`) is no request and is not heard; the next poll's is. Bounded: the last
 * {@link MAX_TASKS} tasks, the last {@link MAX_TRANSITIONS} statuses of each.
 */
import { isObject, type JsonObject } from '../wire/messages.js';
import { redactText } from '../observability/debug.js';
import { headOf } from '../util/text.js';
import type { DevtoolsTask } from './snapshot.js';

/** Tasks kept, the oldest seen dropped first. */
export const MAX_TASKS = 100;
/** Statuses kept per task (the first one and the newest). */
export const MAX_TRANSITIONS = 20;
const MAX_MESSAGE = 200;

interface TaskRecord {
  server: string | undefined;
  taskId: string;
  tool: string | undefined;
  status: string;
  statusMessage: string | undefined;
  history: { status: string; at: number }[];
}

const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** See the file's opening comment. */
export class TaskHistory {
  /** By `server\0taskId`, in the order first seen. */
  private readonly tasks = new Map<string, TaskRecord>();

  /**
   * What one request's result says of a task; true when a task came or changed status.
   * Cheap for every other result: one comparison of the method.
   */
  heard(
    server: string | undefined,
    method: string,
    params: Readonly<JsonObject>,
    result: unknown,
    now: () => number,
  ): boolean {
    let task: unknown;
    let tool: string | undefined;
    if (method === 'tools/call') {
      if (!isObject(result) || result['resultType'] !== 'task') return false;
      task = result; // a CreateTaskResult is the task's seed state itself
      tool = typeof params['name'] === 'string' ? params['name'] : undefined;
    } else if (TASK_METHODS.has(method)) {
      task = result;
    } else return false;
    if (!isObject(task) || typeof task['taskId'] !== 'string' || typeof task['status'] !== 'string') return false;
    const taskId = task['taskId'];
    const status = task['status'];
    const message = typeof task['statusMessage'] === 'string' ? task['statusMessage'] : undefined;
    const at = now();
    const key = `${server ?? ''}\u0000${taskId}`;
    let record = this.tasks.get(key);
    if (record === undefined) {
      if (this.tasks.size >= MAX_TASKS) this.tasks.delete(this.tasks.keys().next().value as string);
      record = { server, taskId, tool, status, statusMessage: message, history: [{ status, at }] };
      this.tasks.set(key, record);
      return true;
    }
    record.tool ??= tool;
    const changed = record.status !== status || record.statusMessage !== message;
    record.statusMessage = message;
    if (record.status === status) return changed;
    record.status = status;
    record.history.push({ status, at });
    if (record.history.length > MAX_TRANSITIONS) record.history.splice(1, 1);
    return true;
  }

  /** Every task kept, oldest seen first. */
  list(): DevtoolsTask[] {
    return [...this.tasks.values()].map((t) => ({
      server: t.server,
      taskId: headOf(t.taskId, 64),
      tool: t.tool,
      status: t.status,
      statusMessage: t.statusMessage === undefined ? undefined : redactText(headOf(t.statusMessage, MAX_MESSAGE)),
      history: t.history.map((h) => ({ ...h })),
    }));
  }
}
