/**
 * Every cut of a text is on whole characters (src/util/text.ts, the one helper): over random
 * Unicode (the full code point range with astral planes, emoji ZWJ sequences, skin tones, flags,
 * combining marks, CR LF), no output holds a lone surrogate, every bound holds, and pages join
 * back to the input. The helper is checked itself and through the texts that reach a model:
 * `host.instructions` blocks, a bounded tool result's head and tail, and `read_artifact` pages.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cutEnd, cutStart, headOf, pageEnd, shorten } from '../../../src/util/text.js';
import { tagInstructions } from '../../../src/host/contextBudget/instructions.js';
import { boundResult } from '../../../src/host/contextBudget/resultBudget.js';
import { ArtifactStore } from '../../../src/host/contextBudget/artifacts.js';
import { estimateTokens } from '../../../src/host/contextBudget/tokens.js';

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
          const page = store.read(id, offset, max)!;
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
