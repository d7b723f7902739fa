/**
 * OpenAI strict mode (Structured Outputs for function calling): the OpenAI-normalised schema
 * rewritten so that every object lists all its properties in `required` and sets
 * `additionalProperties: false`, an optional property becoming required and nullable, as
 * https://platform.openai.com/docs/guides/structured-outputs#all-fields-must-be-required
 * describes; and the plan that maps the model's arguments back (a `null` for a property that
 * was optional, and does not accept `null` itself, is left out).
 *
 * The conversion is refused, with the reason, where it would change what a call means:
 * - a value of any type (`{}`), an array without a typed `items`;
 * - an object open to other keys (`additionalProperties` a schema or `true` next to no
 *   properties: a map), except the root of a tool without parameters;
 * - an optional property that already accepts `null` and has a non-null `default` (absent and
 *   `null` would mean different things);
 * - beyond the documented limits: 5,000 object properties, 10 levels of object nesting,
 *   1,000 enum values, 120,000 characters of property names, enum and const values
 *   (https://platform.openai.com/docs/guides/structured-outputs#objects-have-limitations-on-nesting-depth-and-size).
 */
import type { JsonObject } from '../../../wire/messages.js';
import type { ArgumentPlan, BranchPlan } from './argumentPlan.js';
import { define, isObject } from './normalise.js';

/** The documented limits of a strict schema. */
export const STRICT_LIMITS = {
  properties: 5000,
  nesting: 10,
  enumValues: 1000,
  characters: 120_000,
} as const;

/** A strict schema and its argument plan, or why strict mode cannot say the same. */
export type StrictResult =
  | { readonly ok: true; readonly schema: JsonObject; readonly plan: ArgumentPlan }
  | { readonly ok: false; readonly reason: string };

interface Tally {
  properties: number;
  enumValues: number;
  characters: number;
}

class NotStrict extends Error {}

/** `schema` (an OpenAI-normalised root object) in strict form, or the reason it cannot be. */
export function toStrictSchema(schema: JsonObject): StrictResult {
  const tally: Tally = { properties: 0, enumValues: 0, characters: 0 };
  try {
    const [strict, plan] = convert(schema, '', 0, tally, true);
    if (tally.properties > STRICT_LIMITS.properties)
      return { ok: false, reason: `${tally.properties} object properties (at most ${STRICT_LIMITS.properties})` };
    if (tally.enumValues > STRICT_LIMITS.enumValues)
      return { ok: false, reason: `${tally.enumValues} enum values (at most ${STRICT_LIMITS.enumValues})` };
    if (tally.characters > STRICT_LIMITS.characters)
      return {
        ok: false,
        reason: `${tally.characters} characters of names and values (at most ${STRICT_LIMITS.characters})`,
      };
    return { ok: true, schema: strict, plan };
  } catch (error) {
    if (error instanceof NotStrict) return { ok: false, reason: error.message };
    throw error;
  }
}

function convert(
  node: JsonObject,
  path: string,
  nesting: number,
  tally: Tally,
  root = false,
): [JsonObject, ArgumentPlan] {
  if (Array.isArray(node['anyOf'])) {
    const plans: BranchPlan[] = [];
    const anyOf = (node['anyOf'] as JsonObject[]).map((branch, i) => {
      const [out, plan] = convert(branch, `${path}/anyOf/${i}`, nesting, tally);
      plans.push({ schema: out, plan });
      return out;
    });
    return [{ ...node, anyOf }, plans.some((p) => Object.keys(p.plan).length > 0) ? { anyOf: plans } : {}];
  }
  const types = typesOf(node);
  if (types.length === 0 && !Array.isArray(node['enum']))
    throw new NotStrict(`${path || '/'} accepts a value of any type`);
  if (Array.isArray(node['enum'])) {
    tally.enumValues += node['enum'].length;
    for (const value of node['enum']) if (typeof value === 'string') tally.characters += value.length;
  }
  const out: JsonObject = { ...node };
  const plan: { dropNull?: string[]; properties?: Record<string, ArgumentPlan>; items?: ArgumentPlan } = {};
  if (types.includes('object')) {
    if (nesting >= STRICT_LIMITS.nesting)
      throw new NotStrict(`${path} nests objects deeper than ${STRICT_LIMITS.nesting} levels`);
    const properties = isObject(node['properties']) ? node['properties'] : {};
    const names = Object.keys(properties);
    const extra = node['additionalProperties'];
    if (extra !== undefined && extra !== false)
      throw new NotStrict(`${path || '/'} takes other keys (additionalProperties), which strict mode cannot say`);
    if (names.length === 0 && extra === undefined && !root) throw new NotStrict(`${path} is an object of any keys`);
    const required = new Set(Array.isArray(node['required']) ? (node['required'] as string[]) : []);
    const strictProperties: JsonObject = {};
    const dropNull: string[] = [];
    const inner: Record<string, ArgumentPlan> = {};
    for (const name of names) {
      tally.properties++;
      tally.characters += name.length;
      const property = properties[name] as JsonObject;
      const at = `${path}/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      const [first, childPlan] = convert(property, at, nesting + 1, tally);
      let converted = first;
      if (!required.has(name)) {
        if (acceptsNull(converted)) {
          if (converted['default'] !== undefined && converted['default'] !== null)
            throw new NotStrict(
              `${at} is optional, accepts null and defaults to ${JSON.stringify(converted['default'])}`,
            );
        } else {
          converted = withNull(converted);
          dropNull.push(name);
        }
      }
      define(strictProperties, name, converted);
      if (Object.keys(childPlan).length > 0) inner[name] = childPlan;
    }
    out['properties'] = strictProperties;
    out['required'] = names;
    out['additionalProperties'] = false;
    if (dropNull.length > 0) plan.dropNull = dropNull;
    if (Object.keys(inner).length > 0) plan.properties = inner;
  }
  if (types.includes('array')) {
    const items = node['items'];
    if (!isObject(items)) throw new NotStrict(`${path || '/'} is an array of any values`);
    const [converted, itemPlan] = convert(items, `${path}/items`, nesting, tally);
    out['items'] = converted;
    if (Object.keys(itemPlan).length > 0) plan.items = itemPlan;
  }
  if (out['default'] === null) delete out['default'];
  return [out, plan];
}

function typesOf(node: JsonObject): string[] {
  const type = node['type'];
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

function acceptsNull(node: JsonObject): boolean {
  if (Array.isArray(node['anyOf'])) return (node['anyOf'] as JsonObject[]).some(acceptsNull);
  if (Array.isArray(node['enum'])) return node['enum'].includes(null);
  return typesOf(node).includes('null');
}

/** `node` accepting `null` as well. */
function withNull(node: JsonObject): JsonObject {
  if (Array.isArray(node['anyOf'])) return { ...node, anyOf: [...(node['anyOf'] as JsonObject[]), { type: 'null' }] };
  const types = typesOf(node);
  const out: JsonObject = { ...node, type: [...types, 'null'] };
  if (Array.isArray(node['enum'])) out['enum'] = [...(node['enum'] as unknown[]), null];
  return out;
}
