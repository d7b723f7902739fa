/**
 * Every converted tool schema checked against each provider's documented rules
 * (test/host/providerRules/, written from the providers' docs, independent of src/), and for
 * OpenAI strict mode also against OpenAI's own published transformer (`toStrictJsonSchema`
 * of the openai package: it throws on what strict mode cannot take). The corpus: the tools of
 * the real servers the project installs (server-everything, server-filesystem, the v1 SDK's
 * examples and test server, this repository's example server), listed live, plus fast-check
 * schemas covering every construct. Expected: 0 rejections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { McpClient } from '../../src/client/client.js';
import type { Transport } from '../../src/transport/transport.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import type { Tool } from '../../src/wire/protocol.js';
import {
  toAnthropicTools,
  toGeminiFunctionDeclarations,
  toOpenAiChatTools,
  toOpenAiResponsesTools,
} from '../../src/host/models/modelTools.js';
import type { SchemaReport } from '../../src/host/models/schema/schemaChanges.js';
import {
  EVERYTHING_SERVER,
  FILESYSTEM_SERVER,
  V1_SDK_SERVER,
  nodeStdio,
  spawnLoopbackServer,
  type LoopbackServer,
} from '../fakes/publishedServers.js';
import { inMemoryExample } from './inMemoryExample.js';
import { checkOpenAi } from './providerRules/openAiRules.js';
import { checkAnthropic } from './providerRules/anthropicRules.js';
import { checkGeminiJsonSchema, checkGeminiOpenApi } from './providerRules/geminiRules.js';
import { inputSchema } from './providerRules/schemaArbitrary.js';

const require = createRequire(import.meta.url);
const V1_EXAMPLES = join(
  dirname(require.resolve('@modelcontextprotocol/sdk/server/mcp.js')),
  '..',
  'examples',
  'server',
);
const clientInfo = { name: 'provider-rules', version: '0.0.0' };

/** Every provider's verdict on one tool; strict: whether OpenAI took it in strict form. */
function verdicts(tool: Tool): { rejections: string[]; strict: boolean; reports: SchemaReport[] } {
  const reports: SchemaReport[] = [];
  const onSchemaReport = (r: SchemaReport): void => void reports.push(r);
  const rejections: string[] = [];
  const add = (api: string, found: string[]): void => {
    for (const line of found) rejections.push(`${tool.name} ${api}: ${line}`);
  };
  const [chat] = toOpenAiChatTools([tool], { onSchemaReport });
  const [chatLoose] = toOpenAiChatTools([tool], { strict: false });
  const [responses] = toOpenAiResponsesTools([tool]);
  const strict = chat?.function.strict === true;
  add('openAiChat', checkOpenAi(chat?.function.parameters, strict));
  add('openAiChat loose', checkOpenAi(chatLoose?.function.parameters, false));
  add('openAiResponses', checkOpenAi(responses?.parameters, responses?.strict === true));
  if (strict) {
    try {
      const openAiOwn = toStrictJsonSchema(structuredClone(chat?.function.parameters) as never);
      expect(openAiOwn, `${tool.name}: openai's toStrictJsonSchema changed a strict schema`).toEqual(
        chat?.function.parameters,
      );
    } catch (error) {
      if ((error as { name?: string }).name === 'AssertionError') throw error;
      rejections.push(`${tool.name} openai toStrictJsonSchema: ${(error as Error).message}`);
    }
  }
  add('anthropic', checkAnthropic(toAnthropicTools([tool], { onSchemaReport })[0]?.input_schema));
  add(
    'gemini',
    checkGeminiJsonSchema(toGeminiFunctionDeclarations([tool], { onSchemaReport })[0]?.parametersJsonSchema),
  );
  add(
    'geminiOpenApi',
    checkGeminiOpenApi(toGeminiFunctionDeclarations([tool], { schema: 'openApi', onSchemaReport })[0]?.parameters),
  );
  return { rejections, strict, reports };
}

