/**
 * The Tasks extension through McpClient against a scripted wire fake: when the extension is
 * declared, every status path of a task, input answered once, cancellation by tasks/cancel,
 * push versus polling, unknown ids, -32021, manual handles, and resuming from the store.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CancelledError,
  ConnectionClosedError,
  InvalidArgumentError,
  MissingClientCapabilityError,
  ProtocolError,
  RpcError,
  isCancelledError,
  isRpcError,
} from '../../src/errors/errors.js';
import type { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import {
  TaskAbandonedError,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  TaskNotFoundError,
} from '../../src/tasks/errors.js';
import { MemoryTaskStore, taskKey } from '../../src/tasks/taskStore.js';
import { ToolTask, type ToolTaskEvent } from '../../src/tasks/toolTask.js';
import type { DetailedTask } from '../../src/wire/tasks.js';
import { DISCOVER_RESULT, scriptedPair, type ScriptedServer, type Wire } from '../fakes/scriptedServer.js';
import { loadTaskMachinery } from '../fakes/taskMachinery.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const CREATED_AT = '2026-08-01T10:00:00.000Z';

const TASK_DISCOVER = {
  ...DISCOVER_RESULT,
  capabilities: { tools: {}, extensions: { [TASKS]: {} } },
};

const NAME_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
};

function taskState(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    taskId: 'task-1',
    status,
    createdAt: CREATED_AT,
    lastUpdatedAt: CREATED_AT,
    ttlMs: null,
    pollIntervalMs: 1,
    ...extra,
  };
}

const CREATED = { resultType: 'task', ...taskState('working', { statusMessage: 'queued' }) };
const COMPLETED = taskState('completed', { result: { content: [{ type: 'text', text: 'done' }] } });

const clients: McpClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/**
 * A connected client and a fake server that lists the extension (unless `offer: false`), turns
 * `tools/call` into task-1 and answers `tasks/get` with `snapshots` in order (the last repeats).
 */
async function taskPair(
  snapshots: Array<Record<string, unknown>>,
  options: Partial<ClientOptions> & { offer?: boolean } = {},
): Promise<{ client: McpClient; server: ScriptedServer }> {
  const { offer = true, ...clientOptions } = options;
  const { client, server } = scriptedPair({
    tasks: { poll: { minMs: 0 }, push: false },
    ...clientOptions,
  });
  clients.push(client);
  server.on('server/discover', () => ({ result: offer ? TASK_DISCOVER : DISCOVER_RESULT }));
  server.on('tools/call', () => ({ result: CREATED }));
  const queue = [...snapshots];
  server.on('tasks/get', (request) => {
    if (request['params']?.taskId !== 'task-1') return { error: { code: -32602, message: 'Task not found' } };
    const next = queue.length > 1 ? queue.shift()! : queue[0]!;
    return { result: { resultType: 'complete', ...next } };
  });
  server.on('tasks/update', () => ({ result: { resultType: 'complete' } }));
  server.on('tasks/cancel', () => ({ result: { resultType: 'complete' } }));
  await server.start();
  await client.connect();
  return { client, server };
}

function declaresTasks(request: Wire): boolean {
  return request['params']?._meta?.[CAPABILITIES_KEY]?.extensions?.[TASKS] !== undefined;
}

