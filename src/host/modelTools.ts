/**
 * Tool definitions for model APIs, from the host's tools (or plain MCP tools). Pure and
 * dependency-free: the output is the JSON each API takes, typed here by its documented shape.
 *
 * - OpenAI Chat Completions: `{ type: 'function', function: { name, description, parameters } }`
 * - OpenAI Responses: `{ type: 'function', name, description, parameters, strict: false }`
 * - Anthropic Messages: `{ name, description, input_schema }`
 * - Google Gemini: function declarations `{ name, description, parametersJsonSchema }`, or
 *   `parameters` in Gemini's OpenAPI schema subset for APIs without JSON Schema support.
 *
 * The name is the exposed name (a plain `Tool` keeps its own); the description is the tool's
 * `description`, else its `title`. The input schema is the tool's `inputSchema` without
 * `$schema`, with `type: "object"` and `properties` (empty when absent), which every API needs.
 */
import type { JsonObject } from '../wire/messages.js';
import type { Tool } from '../wire/protocol.js';
import type { HostTool } from './catalog.js';

/** What the converters take: a host tool (its exposed name is used) or a plain MCP tool. */
export type ModelToolSource = HostTool | Tool;

/** A JSON Schema object for a tool's parameters (`type: "object"`). */
export type ToolParametersSchema = JsonObject & { type: 'object'; properties: JsonObject };

/** A Chat Completions function tool (`tools[]` of `POST /v1/chat/completions`). */
export interface OpenAiChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters: ToolParametersSchema;
  };
}

/** A Responses API function tool (`tools[]` of `POST /v1/responses`). */
export interface OpenAiResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: ToolParametersSchema;
  /** Always `false`: strict mode needs schemas MCP servers rarely write (every property required, no extras). */
  strict: false;
}

/** An Anthropic Messages API client tool (`tools[]` of `POST /v1/messages`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: ToolParametersSchema;
}

/** A Gemini `FunctionDeclaration` (in `tools[].functionDeclarations`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** The JSON Schema (the default). */
  parametersJsonSchema?: ToolParametersSchema;
  /** The OpenAPI subset, with `schema: "openApi"`. */
  parameters?: GeminiSchema;
}

/**
 * Gemini's OpenAPI 3.0 schema subset: upper-case `type`, `nullable`, string `enum`s, and the
 * integer bounds as strings (int64 in proto JSON).
 */
export interface GeminiSchema {
  type?: 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  default?: unknown;
  example?: unknown;
  items?: GeminiSchema;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  anyOf?: GeminiSchema[];
  minItems?: string;
  maxItems?: string;
  minLength?: string;
  maxLength?: string;
  minProperties?: string;
  maxProperties?: string;
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

/** Options of {@link toGeminiFunctionDeclarations}. */
export interface GeminiToolOptions {
  /**
   * `jsonSchema`: the input schema as is, in `parametersJsonSchema`; `openApi`: converted to
   * `parameters` (keywords outside the subset are dropped, local `$ref`s inlined, `oneOf` read
   * as `anyOf`, a type list with `"null"` as `nullable`). @default "jsonSchema"
   */
  schema?: 'jsonSchema' | 'openApi' | undefined;
}

/** Chat Completions `tools` for these tools. */
export function toOpenAiChatTools(tools: readonly ModelToolSource[]): OpenAiChatTool[] {
  return tools.map((source) => {
    const { name, description, parameters } = parts(source);
    return {
      type: 'function',
      function: { name, ...(description !== undefined && { description }), parameters },
    };
  });
}

/** Responses API `tools` for these tools. */
export function toOpenAiResponsesTools(tools: readonly ModelToolSource[]): OpenAiResponsesTool[] {
  return tools.map((source) => {
    const { name, description, parameters } = parts(source);
    return { type: 'function', name, ...(description !== undefined && { description }), parameters, strict: false };
  });
}

/** Anthropic Messages `tools` for these tools. */
export function toAnthropicTools(tools: readonly ModelToolSource[]): AnthropicTool[] {
  return tools.map((source) => {
    const { name, description, parameters } = parts(source);
    return { name, ...(description !== undefined && { description }), input_schema: parameters };
  });
}

/** Gemini `functionDeclarations` for these tools. */
export function toGeminiFunctionDeclarations(
  tools: readonly ModelToolSource[],
  options: GeminiToolOptions = {},
): GeminiFunctionDeclaration[] {
  return tools.map((source) => {
    const { name, description, parameters } = parts(source);
    return {
      name,
      ...(description !== undefined && { description }),
      ...(options.schema === 'openApi'
        ? { parameters: toGeminiSchema(parameters) }
        : { parametersJsonSchema: parameters }),
    };
  });
}

function parts(source: ModelToolSource): {
  name: string;
  description: string | undefined;
  parameters: ToolParametersSchema;
} {
  const tool = 'tool' in source ? source.tool : source;
  const name = 'exposedName' in source ? source.exposedName : tool.name;
  const description = tool.description ?? tool.title;
  return { name, description, parameters: parametersOf(tool.inputSchema) };
}

/** The tool's input schema as the APIs take it (see the module comment). */
export function parametersOf(inputSchema: JsonObject | undefined): ToolParametersSchema {
  const { $schema: _dialect, ...schema } = isObject(inputSchema) ? inputSchema : {};
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  return { ...schema, type: 'object', properties };
}

const GEMINI_TYPES: Readonly<Record<string, NonNullable<GeminiSchema['type']>>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
};

