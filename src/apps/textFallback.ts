/**
 * The text a model gets for a tool result whose tool links a UI (spec: Graceful Degradation):
 * servers must send meaningful `content`, but a result with no text at all (only
 * `structuredContent`, or nothing) would leave the model guessing, so it gets one line saying
 * a view goes with the result and whether the user sees it. Pure.
 */
import type { CallToolResult, TextContent } from '../wire/protocol.js';
import { mcpToolOf, toolUi, type AppToolSource } from './toolUi.js';

/** Options of {@link appTextFallback}. */
export interface AppTextFallbackOptions {
  /** Whether the host shows the tool's UI to the user with this result. @default false */
  appShown?: boolean | undefined;
}

/**
 * `result`, with a first text block about the UI when the tool links a `ui://` resource and the
 * result has no non-empty text; otherwise `result` itself (the same object).
 */
export function appTextFallback(
  result: CallToolResult,
  tool: AppToolSource,
  options: AppTextFallbackOptions = {},
): CallToolResult {
  const mcpTool = mcpToolOf(tool);
  const { resourceUri } = toolUi(mcpTool);
  if (resourceUri === undefined) return result;
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.some((block) => block?.type === 'text' && typeof block.text === 'string' && block.text.trim() !== ''))
    return result;
  const name = mcpTool.title ?? mcpTool.name;
  const text =
    options.appShown === true
      ? `${name}: the result is shown to the user in an interactive view (${resourceUri}).`
      : `${name}: this result comes with an interactive view (${resourceUri}) that is not shown here${
          result.structuredContent !== undefined || content.length > 0 ? '; its data follows.' : '.'
        }`;
  const note: TextContent = { type: 'text', text };
  return { ...result, content: [note, ...content] };
}
