/**
 * Tasks against servers that hiccup, over real sockets (a node:http task server on 127.0.0.1)
 * and a real host process: one -32603 poll, one poll slower than `timeoutMs`, a connection
 * dropped under a poll, a `pollIntervalMs` of 2^31, polls that never come back, cancel racing
 * completion, and a host SIGKILLed mid-task whose task another process resumes. Each settles
 * with the documented outcome, within a bound, with no unhandled rejection and nothing left
 * running.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  McpClient,
  ProtocolError,
  StreamableHttpTransport,
  TaskAbandonedError,
  TaskNotFoundError,
  ToolTask,
  type ClientOptions,
  type TaskRecord,
  type TaskStore,
} from '../../src/index.js';
import { sendJson, type HttpFake, type RecordedRequest } from '../fakes/httpFake.js';
import { faultyServer } from './httpServers.js';
import { expectNoLeakedHandles, expectRejects, faultProbe, settleWithin } from './harness.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOST_CHILD = fileURLToPath(new URL('./children/task-client.mjs', import.meta.url));
const DONE = { content: [{ type: 'text', text: 'done' }] };

/** What the task server does with the n-th `tasks/get` (1-based): answer with a status, or handle it itself. */
type GetScript = (n: number, request: RecordedRequest, res: ServerResponse) => 'working' | 'completed' | 'handled';

interface TaskServer {
  fake: HttpFake;
  url: string;
  gets(): number;
  cancels(): number;
}

/**
 * A 2026-07-28 server listing the Tasks extension: `tools/call` makes task-1, `tasks/get` follows
 * `script`, `tasks/cancel` follows `cancel` (confirmed by default).
 */
async function taskServer(
  script: GetScript,
  options: { pollIntervalMs?: number; cancel?: (request: RecordedRequest, res: ServerResponse) => void } = {},
): Promise<TaskServer> {
  let gets = 0;
  let cancels = 0;
  const state = (status: string): Record<string, unknown> => ({
    taskId: 'task-1',
    status,
    createdAt: new Date().toISOString(),
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: null,
    pollIntervalMs: options.pollIntervalMs ?? 100,
    ...(status === 'completed' && { result: DONE }),
  });
  const reply = (request: RecordedRequest, res: ServerResponse, result: Record<string, unknown>) =>
    sendJson(res, 200, { jsonrpc: '2.0', id: request.json.id, result });
  const fake = await faultyServer({
    'server/discover': (request, res) =>
      reply(request, res, {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {}, extensions: { [TASKS]: {} } },
        ttlMs: 0,
        cacheScope: 'public',
      }),
    'tools/call': (request, res) => reply(request, res, { resultType: 'task', ...state('working') }),
    'tasks/get': (request, res) => {
      gets += 1;
      const status = script(gets, request, res);
      if (status !== 'handled') reply(request, res, { resultType: 'complete', ...state(status) });
    },
    'tasks/cancel': (request, res) => {
      cancels += 1;
      if (options.cancel !== undefined) return options.cancel(request, res);
      reply(request, res, { resultType: 'complete' });
    },
  });
  return { fake, url: fake.url, gets: () => gets, cancels: () => cancels };
}

const rpcError = (request: RecordedRequest, res: ServerResponse, code: number, message: string) =>
  sendJson(res, 200, { jsonrpc: '2.0', id: request.json.id, error: { code, message } });

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

async function connected(server: TaskServer, options: Partial<ClientOptions> = {}): Promise<McpClient> {
  const client = new McpClient({
    transport: new StreamableHttpTransport(server.url),
    clientInfo: { name: 'faults', version: '0.0.0' },
    tasks: { push: false, pollRetry: { minDelayMs: 20, maxDelayMs: 100, jitter: false } },
    ...options,
  });
  await client.connect();
  return client;
}

