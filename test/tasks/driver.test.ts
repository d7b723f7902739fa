/**
 * The task loop as a pure function over hooks, on fake timers: when it looks (pollIntervalMs,
 * backoff, push), how input is answered (once per key, resent when not acknowledged), and how
 * it ends (terminal, abort, deadline, stop, TTL).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CancelledError,
  ConnectionClosedError,
  InvalidArgumentError,
  ProtocolError,
  RpcError,
  TimeoutError,
} from '../../src/errors/errors.js';
import { driveTask, taskWaitMs, type DriveTaskOptions, type TaskAnswerEvent } from '../../src/tasks/driver.js';
import { DEFAULT_TASK_POLL } from '../../src/tasks/options.js';
import { TaskAbandonedError, TaskExpiredError } from '../../src/tasks/errors.js';
import { HttpError } from '../../src/transport/transportErrors.js';
import type { DetailedTask } from '../../src/wire/tasks.js';
import type { InputRequest, InputResponse } from '../../src/wire/protocol.js';
import { abortableDelay } from '../../src/util/signals.js';
import { systemTimers } from '../../src/util/clock.js';

const NAME_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
} as InputRequest;
const CONFIRM_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Sure?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  },
} as InputRequest;

const T0 = Date.parse('2026-08-01T10:00:00Z');

function task(
  status: DetailedTask['status'],
  extra: Partial<DetailedTask> & Record<string, unknown> = {},
): DetailedTask {
  const base = {
    taskId: 't-1',
    status,
    createdAt: new Date(T0).toISOString(),
    lastUpdatedAt: new Date(T0).toISOString(),
    ttlMs: null,
    ...extra,
  } as Record<string, unknown>;
  if (status === 'completed' && base['result'] === undefined) base['result'] = { content: [] };
  if (status === 'failed' && base['error'] === undefined) base['error'] = { code: -32603, message: 'boom' };
  if (status === 'input_required' && base['inputRequests'] === undefined) base['inputRequests'] = {};
  return base as unknown as DetailedTask;
}

/** Hooks answering `tasks/get` with `snapshots` in order (the last one repeats), recording when. */
function scripted(snapshots: DetailedTask[], overrides: Partial<DriveTaskOptions['hooks']> = {}) {
  const gets: number[] = [];
  const updates: Array<Record<string, InputResponse>> = [];
  const cancel = vi.fn();
  const hooks: DriveTaskOptions['hooks'] = {
    get: vi.fn(async () => {
      gets.push(Date.now());
      const next = snapshots.length > 1 ? snapshots.shift()! : snapshots[0]!;
      return next;
    }),
    wait: (ms, signal) => abortableDelay(ms, systemTimers, signal).then(() => undefined),
    update: vi.fn(async (responses: Record<string, InputResponse>) => {
      updates.push(responses);
    }),
    cancel,
    ...overrides,
  };
  return { hooks, gets, updates, cancel };
}

