/**
 * The task machinery loads on first use (docs/tasks.md): each test imports the package afresh
 * (`vi.resetModules()`), so its first task is the one that loads it. A task answer in auto and
 * manual mode, `resumeTask` on a fresh client, and a load that fails (the module mocked to
 * throw, as a missing chunk would): the call rejects with ModuleLoadError and the task is kept.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScriptedServer, DISCOVER_RESULT } from '../fakes/scriptedServer.js';

type Package = typeof import('../../src/index.js');

const MACHINERY = '../../src/tasks/taskMachinery.lazy.js';
const TASKS = 'io.modelcontextprotocol/tasks';
const SERVER = 'memory:on-demand';
const CREATED_AT = '2026-08-01T10:00:00.000Z';

function taskState(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { taskId: 'task-1', status, createdAt: CREATED_AT, lastUpdatedAt: CREATED_AT, ttlMs: null, ...extra };
}

const CREATED = { resultType: 'task', ...taskState('working', { statusMessage: 'queued', pollIntervalMs: 1 }) };
const COMPLETED = taskState('completed', { result: { content: [{ type: 'text', text: 'done' }] } });

/** `error`, its `cause`, that one's `cause`… */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at = error; at !== undefined && chain.length < 5; at = (at as { cause?: unknown }).cause) chain.push(at);
  return chain;
}

let pkg: Package;
const closers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  vi.resetModules();
  pkg = await import('../../src/index.js');
});

