/**
 * A ranked search index over the host's tools, in two stages:
 * 1. Exact names. Words of the query that spell a tool's exposed, model-facing or original name
 *    (its words split on `_`, `-`, `.`, camelCase and digits: `read text file`, `readTextFile`
 *    and `read_text_file` all spell `read_text_file`) rank that tool ahead of every word match;
 *    a longer name spelled ranks ahead of a shorter one.
 * 2. BM25 (k1 1.2, b 0.75) over the words of the tool as the model is given it
 *    ({@link modelFacingTool}): exposed name (counted three times), title (twice), description,
 *    parameter names and descriptions. A query word also matches, at lower weight, the longer
 *    words it starts (`calend` → `calendar`), words that share its stem (`files` → `file`,
 *    `directorio` → `directory`) and, when it is no word of the index, words one edit away
 *    (`direcotry` → `directory`).
 * Updated item by item from catalog to catalog (a catalog keeps the wrapper of every unchanged
 * tool, so only tools that came, went or changed are touched). Deterministic: equal scores order
 * by exposed name.
 */
import type { JsonObject } from '../../wire/messages.js';
import { modelFacingTool, type HostTool } from '../catalog/catalog.js';
import { headOf } from '../../util/text.js';

const K1 = 1.2;
const B = 0.75;
/** A query word matching only the start of a tool's word (`calend` in `calendar`) counts this much. */
const PREFIX_WEIGHT = 0.5;
/** The shortest query word that matches as a prefix. */
const PREFIX_MIN = 3;
/** A word sharing the query word's stem (`files`/`file`), or one edit away from it, counts this much. */
const NEAR_WEIGHT = 0.4;
/** The shortest stem shared (and the shortest word matched one edit away). */
const STEM_MIN = 4;
/** A shared stem covers at least this share of the shorter word. */
const STEM_SHARE = 0.6;
/** What an exact name adds per word of the name: more than any word match can score. */
const EXACT_BONUS = 1000;
/** Words of a query read (queries come from models: bounded). */
const MAX_QUERY_WORDS = 32;
/** The most words of a name the exact stage matches. */
const MAX_NAME_WORDS = 16;
/** New tools in one update past which the vocabulary is sorted afresh. */
const RESORT_AFTER = 64;
/** Parameter names and descriptions read per tool, and levels of nesting (server data is bounded). */
const MAX_PARAMETERS = 200;
const MAX_DEPTH = 3;
/** Characters of one field read per tool. */
const MAX_FIELD_CHARS = 8192;

interface Doc {
  readonly tool: HostTool;
  /** Index in `slots` and in the score array of a search. */
  readonly slot: number;
  readonly terms: ReadonlyMap<string, number>;
  readonly length: number;
  /** The keys of its names in `names` (words joined by spaces). */
  readonly names: readonly string[];
}

/** One match of a search: the tool and its score (higher is better; an exact name scores over 1,000). */
export interface ToolMatch {
  readonly tool: HostTool;
  readonly score: number;
}

/** @internal The search index of `McpHost.searchTools` (see the module comment). */
export class ToolIndex {
  private readonly docs = new Map<HostTool, Doc>();
  private readonly slots: Array<Doc | undefined> = [];
  private readonly freeSlots: number[] = [];
  private readonly byName = new Map<string, HostTool>();
  /** Name key (words joined by spaces) → the tools with that name. */
  private readonly names = new Map<string, Set<HostTool>>();
  /** term → slot → frequency (weighted). */
  private readonly postings = new Map<string, Posting>();
  /** Each slot's document length (weighted words), for the BM25 length norm. */
  private lengths = new Float64Array(0);
  /** A term less one character → the terms (4+ characters) that give it (one-edit matches). */
  private readonly deletions = new Map<string, Set<string>>();
  private totalLength = 0;
  /** The vocabulary, sorted, for prefix and stem matches; made on the first search, then kept in step. */
  private sortedTerms: string[] | undefined;
  /** Scores of one search, by slot (reused). */
  private scores = new Float64Array(0);

  get size(): number {
    return this.docs.size;
  }

