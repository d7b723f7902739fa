/**
 * The one token estimate the context budget uses. Deferral (`defer: 'auto'`) and result bounds
 * (`maxResultTokens`) both go through it, so replacing it (a real tokenizer, a provider's
 * ratio) changes both at once.
 *
 * The default weighs each character by its script, because tokenizers do: English prose and
 * code run near 4 characters a token, JSON near 3 (its punctuation is mostly tokens of its own),
 * while Chinese, Japanese and Korean run near one token a character and an emoji takes two to
 * four. A flat characters ÷ 4 counts a Chinese text at a quarter of its tokens. The weights are
 * measured against OpenAI's cl100k_base and o200k_base (test/host/tokens.test.ts, the ratios in
 * docs/performance.md) and chosen so that neither is undercounted by more than 20% in any script
 * of the test corpus.
 */

/** Estimated tokens of a text. Must be pure, non-negative, and grow with the text. */
export type TokenEstimator = (text: string) => number;

/** Tokens of one ASCII character: letters and digits 1/4, whitespace 0.15, punctuation 1/2. */
function asciiWeight(code: number): number {
  if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return 0.25;
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return 0.15;
  return 0.5;
}

/** Tokens of one code point outside ASCII, by block. */
function weightOf(code: number): number {
  if (code < 0x0300) return 0.5; // Latin-1 and Latin Extended: accented letters split words
  if (code < 0x0370) return 0.5; // combining marks
  if (code < 0x0700) return 0.5; // Greek, Cyrillic, Armenian, Hebrew, Arabic
  if (code < 0x1100) return 1; // Indic, Thai, Georgian and the scripts around them
  if (code < 0x1200) return 1.2; // Hangul Jamo
  if (code < 0x2000) return 1;
  if (code < 0x2e80) return code === 0x200d ? 1 : 1.5; // punctuation, symbols, arrows, dingbats (ZWJ: 1)
  if (code < 0x3040) return 1; // CJK radicals, CJK punctuation
  if (code < 0x3100) return 1; // Hiragana, Katakana
  if (code < 0x3190) return 1.2; // Bopomofo, Hangul compatibility Jamo
  if (code < 0xa000) return 1; // CJK ideographs and their extensions in the BMP
  if (code < 0xac00) return 1;
  if (code < 0xd7b0) return 1.2; // Hangul syllables
  if (code < 0xf900) return 1;
  if (code < 0xfb00) return 1; // CJK compatibility ideographs
  if (code >= 0xfe00 && code <= 0xfe0f) return 1; // variation selectors (an emoji's FE0F)
  if (code < 0x10000) return 1; // full-width forms, specials
  if (code >= 0x1f000 && code < 0x1fb00) return 3; // emoji, flags' regional indicators, skin tones
  if (code >= 0x20000 && code < 0x40000) return 2; // CJK ideographs beyond the BMP
  return 2;
}

/**
 * The default estimate: each character weighed by its script (see the module comment), in one
 * pass over the UTF-16 code units, rounded up. About `text.length / 4` for English and code,
 * `text.length / 3` for JSON, `text.length` for Chinese or Japanese, `1.2 × text.length` for
 * Korean syllables, 3 per emoji code point.
 * @example estimateTokens('hello world') // 3
 */
export const estimateTokens: TokenEstimator = (text) => {
  let sum = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) sum += asciiWeight(code);
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        sum += weightOf(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
        i++;
      } else sum += 1;
    } else sum += weightOf(code);
  }
  return Math.ceil(sum);
};

/**
 * How many characters of `text` fit in `tokens` by `estimator`, assuming tokens spread evenly
 * over the text (the estimator's ratio on this text). At least 1 for a positive budget.
 */
export function charsForTokens(tokens: number, text: string, estimator: TokenEstimator): number {
  if (tokens <= 0) return 0;
  const whole = estimator(text);
  if (whole <= tokens) return text.length;
  return Math.max(1, Math.floor((text.length * tokens) / whole));
}
