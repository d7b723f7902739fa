/**
 * Options of the Tasks extension: client-wide (`ClientOptions.tasks`) and per `callTool`.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { WallClock } from '../util/clock.js';
import { MemoryTaskStore, type TaskStore } from './taskStore.js';
import { DEFAULT_TASK_POLL_RETRY, type ResolvedTaskPollRetry, type TaskPollRetry } from './pollRetry.js';
import type { DetailedTask, Task } from '../wire/tasks.js';
import type { CallOptions } from '../wire/callOptions.js';

/**
 * What `callTool` does when the server may answer with a task:
 * - `auto`: declare the extension, and drive a task to its end (poll or push, answer its input
 *   through the client's handlers, `tasks/cancel` on abort); resolve with the tool's result.
 * - `manual`: declare it, and return a `ToolTask` handle for the host to drive.
 * - `off`: do not declare it; the server then never answers with a task.
 * The extension is declared only when the server listed it in `server/discover` (2026-07-28
 * wire); otherwise every mode behaves as `off`.
 */
export type TaskMode = 'auto' | 'manual' | 'off';

/**
 * How long to wait between two looks at a task, in ms. The server's `pollIntervalMs` wins
 * when it sends one, held to [`minMs`, `maxSuggestedMs`]; without it the wait grows:
 * `initialMs`, `initialMs·factor`, … up to `maxMs` (reset when the status changes). So a server
 * that says `0` does not get a busy loop, nor one that says 2^31 a wait of 25 days.
 */
export interface TaskPollPolicy {
  /** First wait without a `pollIntervalMs`, in ms. @default 500 */
  initialMs: number;
  /** Growth per further wait without one (≥ 1). @default 1.5 */
  factor: number;
  /** Longest wait without one, in ms. @default 10000 */
  maxMs: number;
  /** Shortest wait, in ms, even when the server suggests less. @default 100 */
  minMs: number;
  /** Longest wait a server may suggest, in ms: a longer `pollIntervalMs` is held to it (and reported once). @default 60000 */
  maxSuggestedMs: number;
}

/** The default {@link TaskPollPolicy}: 500, 750, 1125 … 10 000 ms; a server's suggestion held to [100 ms, 60 s]. */
export const DEFAULT_TASK_POLL: Readonly<TaskPollPolicy> = Object.freeze({
  initialMs: 500,
  factor: 1.5,
  maxMs: 10_000,
  minMs: 100,
  maxSuggestedMs: 60_000,
});

/**
 * `ClientOptions.tasks`: the Tasks extension (`io.modelcontextprotocol/tasks`), off unless set.
 * Set, every `callTool` declares it (mode `auto`) unless the call says `task: 'off'` or
 * `'manual'`.
 */
export interface TasksOptions {
  /**
   * Where task ids and what resuming needs are kept (answered input keys, answers not yet
   * acknowledged, the TTL). Pass a durable one, and the same one to the next client, to resume
   * tasks after a reconnect or a restart. @default a new `MemoryTaskStore` per client
   */
  store?: TaskStore | undefined;
  /**
   * Ask the server to push `notifications/tasks` (a `subscriptions/listen` with `taskIds`) and
   * poll only while that stream is down or not honoured. @default true
   */
  push?: boolean | undefined;
  /** With push up, still look with `tasks/get` this often, in ms, in case a notification is lost. @default 30000 */
  pushBackstopMs?: number | undefined;
  /**
   * Waits between polls; the server's `pollIntervalMs` wins when it sends one, held to
   * [`minMs`, `maxSuggestedMs`] (100 ms to 60 s by default). @default DEFAULT_TASK_POLL
   */
  poll?: Partial<TaskPollPolicy> | undefined;
  /**
   * How a `tasks/get` that failed transiently (-32603, a timeout, a dropped connection, HTTP 5xx
   * or 429) is tried again; past `retries` failures in a row the call rejects with
   * `TaskAbandonedError` (-33033) and the task is left to `resumeTask`. `false` retries nothing.
   * @default DEFAULT_TASK_POLL_RETRY (8 retries, 500 ms doubling to 30 s, jitter)
   */
  pollRetry?: TaskPollRetry | false | undefined;
  /** Wall clock for task TTLs (`createdAt + ttlMs`), epoch ms. @default Date.now */
  clock?: WallClock | undefined;
}

/** The options `callTool` takes besides {@link CallOptions}. */
export interface TaskCallOptions {
  /**
   * How a task answer is handled for this call (see {@link TaskMode}).
   * @default `auto` when `ClientOptions.tasks` is set, else `off`
   */
  task?: TaskMode | undefined;
  /**
   * Each new state of the task (created, status or `statusMessage` changed), from the
   * `CreateTaskResult` on. The first call carries the `taskId` a host needs to resume it later.
   */
  onTask?: ((task: Task | DetailedTask) => void) | undefined;
}

/** {@link TasksOptions} with every default filled in. */
export interface ResolvedTasksOptions {
  store: TaskStore;
  push: boolean;
  pushBackstopMs: number;
  poll: TaskPollPolicy;
  pollRetry: ResolvedTaskPollRetry;
  clock: WallClock;
}

const DEFAULT_BACKSTOP_MS = 30_000;
const systemWallClock: WallClock = { now: () => Date.now() };

/**
 * Checks `ClientOptions.tasks` and fills the defaults; `undefined` or `false` is off (then
 * `undefined`), `true` is `{}`.
 * @throws InvalidArgumentError (-32602) naming the first bad field.
 */
