/**
 * Tasks on the 2025-11-25 wire, against @modelcontextprotocol/server-everything's real task
 * tool (`simulate-research-query`, `execution.taskSupport: "required"`) over stdio: the same
 * `callTool` drives it with tools/call + task, tasks/get, tasks/result (where the server asks
 * its elicitation) and tasks/cancel. Plus the pure rules of the mode and of what cannot be called.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import type { DebugEntry } from '../../src/observability/debug.js';
import { ToolTask } from '../../src/tasks/toolTask.js';
import {
  fromLegacyTask,
  legacyTaskMode,
  legacyToolUncallable,
  legacyTaskSupport,
} from '../../src/tasks/legacySupport.js';
import type { Task } from '../../src/wire/tasks.js';
import { EVERYTHING_SERVER, nodeStdio } from '../fakes/publishedServers.js';

const RESEARCH = 'simulate-research-query';

describe('2025-11-25 task tools of server-everything (real process, stdio)', () => {
  let client: McpClient;
  const sent: string[] = [];
  const errors: Error[] = [];
  const elicited: unknown[] = [];
  beforeAll(async () => {
    client = new McpClient({
      transport: nodeStdio(EVERYTHING_SERVER, ['stdio']),
      clientInfo: { name: 'mcp-live-legacy-tasks', version: '0.0.0' },
      handlers: {
        elicitation: {
          form: (request) => {
            elicited.push(request);
            return { action: 'accept', content: { interpretation: 'historical' } };
          },
        },
      },
      onError: (error) => errors.push(error),
      debug: (entry: DebugEntry) => {
        const message = entry.data?.['message'] as { method?: string } | undefined;
        if (entry.type === 'wire' && entry.data?.['direction'] === 'send' && message?.method !== undefined)
          sent.push(message.method);
      },
    });
    await client.connect();
  });
  afterAll(() => client.close());

  it('lists the tool as requiring a task, on a server that declares tasks.requests.tools.call', async () => {
    expect(client.era).toBe('legacy');
    expect(client.serverCapabilities).toMatchObject({ tasks: { requests: { tools: { call: {} } } } });
    const tool = (await client.listAllTools()).items.find((t) => t.name === RESEARCH);
    expect(tool).toMatchObject({ execution: { taskSupport: 'required' } });
  });

  it('a plain call (task: "off", as every call was before) fails: the server refuses it with -32601', async () => {
    const result = await client.callTool(RESEARCH, { topic: 'tides' }, { task: 'off' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('-32601');
  });

  it('callTool drives it as a task to its result; an ambiguous query asks its elicitation on tasks/result', async () => {
    const statuses: string[] = [];
    const ambiguousStatuses: string[] = [];
    sent.length = 0;
    const [plain, ambiguous] = await Promise.all([
      client.callTool(RESEARCH, { topic: 'tides' }, { onTask: (task) => statuses.push(task.status) }),
      client.callTool(
        RESEARCH,
        { topic: 'python', ambiguous: true },
        { onTask: (task) => ambiguousStatuses.push(task.status) },
      ),
    ]);
    const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
    expect(text(plain)).toContain('# Research Report: tides');
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    expect(text(ambiguous)).toContain('# Research Report: python (historical)');
    expect(ambiguousStatuses).toContain('input_required');
    expect(elicited).toHaveLength(1);
    expect(elicited[0]).toMatchObject({ message: expect.stringContaining('python') });
    expect(sent).toEqual(expect.arrayContaining(['tools/call', 'tasks/get', 'tasks/result']));
    expect(sent).not.toContain('tasks/update');
    expect(errors).toEqual([]);
  }, 30_000);

  it('manual mode: the ToolTask handle; cancel() settles once the server confirmed, with status cancelled', async () => {
    const task = await client.callTool(RESEARCH, { topic: 'moons' }, { task: 'manual' });
    expect(task).toBeInstanceOf(ToolTask);
    const handle = task as ToolTask;
    expect(handle.status).toBe('working');
    const following = handle.result().catch((e: unknown) => e);
    await handle.cancel();
    expect(handle.status).toBe('cancelled');
    expect(await following).toMatchObject({ code: -32800 });
    await expect(handle.get()).resolves.toMatchObject({ status: 'cancelled' });
  }, 15_000);
});

describe('the rules (pure)', () => {
  const runs = { tasks: { requests: { tools: { call: {} } } } };
  it('legacyTaskMode: required runs as a task unless off; optional when asked; forbidden never', () => {
    expect(legacyTaskMode('required', undefined, 'off')).toBe('auto');
    expect(legacyTaskMode('required', 'manual', 'off')).toBe('manual');
    expect(legacyTaskMode('required', 'off', 'auto')).toBe('off');
    expect(legacyTaskMode('optional', undefined, 'off')).toBe('off');
    expect(legacyTaskMode('optional', undefined, 'auto')).toBe('auto');
    expect(legacyTaskMode('optional', 'manual', 'off')).toBe('manual');
    expect(legacyTaskMode('forbidden', 'auto', 'auto')).toBe('off');
  });

  it('legacyToolUncallable: a required tool on a server without tasks.requests.tools.call, with the reason', () => {
    const required = { name: 'r', execution: { taskSupport: 'required' } };
    expect(legacyToolUncallable(required, runs)).toBeUndefined();
    expect(legacyToolUncallable(required, { tools: {} })).toMatch(/requires task-augmented execution/);
    expect(legacyToolUncallable({ name: 'o', execution: { taskSupport: 'optional' } }, { tools: {} })).toBeUndefined();
    expect(legacyTaskSupport({ name: 'x', execution: { taskSupport: 'sometimes' } })).toBe('forbidden');
  });

  it("fromLegacyTask: ttl and pollInterval become the extension's ttlMs and pollIntervalMs", () => {
    const task: Task = fromLegacyTask('tasks/get', {
      taskId: 'a',
      status: 'working',
      createdAt: '2025-11-25T10:30:00Z',
      lastUpdatedAt: '2025-11-25T10:30:00Z',
      ttl: 60000,
      pollInterval: 5000,
    });
    expect(task).toMatchObject({ taskId: 'a', ttlMs: 60000, pollIntervalMs: 5000 });
    expect(task).not.toHaveProperty('ttl');
    expect(() => fromLegacyTask('tasks/get', { taskId: 'a', status: 'done', ttl: null })).toThrow(/task.status/);
  });
});
