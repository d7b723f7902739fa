/**
 * The LangChain entry: an `McpHost`'s tools as LangChain structured tools with
 * `responseFormat: "content_and_artifact"` (`langchainTools`), approval as a LangGraph interrupt
 * joined to the host's gate (`langGraphApproval`), prompts as chat prompt templates and MCP
 * content as LangChain content. `@langchain/core` is an optional peer dependency: install it to
 * use this entry (`@langchain/langgraph` too for interrupts and agents; this entry never imports
 * it: you hand it `interrupt`). Runtime-neutral, like `mcp-live/host`.
 *
 * @module mcp-live/langchain
 */
// Public API of the langchain entry. Adding an export here adds public API: keep it explicit.
export {
  langchainTools,
  type LangChainToolkit,
  type LangChainToolsOptions,
  type McpToolArtifact,
  type McpToolResponse,
} from './frameworks/langchain/tools.js';
export {
  langGraphApproval,
  type LangGraphApproval,
  type LangGraphApprovalAnswer,
  type LangGraphApprovalCall,
  type LangGraphApprovalOptions,
  type LangGraphApprovalRequest,
} from './frameworks/langchain/approval.js';
export { McpPromptTemplate, mcpPromptTemplate } from './frameworks/langchain/promptTemplate.js';
export { toLangChainContent, toLangChainMessages } from './frameworks/langchain/content.js';
export { ToolResultError, isToolResultError, type ToolResultErrorData } from './frameworks/toolResultError.js';
