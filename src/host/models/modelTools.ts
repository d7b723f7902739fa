/**
 * Tool definitions for model APIs, from the host's tools (or plain MCP tools). Pure and
 * dependency-free: the output is the JSON each API takes, typed here by its documented shape.
 *
 * - OpenAI Chat Completions: `{ type: 'function', function: { name, description, parameters, strict } }`
 * - OpenAI Responses: `{ type: 'function', name, description, parameters, strict }`
 * - Anthropic Messages: `{ name, description, input_schema }`
 * - Google Gemini: function declarations `{ name, description, parametersJsonSchema }`, or
 *   `parameters` in Gemini's OpenAPI schema subset for APIs without JSON Schema support.
 *
 * The name is the exposed name (a plain `Tool` keeps its own); the description is the tool's
 * `description`, else its `title`. A host tool with `modelTool` (the server's `overrides`) is
 * described by it. The input schema is normalised to the subset the API
 * documents (modelSchema/: rules and sources in docs/host.md and modelSchema/profiles.ts);
 * what that drops or widens is reported through `onSchemaReport`.
 * Tools only apps may call (MCP Apps `visibility` without `"model"`) are left out: they never
 * reach a model.
 */
import type { JsonObject } from '../../wire/messages.js';
import type { Tool } from '../../wire/protocol.js';
import { modelFacingTool, type HostTool } from '../catalog/catalog.js';
import { isModelVisible, mcpToolOf } from '../../apps/toolUi.js';
import { InvalidArgumentError } from '../../errors/errors.js';
import { applyArgumentPlan, isEmptyPlan, type ArgumentPlan } from './schema/argumentPlan.js';
import { GeminiType, toGeminiOpenApi, type GeminiSchema } from './schema/geminiOpenApi.js';
import { isObject, normaliseSchema, rootObject, type SchemaProfile } from './schema/normalise.js';
import { ANTHROPIC_PROFILE, GEMINI_JSON_PROFILE, GEMINI_OPENAPI_PROFILE, OPENAI_PROFILE } from './schema/profiles.js';
import type { ModelApi, SchemaChange, SchemaReportListener } from './schema/schemaChanges.js';
import { toStrictSchema } from './schema/strict.js';

/** What the converters take: a host tool (its exposed name is used) or a plain MCP tool. */
export type ModelToolSource = HostTool | Tool;

/** A JSON Schema object for a tool's parameters (`type: "object"`). */
export type ToolParametersSchema = JsonObject & { type: 'object'; properties: JsonObject };

/** Options every converter takes. */
export interface ModelToolOptions {
  /**
   * Called once per tool whose schema the conversion changed (dropped or widened keywords) or,
   * for OpenAI, that `strict: 'auto'` left non-strict; wrap it in `reportOnce` to hear each
   * only the first time across turns. @default none
   */
  onSchemaReport?: SchemaReportListener | undefined;
}

/** Options of the OpenAI converters. */
export interface OpenAiToolOptions extends ModelToolOptions {
  /**
   * Strict mode (Structured Outputs): `'auto'` sends a tool strict when its schema can be
   * said in strict form without changing what a call means, and non-strict otherwise (per
   * tool, reported); `true` requires it (throws `InvalidArgumentError` -32602 naming the tool
   * and the reason otherwise); `false` never. In strict form an optional property is
   * required and nullable: pass the model's arguments to `host.callTool` (which drops those
   * `null`s by default) or `restoreModelArguments`. @default "auto"
   */
  strict?: 'auto' | boolean | undefined;
}

/** Options of {@link toGeminiFunctionDeclarations}. */
export interface GeminiToolOptions extends ModelToolOptions {
  /**
   * `jsonSchema`: `parametersJsonSchema`, normalised to Gemini's JSON Schema subset;
   * `openApi`: `parameters` in Gemini's OpenAPI subset, where values it cannot describe are
   * carried as JSON text (map the arguments back with `modelArguments: { api: 'gemini',
   * schema: 'openApi' }` on `host.callTool`, or `restoreModelArguments`). @default "jsonSchema"
   */
  schema?: 'jsonSchema' | 'openApi' | undefined;
}

