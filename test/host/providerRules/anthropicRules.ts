/**
 * Anthropic's rules for a tool's `input_schema`, independent of src/:
 * - https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use: a JSON
 *   Schema object (the SDK's `Tool.InputSchema`: `type: "object"`, `properties`, `required`),
 *   and the Messages API reference: "JSON schema for this tool's input" (draft 2020-12);
 * - the API's 400 "input_schema does not support oneOf, allOf, or anyOf at the top level"
 *   (anthropics/claude-code#5319 and its duplicates).
 * Draft 2020-12 is checked for the shapes a server can get wrong: every subschema an object
 * or a boolean, `items` one schema (a list is draft-07; 2020-12 has `prefixItems`), `type`
 * one of the seven names, `required` a list of strings, `properties` a map of schemas.
 */
import { children, isRecord, type Violations } from './violations.js';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

export function checkAnthropic(inputSchema: unknown): Violations {
  const found: Violations = [];
  if (!isRecord(inputSchema) || inputSchema['type'] !== 'object') found.push('/: type is not "object"');
  else
    for (const key of ['oneOf', 'allOf', 'anyOf'])
      if (inputSchema[key] !== undefined) found.push(`/: ${key} at the top level`);
  visit(inputSchema, '', found);
  return found;
}

function visit(node: unknown, path: string, found: Violations): void {
  if (typeof node === 'boolean') return;
  if (!isRecord(node)) {
    found.push(`${path || '/'}: not a schema`);
    return;
  }
  const types = node['type'] === undefined ? [] : Array.isArray(node['type']) ? node['type'] : [node['type']];
  for (const t of types) if (typeof t !== 'string' || !TYPES.has(t)) found.push(`${path}: type ${JSON.stringify(t)}`);
  if (Array.isArray(node['items'])) found.push(`${path}/items: a list (draft-07 tuple), not a 2020-12 schema`);
  if (
    node['required'] !== undefined &&
    (!Array.isArray(node['required']) || node['required'].some((r) => typeof r !== 'string'))
  )
    found.push(`${path}/required: not a list of strings`);
  if (node['properties'] !== undefined && !isRecord(node['properties'])) found.push(`${path}/properties: not a map`);
  if (node['nullable'] !== undefined) found.push(`${path}: nullable is OpenAPI, not JSON Schema`);
  for (const [child, at] of children(
    node,
    path,
    ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'],
    ['anyOf', 'oneOf', 'allOf', 'prefixItems'],
    ['properties', '$defs', 'patternProperties'],
  ))
    visit(child, at, found);
}
