/**
 * RedisTaskStore against a real redis-server (its own process, free port, no persistence), and
 * a task that outlives its host: client A starts it on the example server (Streamable HTTP, a
 * child process) and is closed; client B, with its own store on the same Redis (as another
 * process would have), resumes it by id and gets the result.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import { McpClient } from '../../src/client/client.js';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import { ErrorCode } from '../../src/errors/codes.js';
import { RedisTaskStore, type RedisTaskStoreOptions } from '../../src/tasks/redis/redisTaskStore.js';
import { TaskStoreError } from '../../src/tasks/redis/taskStoreError.js';
import { taskKey, taskKeyPrefix, type TaskRecord } from '../../src/tasks/taskStore.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { startExampleHttpServer } from '../integration/exampleServer.js';
import { systemBinary } from '../setup/systemBinaries.js';
import { startRedisServer, type RedisServer } from '../fakes/redisServer.js';

const redisBinary = systemBinary('redis-server');
const SERVER = 'https://mcp.example.com/mcp?tenant=acme';
const NOW = 1_700_000_000_000;

function record(taskId: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId,
    serverIdentity: SERVER,
    method: 'tools/call',
    toolName: 'generate_report',
    status: 'working',
    statusMessage: 'writing section 1 of 4',
    expiresAt: NOW + 60_000,
    pollIntervalMs: 100,
    answeredKeys: ['approval'],
    pendingResponses: { other: { action: 'accept', content: { approve: true } } },
    updatedAt: NOW,
    ...overrides,
  };
}

describe.skipIf(redisBinary.skipReason !== undefined)('RedisTaskStore (real redis-server)', () => {
  let redis: RedisServer;
  let admin: Redis;
  const stores: RedisTaskStore[] = [];
  let prefixCounter = 0;
  let prefix = '';

  beforeAll(async () => {
    redis = await startRedisServer(redisBinary.path!);
    admin = redis.admin();
    admin.on('error', () => {}); // it lives through the test that kills Redis; it reconnects by itself
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.stop();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    if (!redis.running) await redis.restart();
  });

  function store(options: Partial<RedisTaskStoreOptions> = {}): RedisTaskStore {
    prefix ||= `t${++prefixCounter}:`;
    const made = new RedisTaskStore({ connection: redis.url, prefix, wallClock: { now: () => NOW }, ...options });
    stores.push(made);
    return made;
  }

  /** Every key under the test's prefix. */
  async function keysInRedis(): Promise<string[]> {
    return (await admin.keys(`${prefix}*`)).sort();
  }

  afterEach(() => {
    prefix = '';
  });

  it('a record round-trips as written; the key names hold neither the task id nor the server', async () => {
    const tasks = store();
    const key = taskKey(SERVER, 'task-secret-1');
    await tasks.set(key, record('task-secret-1'));
    expect(await tasks.get(key)).toEqual(record('task-secret-1'));
    const [redisKey, ...rest] = await keysInRedis();
    expect(rest).toEqual([]);
    expect(redisKey).toMatch(new RegExp(`^${prefix}\\{[0-9a-f]{16}\\}task:[0-9a-f]{32}$`));
    expect(redisKey).not.toContain('task-secret-1');
    expect(redisKey).not.toContain('example.com');

    expect(await tasks.delete(key)).toBe(true);
    expect(await tasks.delete(key)).toBe(false);
    expect(await tasks.get(key)).toBeUndefined();
    expect(await keysInRedis()).toEqual([]);
  });

  it("the key expires with the task: PX is expiresAt − now, on the store's wall clock", async () => {
    const tasks = store();
    await tasks.set(taskKey(SERVER, 'a'), record('a', { expiresAt: NOW + 45_000 }));
    const [redisKey] = await keysInRedis();
    const pttl = await admin.pttl(redisKey!);
    expect(pttl).toBeGreaterThan(44_000);
    expect(pttl).toBeLessThanOrEqual(45_000);

    // Each write sets it again from the record (a TTL the server lengthened).
    await tasks.set(taskKey(SERVER, 'a'), record('a', { expiresAt: NOW + 90_000 }));
    expect(await admin.pttl(redisKey!)).toBeGreaterThan(89_000);
  });

  it('a task without a TTL is kept untimedRecordTtlMs (7 days by default), or for good with null', async () => {
    await store().set(taskKey(SERVER, 'untimed'), record('untimed', { expiresAt: null }));
    const [first] = await keysInRedis();
    expect(await admin.pttl(first!)).toBeGreaterThan(7 * 24 * 3600_000 - 5000);
    await admin.unlink(first!);

    await store({ untimedRecordTtlMs: 5000 }).set(taskKey(SERVER, 'short'), record('short', { expiresAt: null }));
    const [second] = await keysInRedis();
    expect(await admin.pttl(second!)).toBeGreaterThan(4000);
    await admin.unlink(second!);

    await store({ untimedRecordTtlMs: null }).set(taskKey(SERVER, 'kept'), record('kept', { expiresAt: null }));
    const [third] = await keysInRedis();
    expect(await admin.pttl(third!)).toBe(-1);
  });

  it('a record already past its expiresAt is deleted, not written', async () => {
    const tasks = store();
    const key = taskKey(SERVER, 'late');
    await tasks.set(key, record('late'));
    await tasks.set(key, record('late', { expiresAt: NOW - 1 }));
    expect(await keysInRedis()).toEqual([]);
    expect(await tasks.get(key)).toBeUndefined();
  });

  it('Redis drops the record when the task expires (real time)', async () => {
    const tasks = store({ wallClock: { now: () => Date.now() } });
    const key = taskKey(SERVER, 'brief');
    await tasks.set(key, record('brief', { expiresAt: Date.now() + 150 }));
    expect(await tasks.get(key)).toBeDefined();
    await vi.waitFor(async () => expect(await tasks.get(key)).toBeUndefined(), { timeout: 3000, interval: 50 });
  });

  it("keys(prefix) lists one server's tasks; another store prefix is not seen", async () => {
    const tasks = store();
    const other = 'https://other.example/mcp';
    await tasks.set(taskKey(SERVER, 'one'), record('one'));
    await tasks.set(taskKey(SERVER, 'two'), record('two'));
    await tasks.set(taskKey(other, 'three'), record('three', { serverIdentity: other }));
    const elsewhere = new RedisTaskStore({
      client: admin,
      prefix: `${prefix}elsewhere:`,
      wallClock: { now: () => NOW },
    });
    await elsewhere.set(taskKey(SERVER, 'four'), record('four'));

    expect((await tasks.keys(taskKeyPrefix(SERVER))).sort()).toEqual([taskKey(SERVER, 'one'), taskKey(SERVER, 'two')]);
    expect(await tasks.keys(taskKeyPrefix(other))).toEqual([taskKey(other, 'three')]);
    expect(await tasks.keys(taskKeyPrefix('https://none.example/mcp'))).toEqual([]);
    // Any other prefix: every task key of this store's prefix, filtered.
    expect((await tasks.keys('')).sort()).toEqual(
      [taskKey(SERVER, 'one'), taskKey(SERVER, 'two'), taskKey(other, 'three')].sort(),
    );
    expect(await tasks.keys(taskKey(SERVER, 'o'))).toEqual([taskKey(SERVER, 'one')]);
  });

  it('a key holding something else reads as no record and is reported to onError', async () => {
    const onError = vi.fn();
    const tasks = store({ onError });
    const key = taskKey(SERVER, 'x');
    await tasks.set(key, record('x'));
    const [redisKey] = await keysInRedis();
    await admin.set(redisKey!, '{"v":1,"key":"x","record":{"taskId":7}}');
    expect(await tasks.get(key)).toBeUndefined();
    expect(await tasks.keys(taskKeyPrefix(SERVER))).toEqual([]);
    expect(onError).toHaveBeenCalledTimes(1);
    const reported = onError.mock.calls[0]![0] as TaskStoreError;
    expect(reported).toBeInstanceOf(TaskStoreError);
    expect(reported.code).toBe(ErrorCode.TaskStoreFailed);
    expect(reported.data).toEqual({ operation: 'GET', reason: 'malformed-record' });
  });

  it('a host client is used as is and never closed', async () => {
    const tasks = new RedisTaskStore({ client: admin, prefix: 'host:', wallClock: { now: () => NOW } });
    await tasks.set(taskKey(SERVER, 'h'), record('h'));
    expect(await tasks.get(taskKey(SERVER, 'h'))).toEqual(record('h'));
    await tasks.delete(taskKey(SERVER, 'h'));
    await tasks.close();
    expect(admin.status).toBe('ready');
  });

  it('Redis away: each call throws TaskStoreError (-33032) within timeoutMs; back, it works again', async () => {
    const onError = vi.fn();
    const tasks = store({ timeoutMs: 300, onError });
    const key = taskKey(SERVER, 'd');
    await tasks.set(key, record('d'));
    await redis.kill();
    const started = performance.now();
    const thrown = await tasks.get(key).catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(thrown).toBeInstanceOf(TaskStoreError);
    expect(thrown).toMatchObject({ code: -33032, data: { operation: 'GET' } });
    expect(['unreachable', 'timeout']).toContain((thrown as TaskStoreError).data.reason);
    await expect(tasks.keys(taskKeyPrefix(SERVER))).rejects.toBeInstanceOf(TaskStoreError);
    expect(onError.mock.calls.filter(([error]) => (error as TaskStoreError).data.operation === 'connect')).toHaveLength(
      1,
    );

    await redis.restart(); // empty: nothing was saved
    await vi.waitFor(async () => expect(await tasks.get(key)).toBeUndefined(), { timeout: 5000, interval: 100 });
    await tasks.set(key, record('d'));
    expect(await tasks.get(key)).toEqual(record('d'));
  });

  it('rejects bad options with InvalidArgumentError', () => {
    expect(() => new RedisTaskStore({})).toThrow(/exactly one of client and connection/);
    expect(() => new RedisTaskStore({ connection: redis.url, prefix: 'a{b}' })).toThrow(/prefix/);
    expect(() => new RedisTaskStore({ connection: redis.url, timeoutMs: 0, prefix: 'x' })).toThrow(/timeoutMs/);
    expect(() => new RedisTaskStore({ connection: redis.url, untimedRecordTtlMs: -1, prefix: 'x' })).toThrow(
      /untimedRecordTtlMs/,
    );
  });

  describe('a task outlives its host (example server over Streamable HTTP)', () => {
    let server: HttpServerProcess | undefined;
    beforeAll(async () => {
      server = await startExampleHttpServer();
    });
    afterAll(() => server?.stop());

    function hostClient(tasks: RedisTaskStore, form: () => Promise<object>): McpClient {
      return new McpClient({
        transport: new StreamableHttpTransport(server!.url),
        clientInfo: { name: 'mcp-live-tests', version: '0.0.0' },
        tasks: { store: tasks, poll: { minMs: 10 } },
        handlers: { elicitation: { form: form as never } },
      });
    }

    it('client A starts a task and is closed; client B, its own store on the same Redis, resumes it', async () => {
      const formA = vi.fn(async () => ({ action: 'accept', content: { approve: true, note: 'from A' } }));
      const storeA = store({ wallClock: { now: () => Date.now() } });
      const a = hostClient(storeA, formA);
      await a.connect();
      const states: string[] = [];
      let taskId: string | undefined;
      const call = a.callTool(
        'generate_report',
        { topic: 'restart', steps: 6, stepMs: 150 },
        {
          onTask: (task) => {
            taskId ??= task.taskId;
            states.push(task.status);
          },
        },
      );
      // Approved, back at work: the host goes away.
      await vi.waitFor(
        () => {
          const asked = states.indexOf('input_required');
          expect(asked >= 0 && states.slice(asked + 1).includes('working')).toBe(true);
        },
        { timeout: 5000 },
      );
      await a.close();
      await expect(call).rejects.toMatchObject({
        code: -33033,
        resumable: true,
        cause: expect.any(ConnectionClosedError),
      });
      await storeA.close();
      expect(formA).toHaveBeenCalledTimes(1);

      // A new host: a new store (its own connection), a new client; it finds the task in Redis.
      const formB = vi.fn(async () => ({ action: 'accept', content: { approve: true, note: 'never asked' } }));
      const storeB = store({ wallClock: { now: () => Date.now() } });
      const b = hostClient(storeB, formB);
      await b.connect();
      try {
        const [stored] = await b.storedTasks();
        expect(stored).toMatchObject({
          taskId,
          toolName: 'generate_report',
          serverIdentity: server!.url,
          answeredKeys: ['approval'],
        });
        expect(stored!.expiresAt).toBeGreaterThan(Date.now());
        const [redisKey] = await keysInRedis();
        expect(await admin.pttl(redisKey!)).toBeGreaterThan(60_000); // the example's 10-minute TTL

        const task = await b.resumeTask(stored!.taskId);
        await expect(task.result()).resolves.toEqual({
          content: [{ type: 'text', text: 'Report on "restart": 6 sections written and approved (from A).' }],
        });
        expect(formB).not.toHaveBeenCalled();
        expect(await b.storedTasks()).toEqual([]);
        expect(await keysInRedis()).toEqual([]);
      } finally {
        await b.close();
      }
    });
  });
});
