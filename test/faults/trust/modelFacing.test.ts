/**
 * What a model reads: one model-facing tool (an override's words, never the text it replaced,
 * in every converter, search result, `tool_search` text, artifact and error), one entry for
 * every model tool call (the skill tools through the tool session, against the skills server
 * the project uses), and "did you mean" for an unknown name.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost as NodeHost } from '../../../src/hostNode.js';
import { McpHost } from '../../../src/host/host.js';
import {
  errorToolResult,
  toAnthropicToolSet,
  toAnthropicTools,
  toGeminiFunctionDeclarations,
  toGeminiToolSet,
  toOpenAiChatToolSet,
  toOpenAiChatTools,
  toOpenAiResponsesToolSet,
  toOpenAiResponsesTools,
} from '../../../src/host.js';
import { loadSkillsCatalog, skillsServerFactory, EXAMPLE_SKILL_FILES } from '../../../examples/skillsCatalog.js';
import { inMemoryOfficial } from '../../fakes/inMemoryOfficial.js';

const SERVER = fileURLToPath(new URL('./children/echo-arguments.mjs', import.meta.url));
const clientInfo = { name: 'trust-faults', version: '0.0.0' };
/** The server's own description of `record`, which the override replaces. */
const REPLACED = 'Stores a note with its tags and owner.';
const OWN_WORDS = 'Keeps a memo for later reference.';

const hosts: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

describe('one model-facing tool', () => {
  async function overridden(): Promise<NodeHost> {
    const h = new NodeHost({
      clientInfo,
      // Deferred, so that search, tool_search and the native tool sets all come into play.
      contextBudget: { defer: 'always', maxResultTokens: 50 },
      servers: {
        echo: {
          type: 'stdio',
          command: process.execPath,
          args: [SERVER],
          overrides: { record: { description: OWN_WORDS, defaults: { owner: { name: 'host' } }, hide: true } },
        },
      },
    });
    hosts.push(h);
    await h.connect();
    return h;
  }

  it('no byte a model can be sent holds the replaced description; the override’s own words find the tool', async () => {
    const h = await overridden();
    const texts: string[] = [];
    const tools = h.tools();
    texts.push(
      JSON.stringify(toAnthropicTools(tools)),
      JSON.stringify(toOpenAiChatTools(tools)),
      JSON.stringify(toOpenAiResponsesTools(tools)),
      JSON.stringify(toGeminiFunctionDeclarations(tools)),
    );
    const session = h.toolSession();
    const search = await session.callTool('tool_search', { query: 'memo later reference' });
    texts.push(JSON.stringify(search.result));
    expect(search.loaded).toEqual(['echo__record']);
    const set = session.tools();
    texts.push(
      JSON.stringify(toAnthropicToolSet(set)),
      JSON.stringify(toOpenAiResponsesToolSet(set)),
      JSON.stringify(toOpenAiChatToolSet(set)),
      JSON.stringify(toGeminiToolSet(set)),
    );
    const found = h.searchTools('memo');
    expect(found.matches.map((m) => m.tool.exposedName)).toEqual(['echo__record']);
    texts.push(JSON.stringify(found.matches.map((m) => ({ ...m, tool: { ...m.tool, tool: undefined } }))));
    // The server's words do not find it any more.
    expect(h.searchTools('stores').matches.map((m) => m.tool.exposedName)).not.toContain('echo__record');
    // A result large enough to become an artifact, and its pages.
    const big = await session.callTool('echo__record', { note: 'x'.repeat(2000) });
    texts.push(JSON.stringify(big.result));
    expect(big.artifact).toBeDefined();
    const page = await session.callTool('read_artifact', { id: big.artifact?.id });
    texts.push(JSON.stringify(page.result));
    // Errors: an unknown name (with suggestions), a bad built-in call.
    texts.push(JSON.stringify((await session.callTool('echo__recrod', {})).result));
    texts.push(JSON.stringify(errorToolResult(await h.callTool('nope', {}).catch((e: unknown) => e))));
    texts.push(h.instructions());
    for (const text of texts) expect(text).not.toContain(REPLACED);
    expect(texts.join('\n')).toContain(OWN_WORDS);
    // The hidden argument is filled on the wire, never shown.
    expect(JSON.stringify(toAnthropicTools(tools))).not.toContain('"owner"');
  });

  it('an unknown tool name gets up to three nearest exposed names, in the error and in what the model reads', async () => {
    const h = await overridden();
    const error = await h.callTool('echo__recrod', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -33051, data: { reason: 'unknown-tool', suggestions: ['echo__record'] } });
    const read = await h.toolSession().callTool('record', {});
    expect(read.result.isError).toBe(true);
    expect(JSON.stringify(read.result.content)).toContain('Did you mean \\"echo__record\\"?');
    const far = await h.callTool('zzzzzzzz', {}).catch((e: unknown) => e);
    expect((far as { data: { suggestions?: unknown } }).data.suggestions).toBeUndefined();
  });
});

describe('one entry for every model tool call', () => {
  it('the tool session lists and runs load_skill and read_skill_file, bounded like any result', async () => {
    const catalog = await loadSkillsCatalog({ files: { ...EXAMPLE_SKILL_FILES } });
    const docs = inMemoryOfficial(skillsServerFactory(catalog));
    const h = new McpHost({
      clientInfo,
      contextBudget: { maxResultTokens: 1000 },
      servers: { docs: { type: 'custom', transport: () => docs.transport() } },
      skills: { trusted: ['docs'] },
    });
    hosts.push(h);
    await h.connect();
    const session = h.toolSession();
    expect(session.tools().skills).toBe(false); // nothing listed yet
    await h.skills();
    const set = session.tools();
    expect(set.skills).toBe(true);
    expect(toOpenAiChatToolSet(set).map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['load_skill', 'read_skill_file']),
    );
    const loaded = await session.callTool('load_skill', { name: 'docs__release-notes' });
    expect(loaded.result.isError).toBeUndefined();
    expect(JSON.stringify(loaded.result.content)).toContain('SKILL.md of skill docs__release-notes');
    const file = await session.callTool('read_skill_file', {
      name: 'docs__release-notes',
      path: 'references/STYLE.md',
    });
    expect(JSON.stringify(file.result.content)).toContain('One line per change');
    const unknown = await session.callTool('load_skill', { name: 'release-notes' });
    expect(unknown.result.isError).toBe(true);
    expect(JSON.stringify(unknown.result.content)).not.toContain('no tool');
  });
});
