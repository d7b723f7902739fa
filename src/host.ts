/**
 * The host entry: `McpHost` (many servers, one catalog, tools for models), the converters to
 * each model provider's tool and message shapes, approval and policy, the context budget, slash
 * commands and mentions, and the host's Skills surface. Runtime-neutral; in Node,
 * `mcp-live/host/node` gives `McpHost` the Node transports (stdio, node:http, ws) as its default.
 * The client it builds on is the root entry, `mcp-live`.
 *
 * @module mcp-live/host
 */
// Public API of the host entry. Adding an export here adds public API: keep it explicit, and
// keep Node-only code out (it belongs in ./hostNode.ts).
export type { HostSkill } from './host/skills/hostSkills.js';
export type { HostSkillsOptions } from './host/skills/skillsFront.js';
export {
  SKILL_TOOLS,
  LOAD_SKILL_TOOL,
  READ_SKILL_FILE_TOOL,
  isSkillTool,
  skillsContext,
} from './host/skills/skillTools.js';
// McpHost: many servers, one catalog, tools for models (docs/host.md)
export { McpHost, type HostScope } from './host/host.js';
export type { HostScopeOptions, ScopeCredentials } from './host/scopes/scopeOptions.js';
export {
  MemoryHostStateStore,
  statePartition,
  type HostStateStore,
  type MemoryHostStateStoreOptions,
  type StoredArtifact,
  type PendingApproval,
  type ApprovalAnswer,
  type ApprovalCallKey,
  type HostStateRecordKind,
} from './host/state/stateStore.js';
export { HostStateError, type HostStateErrorData } from './host/state/stateErrors.js';
export { storedApproval, answerApproval, type StoredApprovalOptions } from './host/policy/storedApproval.js';
export {
  keepInputRound,
  resumeInputRound,
  type KeptInputRound,
  type KeepInputRoundOptions,
  type InputRoundCaller,
} from './host/state/inputRounds.js';
export type { McpHostOptions, HostFromConfigOptions, HostEvent } from './host/servers/hostOptions.js';
export type { HostCallOptions, HostCallToolOptions } from './host/servers/callOptions.js';
export type { HostServerState, HostServerStatus } from './host/servers/serverSlot.js';
export {
  parseHostConfig,
  isHostConfig,
  expandVariables,
  type HostConfig,
  type ParseHostConfigOptions,
  type HostServerEntry,
  type HostServerOptions,
  type HostClientOptions,
  type ServerLocation,
  type StdioServerLocation,
  type RemoteServerLocation,
  type CustomServerLocation,
} from './host/servers/config.js';
export {
  CATALOG_KINDS,
  modelFacingTool,
  type Catalog,
  type CatalogLeftOut,
  type CatalogKind,
  type HostAvailability,
  type HostTool,
  type ToolFilter,
  type HostPrompt,
  type HostResource,
  type HostResourceTemplate,
} from './host/catalog/catalog.js';
export {
  assignExposedNames,
  sanitizeName,
  MAX_EXPOSED_NAME_LENGTH,
  DEFAULT_NAME_SEPARATOR,
  type PrefixMode,
  type NameRequest,
  type NameRules,
  type NameAssignment,
  type ExposedNameCollision,
} from './host/catalog/exposedNames.js';
export type { ServerItemRef } from './host/catalog/routing.js';
export { fetchTransport, type CreateTransport, type TransportContext } from './host/servers/transports.js';
export {
  HostConfigError,
  HostRoutingError,
  isHostConfigError,
  isHostRoutingError,
  type HostConfigErrorData,
  type HostRoutingErrorData,
  type HostRoutingReason,
} from './host/catalog/errors.js';
// The host's policy layer: approval, presets, overrides, views (docs/host.md#policy)
export {
  ToolApprovalDeniedError,
  isToolApprovalDeniedError,
  deniedToolResult,
  type ToolApprovalDeniedErrorData,
  type ToolApprovalDeniedReason,
  type ToolApprovalDeniedBy,
} from './host/policy/errors.js';
export type {
  ApproveHook,
  ApprovalVerdict,
  ApprovalBinding,
  ApprovalContext,
  ToolCallApproval,
  TrustedHints,
} from './host/policy/approval.js';
export { approvalPreset, trustedHints, type ApprovalPreset } from './host/policy/presets.js';
export { approveWithElicitation, type ElicitApprovalOptions } from './host/policy/elicitApproval.js';
export { canonicalJson, argumentsHash } from './host/policy/argumentsHash.js';
export type { ToolOverride, ToolOverrides } from './host/catalog/overrides.js';
export { HostView, type HostViewEvent, type ViewCallToolOptions } from './host/views.js';
export type { HostViewOptions } from './host/policy/viewOptions.js';
export {
  toOpenAiChatTools,
  toOpenAiResponsesTools,
  toAnthropicTools,
  toGeminiFunctionDeclarations,
  toGeminiSchema,
  restoreModelArguments,
  type ModelToolSource,
  type ModelToolOptions,
  type OpenAiToolOptions,
  type ModelArgumentsFrom,
  type ToolParametersSchema,
  type OpenAiChatTool,
  type OpenAiResponsesTool,
  type AnthropicTool,
  type GeminiFunctionDeclaration,
  type GeminiToolOptions,
} from './host/models/modelTools.js';
export { GeminiType, type GeminiSchema } from './host/models/schema/geminiOpenApi.js';
export {
  reportOnce,
  type ModelApi,
  type SchemaChange,
  type SchemaReport,
  type SchemaReportListener,
} from './host/models/schema/schemaChanges.js';
export {
  toOpenAiChatToolMessage,
  toOpenAiResponsesToolOutput,
  toAnthropicToolResult,
  toGeminiFunctionResponse,
  errorToolResult,
  type OpenAiChatToolMessage,
  type OpenAiResponsesToolOutput,
  type OpenAiResponsesOutputItem,
  type AnthropicToolResult,
  type AnthropicToolResultBlock,
  type GeminiFunctionResponsePart,
  type ToolResultOptions,
} from './host/models/modelToolResults.js';
// The context budget (docs/host.md, "The context budget"): tool search, deferral, bounded results.
export type { ContextBudgetOptions, ContextBudgetServerOptions, DeferMode } from './host/contextBudget/options.js';
export { estimateTokens, type TokenEstimator } from './host/contextBudget/tokens.js';
export type { ToolSearchOptions, ToolSearchResult } from './host/contextBudget/toolSearch.js';
export type { ToolMatch } from './host/contextBudget/toolIndex.js';
export type { ToolSession, ModelToolSet, ModelToolOutcome } from './host/contextBudget/toolSession.js';
export type { ModelCallOptions } from './host/contextBudget/modelCall.js';
export type { ArtifactStore, Artifact, ArtifactPage, ArtifactLimits } from './host/contextBudget/artifacts.js';
export type { BoundedResult, ContentRouting, ContentDestination } from './host/contextBudget/resultBudget.js';
export type { InstructionsOptions } from './host/contextBudget/instructions.js';
export {
  TOOL_SEARCH_TOOL,
  READ_ARTIFACT_TOOL,
  TOOL_SEARCH_NAME,
  READ_ARTIFACT_NAME,
  isBuiltinTool,
} from './host/contextBudget/builtinTools.js';
export {
  toAnthropicToolSet,
  toOpenAiResponsesToolSet,
  toOpenAiChatToolSet,
  toGeminiToolSet,
  type AnthropicToolSetItem,
  type AnthropicToolSearchTool,
  type AnthropicToolSetOptions,
  type OpenAiResponsesToolSetItem,
  type NativeSearchOption,
} from './host/contextBudget/toolSetConverters.js';
export {
  toOpenAiChatMessages,
  toOpenAiResponsesMessages,
  toAnthropicMessages,
  toGeminiContents,
  type OpenAiChatMessage,
  type OpenAiChatUserPart,
  type OpenAiResponsesMessage,
  type OpenAiResponsesInputContent,
  type AnthropicMessage,
  type AnthropicPromptBlock,
  type GeminiContent,
} from './host/models/modelPrompts.js';
// Prompts as slash commands, resources as @-mentions, completion as the user types (docs/host.md)
export {
  buildSlashCommands,
  slashCommandName,
  slashServerName,
  DEFAULT_RESERVED_SERVERS,
  type SlashCommand,
  type SlashCommandArgument,
  type SlashCommandList,
  type SlashCommandOptions,
} from './host/userInput/slashCommands.js';
export {
  splitWords,
  parseSlashCommandLine,
  quoteWord,
  formatSlashCommandLine,
  type LineWord,
  type ParsedSlashCommand,
} from './host/userInput/slashCommandLine.js';
export {
  SlashCommandError,
  isSlashCommandError,
  type SlashCommandErrorData,
  type SlashCommandErrorReason,
} from './host/userInput/slashCommandError.js';
export type { RunSlashCommandOptions, SlashCommandRun } from './host/userInput/userInput.js';
export type {
  CompletionCandidate,
  CompletedCandidates,
  HostCompletion,
} from './host/userInput/completionCandidates.js';
export type { Mention, ResolvedMention, ResolvedMentions, ResolveMentionsOptions } from './host/userInput/mentions.js';
export type { PromptApi, MessagesFor } from './host/models/promptMessages.js';
export { hostAppLink, clientAppLink } from './host/appLink.js';
// Triggers & Events across the host's servers (docs/events.md, "In a host").
export {
  HostEvents,
  type HostEventsSource,
  type HostEventType,
  type HostEventsOptions,
  type DeclaredEventSubscription,
} from './host/events/hostEvents.js';
