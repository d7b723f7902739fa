/**
 * `x-mcp-header`: tool parameters mirrored into `Mcp-Param-{Name}` HTTP headers (spec
 * 2026-07-28: server/tools "x-mcp-header"; basic/transports/streamable-http "Custom Headers
 * from Tool Parameters"). Pure functions, no I/O: the client checks each listed tool once and
 * keeps its {@link ParamHeaderMap}; each `tools/call` turns the map and the arguments into
 * headers that it hands to the transport (`TransportSendOptions.headers`). Loaded when the first
 * `tools/list` that declares such parameters arrives (`toolHeaderRegistry.ts`).
 */
import { encodeHeaderValue, isHeaderToken } from './headerValue.js';

/** One annotated parameter: where its value sits in the arguments and which header carries it. */
export interface ParamHeader {
  /** The `x-mcp-header` value as declared, e.g. `"Region"`. */
  readonly name: string;
  /** The header name: `"Mcp-Param-" + name`. */
  readonly header: string;
  /** The chain of `properties` keys from the schema root to the parameter, e.g. `["region"]`. */
  readonly path: readonly string[];
}

/** Every annotated parameter of one tool, in schema order. Empty when the tool has none. */
export type ParamHeaderMap = readonly ParamHeader[];

/** Why a tool definition was rejected: a sentence naming the property and the broken rule. */
export interface ParamHeaderMapError {
  readonly error: string;
}

/** The keyword that marks a parameter. */
export const X_MCP_HEADER = 'x-mcp-header';

