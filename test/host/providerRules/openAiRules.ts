/**
 * OpenAI's documented rules for function parameters, written from the docs, independent of
 * src/ (the code under test must not check itself):
 * - https://platform.openai.com/docs/guides/structured-outputs#supported-schemas: types
 *   string, number, boolean, integer, object, array, enum, anyOf; string `pattern`, `format`
 *   of date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid; number
 *   `multipleOf`, `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum`; array
 *   `minItems`, `maxItems`; `$defs`/`$ref`; root an object and not `anyOf`; not supported:
 *   `allOf`, `not`, `dependentRequired`, `dependentSchemas`, `if`, `then`, `else`.
 * - strict (#all-fields-must-be-required, #additionalproperties-false-must-always-be-set-in-objects,
 *   #objects-have-limitations-on-nesting-depth-and-size): every property in `required`,
 *   `additionalProperties: false` on every object, at most 5,000 properties, 10 levels of
 *   nesting, 1,000 enum values.
 * - function calling (https://platform.openai.com/docs/guides/function-calling): `parameters`
 *   is a JSON Schema object; an array without `items` is rejected ("array schema missing
 *   items", HTTP 400, also without strict).
 * The published SDK's `toStrictJsonSchema` (openai/lib/transform) is used beside this in the
 * tests, as OpenAI's own statement of the strict rules.
 */
import { children, isRecord, type Violations } from './violations.js';

const TYPES = new Set(['string', 'number', 'boolean', 'integer', 'object', 'array', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  '$defs',
  '$ref',
  'title',
  'description',
  'default',
  'examples',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);

export function checkOpenAi(parameters: unknown, strict: boolean): Violations {
  const found: Violations = [];
  if (!isRecord(parameters) || parameters['type'] !== 'object') found.push('/: the root is not type "object"');
  if (isRecord(parameters) && parameters['anyOf'] !== undefined) found.push('/: anyOf at the root');
  const tally = { properties: 0, enums: 0 };
  visit(parameters, '', 0, strict, found, tally);
  if (strict && tally.properties > 5000) found.push(`${tally.properties} properties`);
  if (strict && tally.enums > 1000) found.push(`${tally.enums} enum values`);
  return found;
}

function visit(
  node: unknown,
  path: string,
  nesting: number,
  strict: boolean,
  found: Violations,
  tally: { properties: number; enums: number },
): void {
  if (!isRecord(node)) {
    found.push(`${path || '/'}: not a schema object`);
    return;
  }
  for (const key of Object.keys(node)) if (!KEYWORDS.has(key)) found.push(`${path || '/'}: keyword ${key}`);
  const types = node['type'] === undefined ? [] : Array.isArray(node['type']) ? node['type'] : [node['type']];
  for (const t of types) if (typeof t !== 'string' || !TYPES.has(t)) found.push(`${path}: type ${JSON.stringify(t)}`);
  if (types.includes('array') && !isRecord(node['items'])) found.push(`${path}: array schema missing items`);
  if (node['format'] !== undefined && !FORMATS.has(node['format'] as string))
    found.push(`${path}: format ${JSON.stringify(node['format'])}`);
  if (Array.isArray(node['enum'])) {
    tally.enums += node['enum'].length;
    if (node['enum'].some((v) => typeof v === 'object' && v !== null)) found.push(`${path}: enum of objects`);
  }
  if (node['required'] !== undefined) {
    const required = node['required'];
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) found.push(`${path}: required`);
  }
  if (strict) {
    const typed =
      types.length > 0 || node['anyOf'] !== undefined || node['enum'] !== undefined || node['$ref'] !== undefined;
    if (!typed) found.push(`${path || '/'}: strict schema without a type`);
    if (types.includes('object')) {
      if (nesting >= 10) found.push(`${path}: nested deeper than 10 objects`);
      if (node['additionalProperties'] !== false) found.push(`${path || '/'}: additionalProperties is not false`);
      const keys = Object.keys(isRecord(node['properties']) ? node['properties'] : {});
      tally.properties += keys.length;
      const required = Array.isArray(node['required']) ? node['required'] : [];
      for (const key of keys) if (!required.includes(key)) found.push(`${path}/properties/${key}: not required`);
    }
  }
  const next = types.includes('object') ? nesting + 1 : nesting;
  for (const [child, at] of children(node, path, ['items'], ['anyOf'], ['properties', '$defs']))
    visit(child, at, next, strict, found, tally);
  if (isRecord(node['additionalProperties']))
    visit(node['additionalProperties'], `${path}/additionalProperties`, next, strict, found, tally);
}