describe('declaring the extension', () => {
  it('is declared on tools/call and tasks/* only when the client asks and the server lists it', async () => {
    const { client, server } = await taskPair([COMPLETED]);
    await client.callTool('job', {});
    expect(server.requests('tools/call').map(declaresTasks)).toEqual([true]);
    expect(server.requests('tasks/get').every(declaresTasks)).toBe(true);
    expect(server.requests('server/discover').map(declaresTasks)).toEqual([false]);
    // The handlers' capabilities stay as they were.
    expect(server.requests('tools/call')[0]!['params']._meta[CAPABILITIES_KEY]).toEqual({
      extensions: { [TASKS]: {} },
    });
  });

  it('is not declared when the server does not list it, nor when the call says off, nor without the option', async () => {
    const unlisted = await taskPair([COMPLETED], { offer: false });
    unlisted.server.on('tools/call', () => ({ result: { resultType: 'complete', content: [] } }));
    await unlisted.client.callTool('job', {});
    expect(declaresTasks(unlisted.server.requests('tools/call')[0]!)).toBe(false);

    const listed = await taskPair([COMPLETED]);
    listed.server.on('tools/call', () => ({ result: { resultType: 'complete', content: [] } }));
    await listed.client.callTool('job', {}, { task: 'off' });
    expect(declaresTasks(listed.server.requests('tools/call')[0]!)).toBe(false);

    const plain = await taskPair([COMPLETED], { tasks: undefined });
    plain.server.on('tools/call', () => ({ result: { resultType: 'complete', content: [] } }));
    await plain.client.callTool('job', {});
    expect(declaresTasks(plain.server.requests('tools/call')[0]!)).toBe(false);
    // …but one call can ask for itself.
    plain.server.on('tools/call', () => ({ result: CREATED }));
    await expect(plain.client.callTool('job', {}, { task: 'auto' })).resolves.toMatchObject({
      content: [{ text: 'done' }],
    });
    expect(declaresTasks(plain.server.requests('tools/call')[1]!)).toBe(true);
  });

  it('a task answer to a request that did not declare the extension is a protocol error', async () => {
    const { client } = await taskPair([COMPLETED], { tasks: undefined });
    const error = await client.callTool('job', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).data).toMatchObject({ method: 'tools/call', value: CREATED });
  });

  it('-32021 from the server is a MissingClientCapabilityError naming what it needs', async () => {
    const { client, server } = await taskPair([COMPLETED], { offer: false });
    const data = { requiredCapabilities: { extensions: { [TASKS]: {} } } };
    server.on('tools/call', () => ({ error: { code: -32021, message: 'Missing required client capability', data } }));
    const error = await client.callTool('job', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingClientCapabilityError);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32021, method: 'tools/call', data });
    expect((error as MissingClientCapabilityError).requiredCapabilities).toEqual(data.requiredCapabilities);
  });
});