afterEach(async () => {
  vi.doUnmock(MACHINERY);
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A fresh package's client, connected to a server that lists the extension and makes task-1 of every tools/call. */
async function freshPair(
  options: { store?: InstanceType<Package['MemoryTaskStore']>; onError?: (error: Error) => void } = {},
): Promise<{ client: InstanceType<Package['McpClient']>; server: ScriptedServer }> {
  const [clientEnd, serverEnd] = pkg.InMemoryTransport.createLinkedPair(SERVER);
  const server = new ScriptedServer(serverEnd);
  const client = new pkg.McpClient({
    transport: clientEnd,
    clientInfo: { name: 'test-host', version: '1.0.0' },
    tasks: { push: false, poll: { minMs: 0 }, ...(options.store !== undefined && { store: options.store }) },
    ...(options.onError !== undefined && { onError: options.onError }),
  });
  closers.push(() => client.close());
  server.on('server/discover', () => ({
    result: { ...DISCOVER_RESULT, capabilities: { tools: {}, extensions: { [TASKS]: {} } } },
  }));
  server.on('tools/call', () => ({ result: CREATED }));
  server.on('tasks/get', () => ({ result: { resultType: 'complete', ...COMPLETED } }));
  await server.start();
  await client.connect();
  return { client, server };
}

describe('the task machinery, loaded on first use', () => {
  it('calls that get no task, a listing, an aborted call and close() leave it unloaded', async () => {
    let loads = 0;
    vi.doMock(MACHINERY, async (importOriginal) => {
      loads += 1;
      return importOriginal();
    });
    const { client, server } = await freshPair();
    const plain = { resultType: 'complete', content: [{ type: 'text', text: 'plain' }] };
    server.on('tools/call', () => ({ result: plain }));
    server.on('tools/list', () => ({
      result: { resultType: 'complete', tools: [{ name: 'job', inputSchema: { type: 'object' } }] },
    }));
    expect(await client.callTool('job', {})).toEqual(plain);
    expect(await client.callTool('job', {}, { task: 'manual' })).toEqual(plain);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['job']);
    server.on('tools/call', () => new Promise(() => undefined));
    const controller = new AbortController();
    const pending = client.callTool('job', {}, { signal: controller.signal }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(server.requests('tools/call')).toHaveLength(3));
    controller.abort();
    expect(await pending).toBeInstanceOf(pkg.CancelledError);
    await client.close();
    expect(loads).toBe(0);
    // A task answer is what loads it.
    const second = await freshPair();
    await second.client.callTool('job', {});
    expect(loads).toBe(1);
  });

  it("a fresh client's first task in auto mode resolves with the tool's result", async () => {
    const { client, server } = await freshPair();
    const seen: string[] = [];
    const result = await client.callTool('job', {}, { onTask: (task) => seen.push(`${task.taskId} ${task.status}`) });
    expect(result).toEqual(COMPLETED['result']);
    expect(seen).toEqual(['task-1 working', 'task-1 completed']);
    expect(server.requests('tasks/get')).toHaveLength(1);
  });

  it("a fresh client's first task in manual mode is a handle of the root's ToolTask class", async () => {
    const { client } = await freshPair();
    const task = await client.callTool('job', {}, { task: 'manual' });
    expect(task).toBeInstanceOf(pkg.ToolTask);
    const handle = task as InstanceType<Package['ToolTask']>;
    expect([handle.taskId, handle.toolName, handle.mode, handle.status]).toEqual([
      'task-1',
      'job',
      'manual',
      'working',
    ]);
    await expect(handle.result()).resolves.toEqual(COMPLETED['result']);
    expect(handle.status).toBe('completed');
  });

  it('resumeTask on a fresh client loads it, and brings back the stored answered keys', async () => {
    const store = new pkg.MemoryTaskStore();
    const { client, server } = await freshPair({ store });
    store.set(pkg.taskKey(SERVER, 'task-1'), {
      taskId: 'task-1',
      serverIdentity: SERVER,
      method: 'tools/call',
      toolName: 'job',
      status: 'input_required',
      expiresAt: null,
      answeredKeys: ['name'],
      updatedAt: 0,
    });
    const task = await client.resumeTask('task-1', { task: 'manual' });
    expect(task).toBeInstanceOf(pkg.ToolTask);
    expect([task.toolName, task.status, task.answeredKeys]).toEqual(['job', 'completed', ['name']]);
    expect(server.requests('tasks/get').map((request) => request['params'].taskId)).toEqual(['task-1']);
  });

  it('a failed load rejects the call with ModuleLoadError; the task is stored and resumed once the load works', async () => {
    const cause = new Error('chunk-tasks.js is missing');
    vi.doMock(MACHINERY, () => {
      throw cause;
    });
    const errors: Error[] = [];
    const { client, server } = await freshPair({ onError: (error) => errors.push(error) });
    const seen: string[] = [];
    const error: unknown = await client
      .callTool('job', {}, { onTask: (task) => seen.push(`${task.taskId} ${task.status}`) })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(pkg.ModuleLoadError);
    expect(pkg.isModuleLoadError(error)).toBe(true);
    expect((error as InstanceType<Package['ModuleLoadError']>).code).toBe(-33042);
    expect((error as InstanceType<Package['ModuleLoadError']>).data).toEqual({ module: 'tasks' });
    expect(causes(error)).toContain(cause);
    // The server's task is not lost: the call's onTask heard its id, and its record is stored.
    expect(seen).toEqual(['task-1 working']);
    expect(await client.storedTasks()).toEqual([
      {
        taskId: 'task-1',
        serverIdentity: SERVER,
        method: 'tools/call',
        toolName: 'job',
        status: 'working',
        statusMessage: 'queued',
        expiresAt: null,
        pollIntervalMs: 1,
        answeredKeys: [],
        updatedAt: expect.any(Number) as number,
      },
    ]);
    // Nothing followed it, nor cancelled it.
    expect(server.requests('tasks/get')).toEqual([]);
    expect(server.requests('tasks/cancel')).toEqual([]);
    // resumeTask fails the same way while the module cannot load, with nothing sent…
    await expect(client.resumeTask('task-1')).rejects.toBeInstanceOf(pkg.ModuleLoadError);
    expect(server.requests('tasks/get')).toEqual([]);
    // …and picks the task up once it can.
    vi.doUnmock(MACHINERY);
    const task = await client.resumeTask('task-1');
    expect(task.toolName).toBe('job');
    await expect(task.result()).resolves.toEqual(COMPLETED['result']);
    expect(await client.storedTasks()).toEqual([]);
    expect(errors).toEqual([]);
  });
});
