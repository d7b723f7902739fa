/**
 * The context budget (issue 30): tool search with deferred definitions, and bounded tool
 * results, end to end against real servers (the SDK's, in this process) for every converter.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { type McpHostOptions } from '../../src/host/servers/hostOptions.js';
import {
  toAnthropicToolSet,
  toGeminiToolSet,
  toOpenAiChatToolSet,
  toOpenAiResponsesToolSet,
} from '../../src/host/contextBudget/toolSetConverters.js';
import {
  toAnthropicToolResult,
  toGeminiFunctionResponse,
  toOpenAiChatToolMessage,
  toOpenAiResponsesToolOutput,
} from '../../src/host/models/modelToolResults.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { charsForTokens, estimateTokens } from '../../src/host/contextBudget/tokens.js';
import { dumpText, generatedToolsServer, lazyGeneratedServer } from './generatedToolsServer.js';
import { checkAnthropicTools, checkFunctionNames, checkOpenAiResponsesTools } from './providerRules/toolSearchRules.js';

const clientInfo = { name: 'budget-test', version: '1.0.0' };
const TOPICS = ['crm', 'billing', 'hr', 'wiki', 'ci', 'mail'];
const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function sixServers(options: Partial<McpHostOptions> = {}): Promise<McpHost> {
  const servers = Object.fromEntries(TOPICS.map((t) => [t, generatedToolsServer(t, 49).location]));
  const host = new McpHost({ clientInfo, servers, ...options });
  hosts.push(host);
  await host.connect();
  return host;
}

/** Every name of a tool set entry, whatever its API's shape. */
const names = (given: readonly object[]): string[] =>
  (given as ReadonlyArray<Record<string, unknown>>).map(
    (t) => (t['function'] as { name: string } | undefined)?.name ?? (t['name'] as string) ?? (t['type'] as string),
  );

describe('tool search over 300 tools on 6 servers', () => {
  it('a model turn of every provider sees only the search tool and the always-loaded tools', async () => {
    const host = await sixServers({ contextBudget: { alwaysLoad: ['crm__crm_create_0'] } });
    expect(host.tools()).toHaveLength(300);
    const set = host.toolSession().tools();
    expect(set.loaded.map((t) => t.exposedName)).toEqual(['crm__crm_create_0']);
    expect(set.deferred).toHaveLength(299);

    const anthropic = toAnthropicToolSet(set);
    expect(checkAnthropicTools(anthropic)).toEqual([]);
    const anthropicLoaded = anthropic.filter((t) => !('defer_loading' in t && t.defer_loading === true));
    expect(names(anthropicLoaded)).toEqual(['crm__crm_create_0', 'tool_search_tool_bm25']);
    expect(anthropic.filter((t) => 'defer_loading' in t)).toHaveLength(299);

    const responses = toOpenAiResponsesToolSet(set);
    expect(checkOpenAiResponsesTools(responses)).toEqual([]);
    const responsesLoaded = responses.filter((t) => !('defer_loading' in t && t.defer_loading === true));
    expect(names(responsesLoaded)).toEqual(['crm__crm_create_0', 'tool_search']);

    const chat = toOpenAiChatToolSet(set);
    expect(names(chat)).toEqual(['crm__crm_create_0', 'tool_search']);
    expect(checkFunctionNames(names(chat))).toEqual([]);
    const gemini = toGeminiToolSet(set);
    expect(names(gemini)).toEqual(['crm__crm_create_0', 'tool_search']);

    // Without native search, Anthropic and Responses get the portable tool too.
    expect(names(toAnthropicToolSet(set, { nativeSearch: false }))).toEqual(['crm__crm_create_0', 'tool_search']);
    expect(names(toOpenAiResponsesToolSet(set, { nativeSearch: false }))).toEqual(['crm__crm_create_0', 'tool_search']);
  });

  it('searching then calling a found tool works, and the next turn carries it', async () => {
    const host = await sixServers();
    const session = host.toolSession();
    const found = await session.callTool('tool_search', { query: 'archive billing 44', limit: 3 });
    expect(found.result.isError).toBeUndefined();
    expect(found.loaded[0]).toBe('billing__billing_archive_44');
    expect(found.loaded).toHaveLength(3);
    const text = (found.result.content[0] as { text: string }).text;
    expect(text).toContain('billing__billing_archive_44');
    // The next turn's portable definitions carry the found tools, after the search tool.
    const chat = names(toOpenAiChatToolSet(session.tools()));
    expect(chat).toEqual(['tool_search', ...found.loaded]);
    const called = await session.callTool('billing__billing_archive_44', { id: 'B-1' });
    expect(called.result).toMatchObject({ content: [{ type: 'text', text: 'billing_archive_44 done for B-1' }] });
    expect(called.loaded).toEqual([]);
  });

  it('a deferred tool called directly by name is loaded and called, never unknown', async () => {
    const host = await sixServers();
    const session = host.toolSession();
    expect(session.tools().deferred.map((t) => t.exposedName)).toContain('hr__hr_delete_3');
    const outcome = await session.callTool('hr__hr_delete_3', { id: 'E-9' });
    expect(outcome.result).toMatchObject({ content: [{ type: 'text', text: 'hr_delete_3 done for E-9' }] });
    expect(outcome.loaded).toEqual(['hr__hr_delete_3']);
    expect(session.tools().found.map((t) => t.exposedName)).toEqual(['hr__hr_delete_3']);
    // A made-up name is an error result the model can read, not a throw.
    const unknown = await session.callTool('hr__no_such_tool', {});
    expect(unknown.result.isError).toBe(true);
    expect((unknown.result.content[0] as { text: string }).text).toContain('-33051');
  });

  it('under the threshold nothing is deferred; defer "always" and "never" win per server', async () => {
    const small = new McpHost({
      clientInfo,
      servers: {
        a: generatedToolsServer('a', 3).location,
        b: { ...generatedToolsServer('b', 3).location, defer: 'always' },
      },
    });
    hosts.push(small);
    await small.connect();
    const set = small.toolSession().tools();
    expect(set.loaded.map((t) => t.server)).toEqual(['a', 'a', 'a', 'a']);
    expect(set.deferred.map((t) => t.server)).toEqual(['b', 'b', 'b', 'b']);

    const big = await sixServers({ contextBudget: { deferThresholdTokens: 1 } });
    expect(big.toolSession().tools().loaded).toEqual([]);
    const never = await sixServers({ contextBudget: { defer: 'never' } });
    expect(never.toolSession().tools().deferred).toEqual([]);
  });
});

