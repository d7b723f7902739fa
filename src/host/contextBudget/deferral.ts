/**
 * Which tools reach the model up front ("loaded") and which wait until a search finds them
 * ("deferred"), per server and per tool (`defer`, `alwaysLoad`), with `'auto'` deciding by
 * the estimated size of the definitions against a threshold.
 */
import { modelFacingTool, type HostTool } from '../catalog.js';
import { isModelVisible } from '../../apps/toolUi.js';
import type { ContextBudgetServerOptions, DeferMode } from './options.js';
import type { TokenEstimator } from './tokens.js';

/** The host's tools split for one model turn. */
export interface DeferralSplit {
  /** Sent in full up front. */
  readonly loaded: readonly HostTool[];
  /** Sent only once found (natively: marked deferred). */
  readonly deferred: readonly HostTool[];
  /** Estimated tokens of every model-visible definition, and whether `'auto'` deferred. */
  readonly estimatedTokens: number;
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
  for (const tool of tools) {
    if (!isModelVisible(tool.tool)) continue;
    estimatedTokens += definitionSize(tool, rules.estimator);
    const server = rules.server(tool.server);
    if (rules.alwaysLoad.has(tool.exposedName) || server?.alwaysLoad?.includes(tool.tool.name) === true) {
      loaded.push(tool);
      continue;
    }
    const mode = server?.defer ?? rules.defer;
    if (mode === 'never') loaded.push(tool);
    else if (mode === 'always') deferred.push(tool);
    else auto.push(tool);
  }
  const autoDeferred = auto.length > 0 && estimatedTokens > rules.thresholdTokens;
  if (autoDeferred) deferred.push(...auto);
  else loaded.push(...auto);
  // Catalog order within each list, so the definitions a model sees are stable turn to turn.
  const order = new Map(tools.map((tool, i) => [tool, i]));
  const byOrder = (a: HostTool, b: HostTool): number => (order.get(a) ?? 0) - (order.get(b) ?? 0);
  return { loaded: loaded.sort(byOrder), deferred: deferred.sort(byOrder), estimatedTokens, autoDeferred };
}
