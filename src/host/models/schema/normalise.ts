/**
 * One pass from JSON Schema 2020-12, as MCP servers write it, to the subset a model API
 * documents (the {@link SchemaProfile}, see profiles.ts). Pure; the input is never mutated.
 *
 * Always, for every API:
 * - local `$ref`s are inlined (`#/$defs/x`, `#/definitions/x`, any pointer into the schema);
 *   a recursive one is cut where it repeats (that node accepts any value: widened), an
 *   unresolvable or remote one accepts any value (widened);
 * - `allOf` is merged into its parent (properties, `required`, types intersected); a keyword
 *   two branches set differently keeps the first value (widened);
 * - `nullable: true` (OpenAPI 3.0) adds `"null"` to the types; `const` becomes a one-value
 *   `enum`; a missing `type` is read from the keywords (`properties`: object, `items`: array,
 *   the enum's values...);
 * - a type list with more than one non-null type becomes an `anyOf` of one branch per type;
 *   `oneOf` is read as `anyOf` (widened: at least one instead of exactly one); keywords next to
 *   an `anyOf` are moved into each branch;
 * - `enum` values of a type the node does not allow are removed (they could never be valid);
 *   object and array values are dropped (kept in the description);
 * - a `required` name with no property is dropped (widened);
 * - keywords outside the profile are dropped and written into the node's description as
 *   `(minLength: 3; uniqueItems: true)`; unknown keywords (`x-...`, `$comment`, `readOnly`...)
 *   are left out silently;
 * - tuples (`prefixItems`, or draft-07 `items: [...]`) are kept as `prefixItems` where the
 *   API takes them, else widened to `items: { anyOf: [...] }` with the positions described;
 * - nesting deeper than {@link MAX_SCHEMA_DEPTH} accepts any value (widened).
 */
import type { JsonObject } from '../../../wire/messages.js';
import type { SchemaChange } from './schemaChanges.js';

/** Nodes nested deeper than this (counting every subschema) accept any value. */
export const MAX_SCHEMA_DEPTH = 32;

/** What one API documents, as the normaliser needs it. */
export interface SchemaProfile {
  /** Validation keywords kept (where the node's type uses them); the rest go to the description. */
  readonly keywords: ReadonlySet<string>;
  /** String `format`s kept; `'all'` keeps every one. */
  readonly formats: ReadonlySet<string> | 'all';
  /** Number and integer `format`s kept (int32, double...); the others are left out (a hint). */
  readonly numberFormats: ReadonlySet<string> | 'all';
  /** `keep`: tuples as `prefixItems`; `widen`: one `items` schema for every position. */
  readonly tuples: 'keep' | 'widen';
  /** Whether an array without `items` gets `items: {}` (any value). */
  readonly arraysNeedItems: boolean;
  /** Annotations kept as keywords; the others are written into the description. */
  readonly annotations: ReadonlySet<string>;
  /** JSON types `enum` values may have; other values are described instead. @default all */
  readonly enumTypes?: ReadonlySet<string> | undefined;
}

