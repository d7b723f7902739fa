/**
 * The providers' documented rules for a request's `tools` with tool search, independent of src/:
 * - Anthropic (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool; the SDK's
 *   anthropic-sdk-typescript src/resources/messages/messages.ts `ToolSearchToolBm25_20251119`,
 *   `ToolSearchToolRegex20251119`, `Tool.defer_loading`): the search tool is
 *   `{ type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" }` or the regex
 *   pair, never deferred; `defer_loading` is a boolean; at least one tool is not deferred; at
 *   most 10,000 deferred tools; a deferred tool needs a search tool in the request; names are
 *   unique; each custom tool's `input_schema` follows checkAnthropic.
 * - OpenAI Responses (developers.openai.com/api/docs/guides/tools-tool-search; openai-node
 *   src/resources/responses/responses.ts `ToolSearchTool`, `FunctionTool.defer_loading`): the
 *   search tool is `{ type: "tool_search" }` (`execution` "server" or "client"); functions marked
 *   `defer_loading: true` need it in the same request; function names are unique.
 * - Every function-calling API: names unique, 1–64 of `[a-zA-Z0-9_-]` (Gemini also `.` and `:`).
 */
import { checkAnthropic } from './anthropicRules.js';
import { checkOpenAi } from './openAiRules.js';
import { isRecord, type Violations } from './violations.js';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const SEARCH_PAIRS: Record<string, string> = {
  tool_search_tool_bm25_20251119: 'tool_search_tool_bm25',
  tool_search_tool_regex_20251119: 'tool_search_tool_regex',
};

export function checkAnthropicTools(tools: unknown): Violations {
  const found: Violations = [];
  if (!Array.isArray(tools)) return ['tools: not a list'];
  const names = new Set<string>();
  let search = 0;
  let deferred = 0;
  let loaded = 0;
  tools.forEach((tool, i) => {
    if (!isRecord(tool)) {
      found.push(`tools[${i}]: not an object`);
      return;
    }
    const name = tool['name'];
    if (typeof name !== 'string' || !NAME.test(name)) found.push(`tools[${i}]: bad name ${JSON.stringify(name)}`);
    else if (names.has(name)) found.push(`tools[${i}]: name ${name} twice`);
    else names.add(name);
    if (tool['defer_loading'] !== undefined && typeof tool['defer_loading'] !== 'boolean')
      found.push(`tools[${i}]: defer_loading not a boolean`);
    const type = tool['type'];
    if (typeof type === 'string' && type !== 'custom') {
      if (!(type in SEARCH_PAIRS)) {
        found.push(`tools[${i}]: unknown server tool type ${type}`);
        return;
      }
      if (SEARCH_PAIRS[type] !== name) found.push(`tools[${i}]: ${type} must be named ${SEARCH_PAIRS[type]}`);
      if (tool['defer_loading'] === true) found.push(`tools[${i}]: the search tool is deferred`);
      search++;
      loaded++;
      return;
    }
    for (const v of checkAnthropic(tool['input_schema'])) found.push(`tools[${i}].input_schema${v}`);
    if (tool['defer_loading'] === true) deferred++;
    else loaded++;
  });
  if (deferred > 0 && search === 0) found.push('deferred tools without a tool search tool');
  if (deferred > 10_000) found.push(`${deferred} deferred tools (at most 10,000)`);
  if (tools.length > 0 && loaded === 0) found.push('every tool is deferred');
  return found;
}

export function checkOpenAiResponsesTools(tools: unknown): Violations {
  const found: Violations = [];
  if (!Array.isArray(tools)) return ['tools: not a list'];
  const names = new Set<string>();
  let search = 0;
  let deferred = 0;
  tools.forEach((tool, i) => {
    if (!isRecord(tool)) {
      found.push(`tools[${i}]: not an object`);
      return;
    }
    if (tool['type'] === 'tool_search') {
      if (tool['execution'] !== undefined && tool['execution'] !== 'server' && tool['execution'] !== 'client')
        found.push(`tools[${i}]: execution ${JSON.stringify(tool['execution'])}`);
      search++;
      return;
    }
    if (tool['type'] !== 'function') {
      found.push(`tools[${i}]: type ${JSON.stringify(tool['type'])}`);
      return;
    }
    const name = tool['name'];
    if (typeof name !== 'string' || !NAME.test(name)) found.push(`tools[${i}]: bad name ${JSON.stringify(name)}`);
    else if (names.has(name)) found.push(`tools[${i}]: name ${name} twice`);
    else names.add(name);
    if (tool['defer_loading'] !== undefined && typeof tool['defer_loading'] !== 'boolean')
      found.push(`tools[${i}]: defer_loading not a boolean`);
    if (tool['defer_loading'] === true) deferred++;
    for (const v of checkOpenAi(tool['parameters'], tool['strict'] === true)) found.push(`tools[${i}].parameters${v}`);
  });
  if (search > 1) found.push('more than one tool_search tool');
  if (deferred > 0 && search === 0) found.push('deferred functions without a tool_search tool');
  return found;
}

/** Names of a function list (Chat Completions tools or Gemini declarations): valid and unique. */
export function checkFunctionNames(names: readonly string[], pattern: RegExp = NAME): Violations {
  const found: Violations = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (!pattern.test(name)) found.push(`bad name ${JSON.stringify(name)}`);
    if (seen.has(name)) found.push(`name ${name} twice`);
    seen.add(name);
  }
  return found;
}
