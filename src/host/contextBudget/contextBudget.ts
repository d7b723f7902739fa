/**
 * The context budget of one host: the search index kept current with the catalog, the
 * deferral rules, the artifact store and the result bounds. `McpHost` holds one and hands its
 * verbs out (`searchTools`, `artifacts`, `toolSession`, `boundToolResult`, `instructions`).
 */
import type { CallToolResult } from '../../wire/protocol.js';
import type { JsonObject } from '../../wire/messages.js';
import type { Catalog, HostTool } from '../catalog/catalog.js';
import { ArtifactStore } from './artifacts.js';
import { splitDeferred, type DeferralSplit } from './deferral.js';
import {
  DEFAULT_DEFER_THRESHOLD_TOKENS,
  DEFAULT_MAX_RESULT_TOKENS,
  DEFAULT_SEARCH_LIMIT,
  type ContextBudgetOptions,
  type ContextBudgetServerOptions,
} from './options.js';
import type { ModelCallOptions } from './modelCall.js';
import { boundResult, type BoundedResult } from './resultBudget.js';
import { estimateTokens, type TokenEstimator } from './tokens.js';
import { ToolIndex } from './toolIndex.js';
import { searchTools, type SearchedServer, type ToolSearchOptions, type ToolSearchResult } from './toolSearch.js';
import { ToolSession, type SessionBudget } from './toolSession.js';

/** @internal What the budget needs of its host. */
export interface BudgetDeps {
  catalog(): Catalog;
  servers(): readonly SearchedServer[];
  serverOptions(server: string): ContextBudgetServerOptions | undefined;
  callTool(name: string, args: JsonObject, options: ModelCallOptions): Promise<CallToolResult>;
  skillsListed(): boolean;
  callSkillTool(name: string, args: JsonObject, options: ModelCallOptions): Promise<CallToolResult>;
}

/** The `_meta` key a server may set on a tool to bound its results, in characters (Claude Code's). */
export const MAX_RESULT_SIZE_META = 'anthropic/maxResultSizeChars';

/** @internal See the module comment. */
export class ContextBudget implements SessionBudget {
  readonly artifacts: ArtifactStore;
  readonly estimator: TokenEstimator;
  readonly searchLimit: number;
  private readonly index = new ToolIndex();
  private indexed: readonly HostTool[] | undefined;
  private split: { tools: readonly HostTool[]; value: DeferralSplit } | undefined;
  private readonly alwaysLoad: ReadonlySet<string>;

  constructor(
    private readonly options: ContextBudgetOptions,
    readonly host: BudgetDeps,
  ) {
    this.estimator = options.estimateTokens ?? estimateTokens;
    this.artifacts = new ArtifactStore(options.artifacts);
    this.alwaysLoad = new Set(options.alwaysLoad ?? []);
    this.searchLimit = options.searchLimit ?? DEFAULT_SEARCH_LIMIT;
  }

  /** A catalog change: the index follows, once it has been built (a search built it). */
  catalogChanged(): void {
    if (this.indexed !== undefined) this.syncIndex();
  }

  /** The index, in line with the catalog. */
  private syncIndex(): ToolIndex {
    const tools = this.host.catalog().tools;
    if (this.indexed !== tools) {
      this.index.update(tools);
      this.indexed = tools;
    }
    return this.index;
  }

  search(query: string, options?: ToolSearchOptions): ToolSearchResult {
    return searchTools(this.syncIndex(), this.host.servers(), query, options);
  }

  /** The loaded and deferred tools of the current catalog (kept until the tool list changes). */
  deferral(): DeferralSplit {
    const tools = this.host.catalog().tools;
    if (this.split?.tools === tools) return this.split.value;
    const value = splitDeferred(tools, {
      defer: this.options.defer ?? 'auto',
      alwaysLoad: this.alwaysLoad,
      thresholdTokens: this.options.deferThresholdTokens ?? DEFAULT_DEFER_THRESHOLD_TOKENS,
      estimator: this.estimator,
      server: (name) => this.host.serverOptions(name),
    });
    this.split = { tools, value };
    return value;
  }

  /** The result bound of one tool, in tokens: per tool, else per server, else the host's. */
  maxResultTokens(tool: HostTool | undefined): number {
    const host = this.options.maxResultTokens ?? DEFAULT_MAX_RESULT_TOKENS;
    if (tool === undefined) return host;
    const own = this.host.serverOptions(tool.server)?.maxResultTokens;
    if (typeof own === 'number') return own;
    return own?.tools?.[tool.tool.name] ?? own?.default ?? host;
  }

  /** A result bounded for the model (resultBudget.ts), by the bound of `tool`. */
  bound(result: CallToolResult, tool: HostTool | undefined, name: string): BoundedResult {
    const hint = tool?.tool._meta?.[MAX_RESULT_SIZE_META];
    return boundResult(result, {
      maxTokens: this.maxResultTokens(tool),
      hintChars: typeof hint === 'number' && Number.isFinite(hint) && hint > 0 ? Math.floor(hint) : undefined,
      estimator: this.estimator,
      route: this.options.route ?? {},
      store: this.artifacts,
      server: tool?.server ?? '',
      tool: name,
    });
  }

  session(): ToolSession {
    return new ToolSession(this);
  }
}