/** The output of {@link normaliseSchema}. */
export interface NormalisedSchema {
  readonly schema: JsonObject;
  readonly changes: SchemaChange[];
}

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const STRING_KEYWORDS = ['pattern', 'minLength', 'maxLength', 'format', 'contentEncoding', 'contentMediaType'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const ARRAY_KEYWORDS = ['minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains'];
const OBJECT_KEYWORDS = [
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
];
/** Keywords with no place in any profile: described wherever they appear. */
const OTHER_KEYWORDS = ['not', 'if', 'then', 'else', 'unevaluatedItems', 'additionalItems'];
const ANNOTATIONS = ['title', 'description', 'default', 'examples'];

type Types = string[] | undefined;

interface Walk {
  readonly root: JsonObject;
  readonly profile: SchemaProfile;
  readonly changes: SchemaChange[];
}

interface At {
  readonly path: string;
  readonly depth: number;
  /** `$ref`s being inlined above this node (a repeat is a cycle). */
  readonly refs: readonly string[];
}

/** `schema` normalised for `profile` (see the module comment). */
export function normaliseSchema(schema: JsonObject, profile: SchemaProfile): NormalisedSchema {
  const walk: Walk = { root: schema, profile, changes: [] };
  const out = node(walk, schema, { path: '', depth: 0, refs: [] });
  return { schema: out, changes: walk.changes };
}

function change(walk: Walk, at: At, keyword: string, kind: SchemaChange['kind'], note: string): void {
  walk.changes.push({ path: at.path, keyword, kind, note });
}

function node(walk: Walk, raw: unknown, at: At): JsonObject {
  if (raw === true || raw === undefined) return {};
  if (raw === false) {
    change(walk, at, 'false', 'widened', 'a schema that accepts nothing, read as any value');
    return {};
  }
  if (!isObject(raw)) {
    change(walk, at, 'type', 'widened', 'not a schema, read as any value');
    return {};
  }
  if (at.depth > MAX_SCHEMA_DEPTH) {
    change(walk, at, '', 'widened', `nested deeper than ${MAX_SCHEMA_DEPTH}, read as any value`);
    return {};
  }
  const [flat, refs] = flatten(walk, raw, at);
  const here: At = { ...at, refs };
  const variants = Array.isArray(flat['anyOf']) ? flat['anyOf'] : Array.isArray(flat['oneOf']) ? flat['oneOf'] : null;
  if (variants !== null) return union(walk, flat, variants, here);
  const types = typesOf(flat);
  const nonNull = types?.filter((t) => t !== 'null');
  if (types !== undefined && nonNull !== undefined && nonNull.length > 1) {
    const rest = withoutAnnotations(flat);
    const branches = types.map((t) => (t === 'null' ? { type: 'null' } : { ...rest, type: t, nullable: undefined }));
    return union(walk, pick(flat, ANNOTATIONS), branches, here, false);
  }
  return typed(walk, flat, types, here);
}

/** `$ref` inlined and `allOf` merged, repeatedly, until neither is left at this node. */
function flatten(walk: Walk, raw: JsonObject, at: At): [JsonObject, readonly string[]] {
  let current = raw;
  let refs = at.refs;
  for (let round = 0; round <= MAX_SCHEMA_DEPTH; round++) {
    const ref = current['$ref'];
    if (typeof ref === 'string') {
      const { $ref: _ref, ...siblings } = current;
      const target = resolveLocalRef(walk.root, ref);
      if (target === undefined) {
        change(walk, at, '$ref', 'widened', `unresolved ${ref}, read as any value`);
        current = siblings;
      } else if (refs.includes(ref)) {
        change(walk, at, '$ref', 'widened', `recursive ${ref} cut here, read as any value`);
        return [appendDescription(siblings, `(the same shape as ${ref})`), refs];
      } else {
        refs = [...refs, ref];
        current = merge(walk, at, siblings, isObject(target) ? target : target === false ? { not: {} } : {});
      }
      continue;
    }
    if (Array.isArray(current['allOf'])) {
      const { allOf, ...rest } = current;
      current = rest;
      for (const branch of allOf)
        current = merge(walk, at, current, isObject(branch) ? branch : branch === false ? { not: {} } : {});
      continue;
    }
    break;
  }
  return [current, refs];
}

/** Both schemas at once (an `allOf` of two), as one where it can; else the first wins. */
function merge(walk: Walk, at: At, a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!Object.hasOwn(out, key) || out[key] === undefined) {
      define(out, key, value);
      continue;
    }
    const mine = out[key];
    if (key === 'properties' && isObject(mine) && isObject(value)) {
      const properties: JsonObject = { ...mine };
      for (const [name, schema] of Object.entries(value))
        define(properties, name, Object.hasOwn(properties, name) ? { allOf: [properties[name], schema] } : schema);
      out[key] = properties;
    } else if (key === 'required' && Array.isArray(mine) && Array.isArray(value)) {
      out[key] = [...new Set([...(mine as unknown[]), ...(value as unknown[])])];
    } else if (key === 'type') {
      const left = typeList(mine);
      const right = typeList(value);
      const both = left.filter((t) => right.includes(t) || (t === 'integer' && right.includes('number')));
      for (const t of right) if (t === 'integer' && left.includes('number') && !both.includes(t)) both.push(t);
      if (both.length === 0) change(walk, at, 'allOf', 'widened', 'branches of different types, the first kept');
      out[key] = both.length === 0 ? mine : both;
    } else if (key === 'description' || key === 'title' || key === 'default' || key === 'examples') {
      // The outer annotation wins.
    } else if (JSON.stringify(mine) !== JSON.stringify(value)) {
      change(walk, at, key, 'widened', `allOf branches set ${key} differently, the first kept`);
    }
  }
  return out;
}

