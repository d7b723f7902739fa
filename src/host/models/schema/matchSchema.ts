/**
 * Whether a model's value has the shape of a converted schema (the strict-mode JSON Schema,
 * or Gemini's OpenAPI subset): the branch of an `anyOf` whose rules map the value back is the
 * first one it fits. Structural only, synchronous and dependency-free: `type` (a list, either
 * case; OpenAPI `nullable: true` adds `null`), `enum`/`const`, `properties` with `required`
 * and `additionalProperties: false`, `items` (a schema), `anyOf`. Other keywords (bounds,
 * `pattern`, `format`) are not read: a value differing only by them fits the first branch.
 */

/** A converted schema node as the matcher reads it. */
type Node = Readonly<Record<string, unknown>>;

/** Whether `value` fits `schema` (see the module comment for what is read). */
export function fitsSchema(schema: object, value: unknown): boolean {
  const node = schema as Node;
  const openApiNull = value === null && node['nullable'] === true;
  const anyOf = node['anyOf'];
  if (Array.isArray(anyOf) && !openApiNull && !(anyOf as object[]).some((branch) => fitsSchema(branch, value)))
    return false;
  if (Object.hasOwn(node, 'const') && !sameJson(node['const'], value)) return false;
  const values = node['enum'];
  if (Array.isArray(values) && !openApiNull && !values.some((v) => sameJson(v, value))) return false;
  const types = typesOf(node);
  if (types.length > 0 && !types.some((type) => hasType(type, value))) return false;
  if (isPlainObject(value)) {
    const properties = isPlainObject(node['properties']) ? (node['properties'] as Node) : undefined;
    if (Array.isArray(node['required']))
      for (const name of node['required'] as unknown[])
        if (typeof name === 'string' && !Object.hasOwn(value, name)) return false;
    for (const [key, item] of Object.entries(value)) {
      const property = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (property === undefined) {
        if (node['additionalProperties'] === false) return false;
      } else if (typeof property === 'object' && property !== null && !fitsSchema(property, item)) return false;
    }
  }
  if (Array.isArray(value) && isPlainObject(node['items'])) {
    const items = node['items'] as object;
    if (!value.every((item) => fitsSchema(items, item))) return false;
  }
  return true;
}

function typesOf(node: Node): string[] {
  const type = node['type'];
  const list = Array.isArray(type) ? type : typeof type === 'string' ? [type] : [];
  const types = list.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase());
  if (types.length > 0 && node['nullable'] === true) types.push('null');
  return types;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON equality (object keys in any order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}
