/**
 * A listed tool's schemas as the client can use them (spec: server/tools, Tool; JSON Schema
 * 2020-12 `required`). Servers in the field send `"required": null` at a schema's root; that
 * one slip is normalised away instead of costing the tool, or the whole list.
 */
import { ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from './messages.js';

const SCHEMA_KEYS = ['inputSchema', 'outputSchema'] as const;

/**
 * `tool` with the root `required` of its `inputSchema` and `outputSchema` checked:
 * - `null` is dropped from a copy of the schema (as if absent), reported through `report` as a
 *   `ProtocolError` naming the tool and the field;
 * - anything else that is not an array of strings makes the tool malformed: `undefined` (the
 *   caller drops and reports it, as for any malformed item).
 * The tool is returned as is when there is nothing to repair; it is never mutated.
 */
export function repairToolSchemas(
  method: string,
  tool: JsonObject,
  report: (error: Error) => void,
): JsonObject | undefined {
  let repaired: JsonObject | undefined;
  for (const key of SCHEMA_KEYS) {
    const schema = tool[key];
    if (!isObject(schema) || !('required' in schema)) continue;
    const required = schema['required'];
    if (Array.isArray(required) && required.every((name) => typeof name === 'string')) continue;
    if (required !== null) return undefined;
    const { required: _dropped, ...rest } = schema;
    repaired ??= { ...tool };
    repaired[key] = rest;
    report(
      new ProtocolError(`tool ${JSON.stringify(tool['name'])}: ${key}.required is null; treated as absent`, {
        method,
        value: tool,
      }),
    );
  }
  return repaired ?? tool;
}