/** A Chat Completions function tool (`tools[]` of `POST /v1/chat/completions`). */
export interface OpenAiChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters: ToolParametersSchema;
    strict: boolean;
  };
}

/** A Responses API function tool (`tools[]` of `POST /v1/responses`). */
export interface OpenAiResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: ToolParametersSchema;
  /** Whether the schema went out in strict form (see {@link OpenAiToolOptions.strict}). */
  strict: boolean;
}

/** An Anthropic Messages API client tool (`tools[]` of `POST /v1/messages`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: ToolParametersSchema;
}

/** A Gemini `FunctionDeclaration` (in `tools[].functionDeclarations`); assignable to `@google/genai`'s. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** The JSON Schema (the default). */
  parametersJsonSchema?: ToolParametersSchema;
  /** The OpenAPI subset, with `schema: "openApi"`; absent for a tool without parameters. */
  parameters?: GeminiSchema;
}

/** Chat Completions `tools` for these tools. */
export function toOpenAiChatTools(
  tools: readonly ModelToolSource[],
  options: OpenAiToolOptions = {},
): OpenAiChatTool[] {
  return modelVisible(tools).map((source) => {
    const { name, description, parameters, strict } = openAi(source, 'openAiChat', options);
    return {
      type: 'function',
      function: { name, ...(description !== undefined && { description }), parameters, strict },
    };
  });
}

/** Responses API `tools` for these tools. */
export function toOpenAiResponsesTools(
  tools: readonly ModelToolSource[],
  options: OpenAiToolOptions = {},
): OpenAiResponsesTool[] {
  return modelVisible(tools).map((source) => {
    const { name, description, parameters, strict } = openAi(source, 'openAiResponses', options);
    return { type: 'function', name, ...(description !== undefined && { description }), parameters, strict };
  });
}

/** Anthropic Messages `tools` for these tools. */
export function toAnthropicTools(tools: readonly ModelToolSource[], options: ModelToolOptions = {}): AnthropicTool[] {
  return modelVisible(tools).map((source) => {
    const { name, description, tool } = parts(source);
    const { schema, changes } = normalised(tool, ANTHROPIC_PROFILE);
    report(options, 'anthropic', name, changes);
    return { name, ...(description !== undefined && { description }), input_schema: schema };
  });
}

/** Gemini `functionDeclarations` for these tools. */
export function toGeminiFunctionDeclarations(
  tools: readonly ModelToolSource[],
  options: GeminiToolOptions = {},
): GeminiFunctionDeclaration[] {
  return modelVisible(tools).map((source) => {
    const { name, description, tool } = parts(source);
    const head = { name, ...(description !== undefined && { description }) };
    if (options.schema === 'openApi') {
      const { schema, changes } = normalised(tool, GEMINI_OPENAPI_PROFILE);
      const written = toGeminiOpenApi(schema, changes);
      report(options, 'geminiOpenApi', name, changes);
      return { ...head, ...(written.schema !== undefined && { parameters: written.schema }) };
    }
    const { schema, changes } = normalised(tool, GEMINI_JSON_PROFILE);
    report(options, 'gemini', name, changes);
    return { ...head, parametersJsonSchema: schema };
  });
}

/** The tools a model may see (MCP Apps: `visibility` includes `"model"`, the default). */
function modelVisible(tools: readonly ModelToolSource[]): readonly ModelToolSource[] {
  return tools.filter((source) => isModelVisible(mcpToolOf(source)));
}

/**
 * A tool's JSON Schema in Gemini's OpenAPI subset (as `toGeminiFunctionDeclarations` with
 * `schema: 'openApi'` writes it); a schema without properties gives `{ type: 'OBJECT' }`.
 */
export function toGeminiSchema(schema: JsonObject): GeminiSchema {
  const { schema: root, changes } = normaliseRoot(schema, GEMINI_OPENAPI_PROFILE);
  return toGeminiOpenApi(root, changes).schema ?? { type: GeminiType.OBJECT };
}