/** How deep `$ref`s are inlined; deeper (or cyclic) references become `{}` (any value). */
const MAX_REF_DEPTH = 8;

/**
 * A JSON Schema in Gemini's OpenAPI subset (see {@link GeminiToolOptions}). Pure; lossy where
 * the subset has no keyword (`additionalProperties`, `not`, `if`...).
 */
export function toGeminiSchema(schema: JsonObject): GeminiSchema {
  const root = schema;
  const convert = (node: unknown, depth: number, seen: readonly string[]): GeminiSchema => {
    if (!isObject(node)) return {};
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      const target = resolveLocalRef(root, ref);
      if (target === undefined || seen.includes(ref) || depth >= MAX_REF_DEPTH) return {};
      return convert(target, depth + 1, [...seen, ref]);
    }
    const out: GeminiSchema = {};
    const types = (Array.isArray(node['type']) ? node['type'] : [node['type']]).filter(
      (t): t is string => typeof t === 'string' && Object.hasOwn(GEMINI_TYPES, t),
    );
    const nonNull = types.filter((t) => t !== 'null');
    if (types.includes('null') && nonNull.length > 0) out.nullable = true;
    if (nonNull.length === 1) out.type = GEMINI_TYPES[nonNull[0] as string] as NonNullable<GeminiSchema['type']>;
    else if (types.length === 1) out.type = 'NULL';
    for (const key of ['title', 'description', 'format', 'pattern'] as const)
      if (typeof node[key] === 'string') out[key] = node[key];
    for (const key of ['minimum', 'maximum'] as const) if (typeof node[key] === 'number') out[key] = node[key];
    for (const key of ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const)
      if (Number.isInteger(node[key])) out[key] = String(node[key]);
    if (node['default'] !== undefined) out.default = node['default'];
    if (Array.isArray(node['examples']) && node['examples'].length > 0) out.example = node['examples'][0];
    const values = Array.isArray(node['enum'])
      ? node['enum']
      : node['const'] !== undefined
        ? [node['const']]
        : undefined;
    if (values !== undefined && values.every((v): v is string => typeof v === 'string')) {
      out.enum = values;
      out.type ??= 'STRING';
    }
    if (isObject(node['properties'])) {
      const properties: Record<string, GeminiSchema> = {};
      for (const [key, value] of Object.entries(node['properties']))
        Object.defineProperty(properties, key, {
          value: convert(value, depth, seen),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      out.properties = properties;
    }
    if (Array.isArray(node['required']) && node['required'].every((r) => typeof r === 'string'))
      out.required = node['required'];
    if (node['items'] !== undefined && !Array.isArray(node['items'])) out.items = convert(node['items'], depth, seen);
    const variants = Array.isArray(node['anyOf'])
      ? node['anyOf']
      : Array.isArray(node['oneOf'])
        ? node['oneOf']
        : undefined;
    if (variants !== undefined) out.anyOf = variants.map((v) => convert(v, depth, seen));
    else if (nonNull.length > 1)
      out.anyOf = nonNull.map((t) => ({ type: GEMINI_TYPES[t] as NonNullable<GeminiSchema['type']> }));
    if (Array.isArray(node['allOf']) && node['allOf'].length === 1)
      return { ...convert(node['allOf'][0], depth, seen), ...out };
    return out;
  };
  return convert(schema, 0, []);
}

/** `#/$defs/Name`, `#/definitions/Name` or any `#/a/b` pointer inside the root schema. */
function resolveLocalRef(root: JsonObject, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
