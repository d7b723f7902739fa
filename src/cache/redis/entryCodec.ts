/**
 * The text a fleet store keeps for one cache entry: a one-line header, then the result as JSON.
 *
 *     mcp-live/1 <expiresAt> <ttlMs> <scope> <bytes>\n<result JSON>
 *
 * `expiresAt` is wall-clock ms since the epoch: the only time that means the same in every
 * process. Nothing else of the writer's clocks is kept. The result is serialised once, when
 * stored, and parsed once per read (the header is split, never JSON-parsed). Pure; no Node API.
 */
import type { JsonObject } from '../../wire/messages.js';
import type { CacheScope } from '../../wire/protocol.js';
import { deepFreeze } from '../freeze.js';

/** First word of every entry text; bump it when the layout changes. */
export const ENTRY_FORMAT = 'mcp-live/1';

/** An entry as kept outside the process: no monotonic time in it. */
export interface StoredEntry {
  /** The result, deeply frozen once decoded. */
  readonly value: Readonly<JsonObject>;
  /** Wall-clock expiry, ms since the epoch. */
  readonly expiresAt: number;
  /** The normalized TTL the server granted, in ms. */
  readonly ttlMs: number;
  readonly scope: CacheScope;
  /** Size the writer counted, in bytes. */
  readonly bytes: number;
}

/** The text of an entry. `JSON.stringify` runs once, over the result only. */
export function encodeEntry(entry: StoredEntry): string {
  return `${ENTRY_FORMAT} ${entry.expiresAt} ${entry.ttlMs} ${entry.scope} ${entry.bytes}\n${JSON.stringify(entry.value)}`;
}

/**
 * The entry a text holds, its result deeply frozen; `undefined` when the text is not an entry
 * of this format (another writer's, a truncated value, an older layout), or when `check`
 * (run on the result before it is frozen) says it is not a result the reader can use.
 */
export function decodeEntry(text: string, check?: (value: JsonObject) => boolean): StoredEntry | undefined {
  const newline = text.indexOf('\n');
  if (newline < 0) return undefined;
  const header = text.slice(0, newline).split(' ');
  if (header.length !== 5 || header[0] !== ENTRY_FORMAT) return undefined;
  const expiresAt = Number(header[1]);
  const ttlMs = Number(header[2]);
  const scope = header[3];
  const bytes = Number(header[4]);
  if (!Number.isFinite(expiresAt) || !(ttlMs >= 0) || !(bytes >= 0) || (scope !== 'public' && scope !== 'private'))
    return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(newline + 1));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (check !== undefined && !check(value as JsonObject)) return undefined;
  return { value: deepFreeze(value as JsonObject), expiresAt, ttlMs, scope, bytes };
}
