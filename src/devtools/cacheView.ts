/**
 * A response cache's entries as the devtools show them (snapshot.ts `DevtoolsCacheEntry`): the
 * metadata of every entry, the value of public ones only (redacted, cut), and in place of what
 * could identify a user or carry data (the partition digest, a list cursor, the store key) a
 * short digest salted per recorder, which the page can compare but nobody can look up. Pure but
 * for the salt.
 */
import type { CacheEntryInfo } from '../cache/types.js';
import { logLine, redact, redactText } from '../observability/debug.js';
import { headOf } from '../util/text.js';
import { sha256Hex } from '../util/sha256.js';
import type { DevtoolsCacheEntry } from './snapshot.js';

/** Longest value preview of a public entry, in characters. */
const MAX_PREVIEW = 300;
/** Longest uri shown, in characters. */
const MAX_ABOUT = 200;

/**
 * Short digests salted with 16 random bytes of this process (`crypto.getRandomValues`): equal
 * inputs give equal digests within one recorder, and a digest cannot be matched to a user id, a
 * token or a cursor by hashing guesses (the cache's own partition digest is unsalted).
 */
export class SaltedDigests {
  private readonly salt: string;

  constructor() {
    const bytes = new Uint8Array(16);
    globalThis.crypto.getRandomValues(bytes);
    this.salt = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  /** 12 hex digits of the salted SHA-256 of `kind` and `text`. */
  of(kind: string, text: string): string {
    return sha256Hex(`${this.salt}\u0000${kind}\u0000${text}`).slice(0, 12);
  }
}

/** What an entry is about: its uri, the page of its list, or nothing (`server/discover`). */
function aboutOf(entry: CacheEntryInfo, digests: SaltedDigests): string | undefined {
  const { method, param } = entry;
  if (method === 'resources/directory/read' && param !== null) {
    const [uri, cursor] = JSON.parse(param) as [string | null, string | null];
    const page = cursor === null ? '' : ` (page #${digests.of('cursor', cursor)})`;
    return `${redactText(headOf(uri ?? '', MAX_ABOUT))}${page}`;
  }
  if (method === 'resources/read' || method === 'skills/get')
    return param === null ? undefined : redactText(headOf(param, MAX_ABOUT));
  if (method.endsWith('/list')) return param === null ? 'first page' : `page #${digests.of('cursor', param)}`;
  return undefined;
}

/** `public`, `host` (the host's own private entries), or `user #<digest>`. */
function partitionLabel(partition: string, own: string | undefined, digests: SaltedDigests): string {
  if (partition === 'public') return 'public';
  if (partition === 'private:anonymous' || partition === own) return 'host';
  return `user #${digests.of('partition', partition)}`;
}

/** The id the page names an entry by: a salted digest of its store key. */
export function cacheEntryId(server: string, key: string, digests: SaltedDigests): string {
  return digests.of('entry', `${server}\u0000${key}`);
}

/**
 * One entry of `server`'s cache as the devtools show it (a private entry's value never).
 * `own` is the partition of the host's own requests (`privatePartitionNow()`), labelled `host`.
 */
export function cacheEntryView(
  server: string,
  entry: CacheEntryInfo,
  own: string | undefined,
  digests: SaltedDigests,
): DevtoolsCacheEntry {
  return {
    id: cacheEntryId(server, entry.key, digests),
    server,
    method: entry.method,
    about: aboutOf(entry, digests),
    scope: entry.scope,
    partition: partitionLabel(entry.partition, own, digests),
    protocolVersion: entry.protocolVersion.replace('\u0000', ' '),
    storedAt: entry.storedAt,
    expiresAt: entry.expiresAt,
    ttlMs: entry.ttlMs,
    fresh: entry.fresh,
    bytes: entry.bytes,
    preview: entry.scope === 'public' ? headOf(logLine(redact(entry.value)), MAX_PREVIEW) : undefined,
  };
}