/** How the model saw a tool, for mapping its arguments back ({@link restoreModelArguments}). */
export type ModelArgumentsFrom =
  | { api: 'openAiChat' | 'openAiResponses'; strict?: 'auto' | boolean | undefined }
  | { api: 'gemini'; schema?: 'jsonSchema' | 'openApi' | undefined }
  | { api: 'anthropic' };

/**
 * The model's arguments for `tool` as the server's schema wants them, undoing what the
 * conversion for `from` changed: the `null` OpenAI strict mode sends for an optional
 * property that does not accept `null` is left out; JSON text Gemini's OpenAPI subset
 * carried is parsed. Pure; `args` is not mutated.
 */
export function restoreModelArguments(tool: ModelToolSource, args: JsonObject, from: ModelArgumentsFrom): JsonObject {
  const plan = argumentPlan(parts(tool).tool, from);
  if (plan === undefined) return args;
  const out = applyArgumentPlan(plan, args);
  return isObject(out) ? out : args;
}

/** @internal The argument plan of `tool` as seen through `from`; undefined when it changes nothing. */
export function argumentPlan(tool: Tool, from: ModelArgumentsFrom): ArgumentPlan | undefined {
  let plan: ArgumentPlan | undefined;
  if (from.api === 'openAiChat' || from.api === 'openAiResponses') {
    if (from.strict === false) return undefined;
    const strict = toStrictSchema(normalised(tool, OPENAI_PROFILE).schema);
    plan = strict.ok ? strict.plan : undefined;
  } else if (from.api === 'gemini' && from.schema === 'openApi') {
    const { schema, changes } = normalised(tool, GEMINI_OPENAPI_PROFILE);
    plan = toGeminiOpenApi(schema, changes).plan;
  }
  return plan === undefined || isEmptyPlan(plan) ? undefined : plan;
}

function openAi(
  source: ModelToolSource,
  api: 'openAiChat' | 'openAiResponses',
  options: OpenAiToolOptions,
): { name: string; description: string | undefined; parameters: ToolParametersSchema; strict: boolean } {
  const { name, description, tool } = parts(source);
  const { schema, changes } = normalised(tool, OPENAI_PROFILE);
  const mode = options.strict ?? 'auto';
  if (mode === false) {
    report(options, api, name, changes);
    return { name, description, parameters: schema, strict: false };
  }
  const strict = toStrictSchema(schema);
  if (strict.ok) {
    report(options, api, name, changes);
    return { name, description, parameters: strict.schema as ToolParametersSchema, strict: true };
  }
  if (mode === true)
    throw new InvalidArgumentError('tool', name, `strict mode cannot express its schema: ${strict.reason}`);
  report(options, api, name, changes, { used: false, reason: strict.reason });
  return { name, description, parameters: schema, strict: false };
}

function report(
  options: ModelToolOptions,
  api: ModelApi,
  tool: string,
  changes: readonly SchemaChange[],
  strict?: { used: boolean; reason?: string },
): void {
  if (options.onSchemaReport === undefined || (changes.length === 0 && strict === undefined)) return;
  options.onSchemaReport({ api, tool, changes, ...(strict !== undefined && { strict }) });
}

function parts(source: ModelToolSource): { name: string; description: string | undefined; tool: Tool } {
  const tool = 'tool' in source ? modelFacingTool(source) : source;
  const name = 'exposedName' in source ? source.exposedName : tool.name;
  return { name, description: tool.description ?? tool.title, tool };
}

function normalised(tool: Tool, profile: SchemaProfile): { schema: ToolParametersSchema; changes: SchemaChange[] } {
  return normaliseRoot(tool.inputSchema, profile);
}

function normaliseRoot(
  inputSchema: JsonObject | undefined,
  profile: SchemaProfile,
): { schema: ToolParametersSchema; changes: SchemaChange[] } {
  const { $schema: _dialect, ...raw } = isObject(inputSchema) ? inputSchema : {};
  const { schema, changes } = normaliseSchema(raw, profile);
  return { schema: rootObject(schema, changes) as ToolParametersSchema, changes };
}
