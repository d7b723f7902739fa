/**
 * A turn's tool set ({@link ModelToolSet}) as each model API's `tools`, with deferral where
 * the API documents it and the portable `tool_search` function everywhere else:
 *
 * - Anthropic Messages: the server-side tool search tool, `{ type:
 *   "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" }` (or the regex variant),
 *   with every deferred tool sent in full and marked `defer_loading: true`; the API searches
 *   them and expands what it finds itself (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool;
 *   anthropic-sdk-typescript src/resources/messages/messages.ts: `Tool.defer_loading`,
 *   `ToolSearchToolBm25_20251119`, `ToolSearchToolRegex20251119`). The search tool is never
 *   deferred, so at least one tool is not, as the API requires; it takes up to 10,000 deferred
 *   tools per request.
 * - OpenAI Responses: the hosted `{ type: "tool_search" }` tool with the deferred functions
 *   marked `defer_loading: true` (developers.openai.com/api/docs/guides/tools-tool-search;
 *   openai-node src/resources/responses/responses.ts: `ToolSearchTool`,
 *   `FunctionTool.defer_loading`). The model still sees a deferred function's name and
 *   description; its parameters load when the search finds it.
 * - Chat Completions and Gemini (and the two above with `nativeSearch: false`, for models
 *   without tool search): the loaded and found tools in full, and `tool_search` as a plain
 *   function while any tool is still deferred; `ToolSession.callTool` runs it, and the tools it
 *   names are in the next turn's set.
 *
 * `read_artifact` is added once the host keeps an artifact. Definitions come from the same
 * converters as `toAnthropicTools` and friends (modelTools.ts), options included.
 */
import type { HostTool } from '../catalog/catalog.js';
import {
  toAnthropicTools,
  toGeminiFunctionDeclarations,
  toOpenAiChatTools,
  toOpenAiResponsesTools,
  type AnthropicTool,
  type GeminiFunctionDeclaration,
  type GeminiToolOptions,
  type ModelToolOptions,
  type ModelToolSource,
  type OpenAiChatTool,
  type OpenAiResponsesTool,
  type OpenAiToolOptions,
} from '../models/modelTools.js';
import { SKILL_TOOLS } from '../skills/skillTools.js';
import { READ_ARTIFACT_TOOL, TOOL_SEARCH_TOOL } from './builtinTools.js';
import type { ModelToolSet } from './toolSession.js';

/** Whether to use the API's own tool search where it has one. @default true */
export interface NativeSearchOption {
  nativeSearch?: boolean | undefined;
}

/** Anthropic's server-side tool search tool (`ToolSearchToolBm25_20251119` / `ToolSearchToolRegex20251119`). */
export type AnthropicToolSearchTool =
  | { type: 'tool_search_tool_bm25_20251119'; name: 'tool_search_tool_bm25' }
  | { type: 'tool_search_tool_regex_20251119'; name: 'tool_search_tool_regex' };

/** One item of an Anthropic tool set. */
export type AnthropicToolSetItem = (AnthropicTool & { defer_loading?: true }) | AnthropicToolSearchTool;

/** One item of a Responses tool set: a function (maybe deferred) or the hosted tool search. */
export type OpenAiResponsesToolSetItem = (OpenAiResponsesTool & { defer_loading?: true }) | { type: 'tool_search' };

/** Options of {@link toAnthropicToolSet}. */
export interface AnthropicToolSetOptions extends ModelToolOptions, NativeSearchOption {
  /** The native search's variant: natural-language queries (`bm25`) or regular expressions. @default "bm25" */
  searchVariant?: 'bm25' | 'regex' | undefined;
}

/** Anthropic Messages `tools` for a turn (see the module comment). */
export function toAnthropicToolSet(set: ModelToolSet, options: AnthropicToolSetOptions = {}): AnthropicToolSetItem[] {
  if (options.nativeSearch === false || set.deferred.length + set.found.length === 0)
    return toAnthropicTools(portable(set), options);
  const search: AnthropicToolSearchTool =
    options.searchVariant === 'regex'
      ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }
      : { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
  return [
    ...toAnthropicTools(withArtifacts(set, set.loaded), options),
    search,
    ...toAnthropicTools([...set.found, ...set.deferred], options).map((tool) => ({
      ...tool,
      defer_loading: true as const,
    })),
  ];
}

/** Responses API `tools` for a turn (see the module comment). */
export function toOpenAiResponsesToolSet(
  set: ModelToolSet,
  options: OpenAiToolOptions & NativeSearchOption = {},
): OpenAiResponsesToolSetItem[] {
  if (options.nativeSearch === false || set.deferred.length + set.found.length === 0)
    return toOpenAiResponsesTools(portable(set), options);
  return [
    ...toOpenAiResponsesTools(withArtifacts(set, set.loaded), options),
    { type: 'tool_search' },
    ...toOpenAiResponsesTools([...set.found, ...set.deferred], options).map((tool) => ({
      ...tool,
      defer_loading: true as const,
    })),
  ];
}

/** Chat Completions `tools` for a turn: portable search (see the module comment). */
export function toOpenAiChatToolSet(set: ModelToolSet, options: OpenAiToolOptions = {}): OpenAiChatTool[] {
  return toOpenAiChatTools(portable(set), options);
}

/** Gemini `functionDeclarations` for a turn: portable search (see the module comment). */
export function toGeminiToolSet(set: ModelToolSet, options: GeminiToolOptions = {}): GeminiFunctionDeclaration[] {
  return toGeminiFunctionDeclarations(portable(set), options);
}

/** Loaded and found tools, the search tool while something is deferred, the artifact pager and the skill tools. */
function portable(set: ModelToolSet): ModelToolSource[] {
  const tools: ModelToolSource[] = [...set.loaded];
  if (set.deferred.length > 0) tools.push(TOOL_SEARCH_TOOL);
  tools.push(...set.found);
  return withArtifacts(set, tools);
}

/** `tools`, then the built-in tools the set offers besides search: the artifact pager, the skill tools. */
function withArtifacts(set: ModelToolSet, tools: readonly ModelToolSource[] | readonly HostTool[]): ModelToolSource[] {
  const out: ModelToolSource[] = set.artifacts ? [...tools, READ_ARTIFACT_TOOL] : [...tools];
  if (set.skills === true) out.push(...SKILL_TOOLS);
  return out;
}
