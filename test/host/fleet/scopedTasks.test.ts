/**
 * Task records per user: two users' own connections to the example server over HTTP share one
 * task store (as a fleet shares a RedisTaskStore). A task alice starts is listed and resumable
 * with its record for alice only; bob's `storedTasks()` does not list it and his `resumeTask`
 * finds no record of hers (so none of her kept answers would be sent on his connection).
 * From the issue 47 trial, where bob listed alice's task id and resumed it with her record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHost } from '../../../src/hostNode.js';
import { MemoryTaskStore, type ToolTask } from '../../../src/index.js';
import { startExampleHttpServer } from '../../integration/exampleServer.js';
import type { HttpServerProcess } from '../../../examples/httpServerProcess.js';

describe('task records per user', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startExampleHttpServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists and resumes a user's task for that user only", async () => {
    const store = new MemoryTaskStore();
    const host = new McpHost({
      clientInfo: { name: 'scoped-tasks', version: '0.0.0' },
      servers: {
        mail: { type: 'http', url: server.url, perUser: true, client: { tasks: { store }, reconnect: false } },
      },
    });
    try {
      await host.connect();
      const user = (name: string) =>
        host.forUser(name, { credentials: { mail: { headers: { Authorization: `Bearer ${name}-token` } } } });
      const alice = user('alice');
      const bob = user('bob');
      await Promise.all([alice.connect(), bob.connect()]);
      const task = (await alice.callTool(
        'mail__generate_report',
        { topic: 'alice-secret-topic', steps: 50, stepMs: 200 },
        { task: 'manual' },
      )) as unknown as ToolTask;
      expect(task.taskId).toEqual(expect.any(String));

      expect(await bob.client('mail')!.storedTasks()).toEqual([]);
      const mine = await alice.client('mail')!.storedTasks();
      expect(mine.map((record) => record.taskId)).toEqual([task.taskId]);
      expect(mine[0]!.principal).toMatch(/^private:[0-9a-f]{32}$/); // a digest of whom, never the id
      expect(store.keys('').join('\n')).not.toContain('alice'); // no user id in a key
      await task.cancel().catch(() => undefined);
    } finally {
      await host.close();
    }
  }, 30_000);
});
