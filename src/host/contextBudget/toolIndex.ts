/**
 * A ranked search index over the host's tools: BM25 (k1 1.2, b 0.75) over the words of each
 * tool's exposed name, title, description, and parameter names and descriptions, the name
 * counted three times and the title twice. Updated item by item from catalog to catalog (a
 * catalog keeps the wrapper of every unchanged tool, so only tools that came, went or changed
 * are touched). Deterministic: equal scores order by exposed name.
 */
import type { JsonObject } from '../../wire/messages.js';
import { modelFacingTool, type HostTool } from '../catalog.js';

const K1 = 1.2;
const B = 0.75;
/** A query word matching only the start of a tool's word (`calend` in `calendar`) counts this much. */
const PREFIX_WEIGHT = 0.5;
/** The shortest query word that matches as a prefix. */
const PREFIX_MIN = 3;
/** Parameter names and descriptions read per tool, and levels of nesting (server data is bounded). */
const MAX_PARAMETERS = 200;
const MAX_DEPTH = 3;
/** Characters of one field read per tool. */
const MAX_FIELD_CHARS = 8192;

interface Doc {
  readonly tool: HostTool;
  readonly terms: ReadonlyMap<string, number>;
  readonly length: number;
}

/** One match of a search: the tool and its score (higher is better). */
export interface ToolMatch {
  readonly tool: HostTool;
  readonly score: number;
}

/** @internal The search index of `McpHost.searchTools` (see the module comment). */
export class ToolIndex {
  private readonly docs = new Map<HostTool, Doc>();
  private readonly byName = new Map<string, HostTool>();
  /** term → tool → frequency (weighted). */
  private readonly postings = new Map<string, Map<HostTool, number>>();
  private totalLength = 0;
  /** The vocabulary, sorted, for prefix matches; rebuilt lazily after an update. */
  private sortedTerms: string[] | undefined;

  get size(): number {
    return this.docs.size;
  }

  /** Brings the index in line with `tools`: adds the new wrappers, drops the gone ones. */
  update(tools: readonly HostTool[]): { added: number; removed: number } {
    const next = new Set(tools);
    let removed = 0;
    for (const tool of [...this.docs.keys()])
      if (!next.has(tool)) {
        this.remove(tool);
        removed++;
      }
    let added = 0;
    for (const tool of tools)
      if (!this.docs.has(tool)) {
        this.add(tool);
        added++;
      }
    if (added + removed > 0) this.sortedTerms = undefined;
    return { added, removed };
  }

  /** The tool indexed under an exposed name. */
  get(exposedName: string): HostTool | undefined {
    return this.byName.get(exposedName);
  }

  /** Every indexed tool, in catalog insertion order. */
  all(): IterableIterator<HostTool> {
    return this.docs.keys();
  }

  /** Ranked matches of `query`, best first, among the tools `accept` keeps. */
  search(query: string, limit: number, accept: (tool: HostTool) => boolean): ToolMatch[] {
    const words = [...new Set(wordsOf(query))];
    if (words.length === 0 || this.docs.size === 0) return [];
    const scores = new Map<HostTool, number>();
    const n = this.docs.size;
    const average = this.totalLength / n;
    for (const word of words) {
      for (const [term, weight] of this.termsFor(word)) {
        const posting = this.postings.get(term);
        if (posting === undefined) continue;
        const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
        for (const [tool, tf] of posting) {
          const doc = this.docs.get(tool) as Doc;
          const part = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / average));
          scores.set(tool, (scores.get(tool) ?? 0) + weight * part);
        }
      }
    }
    const matches: ToolMatch[] = [];
    for (const [tool, score] of scores) if (accept(tool)) matches.push({ tool, score });
    matches.sort((a, b) => b.score - a.score || compare(a.tool.exposedName, b.tool.exposedName));
    return matches.slice(0, limit);
  }

  /** The index terms a query word stands for: itself, and (3+ letters) the longer words it starts. */
  private termsFor(word: string): Array<[string, number]> {
    const out: Array<[string, number]> = [];
    if (this.postings.has(word)) out.push([word, 1]);
    if (word.length < PREFIX_MIN) return out;
    const terms = (this.sortedTerms ??= [...this.postings.keys()].sort());
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((terms[mid] as string) < word) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < terms.length && (terms[i] as string).startsWith(word); i++)
      if (terms[i] !== word) out.push([terms[i] as string, PREFIX_WEIGHT]);
    return out;
  }

  private add(tool: HostTool): void {
    const terms = new Map<string, number>();
    let length = 0;
    const put = (text: unknown, weight: number): void => {
      if (typeof text !== 'string') return;
      for (const word of wordsOf(text.slice(0, MAX_FIELD_CHARS))) {
        terms.set(word, (terms.get(word) ?? 0) + weight);
        length += weight;
      }
    };
    // The model-facing tool's words (overrides applied), never the text an override replaced.
    const facing = modelFacingTool(tool);
    put(tool.exposedName, 3);
    if (tool.exposedName !== tool.tool.name) put(tool.tool.name, 1);
    put(facing.title, 2);
    put(facing.description, 1);
    let budget = MAX_PARAMETERS;
    const visit = (schema: unknown, depth: number): void => {
      if (depth > MAX_DEPTH || !isObject(schema)) return;
      const properties = schema['properties'];
      if (!isObject(properties)) return;
      for (const [name, child] of Object.entries(properties)) {
        if (budget-- <= 0) return;
        put(name, 1);
        if (isObject(child)) {
          put(child['description'], 1);
          visit(child, depth + 1);
          if (isObject(child['items'])) visit(child['items'], depth + 1);
        }
      }
    };
    visit(facing.inputSchema, 0);
    this.docs.set(tool, { tool, terms, length });
    this.byName.set(tool.exposedName, tool);
    this.totalLength += length;
    for (const [term, tf] of terms) {
      let posting = this.postings.get(term);
      if (posting === undefined) this.postings.set(term, (posting = new Map<HostTool, number>()));
      posting.set(tool, tf);
    }
  }

  private remove(tool: HostTool): void {
    const doc = this.docs.get(tool);
    if (doc === undefined) return;
    this.docs.delete(tool);
    if (this.byName.get(tool.exposedName) === tool) this.byName.delete(tool.exposedName);
    this.totalLength -= doc.length;
    for (const term of doc.terms.keys()) {
      const posting = this.postings.get(term);
      posting?.delete(tool);
      if (posting?.size === 0) this.postings.delete(term);
    }
  }
}

/**
 * The words of a text, lower-cased: split on anything but letters and digits, on camelCase
 * humps and between letters and digits (`getIssue2` → `get`, `issue`, `2`).
 */
export function wordsOf(text: string): string[] {
  // ASCII text (nearly every tool name and description) takes one plain regular expression.
  if (ASCII.test(text)) {
    const out: string[] = [];
    for (const word of text.match(ASCII_WORD) ?? []) out.push(word.toLowerCase());
    return out;
  }
  const out: string[] = [];
  for (const chunk of text.split(/[^\p{L}\p{N}]+/u)) {
    if (chunk === '') continue;
    for (const part of chunk.split(/(?<=\p{Ll})(?=\p{Lu})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u))
      if (part !== '') out.push(part.toLowerCase());
  }
  return out;
}

const ASCII = /^[\t\n\r\x20-\x7e]*$/;
/** Capitals with the lower case after them, lower case, digits (the split of the Unicode path). */
const ASCII_WORD = /[A-Z]+[a-z]*|[a-z]+|[0-9]+/g;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
