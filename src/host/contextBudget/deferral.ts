/**
 * Which tools reach the model up front ("loaded") and which wait until a search finds them
 * ("deferred"), per server and per tool (`defer`, `alwaysLoad`). Each tool is decided by the
 * most specific setting: `alwaysLoad`, then its server's `defer`, then the host's. A server's
 * `'always'` or `'never'` decides for that server's tools alone; `'auto'` defers the tools no
 * setting decided once the estimated size of their definitions passes the threshold (the tools
 * already decided do not count).
 */
import { modelFacingTool, type HostTool } from '../catalog/catalog.js';
import { isModelVisible } from '../../apps/toolUi.js';
import type { ContextBudgetServerOptions, DeferMode } from './options.js';
import type { TokenEstimator } from './tokens.js';

/** The host's tools split for one model turn. */
export interface DeferralSplit {
  /** Sent in full up front. */
  readonly loaded: readonly HostTool[];
  /** Sent only once found (natively: marked deferred). */
  readonly deferred: readonly HostTool[];
  /** Estimated tokens of every model-visible definition. */
  readonly estimatedTokens: number;
  /** Estimated tokens of the definitions `'auto'` decided (no other setting did): what the threshold is held to. */
  readonly autoTokens: number;
  /** Whether `'auto'` deferred its tools. */
  readonly autoDeferred: boolean;
}

/** @internal What deferral needs of the host. */
export interface DeferralRules {
  defer: DeferMode;
  alwaysLoad: ReadonlySet<string>;
  thresholdTokens: number;
  estimator: TokenEstimator;
  server: (name: string) => ContextBudgetServerOptions | undefined;
}

/** @internal Tokens of each definition, kept per tool wrapper (a catalog keeps unchanged ones). */
const definitionTokens = new WeakMap<HostTool, { estimator: TokenEstimator; tokens: number }>();

/** The estimated tokens of one tool's definition: its name, description and input schema as JSON. */
export function definitionSize(tool: HostTool, estimator: TokenEstimator): number {
  const known = definitionTokens.get(tool);
  if (known !== undefined && known.estimator === estimator) return known.tokens;
  const facing = modelFacingTool(tool);
  const text = JSON.stringify({
    name: tool.exposedName,
    description: facing.description ?? facing.title,
    input_schema: facing.inputSchema,
  });
  const tokens = estimator(text);
  definitionTokens.set(tool, { estimator, tokens });
  return tokens;
}

/** @internal The split of `tools` by `rules` (see the module comment). Model-visible tools only. */
export function splitDeferred(tools: readonly HostTool[], rules: DeferralRules): DeferralSplit {
  const loaded: HostTool[] = [];
  const deferred: HostTool[] = [];
  const auto: HostTool[] = [];
  let estimatedTokens = 0;
  let autoTokens = 0;
  for (const tool of tools) {
    if (!isModelVisible(tool.tool)) continue;
    const size = definitionSize(tool, rules.estimator);
    estimatedTokens += size;
    const server = rules.server(tool.server);
    if (rules.alwaysLoad.has(tool.exposedName) || server?.alwaysLoad?.includes(tool.tool.name) === true) {
      loaded.push(tool);
      continue;
    }
    const mode = server?.defer ?? rules.defer;
    if (mode === 'never') loaded.push(tool);
    else if (mode === 'always') deferred.push(tool);
    else {
      auto.push(tool);
      autoTokens += size;
    }
  }
  const autoDeferred = auto.length > 0 && autoTokens > rules.thresholdTokens;
  if (autoDeferred) deferred.push(...auto);
  else loaded.push(...auto);
  // Catalog order within each list, so the definitions a model sees are stable turn to turn.
  const order = new Map(tools.map((tool, i) => [tool, i]));
  const byOrder = (a: HostTool, b: HostTool): number => (order.get(a) ?? 0) - (order.get(b) ?? 0);
  return {
    loaded: loaded.sort(byOrder),
    deferred: deferred.sort(byOrder),
    estimatedTokens,
    autoTokens,
    autoDeferred,
  };
}
