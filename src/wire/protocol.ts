/**
 * MCP 2026-07-28 types for what a client sends and receives, transcribed from the spec's
 * schema (schema/2026-07-28/schema.json). Field names and optionality follow the schema;
 * every object may carry more fields than listed (servers add extensions), so treat these as
 * "at least" shapes.
 */
import type { JsonObject, RequestId } from './messages.js';

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
  /** The user's language preference on a request (SEP-2792, a draft): `Accept-Language` syntax. */
  acceptLanguage: 'io.modelcontextprotocol/acceptLanguage',
  /** The language a server answered in, on a result (SEP-2792, a draft): `Content-Language` syntax. */
  contentLanguage: 'io.modelcontextprotocol/contentLanguage',
} as const;

/** Token that ties `notifications/progress` to the request that carried it in `_meta.progressToken`. */
export type ProgressToken = string | number;
/** Opaque pagination cursor (spec: server/utilities/pagination); `""` is a valid cursor. */
export type Cursor = string;
/** Speaker of a prompt or sampling message. */
export type Role = 'user' | 'assistant';
/** Log severity, RFC 5424 order from `debug` (least) to `emergency` (most) (spec: server/utilities/logging). */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
/** `cacheScope` of a CacheableResult: who may reuse it (spec: server/utilities/caching). */
export type CacheScope = 'public' | 'private';

/** An icon for display: `src` is an `https:` or `data:` URI; `sizes` like `"48x48"`. */
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

/** What the server supports, from `server/discover` (or `initialize` on a 2025-11-25 server). */
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

/** Fields of every page of a list method. */
export interface PaginatedResultBase extends ResultBase {
  /** Opaque; `""` is a valid cursor. Absent (or `null`) means this is the last page. */
  nextCursor?: Cursor | null;
}

/**
 * Display hints on content and resources: `audience` it is meant for, `priority` from 0 (least)
 * to 1 (most important), `lastModified` as an ISO 8601 timestamp. Hints only; not for trust.
 */
export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

/**
 * Hints a server gives about a tool's behaviour (read-only, destructive, idempotent, open
 * world). Untrusted unless the server is: never base a safety decision on them alone.
 */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A tool from `tools/list`: call it with `McpClient.callTool(name, args)`. `inputSchema` is
 * the JSON Schema of the arguments; `outputSchema`, when present, is what
 * `structuredContent` of the result must match (spec: server/tools).
 */
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

/** One argument a prompt template accepts; `required` ones must be passed to `prompts/get`. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt template from `prompts/list`; fetch it with `McpClient.getPrompt(name, args)` (spec: server/prompts). */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
}

/** A resource from `resources/list`; read it with `McpClient.readResource(uri)`. `size` is in bytes (spec: server/resources). */
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

/** A parameterised resource from `resources/templates/list`; fill `uriTemplate` to get a readable uri. */
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

/** Text contents of a resource, as `resources/read` returns them. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JsonObject;
}

/** Binary contents of a resource; `viewContents` decodes `blob` to bytes. */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64 (RFC 4648 §4) of the bytes. */
  blob: string;
  _meta?: JsonObject;
}

/** One item of `ReadResourceResult.contents`: text or base64 blob. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** Plain text content in a tool result, prompt message or sampling message. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** An image: `data` is base64 of the bytes, `mimeType` e.g. `"image/png"`. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** Audio: `data` is base64 of the bytes, `mimeType` e.g. `"audio/wav"`. */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** A pointer to a resource the client may read with `resources/read`; not its contents. */
export interface ResourceLink extends Omit<Resource, never> {
  type: 'resource_link';
}
/** A resource's contents embedded in a tool result or prompt message. */
export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** One item of `CallToolResult.content` or of a prompt message; switch on `type`. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** One message of a `prompts/get` result. */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** The `server/discover` result: versions, capabilities and optional instructions for the model. */
export interface DiscoverResult extends ResultBase, CacheHints {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** One page of `tools/list`. */
export interface ListToolsResult extends PaginatedResultBase, CacheHints {
  tools: Tool[];
}
/** One page of `prompts/list`. */
export interface ListPromptsResult extends PaginatedResultBase, CacheHints {
  prompts: Prompt[];
}
/** One page of `resources/list`. */
export interface ListResourcesResult extends PaginatedResultBase, CacheHints {
  resources: Resource[];
}
/** One page of `resources/templates/list`. */
export interface ListResourceTemplatesResult extends PaginatedResultBase, CacheHints {
  resourceTemplates: ResourceTemplate[];
}

/** The `resources/read` result. */
export interface ReadResourceResult extends ResultBase, CacheHints {
  /** May be empty: an empty resource, not a missing one. */
  contents: ResourceContents[];
}

/**
 * The `tools/call` result. `isError: true` is a tool failure the model should see, not a
 * protocol error; `structuredContent` is checked against the tool's `outputSchema`.
 */
export interface CallToolResult extends ResultBase {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** The `prompts/get` result: the filled-in messages. */
export interface GetPromptResult extends ResultBase {
  description?: string;
  messages: PromptMessage[];
}

/** The `ref` of a `completion/complete` for a prompt argument. */
export interface PromptReference {
  type: 'ref/prompt';
  name: string;
  title?: string;
}
/** The `ref` of a `completion/complete` for a resource template variable. */
export interface ResourceTemplateReference {
  type: 'ref/resource';
  uri: string;
}

/** The `completion/complete` result: up to 100 `values`; `total` and `hasMore` when there are more. */
export interface CompleteResult extends ResultBase {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

/** A server's request for input inside an `input_required` result (spec: basic/patterns/mrtr). */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitRequestParams }
  | { method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { method: 'roots/list'; params?: JsonObject };

/**
 * Params of an `elicitation/create` input request: form mode (absent `mode` means form) asks
 * for values matching `requestedSchema`; url mode sends the user to `url` (spec: client/elicitation).
 */
export type ElicitRequestParams =
  | {
      mode?: 'form';
      message: string;
      requestedSchema: JsonObject & { type: 'object'; properties: JsonObject; required?: string[] };
    }
  | { mode: 'url'; message: string; url: string; elicitationId?: string };

/** The answer to an elicitation: `content` only with `action: "accept"` (form mode). */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

/** One message of a sampling conversation; `content` is a content block (or an array of them). */
export interface SamplingMessage {
  role: Role;
  content: unknown;
}

/** Params of a `sampling/createMessage` input request: the conversation and limits for the LLM call (spec: client/sampling). */
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

/** The answer to a sampling request: the generated message and the `model` that wrote it. */
export interface CreateMessageResult {
  role: Role;
  content: unknown;
  model: string;
  stopReason?: string;
  _meta?: JsonObject;
}

/** A filesystem root the client exposes; `uri` is a `file://` URI (spec: client/roots). */
export interface Root {
  uri: string;
  name?: string;
  _meta?: JsonObject;
}

/** The answer to a `roots/list` input request. */
export interface ListRootsResult {
  roots: Root[];
}

/** The answer to one input request, keyed like it in `inputResponses`. */
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
  /**
   * `notifications/tasks` for these task ids (Tasks extension, `io.modelcontextprotocol/tasks`;
   * the listen request then declares the extension). Asked for only when the server lists it.
   */
  taskIds?: string[];
}

/** A `notifications/message` log record, delivered to `onLog` (spec: server/utilities/logging). */
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
