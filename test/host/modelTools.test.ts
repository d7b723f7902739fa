/**
 * Golden tests of the model-API converters: tool definitions and tool results, one golden file
 * per API (test/host/golden/). The outputs are also checked against the official SDKs' own
 * request types (openai, @anthropic-ai/sdk, @google/genai: devDependencies, types only), so a
 * shape the API does not take fails the typecheck.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionDeclaration, Part, Schema as GeminiSdkSchema, Tool as GeminiTool, Type } from '@google/genai';
import type { HostTool } from '../../src/host/catalog/catalog.js';
import {
  toAnthropicTools,
  toGeminiFunctionDeclarations,
  toGeminiSchema,
  toOpenAiChatTools,
  toOpenAiResponsesTools,
  restoreModelArguments,
  type AnthropicTool,
  type GeminiFunctionDeclaration,
  type OpenAiChatTool,
  type OpenAiResponsesTool,
} from '../../src/host/models/modelTools.js';
import { type GeminiSchema, type GeminiType } from '../../src/host/models/schema/geminiOpenApi.js';
import {
  errorToolResult,
  toAnthropicToolResult,
  toGeminiFunctionResponse,
  toOpenAiChatToolMessage,
  toOpenAiResponsesToolOutput,
  type AnthropicToolResult,
  type GeminiFunctionResponsePart,
  type OpenAiChatToolMessage,
  type OpenAiResponsesToolOutput,
} from '../../src/host/models/modelToolResults.js';
import { HostRoutingError } from '../../src/host/catalog/errors.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { reportOnce, type SchemaReport } from '../../src/host/models/schema/schemaChanges.js';
import type { CallToolResult, Tool } from '../../src/wire/protocol.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcfsj6IKJSVFT0YK';

/** Tools as servers list them: with a $schema, without properties, with a title only, with $refs. */
const add: Tool = {
  name: 'add',
  title: 'Add',
  description: 'Adds two numbers.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } } },
  annotations: { readOnlyHint: true },
};
const ping: Tool = { name: 'ping', title: 'Ping', inputSchema: { type: 'object' } };
const search: Tool = {
  name: 'search.files',
  description: 'Searches files.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'What to look for' },
      limit: { type: ['integer', 'null'], minimum: 1, maximum: 100, default: 10 },
      mode: { enum: ['fast', 'thorough'] },
      kind: { const: 'file' },
      filter: { $ref: '#/$defs/filter' },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      target: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    },
    required: ['query'],
    $defs: {
      filter: {
        type: 'object',
        properties: { glob: { type: 'string', examples: ['*.ts'] }, not: { $ref: '#/$defs/filter' } },
        additionalProperties: false,
      },
    },
  },
};
const hostTools: HostTool[] = [
  { availability: 'available', server: 'example', exposedName: 'example__add', tool: add },
  { availability: 'available', server: 'example', exposedName: 'example__ping', tool: ping },
  { availability: 'available', server: 'fs', exposedName: 'fs__search_files', tool: search },
];

/** Results as servers send them. */
const results: Record<string, CallToolResult> = {
  text: { content: [{ type: 'text', text: 'Echo: hi' }] },
  structured: { content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 } },
  structuredAlreadyAsText: {
    content: [{ type: 'text', text: '{\n  "b": [1, 2],\n  "a": "x"\n}' }],
    structuredContent: { a: 'x', b: [1, 2] },
  },
  structuredWrappingTheText: {
    content: [{ type: 'text', text: 'hello\n' }],
    structuredContent: { content: 'hello\n' },
  },
  error: { content: [{ type: 'text', text: 'No item 9; items run 1..3.' }], isError: true },
  mixed: {
    content: [
      { type: 'text', text: 'Here is the chart and the report.' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'image', data: 'Qk0eAAAA', mimeType: 'image/bmp' },
      { type: 'audio', data: 'UklGRiQAAABXQVZF', mimeType: 'audio/wav' },
      {
        type: 'resource_link',
        uri: 'demo://items/3',
        name: 'item-3',
        title: 'Item 3',
        mimeType: 'text/plain',
        description: 'Catalog item number 3.',
      },
      { type: 'resource', resource: { uri: 'demo://note', mimeType: 'text/markdown', text: '# Note\nhello' } },
      { type: 'resource', resource: { uri: 'file:///reports/q3.pdf', mimeType: 'application/pdf', blob: PDF } },
      { type: 'resource', resource: { uri: 'file:///data.bin', blob: 'AAECAw==' } },
    ],
  },
  empty: { content: [] },
};

