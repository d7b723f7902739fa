/**
 * A host's tools as LangChain structured tools. Thin: the catalog, deferral, search, approval
 * and result bounds are the host's; each tool reads its definition from the host's
 * model-facing tool and runs through one `ToolSession.callTool`.
 *
 * - Each catalog tool is a `DynamicStructuredTool` under its exposed name, with the model-facing
 *   description and JSON schema, `metadata` `{ mcpServer, mcpTool }`, and
 *   `responseFormat: "content_and_artifact"`: the `ToolMessage` content is the bounded result
 *   (text, or standard image/audio/file blocks), its `artifact` a {@link McpToolArtifact}
 *   (never sent to the model).
 * - `invoke` passes the run's `signal` and the tool call's id (`config.toolCall.id`, for the
 *   approval hook). A result with `isError` is thrown as `ToolResultError` (LangGraph's
 *   `ToolNode` turns it into a `ToolMessage` with `status: "error"`); a refusal of the host's
 *   approval is answered as the host answers one, as content.
 * - Deferral: `tools` holds every tool (give it to the `ToolNode`: a deferred tool called by
 *   name is loaded and run), `modelTools()` the next model call's (loaded and found tools,
 *   `tool_search` while any is deferred, `read_artifact`, the skill tools): bind those.
 */
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { MessageContent } from '@langchain/core/messages';
import type { McpHost } from '../../host/host.js';
import { modelFacingTool, type HostTool } from '../../host/catalog/catalog.js';
import type { ToolSession } from '../../host/contextBudget/toolSession.js';
import type { ModelCallOptions } from '../../host/contextBudget/modelCall.js';
import type { Artifact } from '../../host/contextBudget/artifacts.js';
import { READ_ARTIFACT_TOOL, TOOL_SEARCH_TOOL } from '../../host/contextBudget/builtinTools.js';
import { SKILL_TOOLS } from '../../host/skills/skillTools.js';
import { ToolApprovalDeniedError, deniedToolResult } from '../../host/policy/errors.js';
import type { JsonObject } from '../../wire/messages.js';
import type { CallToolResult, ContentBlock, Tool as McpTool } from '../../wire/protocol.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import { ToolResultError } from '../toolResultError.js';
import type { LangGraphApproval } from './approval.js';
import { toLangChainContent } from './content.js';

/** Options of {@link langchainTools}. */
export interface LangChainToolsOptions {
  /** The conversation's tool session: what its searches found stays loaded. @default a new `host.toolSession()` */
  session?: ToolSession | undefined;
  /** Approval as a LangGraph interrupt ({@link LangGraphApproval}); without it, the host's `approve` asks inside `invoke`. */
  approval?: LangGraphApproval | undefined;
  /** Options of every call (timeouts, progress…); the run's signal and the tool call id are added. @default {} */
  call?: Omit<ModelCallOptions, 'signal' | 'toolCallId'> | undefined;
}

/** The `artifact` of a tool's `ToolMessage`: what the host made of the call, for the app. */
export interface McpToolArtifact {
  /** The tool's server; absent for the host's built-in tools. */
  readonly server: string | undefined;
  /** Its original name, or the built-in tool's name. */
  readonly tool: string;
  /** The result the model was given (bounded, routed, compact). */
  readonly result: CallToolResult;
  /** Whether the result was cut; `artifact` keeps the whole when the host's store took it. */
  readonly truncated: boolean;
  readonly artifact: Artifact | undefined;
  /** Blocks routed to the app (`contextBudget.route`), left out of the content. */
  readonly forApp: readonly ContentBlock[];
}

/** What a `langchainTools` tool returns with `responseFormat: "content_and_artifact"`. */
export type McpToolResponse = [MessageContent, McpToolArtifact];

/** The tools of a host for LangChain and LangGraph (see the module comment). */
export interface LangChainToolkit {
  /** Every tool, built-in ones included: for a `ToolNode` (or `createReactAgent`'s `tools`). */
  readonly tools: DynamicStructuredTool[];
  /** The tools for the next model call: bind these (`model.bindTools(toolkit.modelTools())`). */
  modelTools(): DynamicStructuredTool[];
  /** The session the tools run in. */
  readonly session: ToolSession;
}

/**
 * The host's tools as LangChain structured tools (see the module comment). Build it once per
 * agent: `tools` follows the catalog as it was then; `modelTools()` follows the session.
 * @throws InvalidArgumentError (-32602) when `host` is not an `McpHost`.
 */
