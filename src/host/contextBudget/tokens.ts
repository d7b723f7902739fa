/**
 * The one token estimate the context budget uses: tokens from characters. Deferral (`defer:
 * 'auto'`) and result bounds (`maxResultTokens`) both go through it, so replacing it (a real
 * tokenizer, a provider's ratio) changes both at once.
 */

/** Estimated tokens of a text. Must be pure, non-negative, and grow with the text. */
export type TokenEstimator = (text: string) => number;

/** Characters per token of the default estimate (English prose and JSON average about 4). */
export const CHARS_PER_TOKEN = 4;

/** The default estimate: `ceil(characters / 4)`. */
export const estimateTokens: TokenEstimator = (text) => Math.ceil(text.length / CHARS_PER_TOKEN);

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