describe('tool definitions', () => {
  it('OpenAI Chat Completions', async () => {
    const tools = toOpenAiChatTools([...hostTools, add]);
    expectTypeOf(tools).toExtend<OpenAI.Chat.Completions.ChatCompletionTool[]>();
    const request: OpenAI.Chat.Completions.ChatCompletionCreateParams['tools'] = tools;
    expect(request).toBe(tools);
    await expect(json(tools)).toMatchFileSnapshot('golden/openai-chat.tools.json');
  });

  it('OpenAI Responses', async () => {
    const tools = toOpenAiResponsesTools(hostTools);
    expectTypeOf(tools).toExtend<OpenAI.Responses.FunctionTool[]>();
    const request: OpenAI.Responses.ResponseCreateParams['tools'] = tools;
    expect(request).toBe(tools);
    await expect(json(tools)).toMatchFileSnapshot('golden/openai-responses.tools.json');
  });

  it('Anthropic Messages', async () => {
    const tools = toAnthropicTools(hostTools);
    expectTypeOf(tools).toExtend<Anthropic.Messages.Tool[]>();
    const request: Anthropic.Messages.MessageCreateParams['tools'] = tools;
    expect(request).toBe(tools);
    await expect(json(tools)).toMatchFileSnapshot('golden/anthropic.tools.json');
  });

  it('Gemini, JSON Schema', async () => {
    const declarations = toGeminiFunctionDeclarations(hostTools);
    const tool: GeminiTool = { functionDeclarations: declarations };
    expectTypeOf(declarations).toExtend<FunctionDeclaration[]>();
    expect(tool.functionDeclarations).toBe(declarations);
    await expect(json(declarations)).toMatchFileSnapshot('golden/gemini.tools.json');
  });

  it('Gemini, OpenAPI subset', async () => {
    const declarations = toGeminiFunctionDeclarations(hostTools, { schema: 'openApi' });
    const tool: GeminiTool = { functionDeclarations: declarations };
    expectTypeOf(declarations).toExtend<FunctionDeclaration[]>();
    expect(tool.functionDeclarations).toBe(declarations);
    await expect(json(declarations)).toMatchFileSnapshot('golden/gemini-openapi.tools.json');
  });

  it('uses the exposed name, the description (else the title), and a clean object schema', () => {
    const [chat] = toOpenAiChatTools([hostTools[1] as HostTool]);
    expect(chat).toEqual({
      type: 'function',
      function: {
        name: 'example__ping',
        description: 'Ping',
        parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
        strict: true,
      },
    });
    const [plain] = toAnthropicTools([add]);
    expect(plain?.name).toBe('add');
    expect(plain?.input_schema).not.toHaveProperty('$schema');
    expect(add.inputSchema).toHaveProperty('$schema'); // the listed tool is untouched
  });

  it('Gemini OpenAPI: nullable, string enums and const, inlined $refs that stop at a cycle', () => {
    const schema = toGeminiSchema(search.inputSchema);
    expect(schema.properties?.['limit']).toEqual({
      type: 'INTEGER',
      nullable: true,
      minimum: 1,
      maximum: 100,
      default: 10,
    });
    expect(schema.properties?.['mode']).toEqual({ type: 'STRING', enum: ['fast', 'thorough'] });
    expect(schema.properties?.['kind']).toEqual({ type: 'STRING', enum: ['file'] });
    expect(schema.properties?.['filter']).toEqual({
      type: 'OBJECT',
      properties: {
        glob: { type: 'STRING', example: '*.ts' },
        not: { type: 'STRING', description: '(the same shape as #/$defs/filter) (JSON text)' },
      },
    });
    expect(schema).not.toHaveProperty('$defs');
  });
});

