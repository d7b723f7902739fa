/**
 * Every cut of a text is on whole characters (src/util/text.ts, the one helper): over random
 * Unicode (the full code point range with astral planes, emoji ZWJ sequences, skin tones, flags,
 * combining marks, CR LF), no output holds a lone surrogate, every bound holds, and pages join
 * back to the input. The helper is checked itself and through the texts that reach a model:
 * `host.instructions` blocks, a bounded tool result's head and tail, and `read_artifact` pages.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cutEnd, cutStart, headOf, pageEnd, shorten } from '../../../src/util/text.js';
import { tagInstructions } from '../../../src/host/contextBudget/instructions.js';
import { boundResult } from '../../../src/host/contextBudget/resultBudget.js';
import { ArtifactStore, type ArtifactPage } from '../../../src/host/contextBudget/artifacts.js';
import { estimateTokens } from '../../../src/host/contextBudget/tokens.js';
import { McpHost } from '../../../src/host/host.js';
import { inMemoryOfficial } from '../../fakes/inMemoryOfficial.js';
import { TamperableSkills, skillMd } from '../../fakes/tamperableSkills.js';

/** Clusters that a naive cut breaks: ZWJ families, skin tones, flags, stacked marks, CR LF, astral CJK. */
const TRICKY = [
  '👨‍👩‍👧‍👦',
  '🧑🏽‍🚀',
  '👍🏿',
  '🇸🇪🇯🇵',
  '❤️',
  'e\u0301',
  'a\u0308\u0323\u0301',
  '\r\n',
  '𠀋𡈽',
  '한국어',
  '日本語テキスト',
  '𝒳',
];

const unicodeText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.constantFrom(...TRICKY),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));

/** True when `text` holds a surrogate half without its other half. */
function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

const segmenter = new Intl.Segmenter();
const clusters = (text: string): string[] => Array.from(segmenter.segment(text), (s) => s.segment);

