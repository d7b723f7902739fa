/**
 * MCP 2026-07-28 types for what a client sends and receives, transcribed from the spec's
 * schema (schema/2026-07-28/schema.json). Field names and optionality follow the schema;
 * every object may carry more fields than listed (servers add extensions), so treat these as
 * "at least" shapes.
 */
import type { JsonObject, RequestId } from '../jsonrpc/messages.js';

/** The protocol revisions this client speaks on the modern (per-request `_meta`) wire. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** The newest revision; what `server/discover` asks for first. */
export const LATEST_PROTOCOL_VERSION = '2026-07-28';

/** Reserved `_meta` keys (spec: basic/index, `_meta`). */
export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  progressToken: 'progressToken',
} as const;

export type ProgressToken = string | number;
export type Cursor = string;
export type Role = 'user' | 'assistant';
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
/** `cacheScope` of a CacheableResult: who may reuse it (spec: server/utilities/caching). */
export type CacheScope = 'public' | 'private';

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Name and version of a client or server implementation (self-reported, for display). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** What the client supports, declared on every request (spec: basic/index, per-request fields). */
export interface ClientCapabilities {
  elicitation?: { form?: JsonObject; url?: JsonObject };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  roots?: JsonObject;
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
}

export interface ServerCapabilities {
  completions?: JsonObject;
  logging?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { listChanged?: boolean; subscribe?: boolean };
  tools?: { listChanged?: boolean };
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

/** Fields every result carries. `resultType` absent means `"complete"`. */
export interface ResultBase {
  resultType?: string;
  _meta?: JsonObject & { 'io.modelcontextprotocol/serverInfo'?: Implementation };
  [key: string]: unknown;
}

/** Cache hints on results the spec marks cacheable (spec: server/utilities/caching). */
export interface CacheHints {
  /** How long the result stays fresh, in ms. Missing or invalid means 0. */
  ttlMs?: number;
  cacheScope?: CacheScope;
}

export interface PaginatedResultBase extends ResultBase {
  /** Opaque; `""` is a valid cursor. Absent (or `null`) means this is the last page. */
  nextCursor?: Cursor | null;
}

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject & { type: 'object' };
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface ResourceTemplate {
  /** An RFC 6570 URI template. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JsonObject;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64 (RFC 4648 §4) of the bytes. */
  blob: string;
  _meta?: JsonObject;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface TextContent { type: 'text'; text: string; annotations?: Annotations; _meta?: JsonObject }
export interface ImageContent { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
export interface AudioContent { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
export interface ResourceLink extends Omit<Resource, never> { type: 'resource_link' }
export interface EmbeddedResource { type: 'resource'; resource: ResourceContents; annotations?: Annotations; _meta?: JsonObject }
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

export interface DiscoverResult extends ResultBase, CacheHints {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

export interface ListToolsResult extends PaginatedResultBase, CacheHints { tools: Tool[] }
export interface ListPromptsResult extends PaginatedResultBase, CacheHints { prompts: Prompt[] }
export interface ListResourcesResult extends PaginatedResultBase, CacheHints { resources: Resource[] }
export interface ListResourceTemplatesResult extends PaginatedResultBase, CacheHints { resourceTemplates: ResourceTemplate[] }

export interface ReadResourceResult extends ResultBase, CacheHints {
  /** May be empty: an empty resource, not a missing one. */
  contents: ResourceContents[];
}

export interface CallToolResult extends ResultBase {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

export interface GetPromptResult extends ResultBase {
  description?: string;
  messages: PromptMessage[];
}

export interface PromptReference { type: 'ref/prompt'; name: string; title?: string }
export interface ResourceTemplateReference { type: 'ref/resource'; uri: string }

export interface CompleteResult extends ResultBase {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

/** A server's request for input inside an `input_required` result (spec: basic/patterns/mrtr). */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitRequestParams }
  | { method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { method: 'roots/list'; params?: JsonObject };

export type ElicitRequestParams =
  | { mode?: 'form'; message: string; requestedSchema: JsonObject & { type: 'object'; properties: JsonObject; required?: string[] } }
  | { mode: 'url'; message: string; url: string; elicitationId?: string };

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

export interface SamplingMessage {
  role: Role;
  content: unknown;
}

export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: JsonObject;
  metadata?: JsonObject;
  tools?: Tool[];
  toolChoice?: { mode?: 'auto' | 'none' | 'required' };
}

export interface CreateMessageResult {
  role: Role;
  content: unknown;
  model: string;
  stopReason?: string;
  _meta?: JsonObject;
}

export interface Root {
  uri: string;
  name?: string;
  _meta?: JsonObject;
}

export interface ListRootsResult {
  roots: Root[];
}

export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/** `resultType: "input_required"`: the server needs answers before it can complete. */
export interface InputRequiredResult extends ResultBase {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  /** Opaque; echo it back byte for byte. */
  requestState?: string;
}

/** Which change notifications a `subscriptions/listen` asks for (spec: basic/patterns/subscriptions). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

export interface LoggingMessage {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/** A `notifications/cancelled` params object. */
export interface CancelledNotificationParams {
  requestId: RequestId;
  reason?: string;
}