describe('tool results', () => {
  it('OpenAI Chat Completions: text only, media as notes, isError as a first line', async () => {
    const out = Object.fromEntries(
      Object.entries(results).map(([name, result]) => [name, toOpenAiChatToolMessage(result, `call_${name}`)]),
    );
    expectTypeOf(
      out['text'] as OpenAiChatToolMessage,
    ).toExtend<OpenAI.Chat.Completions.ChatCompletionToolMessageParam>();
    await expect(json(out)).toMatchFileSnapshot('golden/openai-chat.results.json');
  });

  it('OpenAI Responses: images and PDFs as input items', async () => {
    const out = Object.fromEntries(
      Object.entries(results).map(([name, result]) => [name, toOpenAiResponsesToolOutput(result, `call_${name}`)]),
    );
    expectTypeOf(
      out['mixed'] as OpenAiResponsesToolOutput,
    ).toExtend<OpenAI.Responses.ResponseInputItem.FunctionCallOutput>();
    expect(out['text']?.output).toBe('Echo: hi');
    await expect(json(out)).toMatchFileSnapshot('golden/openai-responses.results.json');
  });

  it('Anthropic Messages: images, PDF documents, is_error', async () => {
    const out = Object.fromEntries(
      Object.entries(results).map(([name, result]) => [name, toAnthropicToolResult(result, `toolu_${name}`)]),
    );
    expectTypeOf(out['mixed'] as AnthropicToolResult).toExtend<Anthropic.Messages.ToolResultBlockParam>();
    expect(out['error']?.is_error).toBe(true);
    expect(out['text']).not.toHaveProperty('is_error');
    await expect(json(out)).toMatchFileSnapshot('golden/anthropic.results.json');
  });

  it('Gemini: output or error, media as inline parts', async () => {
    const out = Object.fromEntries(
      Object.entries(results).map(([name, result]) => [
        name,
        toGeminiFunctionResponse(result, { name: 'example__tool', id: `fc_${name}` }),
      ]),
    );
    expectTypeOf(out['mixed'] as GeminiFunctionResponsePart).toExtend<Part>();
    expect(out['error']?.functionResponse.response).toEqual({ error: 'No item 9; items run 1..3.' });
    await expect(json(out)).toMatchFileSnapshot('golden/gemini.results.json');
  });

  it('structuredContent is added as JSON text unless a text block already holds it', () => {
    expect(toOpenAiChatToolMessage(results['structured'] as CallToolResult, 'c').content).toBe('42\n\n{"sum":42}');
    expect(toOpenAiChatToolMessage(results['structuredAlreadyAsText'] as CallToolResult, 'c').content).toBe(
      '{\n  "b": [1, 2],\n  "a": "x"\n}',
    );
    expect(toOpenAiChatToolMessage(results['structuredWrappingTheText'] as CallToolResult, 'c').content).toBe(
      'hello\n',
    );
    const other = { content: [{ type: 'text', text: 'hello' }], structuredContent: { content: 'bye' } } as const;
    expect(toOpenAiChatToolMessage(other as unknown as CallToolResult, 'c').content).toBe('hello\n\n{"content":"bye"}');
  });

  it('errorToolResult: a thrown error as an isError result with its code', () => {
    const error = new HostRoutingError('no tool "nope" in the catalog', { reason: 'unknown-tool', name: 'nope' });
    expect(errorToolResult(error)).toEqual({
      content: [{ type: 'text', text: 'no tool "nope" in the catalog (code -33051)' }],
      isError: true,
    });
    expect(errorToolResult(new Error('boom')).content).toEqual([{ type: 'text', text: 'boom' }]);
    expect(toAnthropicToolResult(errorToolResult('x'), 't').is_error).toBe(true);
  });

  it('rejects what is not a tools/call result', () => {
    expect(() => toAnthropicToolResult({} as CallToolResult, 't')).toThrow(/content array/);
  });
});

// The declared types of the converters themselves are what the golden files show.
expectTypeOf<OpenAiChatTool>().toExtend<OpenAI.Chat.Completions.ChatCompletionFunctionTool>();
expectTypeOf<OpenAiResponsesTool>().toExtend<OpenAI.Responses.FunctionTool>();
expectTypeOf<AnthropicTool>().toExtend<Anthropic.Messages.Tool>();
// Gemini's `Schema.type` is a string enum: our GeminiType is taken for it, with no cast.
expectTypeOf<GeminiFunctionDeclaration>().toExtend<FunctionDeclaration>();
expectTypeOf<GeminiSchema>().toExtend<GeminiSdkSchema>();
expectTypeOf<GeminiType>().toExtend<Type>();
expectTypeOf<OpenAiResponsesToolOutput>().toExtend<OpenAI.Responses.ResponseInputItem.FunctionCallOutput>();
expectTypeOf<AnthropicToolResult>().toExtend<Anthropic.Messages.ToolResultBlockParam>();
expectTypeOf<GeminiFunctionResponsePart>().toExtend<Part>();
expectTypeOf<OpenAiChatToolMessage>().toExtend<OpenAI.Chat.Completions.ChatCompletionToolMessageParam>();

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