describe('auto mode: a task followed to its end', () => {
  it('completed: resolves with the tool result, reporting each state through onTask and onProgress', async () => {
    const { client, server } = await taskPair([
      taskState('working', { statusMessage: 'step 1' }),
      taskState('working', { statusMessage: 'step 2' }),
      COMPLETED,
    ]);
    const states: string[] = [];
    const progress: Array<{ progress: number; message?: string | undefined }> = [];
    const result = await client.callTool(
      'job',
      { n: 1 },
      {
        onTask: (task) => states.push(`${task.status}:${task.statusMessage ?? ''}`),
        onProgress: (p) => progress.push({ progress: p.progress, message: p.message }),
      },
    );
    expect(result).toEqual(COMPLETED['result']);
    expect(states).toEqual(['working:queued', 'working:step 1', 'working:step 2', 'completed:']);
    expect(progress).toEqual([
      { progress: 1, message: 'queued' },
      { progress: 2, message: 'step 1' },
      { progress: 3, message: 'step 2' },
      { progress: 4, message: 'completed' },
    ]);
    expect(server.requests('tasks/get').map((r) => r['params'])).toEqual([
      { taskId: 'task-1', _meta: expect.any(Object) },
      { taskId: 'task-1', _meta: expect.any(Object) },
      { taskId: 'task-1', _meta: expect.any(Object) },
    ]);
  });

  it('completed with isError: true is a result, not a throw', async () => {
    const failedTool = { content: [{ type: 'text', text: 'bad input' }], isError: true };
    const { client } = await taskPair([taskState('completed', { result: failedTool })]);
    await expect(client.callTool('job', {})).resolves.toEqual(failedTool);
  });

  it('failed: rejects with the task error as sent (TaskFailedError, an RpcError)', async () => {
    const error = { code: -32603, message: 'API rate limit exceeded', data: { retryAfter: 30 } };
    const { client } = await taskPair([taskState('failed', { error, statusMessage: 'rate limited' })]);
    const thrown = await client.callTool('job', {}).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TaskFailedError);
    expect(isRpcError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ ...error, method: 'tools/call', taskId: 'task-1', statusMessage: 'rate limited' });
  });

  it('cancelled (by the server): rejects with TaskCancelledError, a CancelledError', async () => {
    const { client } = await taskPair([taskState('cancelled', { statusMessage: 'operator stopped it' })]);
    const thrown = await client.callTool('job', {}).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TaskCancelledError);
    expect(thrown).toBeInstanceOf(CancelledError);
    expect(isCancelledError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: -32800, taskId: 'task-1', statusMessage: 'operator stopped it' });
  });

  it('input_required: each key answered once through the handlers, with tasks/update, however often it is listed', async () => {
    const form = vi.fn(() => ({ action: 'accept' as const, content: { name: 'Ada' } }));
    const { client, server } = await taskPair(
      [
        taskState('input_required', { inputRequests: { name: NAME_REQUEST } }),
        taskState('input_required', { inputRequests: { name: NAME_REQUEST } }),
        taskState('input_required', { inputRequests: { name: NAME_REQUEST } }),
        taskState('working'),
        COMPLETED,
      ],
      { handlers: { elicitation: { form } } },
    );
    await expect(client.callTool('job', {})).resolves.toEqual(COMPLETED['result']);
    expect(form).toHaveBeenCalledTimes(1);
    const updates = server.requests('tasks/update');
    expect(updates).toHaveLength(1);
    expect(updates[0]!['params']).toMatchObject({
      taskId: 'task-1',
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(declaresTasks(updates[0]!)).toBe(true);
    // The handlers' capabilities are declared alongside the extension.
    expect(updates[0]!['params']._meta[CAPABILITIES_KEY]).toEqual({
      elicitation: { form: {} },
      extensions: { [TASKS]: {} },
    });
  });

  it('input no handler can answer: the call fails and the task is cancelled', async () => {
    const { client, server } = await taskPair([taskState('input_required', { inputRequests: { name: NAME_REQUEST } })]);
    const thrown = await client.callTool('job', {}).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ name: 'InputRequestFailedError', data: { key: 'name', reason: 'unsupported' } });
    expect(server.requests('tasks/cancel').map((r) => r['params'].taskId)).toEqual(['task-1']);
  });

  it("the caller's signal cancels with tasks/cancel, never notifications/cancelled, and drops the record", async () => {
    const store = new MemoryTaskStore();
    const { client, server } = await taskPair([taskState('working', { pollIntervalMs: 20 })], {
      tasks: { store, push: false, poll: { minMs: 0 } },
    });
    const controller = new AbortController();
    const call = client.callTool('job', {}, { signal: controller.signal });
    await server.waitFor((m) => m['method'] === 'tasks/get');
    controller.abort('user gave up');
    const thrown = await call.catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CancelledError);
    expect(thrown).not.toBeInstanceOf(TaskCancelledError);
    await server.waitFor((m) => m['method'] === 'tasks/cancel');
    expect(server.requests('tasks/cancel')).toHaveLength(1);
    expect(server.requests('tasks/cancel')[0]!['params']).toMatchObject({ taskId: 'task-1' });
    expect(declaresTasks(server.requests('tasks/cancel')[0]!)).toBe(true);
    expect(server.received.filter((m) => m['method'] === 'notifications/cancelled')).toEqual([]);
    await vi.waitFor(() => expect(store.size).toBe(0));
  });

  it('an unknown task id (-32602) is a TaskNotFoundError and drops the record', async () => {
    const store = new MemoryTaskStore();
    const { client, server } = await taskPair([COMPLETED], { tasks: { store, push: false, poll: { minMs: 0 } } });
    server.on('tasks/get', () => ({ error: { code: -32602, message: 'Failed to retrieve task: Task has expired' } }));
    const thrown = await client.callTool('job', {}).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TaskNotFoundError);
    expect(thrown).toMatchObject({ code: -32602, method: 'tasks/get', taskId: 'task-1' });
    expect(store.size).toBe(0);
  });

  it('a malformed task is a ProtocolError with the value as received', async () => {
    const { client, server } = await taskPair([COMPLETED]);
    server.on('tools/call', () => ({ result: { resultType: 'task', status: 'working' } }));
    const thrown = await client.callTool('job', {}).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect((thrown as ProtocolError).data.reason).toMatch(/taskId/);
  });

  it('input_required on the original request, then a task: both handled in one call', async () => {
    const form = vi.fn(() => ({ action: 'accept' as const, content: { name: 'Ada' } }));
    const { client, server } = await taskPair([COMPLETED], { handlers: { elicitation: { form } } });
    server.on('tools/call', (request) =>
      request['params'].inputResponses === undefined
        ? { result: { resultType: 'input_required', inputRequests: { name: NAME_REQUEST } } }
        : { result: CREATED },
    );
    await expect(client.callTool('job', {})).resolves.toEqual(COMPLETED['result']);
    expect(server.requests('tools/call').map(declaresTasks)).toEqual([true, true]);
  });
});