describe('host.searchTools', () => {
  it('ranks by BM25, picks exact names with select:, and follows the catalog', async () => {
    const host = await sixServers();
    const first = host.searchTools('merge wiki');
    expect(first.matches[0]?.tool.exposedName).toMatch(/^wiki__wiki_merge_/);
    expect(host.searchTools('merge wiki').matches.map((m) => m.tool.exposedName)).toEqual(
      first.matches.map((m) => m.tool.exposedName),
    );
    const select = host.searchTools('select:ci__ci_sync_9, mail_list_1,nope');
    expect(select.matches.map((m) => m.tool.exposedName)).toEqual(['ci__ci_sync_9', 'mail__mail_list_1']);
    expect(select.missing).toEqual(['nope']);
    expect(select.reason).toContain('"nope"');
    // Parameter descriptions are searched: "free-text note" is only there.
    expect(host.searchTools('free-text note kept').matches).toHaveLength(10);
    // Limited to some servers.
    const onlyHr = host.searchTools('record', { servers: ['hr'], limit: 100 });
    expect(new Set(onlyHr.matches.map((m) => m.tool.server))).toEqual(new Set(['hr']));
    // A server removed leaves the index with its tools.
    await host.remove('hr');
    const gone = host.searchTools('hr', { servers: ['hr'] });
    expect(gone.matches).toEqual([]);
    expect(gone.reason).toContain('no server is named "hr"');
    expect(host.searchTools('   ').reason).toBe('the query has no words to search for');
    expect(() => host.searchTools('x', { limit: 0 })).toThrow(InvalidArgumentError);
  });

  it('says when a server filtered in is not open', async () => {
    const host = new McpHost({
      clientInfo,
      servers: {
        ok: generatedToolsServer('ok', 2).location,
        down: {
          type: 'custom',
          transport: () => {
            throw new Error('no way in');
          },
        },
      },
    });
    hosts.push(host);
    await host.connect();
    const result = host.searchTools('create', { servers: ['down'] });
    expect(result.matches).toEqual([]);
    expect(result.reason).toMatch(/server "down" is failed/);
  });
});

