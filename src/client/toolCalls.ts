/**
 * `tools/call` as the client sends it: the arguments checked before anything is sent, the
 * Tasks extension declared when on, one relist-and-retry after -32020 (the `Mcp-Param-*`
 * headers disagreed with the server's tool), a task answer followed or handed over, and the
 * result's checks (a `content` array; `structuredContent` against the listed `outputSchema`).
 */
import { InvalidArgumentError, RpcError } from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import type { CallToolResult, Tool } from '../wire/protocol.js';
import type { CallToolOptions, TaskMode } from '../tasks/options.js';
import { isCreateTaskResult } from '../tasks/taskManager.js';
import type { ToolTask } from '../tasks/toolTask.js';
import { checkToolResult } from './outputValidation.js';
import type { ClientParts } from './assembly.js';
import type { CallInternals, CallRequest } from './chain.js';
import type { MaybePromise } from '../util/maybePromise.js';

/**
 * `McpClient.callTool` (see its doc comment for what it resolves with and throws).
 * `relist` walks `tools/list` again from the server (the client's `listAllTools` with `reload`).
 */
export function callTool(
  parts: ClientParts,
  name: unknown,
  args: unknown,
  options: CallToolOptions,
  relist: (options: CallToolOptions) => Promise<{ items: readonly Tool[] }>,
): Promise<CallToolResult | ToolTask> {
  if (isObject(name) && typeof name['name'] === 'string')
    return Promise.reject(
      new InvalidArgumentError(
        'name',
        name,
        `expected a tool name: use callTool(name, args), not callTool({ name, arguments }) (mcp-live takes them apart: callTool(${JSON.stringify(name['name'])}, ${JSON.stringify(name['arguments'] ?? {})}))`,
      ),
    );
  if (typeof name !== 'string' || name === '')
    return Promise.reject(new InvalidArgumentError('name', name, 'expected a tool name'));
  if (!isObject(args)) return Promise.reject(new InvalidArgumentError('arguments', args, 'expected an object'));
  const { caller, tasks } = parts;
  let mode: TaskMode;
  try {
    mode = tasks.modeFor(options.task);
  } catch (error) {
    return Promise.reject(error);
  }
  // Untraced on the modern wire (the usual call): no span, so no target or closure for one.
  if (parts.observer === undefined && caller.era !== 'legacy')
    return sendToolCall(parts, name, args, options, relist, mode, 'off', undefined);
  return parts.traced('tools/call', { name }, (scoped) => {
    // 2025-11-25: a tool listed with execution.taskSupport runs as a task of that wire (docs/tasks.md).
    // Only the legacy wire waits here: on 2026-07-28 the request goes out in this tick.
    if (caller.era !== 'legacy') return sendToolCall(parts, name, args, options, relist, mode, 'off', scoped);
    try {
      return tasks
        .legacyModeFor(name, options.task, async () => (await relist(options)).items)
        .then((legacyMode) => sendToolCall(parts, name, args, options, relist, mode, legacyMode, scoped));
    } catch (error) {
      return Promise.reject(error);
    }
  });
}

/**
 * The request of {@link callTool} once its task modes are known, and what its result becomes.
 * A promise chain rather than an `async` function: a call on the modern wire is many in flight
 * at once, and each `await` would add a promise and a resumption to every one of them.
 */
function sendToolCall(
  parts: ClientParts,
  name: string,
  args: JsonObject,
  options: CallToolOptions,
  relist: (options: CallToolOptions) => Promise<{ items: readonly Tool[] }>,
  mode: TaskMode,
  legacyMode: TaskMode,
  scoped: CallInternals | undefined,
): Promise<CallToolResult | ToolTask> {
  const { caller, tasks } = parts;
  const params: JsonObject = { name, arguments: args };
  if (legacyMode !== 'off') params['task'] = {};
  const request: CallRequest =
    scoped === undefined && mode === 'off'
      ? { method: 'tools/call', params, options }
      : { ...scoped, ...(mode !== 'off' && { declareTasks: true }), method: 'tools/call', params, options };
  const settled = (result: JsonObject): MaybePromise<CallToolResult | ToolTask> => {
    if (legacyMode !== 'off' && tasks.isLegacyCreated(result))
      return tasks.takeLegacy(name, result, legacyMode, options);
    if (mode !== 'off' && isCreateTaskResult(result)) return tasks.take(name, result, mode, options);
    return checkToolResult(parts.outputValidators, name, result);
  };
  let sent: Promise<JsonObject>;
  try {
    sent = caller.callResult(request);
  } catch (error) {
    return Promise.reject(error);
  }
  return sent.then(settled, (error: unknown) => {
    // -32020 on HTTP: our Mcp-Param-* headers disagree with the server's current tool
    // definition. Learn the tools again, once, and retry once.
    if (!(error instanceof RpcError) || error.code !== ErrorCode.HeaderMismatch || !caller.mirrorsToolHeaders)
      throw error;
    return relist({ ...options, cacheMode: 'reload' }).then(() => caller.callResult(request).then(settled));
  });
}