describe('polling intervals on fake timers', () => {
  beforeAll(loadTaskMachinery);

  it("honours the server's pollIntervalMs, as it changes", async () => {
    const { client, server } = await taskPair([
      taskState('working', { pollIntervalMs: 2000 }),
      taskState('working', { pollIntervalMs: 300 }),
      COMPLETED,
    ]);
    server.on('tools/call', () => ({ result: { ...CREATED, pollIntervalMs: 5000 } }));
    vi.useFakeTimers();
    const started = Date.now();
    const call = client.callTool('job', {});
    const times: number[] = [];
    server.on(
      'tasks/get',
      (() => {
        const queue = [
          taskState('working', { pollIntervalMs: 2000 }),
          taskState('working', { pollIntervalMs: 300 }),
          COMPLETED,
        ];
        return () => {
          times.push(Date.now() - started);
          return { result: { resultType: 'complete', ...queue.shift()! } };
        };
      })(),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(call).resolves.toEqual(COMPLETED['result']);
    expect(times).toEqual([5000, 7000, 7300]);
  });
});

describe('push: notifications/tasks on a listen stream', () => {
  /**
   * A pair whose server acknowledges listen requests for task ids as `ack` says. The task's
   * first suggested wait is long when push is expected, so only a failure to use push polls.
   */
  async function pushPair(
    ack: (taskIds: string[]) => string[] | undefined,
    onError: (error: Error) => void = () => {},
  ) {
    const firstWaitMs = ack(['task-1']) === undefined ? 5 : 10_000;
    const { client, server } = scriptedPair({
      tasks: { push: true, pushBackstopMs: 60_000, poll: { minMs: 0 } },
      onError,
    });
    clients.push(client);
    server.on('server/discover', () => ({ result: TASK_DISCOVER }));
    server.on('tools/call', () => ({ result: { ...CREATED, pollIntervalMs: firstWaitMs } }));
    server.on('tasks/get', () => ({
      result: { resultType: 'complete', ...taskState('working', { pollIntervalMs: 5 }) },
    }));
    server.on('subscriptions/listen', (request) => {
      const taskIds = request['params'].notifications.taskIds as string[];
      const honoured = ack(taskIds);
      void server.send({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: honoured === undefined ? {} : { taskIds: honoured },
          _meta: { [SUBSCRIPTION_ID]: request['id'] },
        },
      });
      return undefined; // the stream stays open
    });
    await server.start();
    await client.connect();
    return { client, server };
  }

  function push(server: ScriptedServer, listen: Wire, task: Record<string, unknown>): Promise<void> {
    return server.send({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...task, _meta: { [SUBSCRIPTION_ID]: listen['id'] } },
    });
  }

  it('honoured: follows pushed states, polling only once after the acknowledgement; the listen request declares the extension', async () => {
    const { client, server } = await pushPair((ids) => ids);
    const states: string[] = [];
    const call = client.callTool('job', {}, { onTask: (task) => states.push(task.status) });
    const listen = await server.waitFor((m) => m['method'] === 'subscriptions/listen');
    expect(listen['params'].notifications).toEqual({ taskIds: ['task-1'] });
    expect(declaresTasks(listen)).toBe(true);
    await server.waitFor((m) => m['method'] === 'tasks/get');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await push(server, listen, taskState('working', { statusMessage: 'half way' }));
    await push(server, listen, COMPLETED);
    await expect(call).resolves.toEqual(COMPLETED['result']);
    expect(states).toEqual(['working', 'working', 'working', 'completed']);
    // The one look: what changed before the acknowledgement was never pushed.
    expect(server.requests('tasks/get')).toHaveLength(1);
    // The stream is closed once the task is done.
    await server.waitFor((m) => m['method'] === 'notifications/cancelled' && m['params'].requestId === listen['id']);
  });

  it('a change between the last look and the acknowledgement is seen at once, not at the backstop', async () => {
    const { client, server } = await pushPair((ids) => ids);
    // The task moved on before the server acknowledged the listen: no push will tell of it.
    server.on('tasks/get', () => ({ result: { resultType: 'complete', ...COMPLETED } }));
    const started = Date.now();
    await expect(client.callTool('job', {})).resolves.toEqual(COMPLETED['result']);
    // The created task suggested 10 s and the backstop is 60 s: only the look after the ack is this quick.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(server.requests('tasks/get')).toHaveLength(1);
  });

  it('not honoured: polls tasks/get instead, and later tasks do not ask again', async () => {
    const { client, server } = await pushPair(() => undefined);
    let gets = 0;
    server.on('tasks/get', () => {
      gets += 1;
      return {
        result: { resultType: 'complete', ...(gets < 3 ? taskState('working', { pollIntervalMs: 5 }) : COMPLETED) },
      };
    });
    await expect(client.callTool('job', {})).resolves.toEqual(COMPLETED['result']);
    expect(gets).toBe(3);
    gets = 0;
    await expect(client.callTool('job', {})).resolves.toEqual(COMPLETED['result']);
    expect(server.requests('subscriptions/listen')).toHaveLength(1);
  });

  it('the stream drops: polling takes over at once', async () => {
    const { client, server } = await pushPair((ids) => ids);
    const call = client.callTool('job', {});
    const listen = await server.waitFor((m) => m['method'] === 'subscriptions/listen');
    await server.waitFor((m) => m['method'] === 'tasks/get');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Only the look after the acknowledgement; then push is awaited.
    expect(server.requests('tasks/get')).toHaveLength(1);
    server.on('tasks/get', () => ({ result: { resultType: 'complete', ...COMPLETED } }));
    // The server ends the listen request: the subscription reopens later; meanwhile, poll.
    await server.send({ jsonrpc: '2.0', id: listen['id'], result: { resultType: 'complete' } });
    await expect(call).resolves.toEqual(COMPLETED['result']);
    expect(server.requests('tasks/get').length).toBeGreaterThanOrEqual(2);
  });

  it('a pushed task for an id the subscription did not ask for is not delivered', async () => {
    const errors: Error[] = [];
    const { client, server } = await pushPair(
      (ids) => ids,
      (error) => errors.push(error),
    );
    const call = client.callTool('job', {});
    const listen = await server.waitFor((m) => m['method'] === 'subscriptions/listen');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await push(server, listen, { ...COMPLETED, taskId: 'someone-else' });
    await push(server, listen, { ...COMPLETED, status: 'exploded' });
    await push(server, listen, COMPLETED);
    await expect(call).resolves.toEqual(COMPLETED['result']);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/did not ask for/),
      expect.stringMatching(/task.status must be one of/),
    ]);
  });
});