/** An `anyOf` node: siblings moved into each branch, nested unions flattened, one branch unwrapped. */
function union(
  walk: Walk,
  flat: JsonObject,
  variants: readonly unknown[],
  at: At,
  fromOneOf = !Array.isArray(flat['anyOf']),
): JsonObject {
  if (fromOneOf && variants.length > 1)
    change(walk, at, 'oneOf', 'widened', 'oneOf read as anyOf (at least one branch instead of exactly one)');
  const { anyOf: _a, oneOf: _o, ...siblings } = flat;
  const annotations: JsonObject = {};
  const shared: JsonObject = {};
  for (const [key, value] of Object.entries(siblings)) {
    if (value === undefined) continue;
    if (ANNOTATIONS.includes(key)) annotations[key] = value;
    else shared[key] = value;
  }
  const branches: JsonObject[] = [];
  const seen = new Set<string>();
  for (const variant of variants) {
    const branchAt: At = { ...at, path: `${at.path}/anyOf/${branches.length}`, depth: at.depth + 1 };
    const raw =
      Object.keys(shared).length === 0
        ? variant
        : merge(walk, branchAt, isObject(variant) ? variant : {}, withoutAnnotations(shared));
    const out = node(walk, raw, branchAt);
    const nested =
      Object.keys(out).every((k) => k === 'anyOf' || ANNOTATIONS.includes(k)) && Array.isArray(out['anyOf']);
    for (const branch of nested ? (out['anyOf'] as JsonObject[]) : [out]) {
      const key = JSON.stringify(branch);
      if (!seen.has(key)) {
        seen.add(key);
        branches.push(branch);
      }
    }
  }
  const kept = keepAnnotations(walk, annotations);
  if (branches.some((b) => Object.keys(b).length === 0)) return kept; // one branch accepts anything
  if (branches.length === 1) {
    const only = branches[0] as JsonObject;
    const description = [kept['description'], only['description']].filter((d) => typeof d === 'string').join(' ');
    return { ...only, ...kept, ...(description !== '' && { description }) };
  }
  return { ...kept, anyOf: branches };
}

