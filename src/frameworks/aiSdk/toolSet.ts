/**
 * A host's tools as an AI SDK `ToolSet` for `generateText`, `streamText` and `ToolLoopAgent`.
 * Thin: the catalog, the deferral split, search, approval and result bounds are the host's; each
 * SDK tool reads its definition from the host's model-facing tool and runs through one
 * `ToolSession.callTool`, so every call passes the host's one gate.
 *
 * - Each catalog tool is a `dynamicTool` under its exposed name: the model-facing description
 *   and input schema (`jsonSchema`), and `metadata` `{ mcpServer, mcpTool }` (the SDK never sends
 *   metadata to the model).
 * - Deferred tools are marked `deferLoading: true` and the SDK's own `toolSearch()` is added as
 *   `tool_search`, its ranking the host's index (`host.searchTools`): what a search finds is
 *   loaded by the SDK for the next step, and by the session for the next `aiSdkTools` call.
 * - `read_artifact` (paging through a result that was cut) and, once skills are listed,
 *   `load_skill` and `read_skill_file` are there too, run by the same session.
 * - `execute` passes the SDK's abort signal and the call's `toolCallId` (for the approval hook);
 *   its output is the bounded MCP result, and `toModelOutput` writes it as the SDK's content
 *   (`toolOutput.ts`). A result with `isError` (a failed tool, an unknown name, a server that
 *   went away) is thrown as `ToolResultError`, which the SDK records as a `tool-error` and shows
 *   the model; a refusal of the host's approval is an `execution-denied` output.
 */
import { dynamicTool, jsonSchema, toolSearch, type JSONSchema7, type ModelMessage, type Tool, type ToolSet } from 'ai';
import type { McpHost } from '../../host/host.js';
import { modelFacingTool, type HostTool } from '../../host/catalog/catalog.js';
import type { ToolSession } from '../../host/contextBudget/toolSession.js';
import type { ModelCallOptions } from '../../host/contextBudget/modelCall.js';
import { READ_ARTIFACT_TOOL, TOOL_SEARCH_NAME } from '../../host/contextBudget/builtinTools.js';
import { SKILL_TOOLS } from '../../host/skills/skillTools.js';
import type { JsonObject } from '../../wire/messages.js';
import type { CallToolResult, Tool as McpTool } from '../../wire/protocol.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import { ToolResultError } from '../toolResultError.js';
import type { AiSdkApproval } from './approval.js';
import { toAiSdkToolOutput } from './toolOutput.js';

/** Options of {@link aiSdkTools}. */
export interface AiSdkToolsOptions {
  /**
   * The conversation's tool session: what its searches found stays loaded across `aiSdkTools`
   * calls (one per turn). @default a new `host.toolSession()`
   */
  session?: ToolSession | undefined;
  /**
   * Approval through the SDK's own flow (`toolApproval`): the calls the user approved there are
   * allowed by `approval.approve` at the host's gate (see {@link AiSdkApproval}). Without it,
   * the host's `approve` asks as it always does, inside `execute`.
   */
  approval?: AiSdkApproval | undefined;
  /**
   * Options of every call (timeouts, progress, `modelArguments`…); the SDK's abort signal and
   * tool call id are added to them. @default {}
   */
  call?: Omit<ModelCallOptions, 'signal' | 'toolCallId'> | undefined;
  /** Tools the SDK's `toolSearch()` loads per search (1–20). @default the host's `contextBudget.searchLimit` (5) */
  searchLimit?: number | undefined;
}

/** What a tool of the set says it stands for (`Tool.metadata`; never sent to the model). */
export interface AiSdkToolMetadata {
  /** The server whose tool it is; absent for the host's built-in tools. */
  mcpServer?: string;
  /** Its original name on that server, or the built-in tool's name. */
  mcpTool: string;
  /** The SDK types `metadata` as a JSON object: no other key is set. */
  [key: string]: string | undefined;
}

/**
 * The host's tools for the next model turn as an AI SDK `ToolSet` (see the module comment).
 * Build one per `generateText`/`streamText` call (the catalog and the session's finds may have
 * changed); within one call the SDK's own tool search loads what it finds for the next step.
 * @throws InvalidArgumentError (-32602) when `host` is not an `McpHost` or `searchLimit` is not an
 *   integer from 1 to 20.
 */