/** Keywords whose value is one subschema. */
const SINGLE_SCHEMA_KEYWORDS = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
/** Keywords whose value is an array of subschemas. */
const ARRAY_SCHEMA_KEYWORDS = ['allOf', 'anyOf', 'items', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas (`properties` is handled separately). */
const MAP_SCHEMA_KEYWORDS = ['$defs', 'definitions', 'dependentSchemas', 'dependencies', 'patternProperties'] as const;

type Primitive = 'string' | 'integer' | 'boolean';
const PRIMITIVES: ReadonlySet<string> = new Set<Primitive>(['string', 'integer', 'boolean']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(object: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * Reads the `x-mcp-header` annotations of a tool's `inputSchema` and checks every rule of the
 * spec: the value is a non-empty RFC 9110 token (so no spaces, colons, control or non-ASCII
 * characters), unique case-insensitively within the schema, on a parameter whose `type` is
 * `string`, `integer` or `boolean` (optionally together with `"null"`), reached from the root
 * through `properties` keys only. An annotation anywhere else (`items`, `oneOf`, `$defs`,
 * `additionalProperties`...) makes the tool invalid.
 *
 * @returns the map (possibly empty), or `{ error }` with a sentence saying which property broke
 *   which rule. Never throws, whatever `tool` holds.
 */
export function extractParamHeaderMap(tool: {
  readonly name?: unknown;
  readonly inputSchema?: unknown;
}): ParamHeaderMap | ParamHeaderMapError {
  const schema = tool.inputSchema;
  if (!isObject(schema)) return [];
  if (has(schema, X_MCP_HEADER))
    return { error: `"${X_MCP_HEADER}" on the inputSchema root; it must annotate a parameter` };
  const found: ParamHeader[] = [];
  const seen = new Map<string, string>();
  const error = walkReachable(schema, [], found, seen);
  return error === undefined ? found : { error };
}

/** Walks a statically reachable schema: its `properties` are reachable, everything else is not. */
function walkReachable(
  schema: Record<string, unknown>,
  path: string[],
  found: ParamHeader[],
  seen: Map<string, string>,
): string | undefined {
  const unreachable = findUnreachableAnnotation(schema, path);
  if (unreachable !== undefined) return unreachable;
  const properties = schema['properties'];
  if (!isObject(properties)) return undefined;
  for (const key of Object.keys(properties)) {
    const property = properties[key];
    if (!isObject(property)) continue;
    const propertyPath = [...path, key];
    if (has(property, X_MCP_HEADER)) {
      const problem = checkAnnotation(property, propertyPath, seen);
      if (problem !== undefined) return problem;
      const name = property[X_MCP_HEADER] as string;
      found.push({ name, header: `Mcp-Param-${name}`, path: propertyPath });
    }
    const nested = walkReachable(property, propertyPath, found, seen);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

function checkAnnotation(
  property: Record<string, unknown>,
  path: string[],
  seen: Map<string, string>,
): string | undefined {
  const where = describePath(path);
  const name = property[X_MCP_HEADER];
  if (typeof name !== 'string') return `"${X_MCP_HEADER}" on ${where} is not a string`;
  if (name === '') return `"${X_MCP_HEADER}" on ${where} is empty`;
  if (!isHeaderToken(name)) {
    return `"${X_MCP_HEADER}" value ${JSON.stringify(name)} on ${where} is not an HTTP field-name token (letters, digits and !#$%&'*+-.^_\`|~ only)`;
  }
  const lower = name.toLowerCase();
  const previous = seen.get(lower);
  if (previous !== undefined)
    return `"${X_MCP_HEADER}" value ${JSON.stringify(name)} on ${where} duplicates the one on ${previous} (compared case-insensitively)`;
  seen.set(lower, where);
  const kind = primitiveKind(property['type']);
  if (kind === undefined) {
    return `"${X_MCP_HEADER}" on ${where} annotates a parameter of type ${JSON.stringify(property['type'] ?? null)}; only string, integer and boolean parameters may be mirrored`;
  }
  return undefined;
}

function primitiveKind(type: unknown): Primitive | undefined {
  if (typeof type === 'string') return PRIMITIVES.has(type) ? (type as Primitive) : undefined;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    if (nonNull.length === 1 && typeof nonNull[0] === 'string' && PRIMITIVES.has(nonNull[0]))
      return nonNull[0] as Primitive;
  }
  return undefined;
}

/** An `x-mcp-header` below a keyword other than `properties` (not statically reachable). */
function findUnreachableAnnotation(schema: Record<string, unknown>, path: string[]): string | undefined {
  const where = describePath(path);
  for (const keyword of SINGLE_SCHEMA_KEYWORDS) {
    if (has(schema, keyword) && containsAnnotation(schema[keyword])) return unreachableMessage(keyword, where);
  }
  for (const keyword of ARRAY_SCHEMA_KEYWORDS) {
    const value = schema[keyword];
    if (Array.isArray(value) && value.some(containsAnnotation)) return unreachableMessage(keyword, where);
  }
  for (const keyword of MAP_SCHEMA_KEYWORDS) {
    const value = schema[keyword];
    if (isObject(value) && Object.values(value).some(containsAnnotation)) return unreachableMessage(keyword, where);
  }
  return undefined;
}

function unreachableMessage(keyword: string, where: string): string {
  return `"${X_MCP_HEADER}" under "${keyword}" of ${where} is not statically reachable (only chains of "properties" may carry it)`;
}

/** Whether a subschema, or any schema nested in it, carries `x-mcp-header`. */
function containsAnnotation(schema: unknown, depth = 0): boolean {
  if (!isObject(schema) || depth > 64) return false;
  if (has(schema, X_MCP_HEADER)) return true;
  const properties = schema['properties'];
  if (isObject(properties) && Object.values(properties).some((s) => containsAnnotation(s, depth + 1))) return true;
  for (const keyword of SINGLE_SCHEMA_KEYWORDS) {
    if (has(schema, keyword) && containsAnnotation(schema[keyword], depth + 1)) return true;
  }
  for (const keyword of ARRAY_SCHEMA_KEYWORDS) {
    const value = schema[keyword];
    if (Array.isArray(value) && value.some((s) => containsAnnotation(s, depth + 1))) return true;
  }
  for (const keyword of MAP_SCHEMA_KEYWORDS) {
    const value = schema[keyword];
    if (isObject(value) && Object.values(value).some((s) => containsAnnotation(s, depth + 1))) return true;
  }
  return false;
}

function describePath(path: readonly string[]): string {
  return path.length === 0 ? 'the schema root' : `property ${JSON.stringify(path.join('.'))}`;
}

/**
 * The header text of one argument value (spec "Value Encoding", type conversion): a string as
 * it is, a boolean as `true`/`false`, a finite number in decimal (`42`, `-7`). `undefined`
 * for `null`, absent values and anything else (objects, arrays): the header is then omitted.
 */
export function paramHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

/**
 * The `Mcp-Param-{Name}` headers of one `tools/call`: for each entry of `map`, the value at its
 * exact property path in `args`, converted by {@link paramHeaderText} and encoded by
 * `encodeHeaderValue` (`=?base64?...?=` for values that are not plain visible ASCII). A
 * parameter that is absent, `null`, or not a primitive yields no header.
 *
 * @returns header name → value, e.g. `{ "Mcp-Param-Region": "us-west1" }`. Never throws.
 */
export function paramHeadersFor(map: ParamHeaderMap, args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of map) {
    let value: unknown = args;
    for (const key of entry.path) {
      value = isObject(value) && has(value, key) ? value[key] : undefined;
      if (value === undefined) break;
    }
    const text = paramHeaderText(value);
    if (text !== undefined) headers[entry.header] = encodeHeaderValue(text);
  }
  return headers;
}

/** One tool left out of `tools/list` because its `x-mcp-header` annotations break the rules. */
export interface RejectedTool {
  /** The tool's name as listed (or `"(unnamed)"`). */
  readonly tool: string;
  /** Why: see {@link extractParamHeaderMap}. */
  readonly reason: string;
}

/**
 * Screens one `tools/list` page for the Streamable HTTP transport: tools whose annotations are
 * valid are kept (in order) and their maps returned by name; the others are listed in
 * `rejected` so the caller can warn with the tool name and the reason, as the spec asks.
 */
export function screenToolHeaders<T extends { readonly name?: unknown; readonly inputSchema?: unknown }>(
  tools: readonly T[],
): { tools: T[]; maps: Map<string, ParamHeaderMap>; rejected: RejectedTool[] } {
  const kept: T[] = [];
  const maps = new Map<string, ParamHeaderMap>();
  const rejected: RejectedTool[] = [];
  for (const tool of tools) {
    const result = extractParamHeaderMap(tool);
    const name = typeof tool.name === 'string' ? tool.name : '(unnamed)';
    if ('error' in result) {
      rejected.push({ tool: name, reason: result.error });
      continue;
    }
    kept.push(tool);
    if (result.length > 0) maps.set(name, result);
  }
  return { tools: kept, maps, rejected };
}
