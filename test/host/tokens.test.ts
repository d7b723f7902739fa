/**
 * The default token estimate against real tokenizers (OpenAI's cl100k_base and o200k_base,
 * from js-tiktoken, its ranks shipped inside the npm package) over a corpus of English, code,
 * JSON, Chinese, Japanese, Korean and emoji (test/fixtures/tokens/): in every script it never
 * undercounts either tokenizer by more than 20%, nor overcounts it past twice. The ratios are
 * the ones docs/performance.md quotes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { charsForTokens, estimateTokens } from '../../src/host/contextBudget/tokens.js';

const CORPUS = {
  english: 'english.txt',
  code: 'code.ts.txt',
  json: 'data.json',
  chinese: 'chinese.txt',
  japanese: 'japanese.txt',
  korean: 'korean.txt',
  emoji: 'emoji.txt',
} as const;

const text = (file: string): string => readFileSync(new URL(`../fixtures/tokens/${file}`, import.meta.url), 'utf8');
const tokenizers = { cl100k_base: new Tiktoken(cl100k), o200k_base: new Tiktoken(o200k) };

describe('estimateTokens against real tokenizers', () => {
  for (const [script, file] of Object.entries(CORPUS)) {
    it(`${script}: within -20% / +100% of cl100k_base and o200k_base`, () => {
      const sample = text(file);
      const estimate = estimateTokens(sample);
      for (const [name, tokenizer] of Object.entries(tokenizers)) {
        const real = tokenizer.encode(sample).length;
        const ratio = estimate / real;
        expect(ratio, `${script} by ${name}: estimate ${estimate}, real ${real}`).toBeGreaterThanOrEqual(0.8);
        expect(ratio, `${script} by ${name}: estimate ${estimate}, real ${real}`).toBeLessThanOrEqual(2);
      }
    });
  }

  it('a 30,000-character Chinese result is about 30,000 tokens, not 7,500', () => {
    const sample = text(CORPUS.chinese).repeat(60).slice(0, 30_000);
    const real = tokenizers.cl100k_base.encode(sample).length;
    expect(estimateTokens(sample)).toBeGreaterThanOrEqual(real * 0.8);
    expect(estimateTokens(sample)).toBeGreaterThan(25_000);
  });

  it('counts whole code points: an astral emoji once, a lone surrogate as one unit, nothing negative', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('🚀')).toBe(3);
    expect(estimateTokens('\ud83d')).toBe(1);
    expect(estimateTokens('hello world')).toBe(3);
    expect(estimateTokens('a'.repeat(400))).toBe(100);
  });

  it('a real tokenizer plugs in as the estimator', () => {
    const real = (t: string): number => tokenizers.o200k_base.encode(t).length;
    const sample = text(CORPUS.korean);
    expect(charsForTokens(100, sample, real)).toBe(Math.floor((sample.length * 100) / real(sample)));
  });
});