describe('one cut for every text', () => {
  it('cutEnd / cutStart land on character boundaries within the bound', () => {
    fc.assert(
      fc.property(unicodeText, fc.integer({ min: -2, max: 300 }), (text, at) => {
        const end = cutEnd(text, at);
        const start = cutStart(text, at);
        expect(end).toBeLessThanOrEqual(Math.max(0, at));
        expect(end).toBeGreaterThanOrEqual(0);
        expect(start).toBeGreaterThanOrEqual(Math.min(Math.max(0, at), text.length));
        expect(start).toBeLessThanOrEqual(text.length);
        expect(hasLoneSurrogate(text.slice(0, end))).toBe(false);
        expect(hasLoneSurrogate(text.slice(end))).toBe(false);
        expect(hasLoneSurrogate(text.slice(start))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('headOf and shorten hold their bound and never split a character', () => {
    fc.assert(
      fc.property(unicodeText, fc.integer({ min: 0, max: 200 }), (text, max) => {
        const head = headOf(text, max);
        expect(head.length).toBeLessThanOrEqual(max);
        expect(text.startsWith(head)).toBe(true);
        expect(hasLoneSurrogate(head)).toBe(false);
        const short = shorten(text, max);
        expect(short.length).toBeLessThanOrEqual(max);
        expect(hasLoneSurrogate(short)).toBe(false);
        if (text.length <= max) expect(short).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('cuts between grapheme clusters where one is near: a ZWJ family or a flag stays whole', () => {
    const family = '👨‍👩‍👧‍👦';
    for (let at = 1; at < family.length; at++) expect(headOf(`ab${family}cd`, 2 + at)).toBe('ab');
    expect(headOf('ab🇸🇪cd', 6)).toBe('ab🇸🇪');
    expect(headOf('ab🇸🇪cd', 5)).toBe('ab');
    expect(headOf('ab🇸🇪cd', 4)).toBe('ab');
    expect(headOf('cafe\u0301!', 4)).toBe('caf');
    expect(cutStart(`ab${family}cd`, 3)).toBe(2 + family.length);
    // A cluster longer than the window falls back to code points: still no lone surrogate.
    const zalgo = `a${'\u0301'.repeat(100)}`;
    expect(headOf(zalgo, 50)).toBe(zalgo.slice(0, 50));
  });

  it('pages join back to the input, each within its bound or one whole character', () => {
    fc.assert(
      fc.property(unicodeText, fc.integer({ min: 1, max: 40 }), (text, max) => {
        const pages: string[] = [];
        let start = 0;
        while (start < text.length) {
          const end = pageEnd(text, start, max);
          expect(end).toBeGreaterThan(start);
          const page = text.slice(start, end);
          expect(hasLoneSurrogate(page)).toBe(false);
          if (page.length > max) expect([...page].length === 1 || clusters(page).length === 1).toBe(true);
          pages.push(page);
          start = end;
        }
        expect(pages.join('')).toBe(text);
      }),
      { numRuns: 1500 },
    );
  });

  it('read_artifact pages (ArtifactStore.read) join back and hold no lone surrogate', () => {
    fc.assert(
      fc.property(unicodeText, fc.integer({ min: 1, max: 40 }), (text, max) => {
        const store = new ArtifactStore();
        const id = store.put({ server: 's', tool: 't', text, result: { content: [] } })!.id;
        let whole = '';
        let offset: number | undefined = 0;
        while (offset !== undefined) {
          const page: ArtifactPage = store.read(id, offset, max)!;
          expect(hasLoneSurrogate(page.text)).toBe(false);
          whole += page.text;
          offset = page.nextOffset;
        }
        expect(whole).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('host.instructions blocks: each server text within maxChars and whole characters', () => {
    fc.assert(
      fc.property(unicodeText, fc.integer({ min: 0, max: 60 }), (text, maxChars) => {
        const out = tagInstructions([{ server: 's', text }], { maxChars });
        expect(hasLoneSurrogate(out)).toBe(false);
        const trimmed = text.trim();
        if (trimmed === '') return;
        const body = out.split('\n').slice(1, -1).join('\n');
        const kept = trimmed.length <= maxChars ? body : body.slice(0, body.lastIndexOf('\n[… '));
        expect(kept.replaceAll('&lt;', '<').length).toBeLessThanOrEqual(
          Math.max(maxChars, trimmed.length <= maxChars ? trimmed.length : 0),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it("a bounded tool result: head, marker and tail within the budget's characters, no lone surrogate", () => {
    fc.assert(
      fc.property(unicodeText, fc.integer({ min: 400, max: 3000 }), (seed, hintChars) => {
        // (The marker, about 180 characters, fits in every budget drawn here.)
        const text = seed.repeat(1 + Math.floor(4000 / Math.max(1, seed.length)));
        const store = new ArtifactStore();
        const bounded = boundResult(
          { content: [{ type: 'text', text }] },
          { maxTokens: 100_000, hintChars, estimator: estimateTokens, route: {}, store, server: 's', tool: 't' },
        );
        const out = bounded.result.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
        expect(hasLoneSurrogate(out)).toBe(false);
        expect(out.length).toBeLessThanOrEqual(Math.max(hintChars, text.length <= hintChars ? text.length : 0));
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Raw cuts of a text for display, as they were before the helper: a `.slice(…)` whose result a
 * template closes with a mark (`…`, `...`, `\n[`), or `x.length > n ? …x.slice(0, …)`. Cuts by
 * index in parsers and of arrays or hex digests do not match either form.
 */
const RAW_CUTS = [
  /\.(?:slice|substring|substr)\((?:[^()]|\([^()]*\))*\)\s*\}(?:…|\.\.\.|\\n\[)/,
  /(\w+)\.length\s*>=?\s*[\w.]+\s*\?\s*`?\$?\{?\s*\1\.(?:slice|substring|substr)\(\s*0\s*,/,
];
/** Files left as they are, with why. */
const KNOWN: Record<string, string> = {};

describe("a skill's maxChars through the host", () => {
  it('load_skill over an official Skills server: every odd maxChars cut keeps whole emoji', async () => {
    const body = '🚀👨‍👩‍👧‍👦é́'.repeat(20);
    const source = new TamperableSkills([{ path: 'emoji', files: { 'SKILL.md': skillMd('emoji', 'Emoji', body) } }]);
    const server = inMemoryOfficial(source.factory());
    for (const maxChars of [41, 43, 57, 101]) {
      const host = new McpHost({
        clientInfo: { name: 'cuts', version: '1.0.0' },
        servers: { s: { type: 'custom', transport: () => server.transport() } },
        skills: { maxChars },
      });
      try {
        await host.connect();
        await host.skills();
        const result = await host.callSkillTool('load_skill', { name: 's__emoji' });
        const text = (result.content[0] as { text: string }).text;
        expect(hasLoneSurrogate(text)).toBe(false);
        const kept = /\n\[cut at (\d+) of (\d+) characters\]$/.exec(text);
        expect(kept).not.toBeNull();
        expect(Number(kept![1])).toBeLessThanOrEqual(maxChars);
        expect(Number(kept![1])).toBeGreaterThan(maxChars - 12); // at most one ZWJ family short
      } finally {
        await host.close();
      }
    }
  });
});

describe('no raw text cut outside src/util/text.ts', () => {
  it('every display cut in src/ goes through the helper', () => {
    const root = new URL('../../../', import.meta.url).pathname;
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          const file = relative(root, path);
          if (file === 'src/util/text.ts' || file in KNOWN) continue;
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (RAW_CUTS.some((rule) => rule.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
            });
        }
      }
    };
    walk(join(root, 'src'));
    expect(found, 'cut with headOf / shorten / cutEnd from src/util/text.ts').toEqual([]);
    // The rules still catch the form they are for.
    expect(RAW_CUTS[0]!.test('return s.length > 80 ? `${s.slice(0, 77)}...` : s;')).toBe(true);
    expect(RAW_CUTS[1]!.test('return text.length > max ? text.slice(0, max) : text;')).toBe(true);
  });
});
