/**
 * How a model's arguments are mapped back to what the server's schema says, after a
 * conversion that changed their shape: OpenAI strict mode makes optional properties
 * required and nullable (a `null` there stands for "left out"), and Gemini's OpenAPI subset
 * carries free-form values as JSON text. Pure.
 */
import type { JsonObject } from '../../../wire/messages.js';
import { fitsSchema } from './matchSchema.js';

/** Where the arguments differ from the server's schema; absent parts are unchanged. */
export interface ArgumentPlan {
  /** Properties of this object whose `null` means "left out": the key is deleted. */
  readonly dropNull?: readonly string[] | undefined;
  /** Plans for properties of this object. */
  readonly properties?: Readonly<Record<string, ArgumentPlan>> | undefined;
  /** The plan for every item of this array. */
  readonly items?: ArgumentPlan | undefined;
  /**
   * The branches of an `anyOf`, in order: only the plan of the first branch whose converted
   * schema (what the model saw) the value fits applies; a value that fits none is unchanged.
   */
  readonly anyOf?: readonly BranchPlan[] | undefined;
  /** The value is JSON text standing for any JSON value: parsed when it parses. */
  readonly jsonText?: true | undefined;
}

/** One branch of an `anyOf`: the schema the model saw for it, and its plan. */
export interface BranchPlan {
  /** The converted branch (strict JSON Schema or Gemini's OpenAPI subset), read by `fitsSchema`. */
  readonly schema: object;
  readonly plan: ArgumentPlan;
}

/** Whether the plan changes nothing. */
export function isEmptyPlan(plan: ArgumentPlan): boolean {
  return (
    (plan.dropNull === undefined || plan.dropNull.length === 0) &&
    (plan.properties === undefined || Object.keys(plan.properties).length === 0) &&
    plan.items === undefined &&
    (plan.anyOf === undefined || plan.anyOf.every((branch) => isEmptyPlan(branch.plan))) &&
    plan.jsonText !== true
  );
}

/** `value` mapped back by `plan` (a copy where anything changed; `value` itself is not mutated). */
export function applyArgumentPlan(plan: ArgumentPlan, value: unknown): unknown {
  let current = value;
  if (plan.jsonText === true && typeof current === 'string') {
    try {
      current = JSON.parse(current) as unknown;
    } catch {
      return current;
    }
  }
  if (plan.anyOf !== undefined) {
    const value = current;
    const branch = plan.anyOf.find((b) => fitsSchema(b.schema, value));
    if (branch !== undefined) current = applyArgumentPlan(branch.plan, current);
  }
  if (Array.isArray(current) && plan.items !== undefined) {
    const items = plan.items;
    return current.map((item) => applyArgumentPlan(items, item));
  }
  if (typeof current !== 'object' || current === null || Array.isArray(current)) return current;
  if (plan.dropNull === undefined && plan.properties === undefined) return current;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(current as JsonObject)) {
    if (item === null && plan.dropNull?.includes(key) === true) continue;
    const inner =
      plan.properties !== undefined && Object.hasOwn(plan.properties, key) ? plan.properties[key] : undefined;
    Object.defineProperty(out, key, {
      value: inner === undefined ? item : applyArgumentPlan(inner, item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