/** A node of at most one non-null type (or none: any value). */
function typed(walk: Walk, flat: JsonObject, types: Types, at: At): JsonObject {
  const { profile } = walk;
  const out: JsonObject = {};
  const described: Array<[string, unknown]> = [];
  const type = types?.find((t) => t !== 'null');
  if (types !== undefined && types.length > 0)
    out['type'] = type === undefined ? 'null' : types.includes('null') ? [type, 'null'] : type;

  const values = Array.isArray(flat['enum']) ? flat['enum'] : flat['const'] !== undefined ? [flat['const']] : undefined;
  if (values !== undefined) {
    const allowed = values.filter((v) => types === undefined || types.some((t) => matchesType(v, t)));
    const enumTypes = profile.enumTypes;
    const primitive = allowed.filter(
      (v) => (v === null || typeof v !== 'object') && (enumTypes === undefined || enumTypes.has(jsonType(v))),
    );
    if (primitive.length < allowed.length) {
      change(walk, at, 'enum', 'dropped', 'values of a type the API takes no enum of');
      described.push(['one of', allowed]);
    } else if (primitive.length === 0) {
      change(walk, at, 'enum', 'widened', 'no value of the allowed types, left out');
    } else out['enum'] = [...new Set(primitive.map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v) as unknown);
  }

  const keep = (key: string, value: unknown): void => {
    if (value === undefined) return;
    if (profile.keywords.has(key)) out[key] = value;
    else {
      described.push([key, value]);
      change(walk, at, key, 'dropped', 'not in the API’s schema subset');
    }
  };
  if (type === 'string') {
    for (const key of STRING_KEYWORDS) {
      if (key !== 'format') keep(key, flat[key]);
      else if (flat[key] !== undefined) format(walk, flat[key], out, described, at, true);
    }
  } else if (type === 'number' || type === 'integer') {
    for (const key of NUMBER_KEYWORDS) keep(key, flat[key]);
    if (flat['format'] !== undefined) format(walk, flat['format'], out, described, at, false);
  } else if (type === 'array') array(walk, flat, out, described, at, keep);
  else if (type === 'object') object(walk, flat, out, described, at, keep);
  else if (types === undefined)
    for (const key of [...STRING_KEYWORDS, ...NUMBER_KEYWORDS, ...ARRAY_KEYWORDS, ...OBJECT_KEYWORDS])
      if (flat[key] !== undefined) {
        described.push([key, flat[key]]);
        change(walk, at, key, 'dropped', 'a constraint on a value of no declared type');
      }
  for (const key of OTHER_KEYWORDS)
    if (flat[key] !== undefined && key !== 'additionalItems') {
      described.push([key, flat[key]]);
      change(walk, at, key, 'dropped', 'not in the API’s schema subset');
    }

  const annotations = keepAnnotations(walk, pick(flat, ANNOTATIONS));
  const result = { ...annotations, ...out };
  return described.length === 0 ? result : appendDescription(result, describe(described));
}

/** A `format` kept where the profile lists it; else described (strings) or left out (a number's is a hint). */
function format(
  walk: Walk,
  value: unknown,
  out: JsonObject,
  described: Array<[string, unknown]>,
  at: At,
  isString: boolean,
): void {
  const { profile } = walk;
  const formats = isString ? profile.formats : profile.numberFormats;
  if (typeof value === 'string' && profile.keywords.has('format') && (formats === 'all' || formats.has(value)))
    out['format'] = value;
  else if (isString) {
    described.push(['format', value]);
    change(walk, at, 'format', 'dropped', `format ${JSON.stringify(value)} is not one the API lists`);
  }
}

function array(
  walk: Walk,
  flat: JsonObject,
  out: JsonObject,
  described: Array<[string, unknown]>,
  at: At,
  keep: (key: string, value: unknown) => void,
): void {
  const child = (key: string): At => ({ ...at, path: `${at.path}/${key}`, depth: at.depth + 1 });
  const tuple = Array.isArray(flat['items'])
    ? (flat['items'] as unknown[])
    : Array.isArray(flat['prefixItems'])
      ? (flat['prefixItems'] as unknown[])
      : undefined;
  const rest = Array.isArray(flat['items']) ? flat['additionalItems'] : flat['items'];
  if (tuple === undefined) {
    if (rest !== undefined) out['items'] = node(walk, rest, child('items'));
    else if (walk.profile.arraysNeedItems) out['items'] = {};
  } else if (walk.profile.tuples === 'keep') {
    out['prefixItems'] = tuple.map((item, i) => node(walk, item, child(`prefixItems/${i}`)));
    if (rest === false) out['items'] = false;
    else if (rest !== undefined) out['items'] = node(walk, rest, child('items'));
  } else {
    const positions = [...tuple, ...(rest === undefined || rest === false ? [] : [rest])];
    const items = node(walk, { anyOf: positions.length === 0 ? [{}] : positions }, child('items'));
    out['items'] = items;
    if (rest === false) {
      const max = typeof flat['maxItems'] === 'number' ? Math.min(flat['maxItems'], tuple.length) : tuple.length;
      flat = { ...flat, maxItems: max };
    }
    described.push(['items in order', tuple.map((item) => shortType(item))]);
    change(walk, at, 'prefixItems', 'widened', 'a tuple read as an array of any of its item schemas');
  }
  for (const key of ARRAY_KEYWORDS) keep(key, flat[key]);
}

