// W10 (issue 30), bundled by bench/host.mjs with esbuild together with src/ (the index and deferral are
// internal): a catalog of 5,000 tools over 20 servers; index build, catalog updates (each: one
// server's list changes one tool: catalog rebuilt from the previous one, index updated, and
// the first search after it: "change to searchable"), one search (p50/p99 over varied queries:
// words, exact tool names, typos), one conversion per provider of the turn's tool set, memory
// per tool.
import { buildCatalog } from '../src/host/catalog/catalog.ts';
import { ToolIndex } from '../src/host/contextBudget/toolIndex.ts';
import { splitDeferred } from '../src/host/contextBudget/deferral.ts';
import { estimateTokens } from '../src/host/contextBudget/tokens.ts';
import {
  toAnthropicToolSet,
  toGeminiToolSet,
  toOpenAiChatToolSet,
  toOpenAiResponsesToolSet,
} from '../src/host/contextBudget/toolSetConverters.ts';

const VERBS = ['create', 'list', 'update', 'delete', 'archive', 'export', 'import', 'search', 'merge', 'sync'];
const NOUNS = [
  'issue',
  'invoice',
  'ticket',
  'page',
  'build',
  'message',
  'user',
  'order',
  'file',
  'event',
  'report',
  'alert',
];

function tool(server, i) {
  const verb = VERBS[i % VERBS.length];
  const noun = NOUNS[(i * 7 + server) % NOUNS.length];
  return {
    name: `${verb}_${noun}_${i}`,
    description: `${verb} a ${noun} in service ${server}; returns the ${noun} record with its id, owner and state.`,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: `The ${noun} id` },
        owner: { type: 'string', description: 'Who owns it' },
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Most items' },
      },
      required: ['id'],
    },
  };
}

function contributions(toolsPerServer, change = -1) {
  return Array.from({ length: 20 }, (_, s) => ({
    server: `s${s}`,
    prefix: `s${s}`,
    tools: Array.from({ length: toolsPerServer }, (_, i) => base[s][i]).map((t, i) =>
      s === 0 && i === change ? { ...t, description: `${t.description} (changed)` } : t,
    ),
    prompts: [],
    resources: [],
    resourceTemplates: [],
  }));
}

const PER = 250;
/** Catalog updates timed per sample. */
const UPDATES = 10;
const base = Array.from({ length: 20 }, (_, s) => Array.from({ length: PER }, (_, i) => tool(s, i)));
const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
};
const gc = globalThis.gc;

export function run(samples) {
  const out = {
    catalog: [],
    build: [],
    update: [],
    searchable: [],
    anthropic: [],
    responses: [],
    chat: [],
    gemini: [],
  };
  const searches = [];
  // CPU time of each search (µs resolution): on a loaded machine, wall time also counts waits.
  const searchCpu = [];
  let bytesPerTool = 0;
  for (let r = 0; r < samples; r++) {
    const catalog = buildCatalog(contributions(PER));
    gc?.();
    const before = process.memoryUsage().heapUsed;
    let t = performance.now();
    const index = new ToolIndex();
    index.update(catalog.tools);
    out.build.push(performance.now() - t);
    gc?.();
    bytesPerTool = (process.memoryUsage().heapUsed - before) / catalog.tools.length;
    // A host that has searched before (the first search makes the sorted vocabulary).
    index.search('create issue', 5, () => true);
    // Catalog updates, one after another: each changes one tool of one server (the servers'
    // lists made before the clock starts, as a host's servers hold theirs; the garbage of the
    // build collected first). Each is timed to searchable: rebuild, index update, first search.
    let next = catalog;
    gc?.();
    for (let u = 0; u < UPDATES; u++) {
      const changed = contributions(PER, (r * UPDATES + u) % PER);
      t = performance.now();
      next = buildCatalog(changed, {}, next);
      const built = performance.now();
      index.update(next.tools);
      const updated = performance.now();
      index.search('changed record owner', 5, () => true);
      out.searchable.push(performance.now() - t);
      out.update.push(updated - built);
      out.catalog.push(built - t);
    }
    for (let q = 0; q < 2000; q++) {
      const verb = VERBS[q % 10];
      const noun = NOUNS[q % 12];
      const query =
        q % 4 === 1
          ? `${verb}_${NOUNS[(q * 7) % 12]}_${q % PER}` // an exact name
          : q % 4 === 3
            ? `${verb.slice(1)} ${noun}s` // a typo and a plural
            : `${verb} ${noun} ${q % 3 === 0 ? 'owner' : ''}`;
      const cpu = process.cpuUsage();
      t = performance.now();
      index.search(query, 5, () => true);
      searches.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      searchCpu.push((used.user + used.system) / 1000);
    }
    const split = splitDeferred(next.tools, {
      defer: 'auto',
      alwaysLoad: new Set(['s0__create_issue_0']),
      thresholdTokens: 20_000,
      estimator: estimateTokens,
      server: () => undefined,
    });
    const set = { loaded: split.loaded, found: [], deferred: split.deferred, artifacts: false };
    for (const [key, convert] of [
      ['anthropic', () => toAnthropicToolSet(set)],
      ['responses', () => toOpenAiResponsesToolSet(set)],
      ['chat', () => toOpenAiChatToolSet(set)],
      ['gemini', () => toGeminiToolSet(set)],
    ]) {
      t = performance.now();
      convert();
      out[key].push(performance.now() - t);
    }
  }
  const med = (xs) => percentile(xs, 50);
  return {
    tools: 20 * PER,
    buildMs: med(out.build),
    catalogRebuildMs: med(out.catalog),
    indexUpdateMs: med(out.update),
    changeToSearchableMs: med(out.searchable),
    searchP50Ms: percentile(searches, 50),
    searchP99Ms: percentile(searches, 99),
    searchCpuP99Ms: percentile(searchCpu, 99),
    anthropicMs: med(out.anthropic),
    responsesMs: med(out.responses),
    chatMs: med(out.chat),
    geminiMs: med(out.gemini),
    indexBytesPerTool: Math.round(bytesPerTool),
  };
}
