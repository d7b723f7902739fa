/**
 * A strict model's arguments mapped back by the `anyOf` branch they match (issue 42): only the
 * rules of the first branch the value fits apply, so a `null` that branch requires is kept.
 * The property: whenever the model's value validates against the strict schema the tool was
 * sent with, the mapped-back value validates against the server's original schema (both
 * checked with @cfworker/json-schema).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Validator } from '@cfworker/json-schema';
import type { JsonObject } from '../../src/wire/messages.js';
import type { Tool } from '../../src/wire/protocol.js';
import {
  restoreModelArguments,
  toGeminiFunctionDeclarations,
  toOpenAiChatTools,
} from '../../src/host/models/modelTools.js';

const tool = (inputSchema: JsonObject): Tool => ({ name: 't', inputSchema: inputSchema as Tool['inputSchema'] });
const valid = (schema: JsonObject, value: unknown): boolean =>
  new Validator(schema, '2020-12', false).validate(value).valid;

/** The strict schema the tool went out with (the test fails if it was not strict). */
function strictSchema(original: JsonObject): JsonObject {
  const [chat] = toOpenAiChatTools([tool(original)], { strict: true });
  return chat?.function.parameters as JsonObject;
}

describe('strict arguments mapped back by the matching branch', () => {
  const filter: JsonObject = {
    type: 'object',
    properties: {
      filter: {
        anyOf: [
          {
            type: 'object',
            properties: { kind: { const: 'range' }, end: { type: 'integer' } },
            required: ['kind'],
          },
          {
            type: 'object',
            properties: { kind: { const: 'open' }, end: { type: 'null' } },
            required: ['kind', 'end'],
          },
        ],
      },
    },
    required: ['filter'],
  };

  it('keeps a null the matching branch requires, drops one the matching branch left optional', () => {
    const open = { filter: { kind: 'open', end: null } };
    expect(valid(strictSchema(filter), open)).toBe(true);
    const back = restoreModelArguments(tool(filter), open, { api: 'openAiChat' });
    expect(back).toEqual({ filter: { kind: 'open', end: null } });
    expect(valid(filter, back)).toBe(true);

    const range = { filter: { kind: 'range', end: null } };
    expect(restoreModelArguments(tool(filter), range, { api: 'openAiChat' })).toEqual({ filter: { kind: 'range' } });
  });

  it('leaves a value that fits no branch as it is', () => {
    const odd = { filter: { kind: 'other', end: null } };
    expect(restoreModelArguments(tool(filter), odd, { api: 'openAiChat' })).toEqual(odd);
  });

  it('Gemini OpenAPI: a string that fits an earlier STRING branch is not parsed as JSON text', () => {
    const either: JsonObject = {
      type: 'object',
      properties: {
        v: { anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'integer' } }] },
      },
      required: ['v'],
    };
    const [declaration] = toGeminiFunctionDeclarations([tool(either)], { schema: 'openApi' });
    expect(declaration?.parameters?.properties?.['v']?.anyOf?.map((b) => b.type)).toEqual(['STRING', 'STRING']);
    const from = { api: 'gemini', schema: 'openApi' } as const;
    expect(restoreModelArguments(tool(either), { v: '{"a":1}' }, from)).toEqual({ v: '{"a":1}' });
  });
});

// Schemas of the constructs strict mode rewrites: optional properties, nullable types, `anyOf`
// of overlapping objects (shared keys, a branch requiring `null`), `const`/`enum`, arrays.
const names = fc.constantFrom('a', 'b', 'c');
const leaf: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.constantFrom<JsonObject>({ type: 'string' }, { type: 'integer' }, { type: 'boolean' }, { type: 'null' }),
  fc.constantFrom('string', 'integer', 'boolean').map((type): JsonObject => ({ type: [type, 'null'] })),
  fc.constantFrom('x', 'y').map((value): JsonObject => ({ const: value })),
  fc.constantFrom<JsonObject>({ type: 'string', enum: ['x', 'y'] }, { enum: ['x', null] }),
);
const { node, object } = fc.letrec<{ node: JsonObject; object: JsonObject; anyOf: JsonObject; array: JsonObject }>(
  (tie) => ({
    node: fc.oneof({ maxDepth: 3 }, leaf, tie('object'), tie('anyOf'), tie('array')),
    object: fc
      .dictionary(names, tie('node'), { minKeys: 1, maxKeys: 3 })
      .chain((properties) =>
        fc.subarray(Object.keys(properties)).map((required): JsonObject => ({ type: 'object', properties, required })),
      ),
    anyOf: fc
      .array(fc.oneof(tie('object'), leaf), { minLength: 2, maxLength: 3 })
      .map((branches): JsonObject => ({ anyOf: branches })),
    array: tie('node').map((items): JsonObject => ({ type: 'array', items })),
  }),
);

/** Values of a strict schema: every property present, any branch, any listed type. */
function valuesOf(schema: JsonObject): fc.Arbitrary<unknown> {
  if (Array.isArray(schema['anyOf'])) return fc.oneof(...(schema['anyOf'] as JsonObject[]).map(valuesOf));
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const type = schema['type'];
  const types = (Array.isArray(type) ? type : [type]) as string[];
  return fc.oneof(
    ...types.map((t): fc.Arbitrary<unknown> => {
      switch (t) {
        case 'string':
          return fc.constantFrom('x', 'y', '{"a":1}');
        case 'integer':
          return fc.integer({ min: -3, max: 3 });
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return fc.array(valuesOf(schema['items'] as JsonObject), { maxLength: 2 });
        case 'object': {
          const properties = (schema['properties'] ?? {}) as Record<string, JsonObject>;
          return fc.record(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, valuesOf(v)])));
        }
        default:
          throw new Error(`unexpected type ${t}`);
      }
    }),
  );
}

describe('generated schemas (fast-check)', () => {
  it('a value valid for the strict schema maps back to one valid for the original', () => {
    const cases = object.chain((original) => {
      const strict = strictSchema(original);
      return fc.tuple(fc.constant(original), fc.constant(strict), valuesOf(strict));
    });
    fc.assert(
      fc.property(cases, ([original, strict, value]) => {
        fc.pre(valid(strict, value));
        const back = restoreModelArguments(tool(original), value as JsonObject, { api: 'openAiChat' });
        expect(valid(original, back), JSON.stringify({ original, value, back })).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('every generated schema goes out strict', () => {
    fc.assert(
      fc.property(node, (inner) => {
        expect(() => strictSchema({ type: 'object', properties: { p: inner } })).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });
});
