/**
 * `mcp-live task get|result|cancel <id>` (in-process) against the example server over
 * Streamable HTTP (a child process, whose task table outlives each CLI run). The task is made
 * by a library client in manual mode, then picked up by id from the command line.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { type CliIo } from '../../src/cli/io.js';
import { McpClient } from '../../src/client/client.js';
import { ToolTask } from '../../src/tasks/toolTask.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { startExampleHttpServer } from '../integration/exampleServer.js';
import { loadTaskMachinery } from '../fakes/taskMachinery.js';

async function run(args: string[], io: Partial<CliIo> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = { isTTY: false, text: '', write: (text: string) => ((stdout.text += text), true) };
  const stderr = { isTTY: false, text: '', write: (text: string) => ((stderr.text += text), true) };
  const code = await main(args, { stdout, stderr, signal: io.signal, stdin: io.stdin });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('mcp-live task (example server over Streamable HTTP)', () => {
  let server: HttpServerProcess | undefined;
  let maker: McpClient | undefined;
  beforeAll(async () => {
    server = await startExampleHttpServer();
    maker = new McpClient({
      transport: new StreamableHttpTransport(server.url),
      clientInfo: { name: 'mcp-live-tests', version: '0.0.0' },
    });
    await maker.connect();
    // Loaded before the first task, so that its first-use load (here a transform of the source)
    // does not let a task run past the state `task get` is expected to see.
    await loadTaskMachinery();
  });
  afterAll(async () => {
    await maker?.close();
    await server?.stop();
  });

  /** A report task, left running by its maker. */
  async function startTask(topic: string, steps: number, stepMs: number): Promise<ToolTask> {
    const task = await maker!.callTool('generate_report', { topic, steps, stepMs }, { task: 'manual' });
    expect(task).toBeInstanceOf(ToolTask);
    return task as ToolTask;
  }

  const url = () => ['--url', server!.url];

  it('task get: the state now, as text and as JSON; an unknown id is TaskNotFoundError (-32602)', async () => {
    const task = await startTask('get', 10, 1000);
    const text = await run(['task', 'get', task.taskId, ...url()]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(
        `^task ${task.taskId}: working \\(writing section 1 of 10\\)\\ncreated .*, ttl 600000 ms, poll every 1000 ms\\n$`,
      ),
    );
    const json = await run(['task', 'get', task.taskId, '--json', ...url()]);
    expect(JSON.parse(json.stdout)).toMatchObject({ taskId: task.taskId, status: 'working', ttlMs: 600000 });
    await task.cancel();

    const unknown = await run(['task', 'get', 'no-such-task', ...url()]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^mcp-live: TaskNotFoundError -32602 \(tasks\/get\): Failed to retrieve task/);
  });

  it('task result: followed to its end on a new connection, its question asked at the terminal', async () => {
    const task = await startTask('result', 2, 30);
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    stdin.end('yes\nfrom the CLI\n');
    const { code, stdout, stderr } = await run(['task', 'result', task.taskId, ...url()], { stdin });
    expect(stderr).toContain('The server asks: Publish the report on "result"?');
    expect(code).toBe(0);
    expect(stdout).toBe('Report on "result": 2 sections written and approved (from the CLI).\n');
  });

  it('task result without a terminal: fails when the task asks, and leaves the task waiting', async () => {
    const task = await startTask('no terminal', 2, 20);
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end();
    const { code, stderr } = await run(['task', 'result', task.taskId, ...url()], { stdin });
    expect(code).toBe(1);
    expect(stderr).toContain(`InputRequestFailedError -33007: task ${task.taskId} waits for input (approval)`);
    expect(stderr).toContain('hint: the server asks for input');
    expect((await task.get()).status).toBe('input_required');
    await task.cancel();
  });

  it('task result: Ctrl-C stops following; the task goes on', async () => {
    const task = await startTask('interrupted', 20, 1000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { code } = await run(['task', 'result', task.taskId, ...url()], { signal: controller.signal });
    expect(code).toBe(130);
    expect((await task.get()).status).toBe('working');
    await task.cancel();
  });

  it('task cancel: tasks/cancel; the server then reports it cancelled', async () => {
    const task = await startTask('cancel', 20, 1000);
    const { code, stdout } = await run(['task', 'cancel', task.taskId, ...url()]);
    expect(code).toBe(0);
    expect(stdout).toBe(`cancel requested: task ${task.taskId} was working\n`);
    expect((await task.get()).status).toBe('cancelled');
  });

  it('usage: an action and an id, on one server', async () => {
    expect((await run(['task', 'get', ...url()])).stderr).toContain('task wants get|result|cancel <task id>');
    expect((await run(['task', 'list', 'x', ...url()])).stderr).toContain('"list" is not one of get, result, cancel');
    const config = await run(['task', 'get', 'x', '--config', 'none.json']);
    expect(config.code).toBe(2);
    expect(config.stderr).toContain('task works on one server');
  });
});