describe('the real corpus: tools of the servers the project installs', () => {
  const corpus: Array<{ server: string; tool: Tool }> = [];
  let http: LoopbackServer | undefined;
  let dir: string;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'provider-rules-')));
    http = await spawnLoopbackServer(join(V1_EXAMPLES, 'simpleStreamableHttp.js'), [], '/mcp', { MCP_PORT: '0' });
    const example = inMemoryExample();
    const sources: Array<[string, () => Transport]> = [
      ['server-everything', () => nodeStdio(EVERYTHING_SERVER, ['stdio'])],
      ['server-filesystem', () => nodeStdio(FILESYSTEM_SERVER, [dir])],
      ['v1 sdk test server', () => nodeStdio(V1_SDK_SERVER)],
      ['v1 example mcpServerOutputSchema', () => nodeStdio(join(V1_EXAMPLES, 'mcpServerOutputSchema.js'))],
      ['v1 example toolWithSampleServer', () => nodeStdio(join(V1_EXAMPLES, 'toolWithSampleServer.js'))],
      ['v1 example simpleStreamableHttp', () => new StreamableHttpTransport((http as LoopbackServer).url)],
      ['example server', () => example.location.transport()],
    ];
    await Promise.all(
      sources.map(async ([server, transport]) => {
        const client = new McpClient({ transport: transport(), clientInfo });
        try {
          await client.connect();
          for (const tool of (await client.listAllTools()).items) corpus.push({ server, tool });
        } finally {
          await client.close();
        }
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await http?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('every converted schema passes every provider’s rules, and strict mode takes most', () => {
    expect(new Set(corpus.map((c) => c.server)).size).toBe(7);
    expect(corpus.length).toBeGreaterThan(40);
    const rejections: string[] = [];
    let strict = 0;
    for (const { tool } of corpus) {
      const verdict = verdicts(tool);
      rejections.push(...verdict.rejections);
      if (verdict.strict) strict++;
    }
    expect(rejections).toEqual([]);
    console.info(
      `real corpus: ${corpus.length} tools, strict mode for ${strict} (${((100 * strict) / corpus.length).toFixed(1)}%)`,
    );
    expect(strict / corpus.length).toBeGreaterThan(0.8);
  });
});

describe('generated schemas (fast-check): every construct', () => {
  it('pass every provider’s rules', () => {
    let strict = 0;
    let runs = 0;
    fc.assert(
      fc.property(inputSchema, (schema) => {
        runs++;
        const verdict = verdicts({ name: 'generated', inputSchema: schema as Tool['inputSchema'] });
        if (verdict.strict) strict++;
        expect(verdict.rejections).toEqual([]);
      }),
      { numRuns: 400, seed: 27 },
    );
    console.info(
      `generated corpus: ${runs} schemas, strict mode for ${strict} (${((100 * strict) / runs).toFixed(1)}%)`,
    );
    expect(runs).toBeGreaterThanOrEqual(200);
  });
});

describe('the checkers reject what the providers reject', () => {
  it('the failures of issue 27, sent as the servers wrote them', () => {
    expect(checkOpenAi({ type: 'object', properties: { paths: { type: 'array' } } }, false)).toEqual([
      '/properties/paths: array schema missing items',
    ]);
    expect(
      checkOpenAi({ type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }] } } }, false),
    ).toContain('/properties/pair: array schema missing items');
    expect(checkOpenAi({ type: 'object', properties: { a: { type: 'string' } } }, true)).toEqual([
      '/: additionalProperties is not false',
      '/properties/a: not required',
    ]);
    expect(checkGeminiOpenApi({ type: 'OBJECT', properties: {} })).toEqual([
      '/: properties should be non-empty for OBJECT type',
    ]);
    expect(checkGeminiOpenApi({ type: 'OBJECT', properties: { env: { type: 'OBJECT' }, x: {} } })).toEqual([
      '/properties/env: properties should be non-empty for OBJECT type',
      '/properties/x: no type',
    ]);
    expect(checkAnthropic({ type: 'object', anyOf: [{ required: ['a'] }] })).toEqual(['/: anyOf at the top level']);
    expect(checkGeminiJsonSchema({ type: 'object', properties: { a: { type: 'string', minLength: 1 } } })).toEqual([
      '/properties/a: keyword minLength',
    ]);
  });
});
