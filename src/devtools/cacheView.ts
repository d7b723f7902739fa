/**
 * A response cache's entries as the devtools show them (snapshot.ts `DevtoolsCacheEntry`): the
 * metadata of every entry, the value of public ones only (redacted, cut), and in place of what
 * could identify a user or carry data (the partition digest, a list cursor, the store key) a
 * number this recorder gave it, which the page can compare but nobody can look up.
 */
import type { CacheEntryInfo } from '../cache/types.js';
import { logLine, redact, redactText } from '../observability/debug.js';
import { headOf } from '../util/text.js';
import type { DevtoolsCacheEntry } from './snapshot.js';

/** Longest value preview of a public entry, in characters. */
const MAX_PREVIEW = 300;
/** Longest uri shown, in characters. */
const MAX_ABOUT = 200;

/** Labels kept per kind before they are numbered afresh (a label then may change). */
const MAX_LABELS = 10_000;

/**
 * Numbers in place of what must not reach the page: the first partition this recorder sees is
 * `1`, the next `2`..., and so for cursors and store keys. Equal inputs get equal labels within
 * one recorder, and a label says nothing of its input (no digest to match guesses against: the
 * cache's own partition digest is an unsalted hash of the auth context). Bounded: past
 * {@link MAX_LABELS} inputs of a kind, that kind is numbered afresh.
 */
export class Labels {
  private readonly kinds = new Map<string, Map<string, number>>();

  /** The number of `text` among the inputs of `kind`, from 1. */
  of(kind: string, text: string): number {
    let known = this.kinds.get(kind);
    if (known === undefined) this.kinds.set(kind, (known = new Map<string, number>()));
    let label = known.get(text);
    if (label === undefined) {
      if (known.size >= MAX_LABELS) known.clear();
      label = known.size + 1;
      known.set(text, label);
    }
    return label;
  }
}

/** What an entry is about: its uri, the page of its list, or nothing (`server/discover`). */
function aboutOf(entry: CacheEntryInfo, labels: Labels): string | undefined {
  const { method, param } = entry;
  if (method === 'resources/directory/read' && param !== null) {
    const [uri, cursor] = JSON.parse(param) as [string | null, string | null];
    const page = cursor === null ? '' : ` (page #${labels.of('cursor', cursor)})`;
    return `${redactText(headOf(uri ?? '', MAX_ABOUT))}${page}`;
  }
  if (method === 'resources/read' || method === 'skills/get')
    return param === null ? undefined : redactText(headOf(param, MAX_ABOUT));
  if (method.endsWith('/list')) return param === null ? 'first page' : `page #${labels.of('cursor', param)}`;
  return undefined;
}

/** `public`, `host` (the host's own private entries), or `user <n>`. */
function partitionLabel(partition: string, own: string | undefined, labels: Labels): string {
  if (partition === 'public') return 'public';
  if (partition === 'private:anonymous' || partition === own) return 'host';
  return `user ${labels.of('partition', partition)}`;
}

/** The id the page names an entry by: `e<n>`, a number given to its store key (never the key). */
export function cacheEntryId(server: string, key: string, labels: Labels): string {
  return `e${labels.of('entry', `${server}\u0000${key}`)}`;
}

/**
 * The previews of the stored values already shown, by the value itself (one per recorder): a
 * store hands out the same frozen object for as long as the entry lives, and a listener's reading
 * runs every second over every entry (redacting a 10,000-item list each time took 15 ms of one
 * core per reading). Weak: an evicted entry's value takes its preview with it.
 */
export type Previews = WeakMap<object, string>;

function previewOf(value: unknown, previews: Previews): string {
  const memo = typeof value === 'object' && value !== null;
  const known = memo ? previews.get(value) : undefined;
  if (known !== undefined) return known;
  const preview = headOf(logLine(redact(value)), MAX_PREVIEW);
  if (memo) previews.set(value, preview);
  return preview;
}

/**
 * One entry of `server`'s cache as the devtools show it (a private entry's value never).
 * `own` is the partition of the host's own requests (`privatePartitionNow()`), labelled `host`;
 * `previews` keeps the public values' previews already made.
 */
export function cacheEntryView(
  server: string,
  entry: CacheEntryInfo,
  own: string | undefined,
  labels: Labels,
  previews: Previews,
): DevtoolsCacheEntry {
  return {
    id: cacheEntryId(server, entry.key, labels),
    server,
    method: entry.method,
    about: aboutOf(entry, labels),
    scope: entry.scope,
    partition: partitionLabel(entry.partition, own, labels),
    protocolVersion: entry.protocolVersion.replace('\u0000', ' '),
    storedAt: entry.storedAt,
    expiresAt: entry.expiresAt,
    ttlMs: entry.ttlMs,
    fresh: entry.fresh,
    bytes: entry.bytes,
    preview: entry.scope === 'public' ? previewOf(entry.value, previews) : undefined,
  };
}