export function aiSdkTools(host: McpHost, options: AiSdkToolsOptions = {}): ToolSet {
  if (typeof host?.toolSession !== 'function') throw new InvalidArgumentError('host', host, 'expected an McpHost');
  const limit = options.searchLimit;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 20))
    throw new InvalidArgumentError('searchLimit', limit, 'expected an integer from 1 to 20');
  const session = options.session ?? host.toolSession();
  const set = session.tools();
  const run = runner(session, options);
  const tools: ToolSet = {};
  for (const tool of [...set.loaded, ...set.found]) tools[tool.exposedName] = catalogTool(tool, false, run);
  for (const tool of set.deferred) tools[tool.exposedName] = catalogTool(tool, true, run);
  if (set.deferred.length > 0) {
    const maxResults = limit ?? DEFAULT_SEARCH_LIMIT;
    tools[TOOL_SEARCH_NAME] = toolSearch({
      maxResults,
      // The host's ranking over the tools the SDK may still load; what the SDK keeps (the first
      // `maxResults`) is what the session loads for later turns.
      search: ({ query, tools: eligible }) => {
        const names = new Set(eligible.map((tool) => tool.name));
        const found = host
          .searchTools(query, { limit: 100 })
          .matches.map((match) => match.tool.exposedName)
          .filter((name) => names.has(name))
          .slice(0, maxResults);
        session.load(found);
        return found;
      },
    });
  }
  tools[READ_ARTIFACT_TOOL.name] = builtinTool(READ_ARTIFACT_TOOL, run);
  if (set.skills === true) for (const skill of SKILL_TOOLS) tools[skill.name] = builtinTool(skill, run);
  return tools;
}

/** The SDK's own default (`toolSearch({ maxResults })`) and the host's `contextBudget.searchLimit`. */
const DEFAULT_SEARCH_LIMIT = 5;

/** Runs one call through the session: the bounded result, or a thrown `ToolResultError`. */
type Run = (
  name: string,
  server: string | undefined,
  input: unknown,
  call: { abortSignal?: AbortSignal | undefined; toolCallId: string; messages: ModelMessage[] },
) => Promise<CallToolResult>;

function runner(session: ToolSession, options: AiSdkToolsOptions): Run {
  return async (name, server, input, call) => {
    if (server !== undefined) options.approval?.grantFrom(call.messages, call.toolCallId, name);
    const args = isObject(input) ? input : {};
    let outcome;
    try {
      outcome = await session.callTool(name, args, {
        ...options.call,
        signal: call.abortSignal,
        toolCallId: call.toolCallId,
      });
    } finally {
      options.approval?.release(call.toolCallId);
    }
    if (call.abortSignal?.aborted === true) throw call.abortSignal.reason;
    if (outcome.result.isError === true) throw new ToolResultError({ tool: name, server, result: outcome.result });
    return outcome.result;
  };
}

function catalogTool(tool: HostTool, deferLoading: boolean, run: Run): Tool {
  const facing = modelFacingTool(tool);
  const metadata: AiSdkToolMetadata = { mcpServer: tool.server, mcpTool: tool.tool.name };
  return {
    ...sdkTool(facing, (input, call) => run(tool.exposedName, tool.server, input, call)),
    metadata,
    ...(deferLoading && { deferLoading: true }),
  };
}

function builtinTool(tool: McpTool, run: Run): Tool {
  const metadata: AiSdkToolMetadata = { mcpTool: tool.name };
  return { ...sdkTool(tool, (input, call) => run(tool.name, undefined, input, call)), metadata };
}

function sdkTool(tool: McpTool, execute: (input: unknown, call: Parameters<Run>[3]) => Promise<CallToolResult>): Tool {
  return dynamicTool({
    ...(tool.description !== undefined && { description: tool.description }),
    // A server's schema (bounded by the catalog), given to the provider as it is (the server
    // validates the arguments it receives): a copy, as the catalog's objects are frozen and a
    // provider may write into the schema it is given, as LangChain's validator does.
    inputSchema: jsonSchema(structuredClone(tool.inputSchema) as JSONSchema7),
    execute: (input, call) => execute(input, call),
    toModelOutput: ({ output }) => toAiSdkToolOutput(output),
  });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
