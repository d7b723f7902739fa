/**
 * The Tasks extension against the example server (examples/exampleTasks.ts, generate_report):
 * over a real stdio pipe, and over Streamable HTTP in a child process, where the task outlives
 * the connection that created it and is resumed on a new client.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import { CancelledError, MissingClientCapabilityError } from '../../src/errors/errors.js';
import { TaskNotFoundError } from '../../src/tasks/errors.js';
import { MemoryTaskStore } from '../../src/tasks/taskStore.js';
import { ToolTask } from '../../src/tasks/toolTask.js';
import type { DetailedTask, Task } from '../../src/wire/tasks.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { exampleClient, startExampleHttpServer } from './exampleServer.js';
import { HTTP_PATHS } from '../fakes/httpPaths.js';

const approve = (note: string) =>
  vi.fn(async (_params: { message: string }) => ({ action: 'accept' as const, content: { approve: true, note } }));

describe('generate_report over stdio', () => {
  const form = approve('ship it');
  const { client } = exampleClient({
    tasks: { poll: { minMs: 10 } },
    handlers: { elicitation: { form } },
  });
  beforeAll(() => client.connect());
  afterAll(() => client.close());

  it('the server lists the extension; the call becomes a task, asks once, and completes', async () => {
    expect(client.serverCapabilities?.extensions).toEqual({
      'io.modelcontextprotocol/tasks': {},
      'io.modelcontextprotocol/events': { listChanged: false },
    });
    const states: Array<Task | DetailedTask> = [];
    const result = await client.callTool(
      'generate_report',
      { topic: 'Q3', steps: 4, stepMs: 30 },
      { onTask: (task) => states.push(task) },
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Report on "Q3": 4 sections written and approved (ship it).' }],
    });
    expect(form).toHaveBeenCalledTimes(1);
    expect(form.mock.calls[0]![0].message).toBe('Publish the report on "Q3"?');
    const statuses = states.map((s) => s.status);
    expect(statuses[0]).toBe('working');
    expect(statuses).toContain('input_required');
    expect(statuses.at(-1)).toBe('completed');
    expect(new Set(states.map((s) => s.taskId)).size).toBe(1);
    expect(await client.storedTasks()).toEqual([]);
  });

  it('without the extension the same tool runs inline, asking first (MRTR)', async () => {
    form.mockClear();
    const result = await client.callTool('generate_report', { topic: 'Q4', steps: 2, stepMs: 5 }, { task: 'off' });
    expect(result.content).toEqual([
      { type: 'text', text: 'Report on "Q4": 2 sections written and approved (ship it).' },
    ]);
    expect(form).toHaveBeenCalledTimes(1);
  });

  it('a refusal completes the task with isError: true (a result, not a throw)', async () => {
    const refusing = exampleClient({
      tasks: { poll: { minMs: 10 } },
      handlers: { elicitation: { form: async () => ({ action: 'decline' as const }) } },
    }).client;
    await refusing.connect();
    try {
      const result = await refusing.callTool('generate_report', { topic: 'Q1', steps: 2, stepMs: 10 });
      expect(result).toMatchObject({ isError: true, content: [{ text: 'The report on "Q1" was not approved.' }] });
    } finally {
      await refusing.close();
    }
  });

  it("the caller's signal cancels the task on the server (tasks/cancel)", async () => {
    const controller = new AbortController();
    let taskId: string | undefined;
    const call = client.callTool(
      'generate_report',
      { topic: 'never', steps: 50, stepMs: 1000 },
      { signal: controller.signal, onTask: (task) => (taskId ??= task.taskId) },
    );
    await vi.waitFor(() => expect(taskId).toBeDefined());
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(CancelledError);
    const task = await client.resumeTask(taskId!, { task: 'manual' });
    await vi.waitFor(async () => expect((await task.get()).status).toBe('cancelled'));
    await expect(task.result()).rejects.toMatchObject({ name: 'TaskCancelledError', taskId });
  });

  it('an unknown id is a TaskNotFoundError (-32602); tasks/get without the extension is -32021', async () => {
    const thrown = await client.resumeTask('no-such-task').catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TaskNotFoundError);
    expect(thrown).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    // client.request() declares nothing beyond the client's own capabilities.
    const undeclared = await client.request('tasks/get', { taskId: 'no-such-task' }).catch((e: unknown) => e);
    expect(undeclared).toBeInstanceOf(MissingClientCapabilityError);
    expect((undeclared as MissingClientCapabilityError).requiredCapabilities).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
  });

  it('manual mode hands over the task; the host answers with update()', async () => {
    const outcome = await client.callTool(
      'generate_report',
      { topic: 'by hand', steps: 2, stepMs: 10 },
      { task: 'manual' },
    );
    expect(outcome).toBeInstanceOf(ToolTask);
    const task = outcome as ToolTask;
    task.on((event) => {
      if (event.type === 'inputRequired')
        void task.update({ approval: { action: 'accept', content: { approve: true, note: 'manual' } } });
    });
    await expect(task.result()).resolves.toMatchObject({
      content: [{ text: 'Report on "by hand": 2 sections written and approved (manual).' }],
    });
  });
});

describe.each(HTTP_PATHS)('generate_report over Streamable HTTP ($path path)', ({ Transport }) => {
  let server: HttpServerProcess | undefined;
  beforeAll(async () => {
    server = await startExampleHttpServer();
  });
  afterAll(() => server?.stop());

  function clientOn(store: MemoryTaskStore, form: ReturnType<typeof approve>): McpClient {
    return new McpClient({
      transport: new Transport(server!.url),
      clientInfo: { name: 'mcp-live-tests', version: '0.0.0' },
      tasks: { store, poll: { minMs: 10 } },
      handlers: { elicitation: { form } },
    });
  }

  it('a connection dropped mid-task: the task is resumed on a new client, its input not asked again', async () => {
    const store = new MemoryTaskStore();
    const firstForm = approve('from the first client');
    const first = clientOn(store, firstForm);
    await first.connect();
    const states: string[] = [];
    const call = first.callTool(
      'generate_report',
      { topic: 'migration', steps: 6, stepMs: 150 },
      { onTask: (task) => states.push(task.status) },
    );
    // Approved, back at work: drop the connection.
    await vi.waitFor(
      () => {
        const asked = states.indexOf('input_required');
        expect(asked >= 0 && states.slice(asked + 1).includes('working')).toBe(true);
      },
      { timeout: 5000 },
    );
    await first.close();
    // The task outlives the client that started it: the call says so, and that it may be resumed.
    await expect(call).rejects.toMatchObject({
      name: 'TaskAbandonedError',
      resumable: true,
      data: { reason: 'closed' },
    });
    expect(firstForm).toHaveBeenCalledTimes(1);
    const [record] = await first.storedTasks();
    expect(record).toMatchObject({
      toolName: 'generate_report',
      answeredKeys: ['approval'],
      serverIdentity: server!.url,
    });

    const secondForm = approve('never asked');
    const second = clientOn(store, secondForm);
    await second.connect();
    try {
      const task = await second.resumeTask(record!.taskId);
      await expect(task.result()).resolves.toEqual({
        content: [
          { type: 'text', text: 'Report on "migration": 6 sections written and approved (from the first client).' },
        ],
      });
      expect(secondForm).not.toHaveBeenCalled();
      expect(await second.storedTasks()).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('dropped before its input step: the new client answers it', async () => {
    const store = new MemoryTaskStore();
    const first = clientOn(store, approve('unused'));
    await first.connect();
    let taskId: string | undefined;
    const call = first.callTool(
      'generate_report',
      { topic: 'handover', steps: 4, stepMs: 200 },
      { onTask: (task) => (taskId ??= task.taskId) },
    );
    await vi.waitFor(() => expect(taskId).toBeDefined());
    await first.close();
    // The task outlives the client that started it: the call says so, and that it may be resumed.
    await expect(call).rejects.toMatchObject({
      name: 'TaskAbandonedError',
      resumable: true,
      data: { reason: 'closed' },
    });

    const secondForm = approve('second');
    const second = clientOn(store, secondForm);
    await second.connect();
    try {
      const result = await (await second.resumeTask(taskId!)).result();
      expect(result.content).toEqual([
        { type: 'text', text: 'Report on "handover": 4 sections written and approved (second).' },
      ]);
      expect(secondForm).toHaveBeenCalledTimes(1);
    } finally {
      await second.close();
    }
  });
});