function object(
  walk: Walk,
  flat: JsonObject,
  out: JsonObject,
  described: Array<[string, unknown]>,
  at: At,
  keep: (key: string, value: unknown) => void,
): void {
  const properties: JsonObject = {};
  if (isObject(flat['properties']))
    for (const [name, schema] of Object.entries(flat['properties']))
      define(
        properties,
        name,
        node(walk, schema, { ...at, path: `${at.path}/properties/${pointerToken(name)}`, depth: at.depth + 1 }),
      );
  out['properties'] = properties;
  if (Array.isArray(flat['required'])) {
    const names = [...new Set(flat['required'].filter((r): r is string => typeof r === 'string'))];
    const known = names.filter((n) => Object.hasOwn(properties, n));
    if (known.length < names.length) {
      change(walk, at, 'required', 'widened', `no property for ${names.filter((n) => !known.includes(n)).join(', ')}`);
      described.push(['required', names]);
    }
    if (known.length > 0) out['required'] = known;
  }
  const extra = flat['additionalProperties'];
  if (extra === false) out['additionalProperties'] = false;
  else if (extra !== undefined && extra !== true)
    out['additionalProperties'] = node(walk, extra, {
      ...at,
      path: `${at.path}/additionalProperties`,
      depth: at.depth + 1,
    });
  for (const key of OBJECT_KEYWORDS) keep(key, flat[key]);
}

/** Annotations the profile keeps stay keywords; `default` and `examples` otherwise go to the description. */
function keepAnnotations(walk: Walk, annotations: JsonObject): JsonObject {
  const out: JsonObject = {};
  const described: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(annotations)) {
    if (value === undefined) continue;
    if ((key === 'title' || key === 'description') && typeof value !== 'string') continue;
    if (key === 'examples' && !Array.isArray(value)) continue;
    if (walk.profile.annotations.has(key)) out[key] = value;
    else if (key === 'default' || key === 'examples') described.push([key, value]);
  }
  return described.length === 0 ? out : appendDescription(out, describe(described));
}

/** The types a node allows, from `type` (and `nullable`), else read from its keywords; undefined: any. */
function typesOf(flat: JsonObject): Types {
  let types: string[] | undefined;
  if (flat['type'] !== undefined) types = typeList(flat['type']);
  else if (isObject(flat['properties']) || flat['required'] !== undefined || flat['additionalProperties'] !== undefined)
    types = ['object'];
  else if (flat['items'] !== undefined || flat['prefixItems'] !== undefined) types = ['array'];
  else if (Array.isArray(flat['enum']) || flat['const'] !== undefined) {
    const values = Array.isArray(flat['enum']) ? flat['enum'] : [flat['const']];
    types = [...new Set(values.map(jsonType))];
    if (types.includes('integer') && types.includes('number')) types = types.filter((t) => t !== 'integer');
  } else if (STRING_KEYWORDS.some((k) => flat[k] !== undefined && k !== 'format')) types = ['string'];
  else if (NUMBER_KEYWORDS.some((k) => flat[k] !== undefined)) types = ['number'];
  if (types !== undefined && types.length === 0) types = undefined;
  if (flat['nullable'] === true && types !== undefined && !types.includes('null')) types = [...types, 'null'];
  if (types?.includes('integer') && types.includes('number')) types = types.filter((t) => t !== 'integer');
  return types;
}

