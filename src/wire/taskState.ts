/**
 * The state every task object a server sends carries (spec: ext-tasks, Tasks and Task Status),
 * checked: what a `CreateTaskResult` holds, and when the task stops being usable. What a client
 * needs of a task before the task machinery loads (its record is written from it). Anything
 * that breaks the rules is a `ProtocolError` (-32600) carrying the value as received.
 */
import { ProtocolError } from '../errors/errors.js';
import { isObject } from './messages.js';
import { TASK_STATUSES, type Task, type TaskStatus } from './tasks.js';

/**
 * Reads a `Task` (a `CreateTaskResult`'s seed state): `taskId` a non-empty string, `status`
 * one of the five, `statusMessage` a string when present, `ttlMs` a non-negative number or
 * `null` when present (absent reads as `null`), `pollIntervalMs` a non-negative number when
 * present. `createdAt` and `lastUpdatedAt` are kept as sent (strings expected, not required).
 *
 * @param method the request the value answers (for errors).
 * @throws ProtocolError (-32600) when a field breaks those rules.
 */
export function readTask(method: string, value: unknown): Task {
  const fail = (reason: string): never => {
    throw new ProtocolError(reason, { method, value });
  };
  if (!isObject(value)) return fail('a task must be an object');
  const { taskId, status, statusMessage, ttlMs, pollIntervalMs } = value;
  if (typeof taskId !== 'string' || taskId === '') return fail('task.taskId must be a non-empty string');
  if (typeof status !== 'string' || !TASK_STATUSES.includes(status as TaskStatus))
    return fail(`task.status must be one of ${TASK_STATUSES.join(', ')}`);
  if (statusMessage !== undefined && typeof statusMessage !== 'string')
    return fail('task.statusMessage must be a string');
  if (ttlMs !== undefined && ttlMs !== null && !isDuration(ttlMs))
    return fail('task.ttlMs must be a non-negative number of ms or null');
  if (pollIntervalMs !== undefined && !isDuration(pollIntervalMs))
    return fail('task.pollIntervalMs must be a non-negative number of ms');
  return value as unknown as Task;
}

/**
 * When the task may stop being usable, in epoch ms: `createdAt + ttlMs` (spec: Task Polling,
 * the TTL as a backstop), with `fallbackCreatedAt` standing in for a `createdAt` that does not
 * parse. `null` when `ttlMs` is `null` or absent (no limit).
 */
export function taskExpiresAt(task: Task, fallbackCreatedAt: number): number | null {
  const ttl = task.ttlMs;
  if (ttl === null || ttl === undefined) return null;
  const created = typeof task.createdAt === 'string' ? Date.parse(task.createdAt) : Number.NaN;
  return (Number.isFinite(created) ? created : fallbackCreatedAt) + ttl;
}

function isDuration(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
