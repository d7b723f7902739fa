/**
 * The host's two built-in tools for models, as MCP `Tool`s (the converters write them for each
 * API): `tool_search`, the portable search where an API has no native tool search, and
 * `read_artifact`, which pages through a result that was cut (artifacts.ts).
 */
import type { Tool } from '../../wire/protocol.js';

/** The name of the portable search tool the converters add when tools are deferred. */
export const TOOL_SEARCH_NAME = 'tool_search';
/** The name of the built-in tool that pages through a cut result's artifact. */
export const READ_ARTIFACT_NAME = 'read_artifact';

/** The portable search tool. Its result names the tools found; they are callable from the next turn. */
export const TOOL_SEARCH_TOOL: Tool = Object.freeze({
  name: TOOL_SEARCH_NAME,
  description:
    'Searches the tools that are available but not loaded yet, by keywords (or "select:name1,name2" for exact ' +
    'names). The tools found are loaded: you can call them from your next turn.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Keywords of what the tool should do, or select:name1,name2' },
      limit: { type: 'integer', minimum: 1, maximum: 20, description: 'The most tools to load (default 5)' },
    },
    required: ['query'],
  },
}) as Tool;

/** The artifact pager. */
export const READ_ARTIFACT_TOOL: Tool = Object.freeze({
  name: READ_ARTIFACT_NAME,
  description:
    'Reads on in a tool result that was too long and was cut: give the artifact id and the character offset ' +
    'the cut marker names; each call returns one page and the next offset.',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The artifact id, such as art_1' },
      offset: { type: 'integer', minimum: 0, description: 'Characters from the start (default 0)' },
    },
    required: ['id'],
  },
}) as Tool;

/** Whether a name is one of the built-in tools. */
export function isBuiltinTool(name: string): boolean {
  return name === TOOL_SEARCH_NAME || name === READ_ARTIFACT_NAME;
}
