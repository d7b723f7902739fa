/**
 * What the host's completion as the user types (`completeSlashCommand`, `completeMention`)
 * resolves with: the candidates for the word under the cursor and which part of the line they
 * replace. Types only, and the ranking of names (prefix, then substring, then fuzzy).
 */
import type { SlashCommand } from './slashCommands.js';

/** One suggestion. */
export interface CompletionCandidate {
  /** The value (an argument value, `/mcp__…` for a command, `@server:uri` for a mention). */
  readonly value: string;
  /** The text to put in place of `replace` (quoted when the value has spaces or quotes). */
  readonly insert: string;
  /** What a menu shows: the command's label, the resource's title or name. */
  readonly label?: string | undefined;
  readonly description?: string | undefined;
  /** A command candidate: the command. */
  readonly command?: SlashCommand | undefined;
  /** A mention candidate: what it names. */
  readonly kind?: 'resource' | 'template' | 'server' | 'value' | undefined;
}

/** The answer for the word under the cursor. */
export interface CompletedCandidates {
  status: 'completed';
  /** `command`: the command name; `argument`: a prompt argument; `mention`: an `@server:uri`. */
  kind: 'command' | 'argument' | 'mention';
  /** The offsets (UTF-16 units) of the text the chosen candidate's `insert` replaces. */
  replace: { start: number; end: number };
  /** At most 100, best first. */
  candidates: CompletionCandidate[];
  /** How many there are in all, when known (the server's `total` for an argument). */
  total?: number | undefined;
  /** Whether there are more than `candidates` (the server's `hasMore` for an argument). */
  hasMore?: boolean | undefined;
  /** `server`: from `completion/complete`; `cache`: a recent answer; `catalog`: the host's lists. */
  source: 'server' | 'cache' | 'catalog';
  /** `argument`: the command and the argument completed. */
  command?: SlashCommand | undefined;
  argument?: string | undefined;
}

/**
 * What `host.completeSlashCommand` and `host.completeMention` resolve with: switch on `status`.
 * `superseded`: a newer call took this one's place (ignore it). `unsupported`: the server does
 * not declare `completions`. `none`: nothing to complete at the cursor (`reason` says why).
 */
export type HostCompletion =
  | CompletedCandidates
  | { status: 'superseded' }
  | { status: 'unsupported'; reason: string; command?: SlashCommand | undefined; argument?: string | undefined }
  | { status: 'none'; reason: string };

/** Most candidates returned. */
export const MAX_CANDIDATES = 100;

/**
 * How well `query` matches any of `keys`: 0 a prefix, 1 a substring, 2 + spread a fuzzy
 * (in-order) match, `undefined` no match. Case-insensitive.
 */
export function matchRank(query: string, keys: readonly string[]): number | undefined {
  const q = query.toLowerCase();
  if (q === '') return 0;
  let best: number | undefined;
  for (const key of keys) {
    const k = key.toLowerCase();
    const rank = k.startsWith(q) ? 0 : k.includes(q) ? 1 : fuzzy(q, k);
    if (rank !== undefined && (best === undefined || rank < best)) best = rank;
  }
  return best;
}

/** 2 + how spread out the in-order match is; `undefined` when `q` is not a subsequence of `k`. */
function fuzzy(q: string, k: string): number | undefined {
  let at = -1;
  let first = -1;
  for (const char of q) {
    at = k.indexOf(char, at + 1);
    if (at < 0) return undefined;
    if (first < 0) first = at;
  }
  return 2 + (at - first + 1 - q.length) / Math.max(1, k.length);
}
