/**
 * One conversation's view of the host's tools: what the next model turn gets (loaded tools,
 * the tools its searches found, the deferred rest) and the one entry point for the model's
 * calls, built-in tools included. A deferred tool the model calls by name without a search is
 * loaded and called like any other, never reported unknown.
 */
import type { CallToolResult, ContentBlock } from '../../wire/protocol.js';
import type { JsonObject } from '../../wire/messages.js';
import type { HostTool } from '../catalog/catalog.js';
import { errorToolResult } from '../models/modelToolResults.js';
import { isSkillTool } from '../skills/skillTools.js';
import type { Artifact } from './artifacts.js';
import { READ_ARTIFACT_NAME, TOOL_SEARCH_NAME } from './builtinTools.js';
import type { CallToolResult as Result } from '../../wire/protocol.js';
import { modelFacingTool, type Catalog } from '../catalog/catalog.js';
import type { ArtifactStore } from './artifacts.js';
import type { DeferralSplit } from './deferral.js';
import type { ModelCallOptions } from './modelCall.js';
import type { BoundedResult } from './resultBudget.js';
import type { TokenEstimator } from './tokens.js';
import type { ToolSearchOptions, ToolSearchResult } from './toolSearch.js';
import { charsForTokens } from './tokens.js';
import { headOf } from '../../util/text.js';

/** The tools of one model turn, for a `to…ToolSet` converter. */
export interface ModelToolSet {
  /** Sent in full: not deferred (`'never'`, `alwaysLoad`, or `'auto'` under the threshold). */
  readonly loaded: readonly HostTool[];
  /** Deferred tools this session found (a search) or called: sent in full by the portable converters. */
  readonly found: readonly HostTool[];
  /** Deferred and not found yet: sent only natively (`defer_loading`), else reached through `tool_search`. */
  readonly deferred: readonly HostTool[];
  /** Whether artifacts are kept, so `read_artifact` is offered. */
  readonly artifacts: boolean;
  /**
   * Whether skills are listed (`host.skills()` loaded them and found one), so `load_skill` and
   * `read_skill_file` are offered. @default false
   */
  readonly skills?: boolean | undefined;
}

/** What a model's call came to: the result to convert, and what the app may want of it. */
export interface ModelToolOutcome {
  /** For the converter: bounded, routed, compact. */
  readonly result: CallToolResult;
  /** The catalog tool called, when it was one (not a built-in). */
  readonly tool: HostTool | undefined;
  /** Whether the result was cut; `artifact` keeps the whole when the store took it. */
  readonly truncated: boolean;
  readonly artifact: Artifact | undefined;
  /** Blocks routed to the app (`contextBudget.route`). */
  readonly forApp: readonly ContentBlock[];
  /** Exposed names this call loaded for the next turn (a search, or a deferred tool called directly). */
  readonly loaded: readonly string[];
}

/** @internal What a session needs of the host's budget (contextBudget.ts). */
export interface SessionBudget {
  readonly host: {
    catalog(): Catalog;
    callTool(name: string, args: JsonObject, options: ModelCallOptions): Promise<Result>;
    /** Whether the host's skills are loaded and list at least one. */
    skillsListed(): boolean;
    /** `host.callSkillTool`. */
    callSkillTool(name: string, args: JsonObject, options: ModelCallOptions): Promise<Result>;
  };
  readonly artifacts: ArtifactStore;
  readonly estimator: TokenEstimator;
  readonly searchLimit: number;
  deferral(): DeferralSplit;
  search(query: string, options?: ToolSearchOptions): ToolSearchResult;
  maxResultTokens(tool: HostTool | undefined): number;
  bound(result: Result, tool: HostTool | undefined, name: string): BoundedResult;
}

/** See the module comment. Made by `host.toolSession()`. */
export class ToolSession {
  private readonly foundNames = new Set<string>();

  /** @internal */
  constructor(private readonly budget: SessionBudget) {}

  /** The tools for the next model turn. */
  tools(): ModelToolSet {
    const split = this.budget.deferral();
    const found: HostTool[] = [];
    const deferred: HostTool[] = [];
    for (const tool of split.deferred) (this.foundNames.has(tool.exposedName) ? found : deferred).push(tool);
    // Found tools in the order they were found: a new one goes last, so earlier definitions
    // (and a provider's prompt cache of them) stay as they were.
    const rank = new Map([...this.foundNames].map((name, i) => [name, i]));
    found.sort((a, b) => (rank.get(a.exposedName) ?? 0) - (rank.get(b.exposedName) ?? 0));
    return {
      loaded: split.loaded,
      found,
      deferred,
      artifacts: this.budget.artifacts.shared || this.budget.artifacts.size > 0,
      skills: this.budget.host.skillsListed(),
    };
  }

  /** Exposed names found so far, in the order they were found. */
  get found(): readonly string[] {
    return [...this.foundNames];
  }

  /** Loads tools by exposed name for the next turn (as a search that found them would). */
  load(names: readonly string[]): void {
    for (const name of names) if (this.budget.host.catalog().toolsByName.has(name)) this.foundNames.add(name);
  }

