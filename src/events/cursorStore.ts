/**
 * Where a subscription's cursor is kept between batches and between runs: the {@link CursorStore}
 * interface (any store may answer synchronously or not), {@link MemoryCursorStore} (the default),
 * and the key one subscription is kept under. The file store is in `fileCursorStore.ts`
 * (mcp-live/node), the Redis one in mcp-live/redis.
 */
import type { MaybePromise } from '../util/maybePromise.js';
import type { JsonObject } from '../wire/messages.js';

/**
 * A store of cursors, by subscription key. `get` resolves `undefined` for a key never written
 * (the subscription then starts from `null`, "now"); a store never holds a `null` cursor (a type
 * without replay has nothing to keep, design: Cursor Lifecycle). Written after each batch the
 * subscription has handed on, so a restarted process resumes after the last batch it delivered.
 */
export interface CursorStore {
  /** The cursor kept under `key`; `undefined` when none was. */
  get(key: string): MaybePromise<string | undefined>;
  /** Keeps `cursor` under `key`, replacing any; resolves once it is kept. */
  set(key: string, cursor: string): MaybePromise<void>;
  /** Forgets `key`. */
  delete(key: string): MaybePromise<void>;
}

/** Cursors in a `Map` of this process: lost with it. */
export class MemoryCursorStore implements CursorStore {
  private readonly cursors = new Map<string, string>();
  /** {@inheritDoc CursorStore.get} */
  get(key: string): string | undefined {
    return this.cursors.get(key);
  }
  /** {@inheritDoc CursorStore.set} */
  set(key: string, cursor: string): void {
    this.cursors.set(key, cursor);
  }
  /** {@inheritDoc CursorStore.delete} */
  delete(key: string): void {
    this.cursors.delete(key);
  }
}

/** JSON with object keys sorted at every depth: equal arguments give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as JsonObject)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The key a subscription's cursor is stored under: the server's identity, the event name, the
 * canonical JSON of the arguments and, when the client declares whom its requests are for, that
 * principal (the design's subscription identity: principal, name, arguments). `principal` is the
 * client's private cache partition (`private:<32 hex>`, a digest, never an id or a token): give
 * what `client.events.cursorKey(name, args)` gives rather than building it.
 */
export function cursorKey(server: string, name: string, args: JsonObject, principal?: string): string {
  const key = `${server}\n${name}\n${canonicalJson(args)}`;
  return principal === undefined ? key : `${key}\n${principal}`;
}
