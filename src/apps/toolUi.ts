/**
 * A tool's MCP Apps metadata (spec: Resource Discovery, Visibility): the UI resource it links
 * (`_meta.ui.resourceUri`, or the deprecated flat `_meta["ui/resourceUri"]`) and who may call
 * it (`_meta.ui.visibility`, default `["model", "app"]`). Pure.
 */
import type { Tool } from '../wire/protocol.js';
import { UI_SCHEME } from './constants.js';

/** Who may call a tool: `model` (the agent sees it), `app` (a UI of the same server may call it). */
export type AppToolVisibility = 'model' | 'app';

/** What {@link toolUi} reads from a tool. */
export interface ToolUi {
  /** The `ui://` resource that renders the tool's results; `undefined` when the tool links none. */
  readonly resourceUri: string | undefined;
  /** Who may call the tool; `["model", "app"]` when the tool says nothing. */
  readonly visibility: readonly AppToolVisibility[];
}

const DEFAULT_VISIBILITY: readonly AppToolVisibility[] = Object.freeze(['model', 'app']);
const NO_UI: ToolUi = Object.freeze({ resourceUri: undefined, visibility: DEFAULT_VISIBILITY });

/**
 * A tool's UI link and visibility. A `resourceUri` that is not a `ui://` string is ignored; a
 * `visibility` that is not an array means the default; unknown entries in it are dropped (an
 * array with none of `model` and `app` hides the tool from both).
 */
export function toolUi(tool: Pick<Tool, '_meta'>): ToolUi {
  const meta = tool._meta;
  if (typeof meta !== 'object' || meta === null) return NO_UI;
  const ui = meta['ui'];
  const nested = typeof ui === 'object' && ui !== null && !Array.isArray(ui) ? (ui as Record<string, unknown>) : {};
  const candidate = nested['resourceUri'] ?? meta['ui/resourceUri'];
  const resourceUri =
    typeof candidate === 'string' && candidate.startsWith(UI_SCHEME) && candidate.length > UI_SCHEME.length
      ? candidate
      : undefined;
  const listed = nested['visibility'];
  const visibility = Array.isArray(listed)
    ? (['model', 'app'] as const).filter((who) => listed.includes(who))
    : DEFAULT_VISIBILITY;
  if (resourceUri === undefined && visibility === DEFAULT_VISIBILITY) return NO_UI;
  return { resourceUri, visibility };
}

/** Whether the model may see and call the tool (`visibility` includes `model`). */
export function isModelVisible(tool: Pick<Tool, '_meta'>): boolean {
  return toolUi(tool).visibility.includes('model');
}

/** Whether an app of the tool's own server may call it (`visibility` includes `app`). */
export function isAppCallable(tool: Pick<Tool, '_meta'>): boolean {
  return toolUi(tool).visibility.includes('app');
}

/** A tool as the host lists it (`HostTool`, with the MCP tool under `tool`) or a plain MCP tool. */
export type AppToolSource = Tool | { readonly tool: Tool };

/** What {@link splitAppTools} returns. */
export interface AppToolSplit<T extends AppToolSource> {
  /**
   * The tools the model may see, in the given order, each with the `ui://` resource that
   * renders its results (`undefined` for a plain tool). Pass them to the model converters.
   */
  readonly modelTools: ReadonlyArray<T & { readonly resourceUri: string | undefined }>;
  /** The tools only an app of the same server may call (`visibility: ["app"]`); never give them to a model. */
  readonly appOnlyTools: readonly T[];
}

/** The MCP tool of a host tool or of a plain tool. */
export function mcpToolOf(source: AppToolSource): Tool {
  return 'tool' in source && typeof source.tool === 'object' ? source.tool : (source as Tool);
}

/**
 * Splits tools by visibility (spec: Visibility): the model's tools, with their UI resource,
 * and the app-only ones. A tool whose visibility names neither `model` nor `app` is in neither
 * list.
 */
export function splitAppTools<T extends AppToolSource>(tools: readonly T[]): AppToolSplit<T> {
  const modelTools: Array<T & { readonly resourceUri: string | undefined }> = [];
  const appOnlyTools: T[] = [];
  for (const source of tools) {
    const ui = toolUi(mcpToolOf(source));
    if (ui.visibility.includes('model')) modelTools.push({ ...source, resourceUri: ui.resourceUri });
    else if (ui.visibility.includes('app')) appOnlyTools.push(source);
  }
  return { modelTools, appOnlyTools };
}