describe('normalising for each API', () => {
  const tool = (inputSchema: Tool['inputSchema']): Tool => ({ name: 't', inputSchema });

  it('an array without items and a tuple reach OpenAI with one items schema', () => {
    const [chat] = toOpenAiChatTools(
      [
        tool({
          type: 'object',
          properties: {
            paths: { type: 'array' },
            pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
          },
        }),
      ],
      { strict: false },
    );
    expect(chat?.function.parameters.properties).toEqual({
      paths: { type: 'array', items: {} },
      pair: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        maxItems: 2,
        description: '(items in order: ["string","number"])',
      },
    });
  });

  it('Gemini OpenAPI: no empty OBJECTs, maps and untyped values as JSON text, no parameters for none', () => {
    const [none, map] = toGeminiFunctionDeclarations(
      [
        tool({ type: 'object' }),
        tool({
          type: 'object',
          properties: { env: { type: 'object', additionalProperties: { type: 'string' } }, any: {} },
          required: ['env'],
        }),
      ],
      { schema: 'openApi' },
    );
    expect(none).toEqual({ name: 't' });
    expect(map?.parameters).toEqual({
      type: 'OBJECT',
      properties: {
        env: { type: 'STRING', description: '(JSON text)' },
        any: { type: 'STRING', description: '(JSON text)' },
      },
      required: ['env'],
    });
    const args = restoreModelArguments(
      tool({ type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } } }),
      { env: '{"A":"1"}' },
      { api: 'gemini', schema: 'openApi' },
    );
    expect(args).toEqual({ env: { A: '1' } });
  });

  it('strict: optional properties nullable, mapped back; auto falls back per tool and says why, true throws', () => {
    const reports: SchemaReport[] = [];
    const optional = tool({
      type: 'object',
      properties: { q: { type: 'string' }, n: { type: 'integer', minimum: 1 } },
      required: ['q'],
    });
    const map = tool({
      type: 'object',
      properties: { env: { type: 'object', additionalProperties: { type: 'string' } } },
    });
    const [strict, loose] = toOpenAiResponsesTools([optional, { ...map, name: 'm' }], {
      onSchemaReport: (r) => reports.push(r),
    });
    expect(strict).toMatchObject({
      strict: true,
      parameters: {
        required: ['q', 'n'],
        additionalProperties: false,
        properties: { n: { type: ['integer', 'null'] } },
      },
    });
    expect(loose?.strict).toBe(false);
    expect(reports).toEqual([
      {
        api: 'openAiResponses',
        tool: 'm',
        changes: [],
        strict: {
          used: false,
          reason: '/properties/env takes other keys (additionalProperties), which strict mode cannot say',
        },
      },
    ]);
    expect(restoreModelArguments(optional, { q: 'x', n: null }, { api: 'openAiResponses' })).toEqual({ q: 'x' });
    expect(() => toOpenAiChatTools([map], { strict: true })).toThrow(InvalidArgumentError);
  });

  it('reports what it drops or widens, once per tool with reportOnce', () => {
    const reports: SchemaReport[] = [];
    const listener = reportOnce((r) => reports.push(r));
    const lossy = tool({
      type: 'object',
      properties: {
        s: { type: 'string', minLength: 2, format: 'uri' },
        o: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    });
    toOpenAiChatTools([lossy], { onSchemaReport: listener });
    toOpenAiChatTools([lossy], { onSchemaReport: listener });
    expect(reports).toHaveLength(1);
    expect(reports[0]?.changes.map((c) => `${c.path} ${c.keyword} ${c.kind}`)).toEqual([
      '/properties/s minLength dropped',
      '/properties/s format dropped',
      '/properties/o oneOf widened',
    ]);
    const [chat] = toOpenAiChatTools([lossy]);
    expect(chat?.function.parameters.properties['s']).toMatchObject({ description: '(minLength: 2; format: "uri")' });
  });

  it('Anthropic: a root union becomes one object; draft-07 tuples become prefixItems', () => {
    const [anthropic] = toAnthropicTools([
      tool({
        anyOf: [
          { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          {
            type: 'object',
            properties: { path: { type: 'string' }, t: { items: [{ type: 'string' }] } },
            required: ['path'],
          },
        ],
      } as unknown as Tool['inputSchema']),
    ]);
    expect(anthropic?.input_schema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        path: { type: 'string' },
        t: { type: 'array', prefixItems: [{ type: 'string' }] },
      },
      description: '(one of these sets of properties: {id} | {path, t})',
    });
  });
});