describe('a task survives a hiccup', () => {
  const probe = faultProbe();

  it('one poll answered -32603: tried again, the call resolves with the result', async () => {
    const server = await taskServer((n, request, res) => {
      if (n === 1) {
        rpcError(request, res, -32603, 'Internal error');
        return 'handled';
      }
      return 'completed';
    });
    const errors: Error[] = [];
    const client = await connected(server, { onError: (error) => errors.push(error) });
    const settled = await settleWithin(client.callTool('go', {}), 3000);
    expect(settled).toMatchObject({ status: 'fulfilled', value: DONE });
    expect(server.gets()).toBe(2);
    expect(server.cancels()).toBe(0);
    await client.close();
    await server.fake.close();
    expect(errors).toEqual([]);
    await expectNoLeakedHandles(probe.baseline);
  });

  it('one poll slower than timeoutMs: that poll times out, the next one goes on; the task is not ended', async () => {
    const server = await taskServer((n, request, res) => {
      if (n === 1) {
        setTimeout(() => {
          if (!res.destroyed)
            sendJson(res, 200, { jsonrpc: '2.0', id: request.json.id, result: { resultType: 'complete' } });
        }, 700).unref();
        return 'handled';
      }
      return n < 3 ? 'working' : 'completed';
    });
    const client = await connected(server);
    const settled = await settleWithin(client.callTool('go', {}, { timeoutMs: 200 }), 4000);
    expect(settled).toMatchObject({ status: 'fulfilled', value: DONE });
    expect(server.gets()).toBe(3);
    expect(server.cancels()).toBe(0);
    await client.close();
    await server.fake.close();
    await expectNoLeakedHandles(probe.baseline);
  });

  it("the connection dropped under polls, past the transport's own retries: tried again on a new connection", async () => {
    // The transport retries a dropped tasks/get twice itself; four drops in a row outlast that.
    const server = await taskServer((n, _request, res) => {
      if (n <= 4) {
        res.socket?.destroy();
        return 'handled';
      }
      return 'completed';
    });
    const client = await connected(server);
    const settled = await settleWithin(client.callTool('go', {}), 4000);
    expect(settled).toMatchObject({ status: 'fulfilled', value: DONE });
    expect(server.gets()).toBeGreaterThanOrEqual(5);
    await client.close();
    await server.fake.close();
    await expectNoLeakedHandles(probe.baseline);
  });

  it('a pollIntervalMs of 2^31 is held to maxSuggestedMs (no busy loop, no 25-day wait) and reported once', async () => {
    const server = await taskServer((n) => (n < 4 ? 'working' : 'completed'), { pollIntervalMs: 2 ** 31 });
    const errors: Error[] = [];
    const client = await connected(server, {
      onError: (error) => errors.push(error),
      tasks: { push: false, poll: { maxSuggestedMs: 150 } },
    });
    const settled = await settleWithin(client.callTool('go', {}), 3000);
    expect(settled).toMatchObject({ status: 'fulfilled', value: DONE });
    expect(settled.ms).toBeGreaterThanOrEqual(4 * 150 - 20);
    expect(server.gets()).toBe(4);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
    expect((errors[0] as ProtocolError).data.value).toMatchObject({
      field: 'pollIntervalMs',
      value: 2 ** 31,
      used: 150,
    });
    await client.close();
    await server.fake.close();
    await expectNoLeakedHandles(probe.baseline);
  });
});

