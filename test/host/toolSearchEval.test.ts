/**
 * The tool search evaluation (issue 42): labelled queries (searchEval/evalSet.ts) over the tools
 * of the real servers the project installs (searchEval/realTools.json, captured by
 * searchEval/captureTools.mjs) beside a generated 320-tool server, as one host catalog.
 * Recall@5 (the share of each query's wanted tools in its top five, averaged) and MRR (1 / the
 * rank of the first wanted tool); docs/performance.md reports the figures this prints.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type HostTool, type ServerContribution } from '../../src/host/catalog/catalog.js';
import { ToolIndex } from '../../src/host/contextBudget/toolIndex.js';
import { searchTools } from '../../src/host/contextBudget/toolSearch.js';
import type { Tool } from '../../src/wire/protocol.js';
import { EVAL_SET, type QueryKind } from './searchEval/evalSet.js';

const VERBS = ['create', 'list', 'update', 'delete', 'archive', 'export', 'import', 'search', 'merge', 'sync'];
const realTools = JSON.parse(readFileSync(new URL('./searchEval/realTools.json', import.meta.url), 'utf8')) as Record<
  string,
  Tool[]
>;

/** The tools of test/fakes/children/generated-tools.mjs: `<topic>_<verb>_<n>`. */
function generated(topic: string, count: number): Tool[] {
  return Array.from({ length: count }, (_, i) => {
    const verb = VERBS[i % VERBS.length] as string;
    return {
      name: `${topic}_${verb}_${i}`,
      description: `${verb[0]?.toUpperCase()}${verb.slice(1)}s ${topic} record number ${i} in the ${topic} system.`,
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', description: `The ${topic} record id` },
          note: { type: 'string', description: 'A free-text note kept with the change' },
        },
        required: ['id'],
      },
    };
  });
}

function contribution(server: string, tools: readonly Tool[]): ServerContribution {
  return { server, prefix: server, tools, prompts: [], resources: [], resourceTemplates: [] };
}

const catalog = buildCatalog([
  ...Object.entries(realTools).map(([server, tools]) => contribution(server, tools)),
  contribution('crm', generated('crm', 320)),
]);
const index = new ToolIndex();
index.update(catalog.tools);
const search = (query: string, limit: number): string[] =>
  searchTools(index, [], query, { limit }).matches.map((m) => m.tool.exposedName);

interface Figures {
  queries: number;
  recallAt5: number;
  mrr: number;
  misses: string[];
}

function evaluate(kind?: QueryKind): Figures {
  const queries = EVAL_SET.filter((item) => kind === undefined || item.kind === kind);
  let recall = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const { query, want } of queries) {
    const ranked = search(query, 10);
    const top = new Set(ranked.slice(0, 5));
    const found = want.filter((name) => top.has(name)).length;
    recall += found / want.length;
    const first = ranked.findIndex((name) => want.includes(name));
    reciprocal += first === -1 ? 0 : 1 / (first + 1);
    if (found < want.length) misses.push(`${query} -> ${ranked.slice(0, 5).join(', ')}`);
  }
  return { queries: queries.length, recallAt5: recall / queries.length, mrr: reciprocal / queries.length, misses };
}

describe('tool search over the real servers (evaluation set)', () => {
  it('the catalog is the real servers plus the 320 generated tools, and every label names one of them', () => {
    expect(catalog.tools.length).toBe(Object.values(realTools).flat().length + 320);
    const names = new Set(catalog.tools.map((t: HostTool) => t.exposedName));
    for (const { want } of EVAL_SET) for (const name of want) expect(names, name).toContain(name);
    expect(EVAL_SET.length).toBeGreaterThanOrEqual(60);
  });

  it('recall@5 is at least 0.95 over the whole set', () => {
    const rows = (['exact', 'paraphrase', 'typo', 'language', undefined] as const).map((kind) => {
      const f = evaluate(kind);
      return {
        kind: kind ?? 'all',
        queries: f.queries,
        recallAt5: f.recallAt5.toFixed(3),
        mrr: f.mrr.toFixed(3),
        misses: f.misses,
      };
    });
    console.log(JSON.stringify(rows, null, 2));
    expect(evaluate().recallAt5).toBeGreaterThanOrEqual(0.95);
    // Exact names never miss, and come first.
    expect(evaluate('exact')).toMatchObject({ recallAt5: 1, mrr: 1 });
  });

  it('a query that names six tools exactly returns all six in its top ten, ahead of siblings that share their words', () => {
    // Plain BM25 left update_note out of the top ten: the 320 generated tools share "create",
    // "list", "search" and "update" with these names.
    const six = [
      `${FS}create_directory`,
      `${FS}list_directory`,
      `${FS}search_files`,
      `${EX}update_note`,
      `${EX}create_ticket`,
      `${EX}add_item`,
    ];
    const query = 'call create_directory, list_directory, search_files, update_note, create_ticket and add_item';
    expect(new Set(search(query, 10).slice(0, 6))).toEqual(new Set(six));
    // Names two servers share: both tools of each (eight tools for six names).
    const shared = search('read_file list_directory get-time echo add get-env', 10);
    for (const name of [
      `${FS}read_file`,
      `${FS}list_directory`,
      'basicVanillajs__get-time',
      'basicPreact__get-time',
      'everything__echo',
      `${EX}echo`,
      `${EX}add`,
      'everything__get-env',
    ])
      expect(shared.slice(0, 8)).toContain(name);
    // A name whose sibling has every one of its words and more comes first.
    expect(search('list_directory', 10)[0]).toBe(`${FS}list_directory`);
  });
});

const FS = 'filesystem__';
const EX = 'example__';