export function langchainTools(host: McpHost, options: LangChainToolsOptions = {}): LangChainToolkit {
  if (typeof host?.toolSession !== 'function') throw new InvalidArgumentError('host', host, 'expected an McpHost');
  const session = options.session ?? host.toolSession();
  const byName = new Map<string, DynamicStructuredTool>();
  const make = (name: string, definition: McpTool, target: HostTool | undefined): DynamicStructuredTool => {
    let made = byName.get(name);
    if (made === undefined) {
      made = structuredTool(name, definition, target, session, options);
      byName.set(name, made);
    }
    return made;
  };
  const all = (): DynamicStructuredTool[] => {
    const set = session.tools();
    return [
      ...[...set.loaded, ...set.found, ...set.deferred].map((t) => make(t.exposedName, modelFacingTool(t), t)),
      make(TOOL_SEARCH_TOOL.name, TOOL_SEARCH_TOOL, undefined),
      make(READ_ARTIFACT_TOOL.name, READ_ARTIFACT_TOOL, undefined),
      ...SKILL_TOOLS.map((skill) => make(skill.name, skill, undefined)),
    ];
  };
  const tools = all();
  return {
    tools,
    session,
    modelTools() {
      const set = session.tools();
      const out = [...set.loaded, ...set.found].map((t) => make(t.exposedName, modelFacingTool(t), t));
      if (set.deferred.length > 0) out.push(make(TOOL_SEARCH_TOOL.name, TOOL_SEARCH_TOOL, undefined));
      out.push(make(READ_ARTIFACT_TOOL.name, READ_ARTIFACT_TOOL, undefined));
      if (set.skills === true) out.push(...SKILL_TOOLS.map((skill) => make(skill.name, skill, undefined)));
      return out;
    },
  };
}

function structuredTool(
  name: string,
  definition: McpTool,
  target: HostTool | undefined,
  session: ToolSession,
  options: LangChainToolsOptions,
): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name,
    description: definition.description ?? definition.title ?? name,
    // A server's schema (bounded by the catalog), as LangChain takes JSON Schema: a copy, since
    // LangChain's validator marks the schema objects it is given and the catalog's are frozen.
    schema: structuredClone(definition.inputSchema),
    responseFormat: 'content_and_artifact',
    metadata: { mcpTool: target?.tool.name ?? name, ...(target !== undefined && { mcpServer: target.server }) },
    func: async (input: unknown, _run, config?: RunnableConfig & { toolCall?: { id?: string } }) =>
      run(name, target, isObject(input) ? input : {}, config, session, options),
  });
}

async function run(
  name: string,
  target: HostTool | undefined,
  args: JsonObject,
  config: (RunnableConfig & { toolCall?: { id?: string } }) | undefined,
  session: ToolSession,
  options: LangChainToolsOptions,
): Promise<McpToolResponse> {
  const toolCallId = config?.toolCall?.id;
  const grantId = toolCallId ?? crypto.randomUUID();
  const approval = target === undefined ? undefined : options.approval;
  const artifactOf = (result: CallToolResult, rest: Partial<McpToolArtifact> = {}): McpToolArtifact => ({
    server: target?.server,
    tool: target?.tool.name ?? name,
    result,
    truncated: false,
    artifact: undefined,
    forApp: [],
    ...rest,
  });
  if (approval !== undefined && target !== undefined) {
    const call = { exposedName: name, server: target.server, tool: target.tool.name, input: args };
    const refused = await approval.request(call, grantId, toolCallId);
    if (refused !== undefined) {
      const result = deniedToolResult(
        new ToolApprovalDeniedError({
          reason: 'denied',
          deniedBy: 'user',
          server: target.server,
          name: target.tool.name,
          exposedName: name,
          callId: grantId,
          ...(refused.declined !== '' && { message: refused.declined }),
        }),
      );
      return [toLangChainContent(result.content), artifactOf(result)];
    }
  }
  let outcome;
  try {
    outcome = await session.callTool(name, args, { ...options.call, signal: config?.signal, toolCallId: grantId });
  } finally {
    approval?.release(grantId);
  }
  if (config?.signal?.aborted === true) throw config.signal.reason;
  const { result } = outcome;
  if (result.isError === true) throw new ToolResultError({ tool: name, server: target?.server, result });
  return [
    toLangChainContent(result.content),
    artifactOf(result, { truncated: outcome.truncated, artifact: outcome.artifact, forApp: outcome.forApp }),
  ];
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
