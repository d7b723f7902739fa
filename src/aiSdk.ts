/**
 * The AI SDK entry: an `McpHost`'s tools as an AI SDK 7 `ToolSet` (`aiSdkTools`), the SDK's
 * tool-approval flow joined to the host's gate (`aiSdkApproval`), and prompts and resources as
 * the SDK's messages. `ai` is an optional peer dependency: install it to use this entry.
 * Runtime-neutral, like `mcp-live/host`.
 *
 * @module mcp-live/ai-sdk
 */
// Public API of the ai-sdk entry. Adding an export here adds public API: keep it explicit.
export { aiSdkTools, type AiSdkToolsOptions, type AiSdkToolMetadata } from './frameworks/aiSdk/toolSet.js';
export {
  aiSdkApproval,
  type AiSdkApproval,
  type AiSdkApprovalCall,
  type AiSdkApprovalOptions,
} from './frameworks/aiSdk/approval.js';
export { toAiSdkToolOutput, type AiSdkToolOutput } from './frameworks/aiSdk/toolOutput.js';
export { toAiSdkMessages, toAiSdkResourceMessage } from './frameworks/aiSdk/messages.js';
export { ToolResultError, isToolResultError, type ToolResultErrorData } from './frameworks/toolResultError.js';
