/**
 * What each model API documents about tool parameter schemas, as {@link SchemaProfile}s. The
 * sources (read them before changing a line):
 *
 * - OpenAI (Chat Completions and Responses, strict or not): "Supported schemas" of Structured
 *   Outputs, https://platform.openai.com/docs/guides/structured-outputs#supported-schemas, and
 *   function calling, https://platform.openai.com/docs/guides/function-calling#strict-mode.
 *   Types string, number, boolean, integer, object, array, enum, anyOf (not at the root);
 *   string `pattern` and `format` (date-time, time, date, duration, email, hostname, ipv4,
 *   ipv6, uuid); number `multipleOf`, `maximum`, `exclusiveMaximum`, `minimum`,
 *   `exclusiveMinimum`; array `minItems`, `maxItems`; `$defs`/`$ref`. `allOf`, `not`, `if`/
 *   `then`/`else`, `dependentRequired`, `dependentSchemas` are not supported. An array needs
 *   `items` even without strict mode (HTTP 400 "array schema missing items"); tuple `items`
 *   and `prefixItems` are not accepted. The published SDK (`openai`, src/lib/transform.ts,
 *   `toStrictJsonSchema`) rejects the same keywords.
 * - Anthropic Messages: `input_schema` is a JSON Schema (draft 2020-12) object with
 *   `type: "object"`, https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
 *   and the SDK's `Tool.InputSchema`; the API answers 400 "input_schema does not support
 *   oneOf, allOf, or anyOf at the top level" (see anthropics/claude-code#5319). Draft-07
 *   tuple `items: [...]` is not 2020-12 (`prefixItems` is).
 * - Gemini `parametersJsonSchema`: "JSON Schema support" of structured output,
 *   https://ai.google.dev/gemini-api/docs/structured-output#json-schema, and
 *   `FunctionDeclaration.parametersJsonSchema` in @google/genai: types incl. null; `title`,
 *   `description`; string `enum`, `format`; number `format`, `minimum`, `maximum`, `enum`;
 *   array `items`, `prefixItems`, `minItems`, `maxItems`; object `properties`, `required`,
 *   `additionalProperties`, `propertyOrdering`; `anyOf`, `$ref`/`$defs`.
 * - Gemini `parameters` (OpenAPI subset): the `Schema` object,
 *   https://ai.google.dev/api/caching#Schema (the `Schema` interface of @google/genai):
 *   upper-case `type`, `nullable`, string-only `enum`, `format` (NUMBER float/double, INTEGER
 *   int32/int64, STRING enum/date-time for the Gemini Developer API:
 *   https://firebase.google.com/docs/reference/js/ai.schemashared), `minimum`/`maximum`,
 *   `minItems`/`maxItems`/`minLength`/`maxLength`/`minProperties`/`maxProperties` (int64 as
 *   strings), `pattern`, `anyOf`, `items`, `properties`, `required`, `propertyOrdering`,
 *   `default`, `example`, `title`, `description`. No `additionalProperties`; an OBJECT needs
 *   non-empty `properties`; a function without parameters leaves `parameters` unset
 *   (https://ai.google.dev/api/caching#FunctionDeclaration).
 */
import type { SchemaProfile } from './normalise.js';

const OPENAI_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** OpenAI Chat Completions and Responses, with or without strict mode. */
export const OPENAI_PROFILE: SchemaProfile = {
  keywords: new Set([
    'pattern',
    'format',
    'multipleOf',
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'minItems',
    'maxItems',
  ]),
  formats: OPENAI_FORMATS,
  numberFormats: new Set(),
  tuples: 'widen',
  arraysNeedItems: true,
  annotations: new Set(['title', 'description', 'default', 'examples']),
};

/** Anthropic Messages (JSON Schema 2020-12; only the root is restricted). */
export const ANTHROPIC_PROFILE: SchemaProfile = {
  keywords: new Set([
    'pattern',
    'minLength',
    'maxLength',
    'format',
    'multipleOf',
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'minItems',
    'maxItems',
    'uniqueItems',
    'minProperties',
    'maxProperties',
    'dependentRequired',
  ]),
  formats: 'all',
  numberFormats: 'all',
  tuples: 'keep',
  arraysNeedItems: false,
  annotations: new Set(['title', 'description', 'default', 'examples']),
};

/** Gemini `parametersJsonSchema`. */
export const GEMINI_JSON_PROFILE: SchemaProfile = {
  keywords: new Set(['format', 'minimum', 'maximum', 'minItems', 'maxItems']),
  formats: new Set(['date-time', 'date', 'time', 'email', 'uuid']),
  numberFormats: new Set(['int32', 'int64', 'float', 'double']),
  tuples: 'widen',
  arraysNeedItems: true,
  annotations: new Set(['title', 'description']),
  enumTypes: new Set(['string', 'number', 'integer']),
};

/** Gemini `parameters`: normalised with this, then written in the OpenAPI subset (geminiOpenApi.ts). */
export const GEMINI_OPENAPI_PROFILE: SchemaProfile = {
  keywords: new Set([
    'format',
    'minimum',
    'maximum',
    'minItems',
    'maxItems',
    'minLength',
    'maxLength',
    'pattern',
    'minProperties',
    'maxProperties',
  ]),
  formats: new Set(['date-time']),
  numberFormats: new Set(['int32', 'int64', 'float', 'double']),
  tuples: 'widen',
  arraysNeedItems: true,
  annotations: new Set(['title', 'description', 'default', 'examples']),
};
