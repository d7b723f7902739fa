/**
 * A normalised JSON Schema (GEMINI_OPENAPI_PROFILE) written in Gemini's OpenAPI subset, the
 * `Schema` of `FunctionDeclaration.parameters` (sources in profiles.ts):
 * - `type` upper-case; `["x", "null"]` and an `anyOf` branch `{ type: "null" }` become
 *   `nullable: true`;
 * - `enum` only for strings; number, boolean and mixed enums keep their type and list the
 *   values in the description (widened);
 * - integer bounds (`minItems`, `maxLength`...) as strings (int64 in proto JSON);
 * - what the subset cannot hold is carried as a STRING of JSON text, mapped back by the
 *   argument plan: a value of any type, an object without properties (a map, or any object),
 *   an array without a typed `items`; `additionalProperties` next to properties is dropped;
 * - a tool without parameters leaves `parameters` out.
 */
import type { JsonObject } from '../../../wire/messages.js';
import type { ArgumentPlan, BranchPlan } from './argumentPlan.js';
import type { SchemaChange } from './schemaChanges.js';
import { define, isObject } from './normalise.js';

/**
 * The `type` of a Gemini OpenAPI schema node; in JSON the upper-case string (`"STRING"`...).
 * Exported as `GeminiType`. It is an enum named `Type` with the member names and values of
 * `@google/genai`'s `Type` (less `TYPE_UNSPECIFIED`) because that is the one type TypeScript
 * takes where that SDK's string enum is wanted without a cast and without depending on the
 * SDK: a string literal is not assignable to a string enum, while an enum of the same name
 * whose members the other has, with the same values, is.
 */
enum Type {
  /** A string. */
  STRING = 'STRING',
  /** A number. */
  NUMBER = 'NUMBER',
  /** An integer. */
  INTEGER = 'INTEGER',
  /** A boolean. */
  BOOLEAN = 'BOOLEAN',
  /** An array (`items`). */
  ARRAY = 'ARRAY',
  /** An object (`properties`). */
  OBJECT = 'OBJECT',
  /** JSON null. */
  NULL = 'NULL',
}
export { Type as GeminiType };

/**
 * Gemini's OpenAPI 3.0 schema subset: upper-case `type` ({@link GeminiType}), `nullable`,
 * string `enum`s, and the integer bounds as strings (int64 in proto JSON). Assignable to
 * `@google/genai`'s `Schema`.
 */