function typeList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return [...new Set(list.filter((t): t is string => typeof t === 'string' && TYPES.has(t)))];
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = jsonType(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function shortType(schema: unknown): string {
  if (!isObject(schema)) return 'any';
  if (typeof schema['type'] === 'string') return schema['type'];
  if (Array.isArray(schema['type'])) return schema['type'].join(' or ');
  if (typeof schema['$ref'] === 'string') return schema['$ref'].split('/').pop() ?? 'any';
  return 'any';
}

function describe(entries: ReadonlyArray<[string, unknown]>): string {
  return `(${entries.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join('; ')})`;
}

function appendDescription(schema: JsonObject, text: string): JsonObject {
  const before = typeof schema['description'] === 'string' && schema['description'] !== '' ? schema['description'] : '';
  return { ...schema, description: before === '' ? text : `${before} ${text}` };
}

function pick(schema: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) if (schema[key] !== undefined) out[key] = schema[key];
  return out;
}

function withoutAnnotations(schema: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) if (!ANNOTATIONS.includes(key)) out[key] = value;
  return out;
}

/** A property key written as an own data property (a key like `__proto__` stays a key). */
export function define(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `#/$defs/Name`, `#/definitions/Name` or any `#/a/b` pointer inside the root schema. */
export function resolveLocalRef(root: JsonObject, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let current: unknown = root;
  const pointer = ref.slice(1);
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  for (const raw of pointer.split('/').slice(1)) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(current) && /^\d+$/.test(key)) current = current[Number(key)];
    else if (isObject(current) && Object.hasOwn(current, key)) current = current[key];
    else return undefined;
  }
  return current;
}

function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The root of a tool's parameters as every API wants it: an object with `properties`. A
 * root `anyOf` (which no API takes) becomes one object with every branch's properties (a
 * property in several branches: an `anyOf` of them), required where every branch requires
 * it (widened); anything else that is not an object becomes an object with no properties.
 */
export function rootObject(schema: JsonObject, changes: SchemaChange[]): JsonObject {
  const branches = Array.isArray(schema['anyOf']) ? (schema['anyOf'] as JsonObject[]) : undefined;
  if (branches !== undefined) {
    const objects = branches.filter((b) => typeList(b['type']).includes('object'));
    const properties: JsonObject = {};
    for (const branch of objects)
      for (const [name, property] of Object.entries(isObject(branch['properties']) ? branch['properties'] : {})) {
        const before = properties[name];
        define(
          properties,
          name,
          before === undefined || JSON.stringify(before) === JSON.stringify(property)
            ? property
            : {
                anyOf: [
                  ...((isObject(before) && Array.isArray(before['anyOf']) ? before['anyOf'] : [before]) as unknown[]),
                  property,
                ],
              },
        );
      }
    const required = Object.keys(properties).filter((name) =>
      objects.every((b) => Array.isArray(b['required']) && b['required'].includes(name)),
    );
    changes.push({
      path: '',
      keyword: 'anyOf',
      kind: 'widened',
      note: 'a union at the root read as one object with the properties of every branch',
    });
    const { anyOf: _anyOf, ...rest } = schema;
    const alternatives = objects.map((b) => Object.keys(isObject(b['properties']) ? b['properties'] : {}).join(', '));
    return appendDescription(
      { ...rest, type: 'object', properties, ...(required.length > 0 && { required }) },
      `(one of these sets of properties: ${alternatives.map((a) => `{${a}}`).join(' | ')})`,
    );
  }
  const types = typeList(schema['type']);
  if (types.includes('object'))
    return { ...schema, type: 'object', properties: isObject(schema['properties']) ? schema['properties'] : {} };
  if (schema['type'] !== undefined)
    changes.push({
      path: '',
      keyword: 'type',
      kind: 'widened',
      note: 'a root that is not an object read as one without properties',
    });
  const { type: _type, enum: _enum, ...rest } = schema;
  return { ...rest, type: 'object', properties: {} };
}