export function resolveTasksOptions(value: TasksOptions | boolean | undefined): ResolvedTasksOptions | undefined {
  if (value === undefined || value === false) return undefined;
  const options: TasksOptions = value === true ? {} : value;
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('tasks', value, 'expected true, false or TasksOptions');
  const store = options.store ?? new MemoryTaskStore();
  if (
    typeof store !== 'object' ||
    store === null ||
    ['get', 'set', 'delete', 'keys'].some((name) => typeof store[name as keyof TaskStore] !== 'function')
  )
    throw new InvalidArgumentError('tasks.store', store, 'expected a TaskStore { get, set, delete, keys }');
  const push = options.push ?? true;
  if (typeof push !== 'boolean') throw new InvalidArgumentError('tasks.push', push, 'expected a boolean');
  const pushBackstopMs = options.pushBackstopMs ?? DEFAULT_BACKSTOP_MS;
  if (typeof pushBackstopMs !== 'number' || !(pushBackstopMs > 0))
    throw new InvalidArgumentError('tasks.pushBackstopMs', pushBackstopMs, 'expected a positive number of ms');
  const clock = options.clock ?? systemWallClock;
  if (typeof clock !== 'object' || clock === null || typeof clock.now !== 'function')
    throw new InvalidArgumentError('tasks.clock', clock, 'expected { now(): number }');
  return {
    store,
    push,
    pushBackstopMs,
    poll: resolveTaskPoll(options.poll),
    pollRetry: resolveTaskPollRetry(options.pollRetry),
    clock,
  };
}

/** Checks a partial {@link TaskPollPolicy} and fills the defaults. @throws InvalidArgumentError (-32602) */
export function resolveTaskPoll(policy: Partial<TaskPollPolicy> | undefined): TaskPollPolicy {
  const out: TaskPollPolicy = { ...DEFAULT_TASK_POLL };
  if (policy === undefined) return out;
  if (typeof policy !== 'object' || policy === null)
    throw new InvalidArgumentError('poll', policy, 'expected { initialMs?, factor?, maxMs?, minMs?, maxSuggestedMs? }');
  copyNumbers(out, policy, 'poll.', { initialMs: 0, factor: 1, maxMs: 0, minMs: 0, maxSuggestedMs: 0 });
  if (out.maxSuggestedMs < out.minMs)
    throw new InvalidArgumentError('poll.maxSuggestedMs', out.maxSuggestedMs, `expected ≥ poll.minMs (${out.minMs})`);
  return out;
}

/**
 * Checks a partial {@link TaskPollRetry} and fills the defaults; `false` retries nothing.
 * @throws InvalidArgumentError (-32602) naming the first bad field.
 */
export function resolveTaskPollRetry(value: TaskPollRetry | false | undefined): ResolvedTaskPollRetry {
  if (value === false) return { ...DEFAULT_TASK_POLL_RETRY, retries: 0 };
  if (value === undefined) return DEFAULT_TASK_POLL_RETRY;
  if (typeof value !== 'object' || value === null)
    throw new InvalidArgumentError('tasks.pollRetry', value, 'expected false or { retries?, minDelayMs?, … }');
  const out = { ...DEFAULT_TASK_POLL_RETRY };
  const retries = value.retries ?? out.retries;
  if (!Number.isInteger(retries) || retries < 0)
    throw new InvalidArgumentError('tasks.pollRetry.retries', retries, 'expected an integer ≥ 0');
  out.retries = retries;
  copyNumbers(out, value, 'tasks.pollRetry.', { minDelayMs: 0, maxDelayMs: 0, factor: 1 });
  if (value.jitter !== undefined) {
    if (typeof value.jitter !== 'boolean')
      throw new InvalidArgumentError('tasks.pollRetry.jitter', value.jitter, 'expected a boolean');
    out.jitter = value.jitter;
  }
  return Object.freeze(out);
}

/**
 * Copies onto `out` each field of `minimums` that `value` sets, in that order, each a finite
 * number at least its minimum.
 * @throws InvalidArgumentError (-32602) naming `prefix` + the first field that is not.
 */
function copyNumbers<T extends object>(
  out: T,
  value: object,
  prefix: string,
  minimums: Partial<Record<keyof T, number>>,
): void {
  for (const [name, min] of Object.entries(minimums) as Array<[string, number]>) {
    const field = (value as Record<string, unknown>)[name];
    if (field === undefined) continue;
    if (typeof field !== 'number' || !Number.isFinite(field) || field < min)
      throw new InvalidArgumentError(`${prefix}${name}`, field, `expected a finite number ≥ ${min}`);
    (out as Record<string, unknown>)[name] = field;
  }
}

/** Checks a call's `task` option. @throws InvalidArgumentError (-32602) */
export function checkTaskMode(value: unknown): TaskMode | undefined {
  if (value === undefined || value === 'auto' || value === 'manual' || value === 'off') return value;
  throw new InvalidArgumentError('task', value, 'expected "auto", "manual" or "off"');
}

/**
 * Options of `callTool`: {@link CallOptions} plus the Tasks extension's `task` and `onTask`. On
 * a task, `signal` cancels it with `tasks/cancel`; `timeoutMs` applies to each request (a poll
 * that times out is tried again); `maxTotalTimeoutMs` bounds the wait only when given on the
 * call (then `TaskAbandonedError`, the task left running; the task's own TTL bounds it
 * otherwise); `onProgress` also hears each task state (`progress` counts them,
 * `message` is the `statusMessage` or the status).
 */
export type CallToolOptions = CallOptions & TaskCallOptions;