describe('the client gives up without ending the task', () => {
  const probe = faultProbe();

  it('polls failing past the budget: TaskAbandonedError (-33033, poll-failures, resumable), the record kept, no tasks/cancel', async () => {
    const server = await taskServer((_n, request, res) => {
      rpcError(request, res, -32603, 'Internal error');
      return 'handled';
    });
    const client = await connected(server, {
      tasks: { push: false, pollRetry: { retries: 2, minDelayMs: 20, jitter: false } },
    });
    const error = await expectRejects(client.callTool('go', {}), 3000, {
      name: 'TaskAbandonedError',
      code: -33033,
      data: { taskId: 'task-1', reason: 'poll-failures', resumable: true, status: 'working', failedPolls: 3 },
    });
    expect((error as TaskAbandonedError).taskId).toBe('task-1');
    expect(server.gets()).toBe(3);
    expect(server.cancels()).toBe(0);
    expect((await client.storedTasks()).map((record) => record.taskId)).toEqual(['task-1']);
    await client.close();
    await server.fake.close();
    await expectNoLeakedHandles(probe.baseline);
  });

  it('close() mid-task: TaskAbandonedError (closed, resumable) at once', async () => {
    const server = await taskServer(() => 'working');
    const client = await connected(server);
    const call = client.callTool('go', {});
    while (server.gets() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await client.close();
    await expectRejects(call, 1000, {
      name: 'TaskAbandonedError',
      code: -33033,
      data: { reason: 'closed', resumable: true },
    });
    expect(server.cancels()).toBe(0);
    await server.fake.close();
    await expectNoLeakedHandles(probe.baseline);
  });
});

describe('cancel racing completion', () => {
  const probe = faultProbe();
  const tooLate = (request: RecordedRequest, res: ServerResponse) =>
    rpcError(request, res, -32602, 'Cannot cancel task in terminal status: completed');

  it("the caller aborts as the task completes: CancelledError at once, the server's -32602 to tasks/cancel is not reported", async () => {
    const server = await taskServer(() => 'working', { cancel: tooLate });
    const errors: Error[] = [];
    const client = await connected(server, { onError: (error) => errors.push(error) });
    const controller = new AbortController();
    const call = client.callTool('go', {}, { signal: controller.signal });
    while (server.gets() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expectRejects(call, 500, { name: 'CancelledError', code: -32800 });
    await client.close();
    expect(server.cancels()).toBe(1);
    expect(errors.map(String)).toEqual([]);
    await server.fake.close();
    await expectNoLeakedHandles(probe.baseline);
  });

  it('a manual cancel() that loses the race rejects TaskNotFoundError and leaves status as it was', async () => {
    const server = await taskServer(() => 'working', { cancel: tooLate });
    const client = await connected(server);
    const task = (await client.callTool('go', {}, { task: 'manual' })) as ToolTask;
    expect(task).toBeInstanceOf(ToolTask);
    const error = await task.cancel().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskNotFoundError);
    expect(task.status).toBe('working');
    await client.close();
    await server.fake.close();
    await expectNoLeakedHandles(probe.baseline);
  });

  it('a cancel the server confirms: cancel() settles after it, status cancelled, result() rejects CancelledError', async () => {
    const server = await taskServer(() => 'working');
    const client = await connected(server);
    const task = (await client.callTool('go', {}, { task: 'manual' })) as ToolTask;
    const following = task.result();
    await settleWithin(task.cancel(), 1000);
    expect(task.status).toBe('cancelled');
    await expectRejects(following, 500, { name: 'CancelledError', code: -32800 });
    expect(server.cancels()).toBe(1);
    await client.close();
    await server.fake.close();
    await expectNoLeakedHandles(probe.baseline);
  });
});

/** The TaskStore of test/faults/children/task-client.mjs: one JSON file. */
function fileStore(file: string): TaskStore {
  const read = async (): Promise<Record<string, TaskRecord>> => {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as Record<string, TaskRecord>;
    } catch {
      return {};
    }
  };
  const write = async (records: Record<string, TaskRecord>) => {
    await writeFile(`${file}.tmp`, JSON.stringify(records));
    await rename(`${file}.tmp`, file);
  };
  return {
    get: async (key) => (await read())[key],
    set: async (key, record) => write({ ...(await read()), [key]: record }),
    delete: async (key) => {
      const records = await read();
      delete records[key];
      await write(records);
    },
    keys: async (prefix) => Object.keys(await read()).filter((key) => key.startsWith(prefix)),
  };
}

describe('a host SIGKILLed mid-task', () => {
  const probe = faultProbe();
  beforeAll(() => {
    const built = spawnSync(process.execPath, ['bench/ensure-build.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building dist/ failed');
  }, 600_000);

  it('another process resumes its task from the durable store and gets the result', async () => {
    let finished = false;
    const server = await taskServer(() => (finished ? 'completed' : 'working'));
    const dir = await mkdtemp(join(tmpdir(), 'mcp-live-tasks-'));
    const file = join(dir, 'tasks.json');
    const child = spawn(process.execPath, [HOST_CHILD, server.url, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    const lines = createInterface({ input: child.stdout });
    const first = await settleWithin(
      new Promise<Record<string, unknown>>((resolve) => lines.once('line', (line) => resolve(JSON.parse(line)))),
      10_000,
      'the host printing its task id',
    );
    expect(first).toMatchObject({ status: 'fulfilled', value: { taskId: 'task-1' } });
    while (server.gets() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    lines.close();

    finished = true;
    const client = await connected(server, { tasks: { push: false, store: fileStore(file) } });
    const stored = await client.storedTasks();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ taskId: 'task-1', toolName: 'go', status: 'working' });
    const task = await client.resumeTask('task-1');
    const settled = await settleWithin(task.result(), 3000);
    expect(settled).toMatchObject({ status: 'fulfilled', value: DONE });
    expect(await client.storedTasks()).toEqual([]);
    expect(server.cancels()).toBe(0);
    await client.close();
    await server.fake.close();
    await rm(dir, { recursive: true, force: true });
    await expectNoLeakedHandles(probe.baseline);
  }, 30_000);
});