function run(options: Partial<DriveTaskOptions> & Pick<DriveTaskOptions, 'hooks'>) {
  return driveTask({
    method: 'tools/call',
    first: task('working', { pollIntervalMs: 1000 }),
    firstIsDetailed: false,
    answered: new Set(),
    now: () => Date.now(),
    ...options,
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('when the loop looks at the task', () => {
  it('waits pollIntervalMs between polls, following a value that changes, and resolves with the terminal task', async () => {
    const done = task('completed', { result: { content: [{ type: 'text', text: 'ok' }] } });
    const { hooks, gets } = scripted([
      task('working', { pollIntervalMs: 2000 }),
      task('working', { pollIntervalMs: 500 }),
      done,
    ]);
    const promise = run({ hooks });
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(promise).resolves.toBe(done);
    expect(gets.map((at) => at - T0)).toEqual([1000, 3000, 3500]);
  });

  it('backs off when the server suggests no interval, resetting when the status changes; never under minMs', async () => {
    const { hooks, gets } = scripted([
      task('working'),
      task('working'),
      task('input_required', { inputRequests: {} }),
      task('working', { pollIntervalMs: 0 }),
      task('completed'),
    ]);
    const promise = run({ hooks, first: task('working') });
    await vi.advanceTimersByTimeAsync(20_000);
    await promise;
    const gaps = gets.map((at, i) => at - (i === 0 ? T0 : (gets[i - 1] as number)));
    // 500, 750, 1125 (working ×3 without a hint), then 500 (status changed), then 100 (hint 0, floor).
    expect(gaps).toEqual([500, 750, 1125, 500, 100]);
  });

  it('the backoff policy is a pure function with a cap', () => {
    expect(taskWaitMs({}, DEFAULT_TASK_POLL, 0)).toBe(500);
    expect(taskWaitMs({}, DEFAULT_TASK_POLL, 20)).toBe(10_000);
    expect(taskWaitMs({ pollIntervalMs: 30_000 }, DEFAULT_TASK_POLL, 5)).toBe(30_000);
    expect(taskWaitMs({ pollIntervalMs: 0 }, { ...DEFAULT_TASK_POLL, minMs: 0 }, 0)).toBe(0);
  });

  it('a pushed snapshot ends the wait and replaces the poll', async () => {
    const pushed = task('completed');
    const get = vi.fn();
    const wait = vi.fn(async () => pushed);
    const promise = run({ hooks: { get, wait, cancel: vi.fn() } });
    await expect(promise).resolves.toBe(pushed);
    expect(get).not.toHaveBeenCalled();
    expect(wait).toHaveBeenCalledWith(1000, expect.any(AbortSignal));
  });

  it('a seed that is not working (no payload) is looked at at once', async () => {
    const { hooks, gets } = scripted([task('completed')]);
    await expect(run({ hooks, first: task('completed'), firstIsDetailed: false })).resolves.toMatchObject({
      status: 'completed',
    });
    expect(gets).toEqual([T0]);
  });

  it('reports each changed snapshot once, in order', async () => {
    const seen: string[] = [];
    const { hooks } = scripted([
      task('working', { pollIntervalMs: 10, statusMessage: 'step 1' }),
      task('working', { pollIntervalMs: 10, statusMessage: 'step 1' }),
      task('working', { pollIntervalMs: 10, statusMessage: 'step 2' }),
      task('cancelled', { statusMessage: 'stopped' }),
    ]);
    const promise = run({ hooks, onSnapshot: (t) => seen.push(`${t.status}:${t.statusMessage ?? ''}`) });
    await vi.advanceTimersByTimeAsync(5000);
    await expect(promise).resolves.toMatchObject({ status: 'cancelled' });
    expect(seen).toEqual(['working:', 'working:step 1', 'working:step 2', 'cancelled:stopped']);
  });
});

describe('input_required', () => {
  it('answers each key once for the task lifetime, however often the server lists it, and records answers in order', async () => {
    const fulfil = vi.fn(async (requests: Record<string, InputRequest>): Promise<Record<string, InputResponse>> =>
      Object.fromEntries(Object.keys(requests).map((key) => [key, { action: 'accept', content: { name: key } }])),
    );
    const events: TaskAnswerEvent[] = [];
    const { hooks, updates } = scripted(
      [
        task('input_required', { pollIntervalMs: 10, inputRequests: { name: NAME_REQUEST } }),
        task('input_required', { pollIntervalMs: 10, inputRequests: { name: NAME_REQUEST } }),
        task('input_required', { pollIntervalMs: 10, inputRequests: { name: NAME_REQUEST, confirm: CONFIRM_REQUEST } }),
        task('working', { pollIntervalMs: 10 }),
        task('completed'),
      ],
      { fulfil },
    );
    const answered = new Set<string>();
    const promise = run({ hooks, answered, onAnswers: (event) => void events.push(structuredClone(event)) });
    await vi.advanceTimersByTimeAsync(5000);
    await promise;
    expect(fulfil.mock.calls.map(([requests]) => Object.keys(requests))).toEqual([['name'], ['confirm']]);
    expect(updates).toEqual([
      { name: { action: 'accept', content: { name: 'name' } } },
      { confirm: { action: 'accept', content: { name: 'confirm' } } },
    ]);
    expect([...answered]).toEqual(['name', 'confirm']);
    expect(events.map((e) => e.type)).toEqual(['pending', 'delivered', 'pending', 'delivered']);
  });

  it('keys answered before (a resumed task) are never asked again', async () => {
    const fulfil = vi.fn();
    const { hooks, updates } = scripted(
      [task('input_required', { pollIntervalMs: 10, inputRequests: { name: NAME_REQUEST } }), task('completed')],
      { fulfil },
    );
    const promise = run({ hooks, answered: new Set(['name']) });
    await vi.advanceTimersByTimeAsync(5000);
    await promise;
    expect(fulfil).not.toHaveBeenCalled();
    expect(updates).toEqual([]);
  });

  it('an answer given but not acknowledged is sent again, not asked again; one the server no longer lists is settled', async () => {
    const fulfil = vi.fn();
    const events: TaskAnswerEvent[] = [];
    const given = { action: 'accept', content: { name: 'Ada' } } as InputResponse;
    const { hooks, updates } = scripted(
      [task('input_required', { pollIntervalMs: 10, inputRequests: { name: NAME_REQUEST } }), task('completed')],
      { fulfil },
    );
    const answered = new Set<string>();
    const promise = run({
      hooks,
      answered,
      pending: { name: given, old: given },
      onAnswers: (event) => void events.push(structuredClone(event)),
    });
    await vi.advanceTimersByTimeAsync(5000);
    await promise;
    expect(fulfil).not.toHaveBeenCalled();
    expect(updates).toEqual([{ name: given }]);
    expect(events).toEqual([
      { type: 'delivered', keys: ['old'] },
      { type: 'delivered', keys: ['name'] },
    ]);
    expect([...answered].sort()).toEqual(['name', 'old']);
  });

  it('without a fulfil hook (manual mode) it only keeps looking', async () => {
    const { hooks, updates, gets } = scripted([
      task('input_required', { pollIntervalMs: 100, inputRequests: { name: NAME_REQUEST } }),
      task('input_required', { pollIntervalMs: 100, inputRequests: { name: NAME_REQUEST } }),
      task('completed'),
    ]);
    const promise = run({ hooks });
    await vi.advanceTimersByTimeAsync(2000);
    await promise;
    expect(updates).toEqual([]);
    expect(gets).toHaveLength(3);
  });
});

describe('how the loop ends early', () => {
  it("the caller's signal: CancelledError at once, tasks/cancel once, no timer left", async () => {
    const { hooks, cancel } = scripted([task('working', { pollIntervalMs: 60_000 })]);
    const controller = new AbortController();
    const promise = run({ hooks, signal: controller.signal });
    const settled = expect(promise).rejects.toBeInstanceOf(CancelledError);
    await vi.advanceTimersByTimeAsync(61_000);
    controller.abort('user');
    await settled;
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    await expect(promise).rejects.toMatchObject({ cause: 'user', data: { method: 'tools/call' } });
  });

  it('an already-aborted signal cancels before anything is asked', async () => {
    const { hooks, cancel, gets } = scripted([task('working')]);
    await expect(run({ hooks, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(gets).toEqual([]);
  });

  it('the deadline: TaskAbandonedError (deadline, resumable) with the TimeoutError as cause; the task is left running', async () => {
    const { hooks, cancel } = scripted([task('working', { pollIntervalMs: 1000 })]);
    const promise = run({
      hooks,
      deadline: { at: performance.now() + 2500, totalTimeoutMs: 2500 },
      clock: { now: () => performance.now() },
    });
    const settled = expect(promise).rejects.toMatchObject({
      code: -33033,
      taskId: 't-1',
      resumable: true,
      data: { taskId: 't-1', reason: 'deadline', resumable: true, status: 'working' },
    });
    await vi.advanceTimersByTimeAsync(3000);
    await settled;
    const error = (await promise.catch((e: unknown) => e)) as TaskAbandonedError;
    expect(error).toBeInstanceOf(TaskAbandonedError);
    expect(error.cause).toBeInstanceOf(TimeoutError);
    expect(error.cause).toMatchObject({ data: { kind: 'total', timeoutMs: 2500 } });
    expect(cancel).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stop (the client closed): TaskAbandonedError (closed, resumable) with its reason as cause; the task is left running', async () => {
    const { hooks, cancel } = scripted([task('working', { pollIntervalMs: 1000 })]);
    const stop = new AbortController();
    const promise = run({ hooks, stop: stop.signal });
    const closed = new ConnectionClosedError('connection closed (closed by client)', { reason: 'closed by client' });
    const settled = expect(promise).rejects.toMatchObject({
      code: -33033,
      cause: closed,
      data: { taskId: 't-1', reason: 'closed', resumable: true },
    });
    await vi.advanceTimersByTimeAsync(1500);
    stop.abort(closed);
    await settled;
    await expect(promise).rejects.toBeInstanceOf(TaskAbandonedError);
    expect(cancel).not.toHaveBeenCalled();
  });

  it('a hook that ignores its signal cannot hold the loop', async () => {
    const controller = new AbortController();
    const hooks: DriveTaskOptions['hooks'] = {
      get: () => new Promise(() => {}),
      wait: async () => undefined,
      cancel: vi.fn(),
    };
    const promise = run({ hooks, signal: controller.signal });
    controller.abort();
    await expect(promise).rejects.toBeInstanceOf(CancelledError);
  });

  it('past createdAt + ttlMs with the task not terminal: TaskExpiredError, no cancel', async () => {
    const working = task('working', { pollIntervalMs: 1000, ttlMs: 2500 });
    const { hooks, cancel } = scripted([working]);
    const promise = run({ hooks, first: working });
    const settled = expect(promise).rejects.toBeInstanceOf(TaskExpiredError);
    await vi.advanceTimersByTimeAsync(4000);
    await settled;
    await expect(promise).rejects.toMatchObject({
      code: -33031,
      data: { taskId: 't-1', expiresAt: T0 + 2500, status: 'working' },
    });
    expect(cancel).not.toHaveBeenCalled();
  });

  it('the TTL bounds the wait: a pollIntervalMs longer than the time left still looks at createdAt + ttlMs', async () => {
    // Created 57 s ago with a 60 s TTL: 3 s left, and the server asks for 60 s.
    vi.setSystemTime(T0 + 57_000);
    const working = task('working', { pollIntervalMs: 60_000, ttlMs: 60_000 });
    const done = task('completed', { result: { content: [{ type: 'text', text: 'in time' }] } });
    const { hooks, gets } = scripted([done]);
    const promise = run({ hooks, first: working, firstIsDetailed: true });
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(promise).resolves.toBe(done);
    expect(gets.map((at) => at - T0)).toEqual([60_000]);
  });

  it('the TTL bounds the wait: still working at the last look, TaskExpiredError then, not an interval later', async () => {
    const working = task('working', { pollIntervalMs: 45_000, ttlMs: 50_000 });
    const { hooks, gets, cancel } = scripted([working]);
    const promise = run({ hooks, first: working, firstIsDetailed: true });
    const settled = promise.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50_000);
    const error = await settled;
    expect(error).toBeInstanceOf(TaskExpiredError);
    expect(error).toMatchObject({ data: { expiresAt: T0 + 50_000 } });
    expect(gets.map((at) => at - T0)).toEqual([45_000, 50_000]);
    expect(cancel).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a bad poll policy is refused up front', async () => {
    const { hooks } = scripted([task('working')]);
    await expect(run({ hooks, poll: { factor: 0.5 } })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe('a poll that fails', () => {
  const NO_JITTER = { retries: 3, minDelayMs: 500, maxDelayMs: 4000, factor: 2, jitter: false } as const;

  /** Hooks whose `tasks/get` answers are `steps`: a task, or an error to throw. */
  function flaky(steps: Array<DetailedTask | Error>) {
    const gets: number[] = [];
    const cancel = vi.fn();
    const hooks: DriveTaskOptions['hooks'] = {
      get: async () => {
        gets.push(Date.now() - T0);
        const step = steps.length > 1 ? steps.shift()! : steps[0]!;
        if (step instanceof Error) throw step;
        return step;
      },
      wait: (ms, signal) => abortableDelay(ms, systemTimers, signal).then(() => undefined),
      cancel,
    };
    return { hooks, gets, cancel };
  }

  it('-32603, a timeout and a dropped connection are tried again after the backoff; the task goes on', async () => {
    const done = task('completed');
    const { hooks, gets, cancel } = flaky([
      new RpcError({ code: -32603, message: 'Internal error' }, 'tasks/get'),
      new TimeoutError({ method: 'tasks/get', timeoutMs: 50, kind: 'idle' }),
      new ConnectionClosedError('connection closed', { reason: 'reset', outcome: 'unknown' }),
      done,
    ]);
    const promise = run({ hooks, pollRetry: NO_JITTER });
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(promise).resolves.toBe(done);
    // 1000 (pollIntervalMs), then the backoff: +500, +1000, +2000.
    expect(gets).toEqual([1000, 1500, 2500, 4500]);
    expect(cancel).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an HTTP 503 waits the Retry-After it asked for (within maxDelayMs)', async () => {
    const unavailable = new RpcError({ code: -32000, message: 'busy' }, 'tasks/get', 503);
    const { hooks, gets } = flaky([unavailable, task('completed')]);
    const promise = run({ hooks, pollRetry: NO_JITTER });
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(promise).resolves.toMatchObject({ status: 'completed' });
    expect(gets).toEqual([1000, 1500]);
  });

  it('a Retry-After within maxDelayMs is waited (it counts as a retry, not in the backoff); a longer one takes the backoff', async () => {
    const busy = (retryAfterMs: number) =>
      new HttpError({
        status: 503,
        method: 'tasks/get',
        url: 'http://127.0.0.1/mcp',
        contentType: undefined,
        bodyExcerpt: '',
        problem: 'status',
        retryAfterMs,
      });
    const internal = new RpcError({ code: -32603, message: 'Internal error' }, 'tasks/get');
    const { hooks, gets } = flaky([busy(3000), internal, busy(60_000), task('completed')]);
    const promise = run({ hooks, pollRetry: NO_JITTER });
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(promise).resolves.toMatchObject({ status: 'completed' });
    // 1000 (pollIntervalMs); +3000 (Retry-After); +500 (backoff 1); +1000 (backoff 2: 60 s is over maxDelayMs).
    expect(gets).toEqual([1000, 4000, 4500, 5500]);

    // Three failed polls whatever their waits, and a fourth is one too many.
    const spent = flaky([busy(100)]);
    const settled = run({ hooks: spent.hooks, pollRetry: NO_JITTER }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await settled).toMatchObject({ data: { reason: 'poll-failures', failedPolls: 4 } });
    expect(spent.gets.map((t) => t - spent.gets[0]!)).toEqual([0, 100, 200, 300]);
  });

  it('with jitter each backoff wait is in [0.5, 1) of the step, slept by p-retry', async () => {
    const internal = () => new RpcError({ code: -32603, message: 'Internal error' }, 'tasks/get');
    const { hooks, gets } = flaky([internal(), internal(), task('completed')]);
    const promise = run({ hooks, pollRetry: { ...NO_JITTER, jitter: true } });
    await vi.advanceTimersByTimeAsync(1249);
    // The first poll at 1000; the shortest jittered wait is 250.
    expect(gets).toEqual([1000]);
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(promise).resolves.toMatchObject({ status: 'completed' });
    const [first, second] = [gets[1]! - gets[0]!, gets[2]! - gets[1]!];
    expect(first).toBeGreaterThanOrEqual(250);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(500);
    expect(second).toBeLessThanOrEqual(1000);
  });

  it('a failed poll counts again from zero after one that worked', async () => {
    const internal = () => new RpcError({ code: -32603, message: 'Internal error' }, 'tasks/get');
    const { hooks, gets } = flaky([
      internal(),
      internal(),
      internal(),
      task('working', { pollIntervalMs: 1000 }),
      internal(),
      internal(),
      internal(),
      task('completed'),
    ]);
    const promise = run({ hooks, pollRetry: NO_JITTER });
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(promise).resolves.toMatchObject({ status: 'completed' });
    expect(gets).toHaveLength(8);
  });

  it('past the budget: TaskAbandonedError (poll-failures, resumable) with the last failure as cause; no tasks/cancel', async () => {
    const last = new RpcError({ code: -32603, message: 'Internal error' }, 'tasks/get');
    const { hooks, gets, cancel } = flaky([last]);
    const promise = run({ hooks, pollRetry: NO_JITTER });
    const settled = promise.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    const error = (await settled) as TaskAbandonedError;
    expect(error).toBeInstanceOf(TaskAbandonedError);
    expect(error).toMatchObject({
      code: -33033,
      taskId: 't-1',
      resumable: true,
      data: { taskId: 't-1', reason: 'poll-failures', resumable: true, status: 'working', failedPolls: 4 },
    });
    expect(error.cause).toBe(last);
    expect(gets).toEqual([1000, 1500, 2500, 4500]);
    expect(cancel).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the server not knowing the task (-32602), or a malformed answer, ends it at once', async () => {
    const unknown = new RpcError({ code: -32602, message: 'Task not found' }, 'tasks/get');
    const { hooks, gets } = flaky([unknown]);
    const settled = run({ hooks, pollRetry: NO_JITTER }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await settled).toBe(unknown);
    expect(gets).toHaveLength(1);
    const malformed = new ProtocolError('a task must be an object', { method: 'tasks/get', value: 'x' });
    const second = flaky([malformed]);
    const again = run({ hooks: second.hooks, pollRetry: NO_JITTER }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await again).toBe(malformed);
    expect(second.gets).toHaveLength(1);
  });

  it('the TTL passing while polls fail: TaskExpiredError', async () => {
    const { hooks } = flaky([new RpcError({ code: -32603, message: 'Internal error' }, 'tasks/get')]);
    const promise = run({
      hooks,
      pollRetry: { ...NO_JITTER, retries: 100 },
      first: task('working', { pollIntervalMs: 1000, ttlMs: 5000 }),
    });
    const settled = promise.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await settled).toBeInstanceOf(TaskExpiredError);
  });

  it('the caller aborting during the backoff cancels the task', async () => {
    const { hooks, cancel } = flaky([new RpcError({ code: -32603, message: 'Internal error' }, 'tasks/get')]);
    const controller = new AbortController();
    const promise = run({ hooks, pollRetry: NO_JITTER, signal: controller.signal });
    const settled = promise.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1200);
    controller.abort('user');
    expect(await settled).toBeInstanceOf(CancelledError);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("the server's intervals", () => {
  it('a pollIntervalMs of 2^31 waits 60 s (maxSuggestedMs), not 1 ms, and is reported once', async () => {
    const huge = 2 ** 31;
    const reports: ProtocolError[] = [];
    const { hooks, gets } = scripted([
      task('working', { pollIntervalMs: huge }),
      task('working', { pollIntervalMs: huge }),
      task('working', { pollIntervalMs: huge }),
      task('completed'),
    ]);
    const promise = run({
      hooks,
      first: task('working', { pollIntervalMs: huge }),
      onOutOfRange: (error) => reports.push(error),
    });
    await vi.advanceTimersByTimeAsync(250_000);
    await expect(promise).resolves.toMatchObject({ status: 'completed' });
    expect(gets.map((at) => at - T0)).toEqual([60_000, 120_000, 180_000, 240_000]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toBeInstanceOf(ProtocolError);
    expect(reports[0]!.data.value).toEqual({ taskId: 't-1', field: 'pollIntervalMs', value: huge, used: 60_000 });
  });

  it('taskWaitMs holds a suggestion to [minMs, maxSuggestedMs]', () => {
    expect(taskWaitMs({ pollIntervalMs: 0 }, DEFAULT_TASK_POLL, 0)).toBe(100);
    expect(taskWaitMs({ pollIntervalMs: 5000 }, DEFAULT_TASK_POLL, 0)).toBe(5000);
    expect(taskWaitMs({ pollIntervalMs: 2 ** 31 }, DEFAULT_TASK_POLL, 0)).toBe(60_000);
    expect(taskWaitMs({ pollIntervalMs: Number.NaN }, DEFAULT_TASK_POLL, 0)).toBe(100);
  });
});