  /**
   * Runs a call the model made: `tool_search`, `read_artifact`, `load_skill` and
   * `read_skill_file` (as `host.callSkillTool`; a catalog tool of that exposed name wins), or a
   * catalog tool by exposed name (through `host.callTool`, with these options: its approval).
   * Every result is bounded by `maxResultTokens` (the host's, for a built-in tool). Never
   * throws for the call's own failure (an unknown tool, a server error, a timeout): the outcome
   * is an `isError` result the model can read (`errorToolResult`; an unknown name's text
   * suggests up to three nearest exposed names).
   */
  async callTool(
    name: string,
    args: JsonObject | undefined,
    options: ModelCallOptions = {},
  ): Promise<ModelToolOutcome> {
    const given = isObject(args) ? args : {};
    if (name === TOOL_SEARCH_NAME) return this.search(given);
    if (name === READ_ARTIFACT_NAME) return this.readArtifact(given);
    const tool = this.budget.host.catalog().toolsByName.get(name);
    if (tool === undefined && isSkillTool(name)) return this.skillTool(name, given, options);
    const loaded: string[] = [];
    if (tool !== undefined && this.budget.deferral().deferred.includes(tool) && !this.foundNames.has(name)) {
      this.foundNames.add(name);
      loaded.push(name);
    }
    let result: CallToolResult;
    try {
      result = await this.budget.host.callTool(name, given, options);
    } catch (error) {
      return plain(errorToolResult(error), tool, loaded);
    }
    const bounded = this.budget.bound(result, tool, name);
    return { ...bounded, tool, loaded };
  }

  private async skillTool(name: string, args: JsonObject, options: ModelCallOptions): Promise<ModelToolOutcome> {
    let result: CallToolResult;
    try {
      result = await this.budget.host.callSkillTool(name, args, options);
    } catch (error) {
      return plain(errorToolResult(error), undefined, []);
    }
    return { ...this.budget.bound(result, undefined, name), tool: undefined, loaded: [] };
  }

  private search(args: JsonObject): ModelToolOutcome {
    const query = typeof args['query'] === 'string' ? args['query'] : '';
    const asked = typeof args['limit'] === 'number' && Number.isInteger(args['limit']) ? args['limit'] : undefined;
    const limit = Math.min(Math.max(asked ?? this.budget.searchLimit, 1), 20);
    const found = this.budget.search(query, { limit });
    const loaded: string[] = [];
    for (const { tool } of found.matches)
      if (!this.foundNames.has(tool.exposedName)) {
        this.foundNames.add(tool.exposedName);
        loaded.push(tool.exposedName);
      }
    if (found.matches.length === 0)
      return plain(
        { content: [{ type: 'text', text: `No tools found: ${found.reason ?? 'no match'}.` }] },
        undefined,
        [],
      );
    const lines = found.matches.map(({ tool }) => {
      const facing = modelFacingTool(tool);
      const about = headOf((facing.description ?? facing.title ?? '').split('\n')[0] ?? '', 200);
      return `- ${tool.exposedName}${about === '' ? '' : `: ${about}`}`;
    });
    const missing = found.missing === undefined ? '' : `\nNot found: ${found.reason}.`;
    const text = `${found.matches.length} tools found; they are loaded and can be called from your next turn:\n${lines.join('\n')}${missing}`;
    return plain({ content: [{ type: 'text', text }] }, undefined, loaded);
  }

  private async readArtifact(args: JsonObject): Promise<ModelToolOutcome> {
    const id = typeof args['id'] === 'string' ? args['id'] : '';
    const offset = typeof args['offset'] === 'number' && args['offset'] >= 0 ? args['offset'] : 0;
    // Another worker's artifact is read back from the host's state store (docs/fleet.md).
    const artifact = await this.budget.artifacts.fetch(id);
    if (artifact === undefined)
      return plain(
        {
          content: [{ type: 'text', text: `No artifact ${JSON.stringify(id)}: it expired or never was.` }],
          isError: true,
        },
        undefined,
        [],
      );
    // A page is as large as a result may be, less room for its footer.
    const pageChars = Math.max(
      1,
      charsForTokens(this.budget.maxResultTokens(undefined), artifact.text, this.budget.estimator) - 200,
    );
    const page = this.budget.artifacts.read(id, offset, pageChars) ?? {
      text: '',
      offset,
      nextOffset: undefined,
      totalChars: 0,
    };
    const end = page.offset + page.text.length;
    const footer =
      page.nextOffset === undefined
        ? `[artifact ${id}: characters ${page.offset}–${end} of ${page.totalChars}; this is the end]`
        : `[artifact ${id}: characters ${page.offset}–${end} of ${page.totalChars}; read on with {"id":"${id}","offset":${page.nextOffset}}]`;
    return plain(
      {
        content: [
          { type: 'text', text: page.text },
          { type: 'text', text: footer },
        ],
      },
      undefined,
      [],
    );
  }
}

function plain(result: CallToolResult, tool: HostTool | undefined, loaded: string[]): ModelToolOutcome {
  return { result, tool, truncated: false, artifact: undefined, forApp: [], loaded };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
