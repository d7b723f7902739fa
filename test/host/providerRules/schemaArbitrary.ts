/**
 * fast-check schemas covering every construct MCP servers send (issue 27): `$ref`/`$defs`
 * (recursive too), `anyOf`/`oneOf`/`allOf`, type lists, `nullable`, `additionalProperties`
 * (boolean, schema, map-typed objects), tuples (`prefixItems`, draft-07 `items: [...]`),
 * arrays without `items`, `const`, enums of any type, a missing `type`, `format`s the APIs
 * take and ones they do not, every validation keyword, `not`/`if`.
 */
import fc from 'fast-check';

type Schema = Record<string, unknown> | boolean;
type ObjectSchema = Record<string, unknown>;

const name = fc.constantFrom('a', 'b', 'path', 'limit', 'mode', 'tags', 'x-y', 'deep', '__proto__', 'with/slash');
const anyValue = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -5, max: 5, noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant({ k: 1 }),
  fc.constant([1, 2]),
);
const format = fc.constantFrom(
  'date-time',
  'date',
  'time',
  'email',
  'uri',
  'uuid',
  'hostname',
  'ipv4',
  'regex',
  'byte',
  'int32',
  'float',
);

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      minLength: fc.nat(5),
      maxLength: fc.nat(50),
      pattern: fc.constant('^[a-z]+$'),
      format,
      description: fc.constant('a string'),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constantFrom('number', 'integer'),
      minimum: fc.integer({ min: -10, max: 0 }),
      maximum: fc.integer({ min: 1, max: 10 }),
      exclusiveMinimum: fc.integer({ min: -20, max: -11 }),
      multipleOf: fc.constantFrom(1, 2, 0.5),
      format: fc.constantFrom('int32', 'int64', 'double'),
      default: fc.integer({ min: 1, max: 5 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'null' }),
  fc.constant({}),
  fc.constant({ description: 'anything' }),
  fc.constant({ minLength: 2 }),
  fc.constant({ minimum: 0 }),
  fc.array(anyValue, { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
  fc
    .array(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 4 })
    .map((values) => ({ type: 'string', enum: values })),
  fc.array(fc.integer({ max: 9 }), { minLength: 1, maxLength: 3 }).map((values) => ({ type: 'integer', enum: values })),
  anyValue.map((value) => ({ const: value })),
  fc.constant({ type: ['string', 'null'] }),
  fc.constant({ type: ['string', 'number', 'null'], description: 'several types' }),
  fc.constant({ type: 'string', nullable: true }),
  fc.constant({ type: 'string', 'x-internal': true, readOnly: true, $comment: 'c' }),
  fc.constant({ $ref: '#/$defs/node' }),
  fc.constant({ $ref: '#/$defs/leaf' }),
  fc.constant({ $ref: '#/definitions/old' }),
  fc.constant({ $ref: 'https://example.com/remote.json' }),
  fc.constant({ $ref: '#/$defs/missing' }),
  fc.constant(true),
  fc.constant({ type: 'object' }),
  fc.constant({ type: 'array' }),
);

const { schema } = fc.letrec<{ schema: Schema }>((tie) => {
  const sub = tie('schema');
  return {
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record(
        {
          type: fc.constant('array'),
          items: sub,
          minItems: fc.nat(2),
          maxItems: fc.integer({ min: 3, max: 9 }),
          uniqueItems: fc.boolean(),
        },
        { requiredKeys: ['type', 'items'] },
      ),
      fc
        .record(
          { prefixItems: fc.array(sub, { minLength: 1, maxLength: 3 }), items: fc.oneof(fc.constant(false), sub) },
          { requiredKeys: ['prefixItems'] },
        )
        .map((s) => ({ type: 'array', ...s })),
      fc.array(sub, { minLength: 1, maxLength: 3 }).map((items) => ({ type: 'array', items, additionalItems: false })),
      fc.record({ type: fc.constant('array'), contains: sub }),
      fc
        .tuple(
          fc.dictionary(name, sub, { maxKeys: 4 }),
          fc.array(name, { maxLength: 3 }),
          fc.oneof(fc.constant(undefined), fc.boolean(), sub),
        )
        .map(([properties, required, additionalProperties]) => ({
          type: 'object',
          properties,
          required,
          ...(additionalProperties !== undefined && { additionalProperties }),
        })),
      sub.map((values) => ({ type: 'object', additionalProperties: values, description: 'a map' })),
      fc.dictionary(name, sub, { minKeys: 1, maxKeys: 3 }).map((properties) => ({ properties })),
      fc.record({
        type: fc.constant('object'),
        patternProperties: fc.constant({ '^x': { type: 'string' } }),
        propertyNames: fc.constant({ maxLength: 3 }),
        minProperties: fc.constant(1),
      }),
      fc.array(sub, { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
      fc.array(sub, { minLength: 1, maxLength: 3 }).map((oneOf) => ({ oneOf, description: 'one of' })),
      fc.tuple(sub, sub).map(([a, b]) => ({ type: ['string', 'null'], anyOf: [a, b] })),
      fc.tuple(fc.dictionary(name, sub, { maxKeys: 2 }), fc.dictionary(name, sub, { maxKeys: 2 })).map(([a, b]) => ({
        allOf: [
          { type: 'object', properties: a, required: Object.keys(a).slice(0, 1) },
          { type: 'object', properties: b },
        ],
      })),
      fc.tuple(sub, sub).map(([a, b]) => ({ allOf: [a, b] })),
      sub.map((inner) => ({ type: 'string', not: inner })),
      fc.constant({ type: 'string', if: { minLength: 3 }, then: { pattern: '^a' }, else: { maxLength: 1 } }),
    ),
  };
});

const defs = {
  node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/node' } } },
  leaf: { type: 'string', format: 'email', description: 'a leaf' },
};

/** A tool's input schema: an object root (sometimes a union or an intersection of objects). */
export const inputSchema: fc.Arbitrary<ObjectSchema> = fc.oneof(
  fc
    .tuple(fc.dictionary(name, schema, { maxKeys: 5 }), fc.array(name, { maxLength: 3 }), fc.boolean())
    .map(([properties, required, closed]) => ({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties,
      required,
      ...(closed && { additionalProperties: false }),
      $defs: defs,
      definitions: { old: { type: 'integer' } },
    })),
  fc
    .tuple(
      fc.dictionary(name, schema, { minKeys: 1, maxKeys: 3 }),
      fc.dictionary(name, schema, { minKeys: 1, maxKeys: 3 }),
    )
    .map(([a, b]) => ({
      type: 'object',
      anyOf: [
        { type: 'object', properties: a, required: Object.keys(a) },
        { type: 'object', properties: b },
      ],
      $defs: defs,
    })),
  fc.dictionary(name, schema, { maxKeys: 3 }).map((properties) => ({
    allOf: [{ $ref: '#/$defs/base' }, { properties }],
    $defs: { ...defs, base: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
  })),
  fc.constant({ type: 'object' }),
  fc.constant({}),
);
