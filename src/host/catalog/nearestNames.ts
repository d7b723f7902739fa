/**
 * "Did you mean": the names nearest to one that matched nothing, for an error and the text a
 * model reads. Pure.
 */

/** How many names a suggestion lists at most. */
const MAX_SUGGESTIONS = 3;

/**
 * Up to three of `names` nearest to `wanted` (case-insensitive): names that hold it, or that it
 * holds, first (a model that left out the server prefix), then by edit distance to the name or
 * to its part after the last `__` (a misspelled name without its prefix), within a third of
 * `wanted`'s length (at least 2). Nearest first; ties in name order. `[]` when none is near.
 */
export function nearestNames(wanted: string, names: Iterable<string>): string[] {
  const q = wanted.toLowerCase();
  if (q === '') return [];
  const bound = Math.max(2, Math.floor(q.length / 3));
  const near: Array<{ name: string; score: number }> = [];
  for (const name of names) {
    const k = name.toLowerCase();
    if (k === q) continue;
    const at = k.lastIndexOf('__');
    const tail = at < 0 ? k : k.slice(at + 2); // the tool's own name, for a model that left out the prefix
    const score =
      k.includes(q) || q.includes(k)
        ? 0
        : Math.min(editDistance(q, k, bound), tail === k ? bound + 1 : editDistance(q, tail, bound));
    if (score <= bound) near.push({ name, score });
  }
  near.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return near.slice(0, MAX_SUGGESTIONS).map((n) => n.name);
}

/** Levenshtein distance of `a` and `b` (UTF-16 units), or `bound + 1` once it must exceed `bound`. */
function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      row.push(value);
      if (value < least) least = value;
    }
    if (least > bound) return bound + 1;
    previous = row;
  }
  return previous[b.length] as number;
}

/** ` Did you mean "a", "b"?` for a message, or `''` when there is nothing to suggest. */
export function didYouMean(suggestions: readonly string[]): string {
  return suggestions.length === 0 ? '' : ` Did you mean ${suggestions.map((s) => JSON.stringify(s)).join(', ')}?`;
}