export interface GeminiSchema {
  type?: Type;
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
  propertyOrdering?: string[];
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

const UPPER: Readonly<Record<string, Type>> = {
  string: Type.STRING,
  number: Type.NUMBER,
  integer: Type.INTEGER,
  boolean: Type.BOOLEAN,
  array: Type.ARRAY,
  object: Type.OBJECT,
  null: Type.NULL,
};

const COUNTS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const;

/** The output of {@link toGeminiOpenApi}: `undefined` for a tool without parameters. */
export interface GeminiOpenApiSchema {
  readonly schema: GeminiSchema | undefined;
  readonly plan: ArgumentPlan;
}

/** `root` (a normalised root object) in the OpenAPI subset; changes are pushed onto `changes`. */
export function toGeminiOpenApi(root: JsonObject, changes: SchemaChange[]): GeminiOpenApiSchema {
  if (!isObject(root['properties']) || Object.keys(root['properties']).length === 0)
    return { schema: undefined, plan: {} };
  const [schema, plan] = write(root, '', changes);
  return { schema, plan };
}

function write(node: JsonObject, path: string, changes: SchemaChange[]): [GeminiSchema, ArgumentPlan] {
  const out: GeminiSchema = {};
  if (typeof node['title'] === 'string') out.title = node['title'];
  if (typeof node['description'] === 'string') out.description = node['description'];
  if (node['default'] !== undefined) out.default = node['default'];
  if (Array.isArray(node['examples']) && node['examples'].length > 0) out.example = node['examples'][0];

  if (Array.isArray(node['anyOf'])) {
    const branches = node['anyOf'] as JsonObject[];
    const nonNull = branches.filter((b) => b['type'] !== 'null');
    const plans: BranchPlan[] = [];
    const written = nonNull.map((b, i) => {
      const [schema, plan] = write(b, `${path}/anyOf/${i}`, changes);
      plans.push({ schema, plan });
      return schema;
    });
    const nullable = nonNull.length < branches.length;
    const plan: ArgumentPlan = plans.some((p) => Object.keys(p.plan).length > 0) ? { anyOf: plans } : {};
    if (written.length === 1) {
      const only = written[0] as GeminiSchema;
      return [{ ...only, ...out, ...(nullable && { nullable: true }) }, plans[0]?.plan ?? {}];
    }
    return [{ ...out, ...(nullable && { nullable: true }), anyOf: written }, plan];
  }

  const types = Array.isArray(node['type'])
    ? (node['type'] as string[])
    : typeof node['type'] === 'string'
      ? [node['type']]
      : [];
  const type = types.find((t) => t !== 'null');
  if (types.includes('null') && type !== undefined) out.nullable = true;
  if (type === undefined && types.includes('null')) return [{ ...out, type: Type.NULL }, {}];
  const asText = (why: string): [GeminiSchema, ArgumentPlan] => {
    changes.push({ path, keyword: 'type', kind: 'widened', note: `${why}, carried as JSON text` });
    const description = [out.description, '(JSON text)'].filter((d) => d !== undefined).join(' ');
    return [{ ...out, type: Type.STRING, description }, { jsonText: true }];
  };
  if (type === undefined) return asText('a value of any type');

  out.type = UPPER[type] as Type;
  if (typeof node['format'] === 'string') out.format = node['format'];
  if (typeof node['pattern'] === 'string') out.pattern = node['pattern'];
  for (const key of ['minimum', 'maximum'] as const) if (typeof node[key] === 'number') out[key] = node[key];
  for (const key of COUNTS) if (Number.isInteger(node[key])) out[key] = String(node[key]);

  if (Array.isArray(node['enum'])) {
    const values = (node['enum'] as unknown[]).filter((v) => v !== null);
    if (node['enum'].includes(null)) out.nullable = true;
    if (type === 'string' && values.every((v): v is string => typeof v === 'string')) out.enum = values;
    else {
      changes.push({
        path,
        keyword: 'enum',
        kind: 'widened',
        note: 'an enum of non-string values, listed in the description',
      });
      out.description = [out.description, `(one of: ${values.map((v) => JSON.stringify(v)).join(', ')})`]
        .filter((d) => d !== undefined)
        .join(' ');
    }
  }

  if (type === 'array') {
    const items = node['items'];
    if (!isObject(items)) return asText('an array of any values');
    const [schema, plan] = write(items, `${path}/items`, changes);
    out.items = schema;
    return [out, Object.keys(plan).length > 0 ? { items: plan } : {}];
  }
  if (type === 'object') {
    const properties = isObject(node['properties']) ? node['properties'] : {};
    if (Object.keys(properties).length === 0) return asText('an object without properties');
    if (node['additionalProperties'] !== undefined && node['additionalProperties'] !== false)
      changes.push({ path, keyword: 'additionalProperties', kind: 'dropped', note: 'other keys cannot be described' });
    const written: Record<string, GeminiSchema> = {};
    const inner: Record<string, ArgumentPlan> = {};
    for (const [name, property] of Object.entries(properties)) {
      const [schema, plan] = write(property as JsonObject, `${path}/properties/${name}`, changes);
      define(written, name, schema);
      if (Object.keys(plan).length > 0) inner[name] = plan;
    }
    out.properties = written;
    if (Array.isArray(node['required']) && node['required'].length > 0) out.required = node['required'] as string[];
    return [out, Object.keys(inner).length > 0 ? { properties: inner } : {}];
  }
  return [out, {}];
}