describe('bounded tool results', () => {
  it('a 2 MB result reaches every converter within its budget, with the marker; the artifact reads back whole', async () => {
    const host = await sixServers({ contextBudget: { maxResultTokens: 10_000 } });
    const session = host.toolSession();
    const outcome = await session.callTool('crm__crm_dump', {});
    expect(outcome.truncated).toBe(true);
    const artifact = outcome.artifact;
    expect(artifact?.text).toBe(dumpText(2_000_000));
    expect(host.artifacts.get(artifact?.id ?? '')).toBe(artifact);
    // The default estimate's characters for 10,000 tokens of this text (letters, digits, spaces).
    const budgetChars = charsForTokens(10_000, dumpText(2_000_000), estimateTokens);
    const texts = [
      toOpenAiChatToolMessage(outcome.result, 'c1').content,
      toOpenAiResponsesToolOutput(outcome.result, 'c1').output as string,
      (toAnthropicToolResult(outcome.result, 't1').content[0] as { text: string }).text,
      (
        toGeminiFunctionResponse(outcome.result, { name: 'crm__crm_dump' }).functionResponse.response as {
          output: string;
        }
      ).output,
    ];
    for (const text of texts) {
      expect(text.length).toBeLessThanOrEqual(budgetChars);
      expect(text.length).toBeGreaterThan(budgetChars - 50);
      expect(text).toContain(`left out here. The whole result is kept as artifact ${artifact?.id}`);
      expect(text.startsWith('line 0000000: ')).toBe(true);
    }
    // The next turn offers read_artifact; paging from 0 returns the whole text.
    expect(names(toOpenAiChatToolSet(session.tools()))).toContain('read_artifact');
    let offset: number | undefined = 0;
    let whole = '';
    let pages = 0;
    while (offset !== undefined) {
      const page = await session.callTool('read_artifact', { id: artifact?.id ?? '', offset });
      const [body, footer] = page.result.content as Array<{ text: string }>;
      expect(body!.text.length).toBeLessThanOrEqual(budgetChars);
      whole += body!.text;
      pages++;
      const next = /"offset":(\d+)/.exec(footer!.text);
      offset = next === null ? undefined : Number(next[1]);
    }
    expect(whole).toBe(artifact?.text);
    expect(pages).toBe(Math.ceil(2_000_000 / (budgetChars - 200)));
  });

  it("honours a tool's maxResultSizeChars under the host bound, and per-server bounds", async () => {
    const host = await sixServers();
    const tool = { ...host.catalog.toolsByName.get('crm__crm_dump')! };
    const hinted = { ...tool, tool: { ...tool.tool, _meta: { 'anthropic/maxResultSizeChars': 5000 } } };
    const big = { content: [{ type: 'text' as const, text: dumpText(50_000) }] };
    const budget = (host as unknown as { budget: { bound: (...a: unknown[]) => { result: typeof big } } }).budget;
    const cut = budget.bound(big, hinted, 'crm__crm_dump').result.content[0]!.text;
    expect(cut.length).toBeLessThanOrEqual(5000);
    const uncut = host.boundToolResult(big, 'crm__crm_dump');
    expect(uncut.truncated).toBe(false);
    expect(uncut.result).toEqual(big);
  });

  it('compacts JSON text, says structuredContent once, and routes images to the app when asked', async () => {
    const host = await sixServers({ contextBudget: { route: { image: 'app' } } });
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    const bounded = host.boundToolResult(
      {
        content: [{ type: 'text', text: '{\n  "a": 1,\n  "b": [1, 2]\n}' }, image],
        structuredContent: { other: true },
      },
      'crm__crm_dump',
    );
    expect(bounded.result.content).toEqual([
      { type: 'text', text: '{"a":1,"b":[1,2]}' },
      { type: 'text', text: '[image (image/png) held for the app, not shown to the model]' },
      { type: 'text', text: '{"other":true}' },
    ]);
    expect(bounded.result.structuredContent).toBeUndefined();
    expect(bounded.forApp).toEqual([image]);
  });
});

describe('host.instructions', () => {
  it("tags each server's instructions and bounds them", async () => {
    const host = new McpHost({
      clientInfo,
      servers: {
        a: generatedToolsServer('a', 1, { instructions: 'Use a for apples.' }).location,
        b: generatedToolsServer('b', 1, { instructions: `B ${'b'.repeat(100)} </server-instructions> done` }).location,
        c: generatedToolsServer('c', 1).location,
      },
    });
    hosts.push(host);
    await host.connect();
    expect(host.instructions({ maxChars: 50 })).toBe(
      `<server-instructions server="a">\nUse a for apples.\n</server-instructions>\n\n` +
        `<server-instructions server="b">\nB ${'b'.repeat(48)}\n[… ${2 + 100 + 28 - 50} more characters left out]\n</server-instructions>`,
    );
    expect(host.instructions()).toContain('&lt;/server-instructions> done');
  });
});

describe('lazy servers', () => {
  it('list the kept catalog without starting, and start on the first call', async () => {
    const { MemoryCacheStore } = await import('../../src/cache/cacheStore.js');
    const store = new MemoryCacheStore();
    const lazy = lazyGeneratedServer('lazy', 3);
    const entry = lazy.entry;
    // No list kept yet: the first host starts it, and keeps its list.
    const first = new McpHost({ clientInfo, cacheStore: store, servers: { lazy: entry } });
    hosts.push(first);
    await first.connect();
    expect(first.server('lazy')?.state).toBe('open');
    expect(lazy.connections).toBe(1);
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 0));

    // A second host on the same store lists the tools and does not start the server.
    const second = new McpHost({ clientInfo, cacheStore: store, servers: { lazy: entry } });
    hosts.push(second);
    await second.connect();
    expect(second.server('lazy')?.state).toBe('new');
    expect(lazy.connections).toBe(1);
    expect(second.tools().map((t) => [t.exposedName, t.availability])).toEqual([
      ['lazy__lazy_create_0', 'unavailable'],
      ['lazy__lazy_list_1', 'unavailable'],
      ['lazy__lazy_update_2', 'unavailable'],
      ['lazy__lazy_dump', 'unavailable'],
    ]);
    expect(second.searchTools('update lazy').matches[0]?.tool.exposedName).toBe('lazy__lazy_update_2');
    const result = await second.callTool('lazy__lazy_update_2', { id: 'L-1' });
    expect(result.content).toEqual([{ type: 'text', text: 'lazy_update_2 done for L-1' }]);
    expect(lazy.connections).toBe(2);
    expect(second.server('lazy')?.state).toBe('open');
    expect(second.tools().every((t) => t.availability === 'available')).toBe(true);
  });
});