describe('manual mode: the ToolTask handle', () => {
  it('returns the handle; the host answers input with update(), once per key', async () => {
    const { client, server } = await taskPair([
      taskState('input_required', { inputRequests: { name: NAME_REQUEST } }),
      taskState('input_required', { inputRequests: { name: NAME_REQUEST } }),
      taskState('working'),
      COMPLETED,
    ]);
    let gets = 0;
    const snapshots = [
      taskState('input_required', { inputRequests: { name: NAME_REQUEST } }),
      taskState('input_required', { inputRequests: { name: NAME_REQUEST } }),
    ];
    server.on('tasks/get', () => {
      gets += 1;
      const answered = server.requests('tasks/update').length > 0;
      const next = answered ? COMPLETED : (snapshots[Math.min(gets - 1, 1)] as Record<string, unknown>);
      return { result: { resultType: 'complete', ...next } };
    });
    const outcome = await client.callTool('job', {}, { task: 'manual' });
    expect(outcome).toBeInstanceOf(ToolTask);
    const task = outcome as ToolTask;
    expect(task.taskId).toBe('task-1');
    expect(task.status).toBe('working');
    expect(task.mode).toBe('manual');
    const asked: string[][] = [];
    task.on((event: ToolTaskEvent) => {
      if (event.type !== 'inputRequired') return;
      asked.push(Object.keys(event.inputRequests));
      void task.update({ name: { action: 'accept', content: { name: 'Ada' } } });
    });
    await expect(task.result()).resolves.toEqual(COMPLETED['result']);
    expect(asked).toEqual([['name']]);
    expect(task.answeredKeys).toEqual(['name']);
    await expect(task.update({ name: { action: 'decline' } })).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(server.requests('tasks/update')).toHaveLength(1);
    // Settled: result() again answers the same way without the wire.
    const before = server.received.length;
    await expect(task.result()).resolves.toEqual(COMPLETED['result']);
    expect(server.received.length).toBe(before);
  });

  it('a server that answers at once gets a plain result, even in manual mode', async () => {
    const { client, server } = await taskPair([COMPLETED]);
    server.on('tools/call', () => ({ result: { resultType: 'complete', content: [] } }));
    const outcome = await client.callTool('job', {}, { task: 'manual' });
    expect(outcome).not.toBeInstanceOf(ToolTask);
    expect(outcome).toMatchObject({ content: [] });
  });

  it('get() and cancel() speak tasks/get and tasks/cancel', async () => {
    const store = new MemoryTaskStore();
    const { client, server } = await taskPair([taskState('working', { statusMessage: 'busy' })], {
      tasks: { store, push: false, poll: { minMs: 0 } },
    });
    const task = (await client.callTool('job', {}, { task: 'manual' })) as ToolTask;
    expect(store.size).toBe(1);
    await expect(task.get()).resolves.toMatchObject({ status: 'working', statusMessage: 'busy' });
    const waiting = task.result();
    await task.cancel();
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
    expect(server.requests('tasks/cancel')).toHaveLength(1);
    expect(store.size).toBe(0);
  });

  it('cancel() settles only once the server confirmed, and then status is cancelled (with a status event)', async () => {
    const { client, server } = await taskPair([taskState('working')]);
    let confirm!: () => void;
    const confirmed = new Promise<void>((resolve) => (confirm = resolve));
    server.on('tasks/cancel', async () => {
      await confirmed;
      return { result: { resultType: 'complete' } };
    });
    const task = (await client.callTool('job', {}, { task: 'manual' })) as ToolTask;
    const events: string[] = [];
    task.on((event) => events.push(event.type === 'status' ? event.task.status : event.type));
    let settled = false;
    const cancelling = task.cancel().then(() => (settled = true));
    await server.waitFor((m) => m['method'] === 'tasks/cancel');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    expect(task.status).toBe('working');
    confirm();
    await cancelling;
    expect(task.status).toBe('cancelled');
    expect(events).toEqual(['cancelled']);
    // Once cancelled, nothing more is sent, and result() says so.
    await task.cancel();
    expect(server.requests('tasks/cancel')).toHaveLength(1);
    await expect(task.result()).rejects.toBeInstanceOf(TaskCancelledError);
  });

  it('a cancel refused by the server leaves status as it was and rejects', async () => {
    const { client, server } = await taskPair([taskState('working')]);
    server.on('tasks/cancel', () => ({ error: { code: -32603, message: 'cannot cancel now' } }));
    const task = (await client.callTool('job', {}, { task: 'manual' })) as ToolTask;
    await expect(task.cancel()).rejects.toMatchObject({ code: -32603 });
    expect(task.status).toBe('working');
  });

  it('the caller aborts and the client closes at once: the tasks/cancel still gets its answer, and nothing is reported', async () => {
    const errors: Error[] = [];
    const { client, server } = await taskPair([taskState('working', { pollIntervalMs: 5 })], {
      onError: (error) => errors.push(error),
    });
    server.on('tasks/cancel', async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { result: { resultType: 'complete' } };
    });
    const controller = new AbortController();
    const call = client.callTool('job', {}, { signal: controller.signal }).catch((e: unknown) => e);
    await server.waitFor((m) => m['method'] === 'tasks/get');
    controller.abort();
    await client.close();
    expect(await call).toBeInstanceOf(CancelledError);
    expect(server.requests('tasks/cancel')).toHaveLength(1);
    expect(errors.map(String)).toEqual([]);
  });
});