  /** Brings the index in line with `tools`: adds the new wrappers, drops the gone ones. */
  update(tools: readonly HostTool[]): { added: number; removed: number } {
    const next = new Set(tools);
    const gone = [...this.docs.keys()].filter((tool) => !next.has(tool));
    // Many tools in or out: sort the vocabulary again on the next search rather than term by term.
    if (gone.length + (tools.length - this.docs.size + gone.length) > RESORT_AFTER) this.sortedTerms = undefined;
    for (const tool of gone) this.remove(tool);
    let added = 0;
    for (const tool of tools)
      if (!this.docs.has(tool)) {
        this.add(tool);
        added++;
      }
    return { added, removed: gone.length };
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
    const sequence = wordsOf(query).slice(0, MAX_QUERY_WORDS);
    if (sequence.length === 0 || this.docs.size === 0) return [];
    if (this.scores.length < this.slots.length) this.scores = new Float64Array(this.slots.length * 2);
    const scores = this.scores;
    const touched: number[] = [];
    const n = this.docs.size;
    const average = this.totalLength / n;
    for (const word of new Set(sequence)) {
      for (const [term, weight] of this.termsFor(word)) {
        const posting = this.postings.get(term) as Posting;
        const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
        const factor = weight * idf * (K1 + 1);
        const { slots, tfs, size } = posting;
        const lengths = this.lengths;
        for (let i = 0; i < size; i++) {
          const slot = slots[i] as number;
          const tf = tfs[i] as number;
          if (scores[slot] === 0) touched.push(slot);
          scores[slot] =
            (scores[slot] as number) + (factor * tf) / (tf + K1 * (1 - B + (B * (lengths[slot] as number)) / average));
        }
      }
    }
    for (const [slot, words] of this.exactNames(sequence)) {
      if (scores[slot] === 0) touched.push(slot);
      scores[slot] = (scores[slot] as number) + EXACT_BONUS * words;
    }
    const best: ToolMatch[] = [];
    for (const slot of touched) {
      const score = scores[slot] as number;
      scores[slot] = 0;
      if (best.length === limit && !ahead(score, (this.slots[slot] as Doc).tool, best[limit - 1] as ToolMatch))
        continue;
      const tool = (this.slots[slot] as Doc).tool;
      if (!accept(tool)) continue;
      let at = best.length;
      while (at > 0 && ahead(score, tool, best[at - 1] as ToolMatch)) at--;
      best.splice(at, 0, { tool, score });
      if (best.length > limit) best.pop();
    }
    return best;
  }

  /** Slots of the tools whose names the query spells, with the words of the longest such name. */
  private exactNames(sequence: readonly string[]): Map<number, number> {
    const found = new Map<number, number>();
    for (let start = 0; start < sequence.length; start++) {
      let key = '';
      for (let end = start; end < sequence.length && end - start < MAX_NAME_WORDS; end++) {
        key = end === start ? (sequence[end] as string) : `${key} ${sequence[end] as string}`;
        const tools = this.names.get(key);
        if (tools === undefined) continue;
        const words = end - start + 1;
        for (const tool of tools) {
          const slot = (this.docs.get(tool) as Doc).slot;
          if ((found.get(slot) ?? 0) < words) found.set(slot, words);
        }
      }
    }
    return found;
  }

  /**
   * The index terms a query word stands for, with their weights: itself; (3+ letters) the longer
   * words it starts; words sharing its stem; and, for a word not in the index, words one edit away.
   */
  private termsFor(word: string): Map<string, number> {
    const out = new Map<string, number>();
    const put = (term: string, weight: number): void => {
      if ((out.get(term) ?? 0) < weight) out.set(term, weight);
    };
    const known = this.postings.has(word);
    if (known) put(word, 1);
    if (word.length < PREFIX_MIN) return out;
    const terms = (this.sortedTerms ??= [...this.postings.keys()].sort());
    for (let i = lowerBound(terms, word); i < terms.length && (terms[i] as string).startsWith(word); i++)
      if (terms[i] !== word) put(terms[i] as string, PREFIX_WEIGHT);
    if (word.length < STEM_MIN) return out;
    // Shared stems: every term with the word's first STEM_MIN letters, kept when the common start
    // is the whole term (`file` of `files`) or long enough (`director` of `directorio`/`directory`).
    const stem = word.slice(0, STEM_MIN);
    for (let i = lowerBound(terms, stem); i < terms.length && (terms[i] as string).startsWith(stem); i++) {
      const term = terms[i] as string;
      const common = commonPrefix(word, term);
      if (common === term.length || common >= Math.max(STEM_MIN + 1, STEM_SHARE * Math.min(word.length, term.length)))
        put(term, NEAR_WEIGHT);
    }
    if (known) return out;
    // One edit away (insertion, deletion, substitution, adjacent swap): terms that share a
    // deletion with the word, or are one.
    const candidates = new Set<string>(this.deletions.get(word) ?? []);
    for (let i = 0; i < word.length; i++) {
      const less = word.slice(0, i) + word.slice(i + 1);
      if (this.postings.has(less) && less.length >= STEM_MIN) candidates.add(less);
      for (const term of this.deletions.get(less) ?? []) candidates.add(term);
    }
    for (const term of candidates) if (oneEdit(word, term)) put(term, NEAR_WEIGHT);
    return out;
  }

