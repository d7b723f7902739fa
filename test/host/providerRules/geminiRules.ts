/**
 * Gemini's documented rules for function declarations, independent of src/:
 * - `parametersJsonSchema`: the "JSON Schema support" list of
 *   https://ai.google.dev/gemini-api/docs/structured-output#json-schema (types incl. null;
 *   `title`, `description`; string `enum`, `format`; integer/number `format`, `minimum`,
 *   `maximum`, `enum`; array `items`, `prefixItems`, `minItems`, `maxItems`; object
 *   `properties`, `required`, `propertyOrdering`, `additionalProperties`; `anyOf`, `$ref`,
 *   `$defs`), and the FunctionDeclaration docs: the schema describes an object.
 * - `parameters` (OpenAPI subset): the `Schema` of https://ai.google.dev/api/caching#Schema
 *   (and @google/genai's `Schema`): those fields only, upper-case `type`, `enum` of strings,
 *   int64 counts as strings; an OBJECT needs non-empty `properties` (the API's "should be
 *   non-empty for OBJECT type"); every node states its type (or `anyOf`); an ARRAY has
 *   `items`; a function without parameters leaves `parameters` unset
 *   (https://ai.google.dev/api/caching#FunctionDeclaration).
 */
import { children, isRecord, type Violations } from './violations.js';

const JSON_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object', 'null']);
const JSON_KEYWORDS = new Set([
  'type',
  'title',
  'description',
  'enum',
  'format',
  'minimum',
  'maximum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'propertyOrdering',
  'additionalProperties',
  'anyOf',
  '$ref',
  '$defs',
]);

export function checkGeminiJsonSchema(schema: unknown): Violations {
  const found: Violations = [];
  if (!isRecord(schema) || schema['type'] !== 'object') found.push('/: not an object schema');
  visitJson(schema, '', found);
  return found;
}

function visitJson(node: unknown, path: string, found: Violations): void {
  if (!isRecord(node)) {
    found.push(`${path || '/'}: not a schema object`);
    return;
  }
  for (const key of Object.keys(node)) if (!JSON_KEYWORDS.has(key)) found.push(`${path || '/'}: keyword ${key}`);
  const types = node['type'] === undefined ? [] : Array.isArray(node['type']) ? node['type'] : [node['type']];
  for (const t of types)
    if (typeof t !== 'string' || !JSON_TYPES.has(t)) found.push(`${path}: type ${JSON.stringify(t)}`);
  if (types.filter((t) => t !== 'null').length > 1) found.push(`${path}: a type list beyond [T, "null"]`);
  if (Array.isArray(node['enum']) && node['enum'].some((v) => typeof v !== 'string' && typeof v !== 'number'))
    found.push(`${path}: enum values other than strings and numbers`);
  if (Array.isArray(node['items'])) found.push(`${path}/items: a list`);
  for (const [child, at] of children(node, path, ['items'], ['anyOf', 'prefixItems'], ['properties', '$defs']))
    visitJson(child, at, found);
  if (isRecord(node['additionalProperties']))
    visitJson(node['additionalProperties'], `${path}/additionalProperties`, found);
}

const OPENAPI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
const OPENAPI_FIELDS = new Set([
  'anyOf',
  'default',
  'description',
  'enum',
  'example',
  'format',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'nullable',
  'pattern',
  'properties',
  'propertyOrdering',
  'required',
  'title',
  'type',
]);
const COUNTS = ['maxItems', 'maxLength', 'maxProperties', 'minItems', 'minLength', 'minProperties'];

/** `parameters` of one declaration; `undefined` is fine (a function without parameters). */
export function checkGeminiOpenApi(parameters: unknown): Violations {
  const found: Violations = [];
  if (parameters === undefined) return found;
  if (!isRecord(parameters) || parameters['type'] !== 'OBJECT') found.push('/: parameters is not an OBJECT');
  visitOpenApi(parameters, '', found);
  return found;
}

function visitOpenApi(node: unknown, path: string, found: Violations): void {
  if (!isRecord(node)) {
    found.push(`${path || '/'}: not a Schema`);
    return;
  }
  for (const key of Object.keys(node)) if (!OPENAPI_FIELDS.has(key)) found.push(`${path || '/'}: field ${key}`);
  const type = node['type'];
  if (type === undefined && node['anyOf'] === undefined) found.push(`${path || '/'}: no type`);
  if (type !== undefined && (typeof type !== 'string' || !OPENAPI_TYPES.has(type)))
    found.push(`${path}: type ${JSON.stringify(type)}`);
  if (type === 'OBJECT' && (!isRecord(node['properties']) || Object.keys(node['properties']).length === 0))
    found.push(`${path || '/'}: properties should be non-empty for OBJECT type`);
  if (type === 'ARRAY' && !isRecord(node['items'])) found.push(`${path}: ARRAY without items`);
  if (node['enum'] !== undefined) {
    if (!Array.isArray(node['enum']) || node['enum'].some((v) => typeof v !== 'string'))
      found.push(`${path}: enum not strings`);
    if (type !== 'STRING' && node['format'] !== 'enum')
      found.push(`${path}: enum on ${String(type)} without format enum`);
  }
  for (const key of COUNTS)
    if (node[key] !== undefined && !(typeof node[key] === 'string' && /^\d+$/.test(node[key])))
      found.push(`${path}/${key}: not an int64 string`);
  if (Array.isArray(node['required']) && isRecord(node['properties']))
    for (const name of node['required'])
      if (!Object.hasOwn(node['properties'], name as string))
        found.push(`${path}/required: ${String(name)} is not a property`);
  if (type === 'STRING' && node['format'] !== undefined && !['enum', 'date-time'].includes(node['format'] as string))
    found.push(
      `${path}: STRING format ${JSON.stringify(node['format'])} (Gemini Developer API takes enum and date-time)`,
    );
  for (const [child, at] of children(node, path, ['items'], ['anyOf'], ['properties'])) visitOpenApi(child, at, found);
}
