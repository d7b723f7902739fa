/**
 * The one way mcp-live cuts a text: on whole characters, never through one. Every bound is in
 * UTF-16 code units (what `string.length` counts, and what every "characters" option and
 * offset of mcp-live means), and every cut lands on a boundary between characters:
 *
 * - always between code points, so no lone surrogate half is ever made (it would be invalid
 *   UTF-8 once encoded, and some model APIs refuse the request);
 * - between grapheme clusters (UAX #29: an emoji ZWJ sequence, a letter and its combining
 *   marks, a flag, CR LF) where the built-in `Intl.Segmenter` finds one near the cut. It
 *   segments only a window of {@link WINDOW} code units on either side of the cut, so a cut costs
 *   the same on a 10-character text as on a 10-megabyte one. When a cluster is longer than the
 *   window (or `Intl.Segmenter` is missing from the runtime), the cut falls back to the nearest
 *   code point boundary; within a long run of regional indicators the pairing may be off by one.
 *
 * Pure; the segmenter is made on first use and shared (it holds no state between calls).
 */

/** Code units segmented on each side of a cut to find a grapheme boundary. */
const WINDOW = 32;

let segmenter: Intl.Segmenter | null | undefined;

function graphemes(): Intl.Segmenter | null {
  if (segmenter === undefined)
    segmenter = typeof Intl === 'object' && typeof Intl.Segmenter === 'function' ? new Intl.Segmenter() : null;
  return segmenter;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `at` moved back off the second half of a surrogate pair: a code point boundary. */
function codePointFloor(text: string, at: number): number {
  return at > 0 && at < text.length && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1)) ? at - 1 : at;
}

/** Below U+0300 the only cluster of more than one code point is CR LF. */
function plainBoundary(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before < 0x300 && after < 0x300 && !(before === 13 && after === 10);
}

/** The grapheme boundaries in a window around `at` (a code point boundary), as offsets into `text`. */
function boundariesNear(text: string, at: number): { from: number; to: number; offsets: number[] } | undefined {
  const seg = graphemes();
  if (seg === null) return undefined;
  const from = codePointFloor(text, Math.max(0, at - WINDOW));
  let to = Math.min(text.length, at + WINDOW);
  if (to < text.length && isHigh(text.charCodeAt(to - 1))) to++;
  const offsets: number[] = [];
  for (const { index } of seg.segment(text.slice(from, to))) offsets.push(from + index);
  return { from, to, offsets };
}

/**
 * The last boundary between characters at or before `end` (0 ≤ result ≤ `end`): `text.slice(0,
 * result)` ends on a whole character. `end` past the text gives `text.length`.
 */
export function cutEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  if (!(end > 0)) return 0;
  const at = codePointFloor(text, Math.floor(end));
  if (at === 0 || plainBoundary(text, at)) return at;
  const near = boundariesNear(text, at);
  if (near === undefined) return at;
  let best: number | undefined;
  for (const offset of near.offsets) {
    if (offset > at) break;
    if (offset > near.from || near.from === 0) best = offset;
  }
  return best ?? at;
}

/**
 * The first boundary between characters at or after `start` (`start` ≤ result ≤ `text.length`):
 * `text.slice(result)` starts on a whole character. A negative `start` gives 0.
 */
export function cutStart(text: string, start: number): number {
  if (!(start > 0)) return 0;
  if (start >= text.length) return text.length;
  let at = Math.ceil(start);
  if (isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1))) at++;
  if (at >= text.length || plainBoundary(text, at)) return at;
  const near = boundariesNear(text, at);
  if (near === undefined) return at;
  for (const offset of near.offsets) if (offset >= at) return offset;
  return near.to === text.length ? text.length : at;
}

/** The longest start of `text` of at most `maxChars` code units that ends on a whole character. */
export function headOf(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : text.slice(0, cutEnd(text, maxChars));
}

/**
 * `text` as is when it has at most `maxChars` code units; else its head and `mark`, together
 * at most `maxChars` (just the head when `mark` alone does not fit).
 * @example shorten('a long headline', 8) // 'a long …'
 */
export function shorten(text: string, maxChars: number, mark = '…'): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= mark.length) return headOf(text, maxChars);
  return `${headOf(text, maxChars - mark.length)}${mark}`;
}

/**
 * Where a page of `text` that starts at `start` ends: the last character boundary within
 * `maxChars` code units of it, and always past `start` while text is left (a page whose first
 * character is longer than `maxChars` holds that one whole character, so its code point or
 * cluster may take 2 code units, or a cluster more, past a bound under its length). Pages cut
 * this way from 0, each starting where the last ended, join back to `text` exactly.
 */
export function pageEnd(text: string, start: number, maxChars: number): number {
  if (start >= text.length) return text.length;
  const end = cutEnd(text, start + Math.max(1, Math.floor(maxChars)));
  if (end > start) return end;
  const next = cutStart(text, start + 1);
  return next > start ? next : Math.min(text.length, start + 1);
}

/** `offset` moved back onto a code point boundary (off the second half of a surrogate pair). */
export function codePointStart(text: string, offset: number): number {
  return codePointFloor(text, offset);
}