describe('durable: the store and resumeTask', () => {
  it('a client that closes mid-task keeps the record; another client resumes it without asking again', async () => {
    const store = new MemoryTaskStore();
    const form = vi.fn(() => ({ action: 'accept' as const, content: { name: 'Ada' } }));
    const first = await taskPair(
      [
        taskState('input_required', { inputRequests: { name: NAME_REQUEST } }),
        taskState('working', { pollIntervalMs: 5 }),
      ],
      { tasks: { store, push: false, poll: { minMs: 0 } }, handlers: { elicitation: { form } } },
    );
    const call = first.client.callTool('job', {});
    await first.server.waitFor((m) => m['method'] === 'tasks/update');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await first.client.close();
    const thrown = await call.catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TaskAbandonedError);
    expect(thrown).toMatchObject({ code: -33033, taskId: 'task-1', resumable: true, data: { reason: 'closed' } });
    expect((thrown as TaskAbandonedError).cause).toBeInstanceOf(ConnectionClosedError);
    const record = store.get(taskKey('memory:scripted', 'task-1'));
    expect(record).toMatchObject({ taskId: 'task-1', toolName: 'job', answeredKeys: ['name'], status: 'working' });

    // A new client on a new connection, same store: the server still lists the key (eventual consistency).
    const second = await taskPair([taskState('input_required', { inputRequests: { name: NAME_REQUEST } }), COMPLETED], {
      tasks: { store, push: false, poll: { minMs: 0 } },
      handlers: { elicitation: { form } },
    });
    expect((await second.client.storedTasks()).map((r) => r.taskId)).toEqual(['task-1']);
    const task = await second.client.resumeTask('task-1');
    expect(task.toolName).toBe('job');
    await expect(task.result()).resolves.toEqual(COMPLETED['result']);
    expect(form).toHaveBeenCalledTimes(1);
    expect(second.server.requests('tasks/update')).toEqual([]);
    expect(second.server.requests('tools/call')).toEqual([]);
    expect(store.size).toBe(0);
  });

  it('an answer given but not acknowledged is sent again on resume, not asked again', async () => {
    const store = new MemoryTaskStore();
    store.set(taskKey('memory:scripted', 'task-1'), {
      taskId: 'task-1',
      serverIdentity: 'memory:scripted',
      method: 'tools/call',
      toolName: 'job',
      status: 'input_required',
      expiresAt: null,
      answeredKeys: [],
      pendingResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
      updatedAt: 0,
    });
    const form = vi.fn();
    const { client, server } = await taskPair(
      [taskState('input_required', { inputRequests: { name: NAME_REQUEST } }), COMPLETED],
      { tasks: { store, push: false, poll: { minMs: 0 } }, handlers: { elicitation: { form } } },
    );
    const task = await client.resumeTask('task-1');
    await expect(task.result()).resolves.toEqual(COMPLETED['result']);
    expect(form).not.toHaveBeenCalled();
    expect(server.requests('tasks/update').map((r) => r['params'].inputResponses)).toEqual([
      { name: { action: 'accept', content: { name: 'Ada' } } },
    ]);
  });

  it('a stored task past its TTL is refused with nothing sent, and forgotten', async () => {
    const store = new MemoryTaskStore();
    const key = taskKey('memory:scripted', 'task-1');
    store.set(key, {
      taskId: 'task-1',
      serverIdentity: 'memory:scripted',
      method: 'tools/call',
      status: 'working',
      expiresAt: 1000,
      answeredKeys: [],
      updatedAt: 0,
    });
    const { client, server } = await taskPair([COMPLETED], {
      tasks: { store, push: false, clock: { now: () => 5000 } },
    });
    const thrown = await client.resumeTask('task-1').catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TaskExpiredError);
    expect(thrown).toMatchObject({ code: -33031, data: { taskId: 'task-1', expiresAt: 1000, status: 'working' } });
    expect(server.requests('tasks/get')).toEqual([]);
    expect(store.get(key)).toBeUndefined();
  });

  it('resuming an id the server does not know: TaskNotFoundError', async () => {
    const { client } = await taskPair([COMPLETED]);
    await expect(client.resumeTask('nope')).rejects.toMatchObject({
      name: 'TaskNotFoundError',
      taskId: 'nope',
      code: -32602,
    });
    await expect(client.resumeTask('')).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('the TTL from createdAt + ttlMs is kept in the record', async () => {
    const store = new MemoryTaskStore();
    const { client } = await taskPair([taskState('working', { ttlMs: 60_000, pollIntervalMs: 1000 })], {
      tasks: { store, push: false },
    });
    const task = (await client.callTool('job', {}, { task: 'manual' })) as ToolTask;
    await task.get();
    await vi.waitFor(() =>
      expect(store.get(taskKey('memory:scripted', 'task-1'))?.expiresAt).toBe(Date.parse(CREATED_AT) + 60_000),
    );
  });
});

