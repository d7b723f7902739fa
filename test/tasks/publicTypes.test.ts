/** Pins the public surface of the Tasks extension (checked by tsc; trivially true at run time). */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  CallToolResult,
  DetailedTask,
  InputRequest,
  InputRequiredTask,
  InputResponse,
  McpClient,
  ResumeTaskOptions,
  Task,
  TaskRecord,
  TaskStore,
  ToolTask,
  ToolTaskEvent,
} from '../../src/index.js';

/** Never called: only its return types are looked at. */
const calls = (client: McpClient) => ({
  plain: client.callTool('t'),
  auto: client.callTool('t', {}, { task: 'auto' }),
  off: client.callTool('t', {}, { task: 'off' }),
  manual: client.callTool('t', {}, { task: 'manual' }),
});
type Calls = ReturnType<typeof calls>;

describe('public types', () => {
  it('callTool: a result in auto and off modes, a result or a handle in manual mode', () => {
    expectTypeOf(calls).toBeFunction();
    expectTypeOf<Calls['plain']>().toEqualTypeOf<Promise<CallToolResult>>();
    expectTypeOf<Calls['auto']>().toEqualTypeOf<Promise<CallToolResult>>();
    expectTypeOf<Calls['off']>().toEqualTypeOf<Promise<CallToolResult>>();
    expectTypeOf<Calls['manual']>().toEqualTypeOf<Promise<CallToolResult | ToolTask>>();
    expectTypeOf<Parameters<McpClient['resumeTask']>>().toEqualTypeOf<[taskId: string, options?: ResumeTaskOptions]>();
    expectTypeOf<ReturnType<McpClient['resumeTask']>>().toEqualTypeOf<Promise<ToolTask>>();
    expectTypeOf<ReturnType<McpClient['storedTasks']>>().toEqualTypeOf<Promise<TaskRecord[]>>();
  });

  it('the handle and its events', () => {
    expectTypeOf<ToolTask['result']>().returns.toEqualTypeOf<Promise<CallToolResult>>();
    expectTypeOf<ToolTask['get']>().returns.toEqualTypeOf<Promise<DetailedTask>>();
    expectTypeOf<ToolTask['update']>().parameter(0).toEqualTypeOf<Record<string, InputResponse>>();
    expectTypeOf<ToolTask['task']>().toEqualTypeOf<Task | DetailedTask>();
    expectTypeOf<ToolTaskEvent>().toEqualTypeOf<
      | { type: 'status'; task: Task | DetailedTask }
      | { type: 'inputRequired'; task: InputRequiredTask; inputRequests: Record<string, InputRequest> }
    >();
  });

  it('a store may answer synchronously or not', () => {
    expectTypeOf<ReturnType<TaskStore['get']>>().toEqualTypeOf<
      TaskRecord | undefined | Promise<TaskRecord | undefined>
    >();
  });
});
