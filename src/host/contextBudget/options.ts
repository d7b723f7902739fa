/**
 * The options of the context budget (docs/host.md, "The context budget"): which tools reach the
 * model up front and which wait for a search, and how large a tool result may be.
 */
import type { TokenEstimator } from './tokens.js';
import type { ArtifactLimits } from './artifacts.js';
import type { ContentRouting } from './resultBudget.js';

/**
 * When a server's tools are deferred (sent to the model only once a search finds them):
 * `'always'`; `'never'`; `'auto'` once the estimated size of the definitions left to `'auto'`
 * passes `deferThresholdTokens`. A server entry's `'always'` or `'never'` decides for that
 * server's tools alone, and those tools do not count toward the `'auto'` total: "defer only the
 * big server" is `defer: 'always'` on that entry.
 */
export type DeferMode = 'auto' | 'always' | 'never';

/** A server entry's budget options (next to its transport and tool filter). */
export interface ContextBudgetServerOptions {
  /**
   * When this server's tools are deferred; `'always'`/`'never'` decide for this server's tools
   * only, whatever the host's `defer` says. @default the host's `contextBudget.defer` ("auto")
   */
  defer?: DeferMode | undefined;
  /** Tools of this server (original names) never deferred. @default none */
  alwaysLoad?: readonly string[] | undefined;
  /**
   * The largest result of this server's tools, in estimated tokens, capped by the host's
   * `maxResultTokens`; or `{ default, tools }` with a bound per tool (original names).
   * @default the host's
   */
  maxResultTokens?: number | { default?: number | undefined; tools?: Readonly<Record<string, number>> } | undefined;
  /**
   * Do not start this server with the host: its tools come from the last catalog it listed
   * (kept in the host's cache store, so across processes with a shared store), and it starts
   * on its first call. A lazy server with no catalog kept starts at once. @default false
   */
  lazy?: boolean | undefined;
}

/** `McpHostOptions.contextBudget`. */
export interface ContextBudgetOptions {
  /** When the tools of servers without their own `defer` are deferred. @default "auto" */
  defer?: DeferMode | undefined;
  /** Exposed names never deferred, whatever their server says. @default none */
  alwaysLoad?: readonly string[] | undefined;
  /**
   * `'auto'` defers once the estimated tokens of the definitions it decides (name, description
   * and input schema as JSON; tools of servers with `'always'` or `'never'`, and `alwaysLoad`
   * tools, not counted) pass this: 10% of a 200k-token context. @default 20000
   */
  deferThresholdTokens?: number | undefined;
  /**
   * Tokens of a text: pure, non-negative, growing with the text (a real tokenizer, e.g.
   * js-tiktoken's `encode(text).length`: docs/host.md, "Text cuts and token estimates").
   * @default `estimateTokens`: each character weighed by its script (about 4 characters a token
   *   for English and code, 1 token a character for CJK, 3 per emoji)
   */
  estimateTokens?: TokenEstimator | undefined;
  /**
   * The largest tool result the model sees, in estimated tokens; a longer one keeps its head
   * and tail around a marker, and the whole is kept as an artifact. A server's
   * `_meta["anthropic/maxResultSizeChars"]` on a tool lowers it for that tool, never raises it.
   * @default 25000
   */
  maxResultTokens?: number | undefined;
  /** Bounds of `host.artifacts`. @default { maxCount: 100, maxBytes: 64 MiB, ttlMs: 1 hour } */
  artifacts?: ArtifactLimits | undefined;
  /** Where each content type of a result goes. @default everything to the model */
  route?: ContentRouting | undefined;
  /** Results searched out per `tool_search` call of the model. @default 5 */
  searchLimit?: number | undefined;
}

export const DEFAULT_DEFER_THRESHOLD_TOKENS = 20_000;
export const DEFAULT_MAX_RESULT_TOKENS = 25_000;
export const DEFAULT_SEARCH_LIMIT = 5;