describe('options', () => {
  it('bad tasks options and a bad task mode are refused', async () => {
    expect(() => scriptedPair({ tasks: { pushBackstopMs: 0 } })).toThrow(InvalidArgumentError);
    expect(() => scriptedPair({ tasks: { store: {} as never } })).toThrow(InvalidArgumentError);
    expect(() => scriptedPair({ tasks: { poll: { minMs: -1 } } })).toThrow(InvalidArgumentError);
    const { client } = await taskPair([COMPLETED]);
    await expect(client.callTool('job', {}, { task: 'later' as never })).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('the poll and poll retry options are checked when the client is made: the first bad field, by name, value and reason', () => {
    const refusal = (tasks: ClientOptions['tasks']) => {
      try {
        scriptedPair({ tasks });
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidArgumentError);
        const { code, message, data } = error as InvalidArgumentError;
        return { code, message, data };
      }
      throw new Error('the client was made');
    };
    expect(refusal({ poll: { factor: 0.5, initialMs: -1 } })).toEqual({
      code: -32602,
      message: 'invalid poll.initialMs: expected a finite number ≥ 0',
      data: { name: 'poll.initialMs', value: -1 },
    });
    expect(refusal({ poll: { maxMs: 20, factor: 0.5 } })).toEqual({
      code: -32602,
      message: 'invalid poll.factor: expected a finite number ≥ 1',
      data: { name: 'poll.factor', value: 0.5 },
    });
    expect(refusal({ poll: { maxSuggestedMs: Number.NaN } }).data).toEqual({
      name: 'poll.maxSuggestedMs',
      value: Number.NaN,
    });
    expect(refusal({ poll: { minMs: 50, maxSuggestedMs: 10 } })).toEqual({
      code: -32602,
      message: 'invalid poll.maxSuggestedMs: expected ≥ poll.minMs (50)',
      data: { name: 'poll.maxSuggestedMs', value: 10 },
    });
    expect(refusal({ pollRetry: { factor: 0, maxDelayMs: '5' as never, retries: 1.5 } })).toEqual({
      code: -32602,
      message: 'invalid tasks.pollRetry.retries: expected an integer ≥ 0',
      data: { name: 'tasks.pollRetry.retries', value: 1.5 },
    });
    expect(refusal({ pollRetry: { factor: 0, maxDelayMs: '5' as never } })).toEqual({
      code: -32602,
      message: 'invalid tasks.pollRetry.maxDelayMs: expected a finite number ≥ 0',
      data: { name: 'tasks.pollRetry.maxDelayMs', value: '5' },
    });
    expect(refusal({ pollRetry: { jitter: true, factor: Infinity } })).toEqual({
      code: -32602,
      message: 'invalid tasks.pollRetry.factor: expected a finite number ≥ 1',
      data: { name: 'tasks.pollRetry.factor', value: Infinity },
    });
    expect(refusal({ pollRetry: { jitter: 1 as never } }).data).toEqual({ name: 'tasks.pollRetry.jitter', value: 1 });
    expect(refusal({ pollRetry: 3 as never }).data).toEqual({ name: 'tasks.pollRetry', value: 3 });
  });
});

/** Keeps the DetailedTask import honest: the fake's snapshots are wire-shaped tasks. */
export type Snapshot = DetailedTask;