  private add(tool: HostTool): void {
    // The model-facing tool's words (overrides applied), never the text an override replaced.
    const model = modelFacingTool(tool);
    const terms = new Map<string, number>();
    let length = 0;
    const put = (text: unknown, weight: number): void => {
      if (typeof text !== 'string') return;
      for (const word of wordsOf(headOf(text, MAX_FIELD_CHARS))) {
        terms.set(word, (terms.get(word) ?? 0) + weight);
        length += weight;
      }
    };
    put(tool.exposedName, 3);
    if (model.name !== tool.exposedName) put(model.name, 1);
    put(model.title, 2);
    put(model.description, 1);
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
    visit(model.inputSchema, 0);
    const names = [
      ...new Set(
        [tool.exposedName, model.name, tool.tool.name].map((name) =>
          wordsOf(name.slice(0, MAX_FIELD_CHARS)).slice(0, MAX_NAME_WORDS).join(' '),
        ),
      ),
    ].filter((key) => key !== '');
    const slot = this.freeSlots.pop() ?? this.slots.length;
    const doc: Doc = { tool, slot, terms, length, names };
    this.slots[slot] = doc;
    if (this.lengths.length <= slot) {
      const grown = new Float64Array(Math.max(16, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[slot] = length;
    this.docs.set(tool, doc);
    this.byName.set(tool.exposedName, tool);
    for (const key of names) {
      let set = this.names.get(key);
      if (set === undefined) this.names.set(key, (set = new Set()));
      set.add(tool);
    }
    this.totalLength += length;
    for (const [term, tf] of terms) {
      let posting = this.postings.get(term);
      if (posting === undefined) {
        this.postings.set(term, (posting = new Posting()));
        this.termAdded(term);
      }
      posting.set(slot, tf);
    }
  }

  private remove(tool: HostTool): void {
    const doc = this.docs.get(tool);
    if (doc === undefined) return;
    this.docs.delete(tool);
    this.slots[doc.slot] = undefined;
    this.freeSlots.push(doc.slot);
    if (this.byName.get(tool.exposedName) === tool) this.byName.delete(tool.exposedName);
    for (const key of doc.names) {
      const set = this.names.get(key);
      set?.delete(tool);
      if (set?.size === 0) this.names.delete(key);
    }
    this.totalLength -= doc.length;
    for (const term of doc.terms.keys()) {
      const posting = this.postings.get(term);
      posting?.delete(doc.slot);
      if (posting?.size === 0) {
        this.postings.delete(term);
        this.termRemoved(term);
      }
    }
  }

  private termAdded(term: string): void {
    this.sortedTerms?.splice(lowerBound(this.sortedTerms, term), 0, term);
    if (term.length < STEM_MIN) return;
    for (const less of deletionsOf(term)) {
      let set = this.deletions.get(less);
      if (set === undefined) this.deletions.set(less, (set = new Set()));
      set.add(term);
    }
  }

  private termRemoved(term: string): void {
    if (this.sortedTerms !== undefined) this.sortedTerms.splice(lowerBound(this.sortedTerms, term), 1);
    if (term.length < STEM_MIN) return;
    for (const less of deletionsOf(term)) {
      const set = this.deletions.get(less);
      set?.delete(term);
      if (set?.size === 0) this.deletions.delete(less);
    }
  }
}

/** The tools of one term: slots and weighted frequencies in parallel arrays (fast to read), removed by swapping in the last. */
class Posting {
  slots = new Int32Array(4);
  tfs = new Float64Array(4);
  size = 0;
  private readonly at = new Map<number, number>();

  set(slot: number, tf: number): void {
    const known = this.at.get(slot);
    if (known !== undefined) {
      this.tfs[known] = tf;
      return;
    }
    if (this.size === this.slots.length) {
      const slots = new Int32Array(this.size * 2);
      slots.set(this.slots);
      this.slots = slots;
      const tfs = new Float64Array(this.size * 2);
      tfs.set(this.tfs);
      this.tfs = tfs;
    }
    this.slots[this.size] = slot;
    this.tfs[this.size] = tf;
    this.at.set(slot, this.size++);
  }

  delete(slot: number): void {
    const i = this.at.get(slot);
    if (i === undefined) return;
    this.at.delete(slot);
    const last = --this.size;
    if (i !== last) {
      const moved = this.slots[last] as number;
      this.slots[i] = moved;
      this.tfs[i] = this.tfs[last] as number;
      this.at.set(moved, i);
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

/** Whether `score` of `tool` ranks before `match`: higher score, then exposed name. */
function ahead(score: number, tool: HostTool, match: ToolMatch): boolean {
  return score > match.score || (score === match.score && tool.exposedName < match.tool.exposedName);
}

/** The first index of `terms` (sorted) not below `word`. */
function lowerBound(terms: readonly string[], word: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((terms[mid] as string) < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The texts of `term` less one character. */
function deletionsOf(term: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < term.length; i++) out.add(term.slice(0, i) + term.slice(i + 1));
  return out;
}

/** Whether `a` and `b` differ by exactly one insertion, deletion, substitution or adjacent swap. */
function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  const start = commonPrefix(a, b);
  const rest = (s: string, from: number): string => s.slice(from);
  if (a.length === b.length)
    return (
      rest(a, start + 1) === rest(b, start + 1) ||
      (a[start] === b[start + 1] && a[start + 1] === b[start] && rest(a, start + 2) === rest(b, start + 2))
    );
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return rest(long, start + 1) === rest(short, start);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
