/**
 * `host.searchTools`: ranked matches over the live catalog (toolIndex.ts), or the exact form
 * `select:name1,name2`; an empty result says why when it can (a server not open, a server
 * filtered out, no word in the query).
 */
import type { HostTool } from '../catalog/catalog.js';
import { isModelVisible } from '../../apps/toolUi.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import { wordsOf, type ToolIndex, type ToolMatch } from './toolIndex.js';

/** Options of `host.searchTools`. */
export interface ToolSearchOptions {
  /** The most matches, 1 to 100. @default 10 */
  limit?: number | undefined;
  /** Only tools of these servers (by name). @default every server */
  servers?: readonly string[] | undefined;
}

/** What `host.searchTools` found. */
export interface ToolSearchResult {
  readonly query: string;
  /** Best first (`select:` keeps the order of the names, each with score 1). */
  readonly matches: readonly ToolMatch[];
  /** Why nothing was found (or, for `select:`, why a name was not), when it can be told. */
  readonly reason?: string | undefined;
  /** `select:` names that named no tool. */
  readonly missing?: readonly string[] | undefined;
}

export const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;
const SELECT = 'select:';

/** What the search reads of a server's status (`HostServerStatus`, from `McpHost.servers`). */
export interface SearchedServer {
  readonly name: string;
  readonly state: string;
  readonly lastError: Error | undefined;
}

/**
 * @internal The search of `host.searchTools`.
 * @throws InvalidArgumentError (-32602) for a query that is not a string, a bad `limit` or
 *   `servers`.
 */
export function searchTools(
  index: ToolIndex,
  servers: readonly SearchedServer[],
  query: string,
  options: ToolSearchOptions = {},
): ToolSearchResult {
  if (typeof query !== 'string') throw new InvalidArgumentError('query', query, 'expected a string');
  const limit = options.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new InvalidArgumentError('limit', limit, `expected an integer from 1 to ${MAX_LIMIT}`);
  const only = options.servers;
  if (only !== undefined && !(Array.isArray(only) && only.every((s) => typeof s === 'string')))
    throw new InvalidArgumentError('servers', only, 'expected an array of server names');
  const wanted = only === undefined ? undefined : new Set(only);
  const accept = (tool: HostTool): boolean =>
    (wanted === undefined || wanted.has(tool.server)) && isModelVisible(tool.tool);

  const trimmed = query.trim();
  if (trimmed.toLowerCase().startsWith(SELECT)) {
    const names = trimmed
      .slice(SELECT.length)
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    const matches: ToolMatch[] = [];
    const missing: string[] = [];
    for (const name of names) {
      const tool = index.get(name) ?? byOriginalName(index, name, accept);
      if (tool !== undefined && accept(tool) && !matches.some((m) => m.tool === tool)) matches.push({ tool, score: 1 });
      else if (tool === undefined || !accept(tool)) missing.push(name);
    }
    const reason =
      missing.length === 0
        ? undefined
        : `${missing.map((n) => JSON.stringify(n)).join(', ')}: no such tool${whyNone(servers, wanted, index)}`;
    return { query, matches: matches.slice(0, limit), reason, ...(missing.length > 0 && { missing }) };
  }

  if (wordsOf(trimmed).length === 0) return { query, matches: [], reason: 'the query has no words to search for' };
  const matches = index.search(trimmed, limit, accept);
  if (matches.length > 0) return { query, matches };
  return { query, matches, reason: `no tool matches ${JSON.stringify(trimmed)}${whyNone(servers, wanted, index)}` };
}

/** A tool listed under `name` by its server (unambiguous only). */
function byOriginalName(index: ToolIndex, name: string, accept: (tool: HostTool) => boolean): HostTool | undefined {
  let found: HostTool | undefined;
  for (const tool of index.all())
    if (tool.tool.name === name && accept(tool)) {
      if (found !== undefined) return undefined;
      found = tool;
    }
  return found;
}

/** What may explain an empty result: servers filtered out, not open, or without tools. */
function whyNone(
  servers: readonly SearchedServer[],
  wanted: ReadonlySet<string> | undefined,
  index: ToolIndex,
): string {
  const notes: string[] = [];
  const names = new Set(servers.map((s) => s.name));
  for (const name of wanted ?? []) if (!names.has(name)) notes.push(`no server is named ${JSON.stringify(name)}`);
  const withTools = new Set([...index.all()].map((t) => t.server));
  for (const server of servers) {
    if (wanted !== undefined && !wanted.has(server.name)) continue;
    if (server.state !== 'open' && server.state !== 'reconnecting' && !withTools.has(server.name))
      notes.push(
        `server ${JSON.stringify(server.name)} is ${server.state}${server.lastError ? ` (${server.lastError.message})` : ''}`,
      );
    else if (wanted !== undefined && !withTools.has(server.name))
      notes.push(`server ${JSON.stringify(server.name)} lists no tools`);
  }
  if (wanted !== undefined && servers.some((s) => !wanted.has(s.name)))
    notes.push(`searched only ${[...wanted].map((n) => JSON.stringify(n)).join(', ')}`);
  return notes.length === 0 ? '' : `; ${notes.join('; ')}`;
}
