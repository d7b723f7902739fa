/**
 * A {@link CursorStore} in Redis (mcp-live/redis), for a fleet whose workers take over each
 * other's subscriptions: one string per cursor, `<prefix>events:cursor:<sha256 of the key>` (key
 * names hold digests only, never a server URL or arguments), kept `ttlMs` from each write.
 */
import type { Redis, Cluster } from 'ioredis';
import { sha256Hex } from '../../util/sha256.js';
import type { CursorStore } from '../cursorStore.js';

/** Options of {@link RedisCursorStore}. */
export interface RedisCursorStoreOptions {
  /** An ioredis connection the host owns (never closed here). */
  client: Redis | Cluster;
  /** What every key starts with. @default "mcp-live:" */
  prefix?: string | undefined;
  /** How long a cursor is kept after its last write, in ms. @default 2592000000 (30 days) */
  ttlMs?: number | undefined;
}

/** Cursors in Redis (see the file's opening comment). */
export class RedisCursorStore implements CursorStore {
  private readonly prefix: string;
  private readonly ttlMs: number;

  constructor(private readonly options: RedisCursorStoreOptions) {
    this.prefix = options.prefix ?? 'mcp-live:';
    this.ttlMs = Math.max(1_000, options.ttlMs ?? 30 * 86_400_000);
  }

  private keyOf(key: string): string {
    return `${this.prefix}events:cursor:${sha256Hex(key)}`;
  }

  /** The cursor kept under `key`; `undefined` when none is. */
  async get(key: string): Promise<string | undefined> {
    return (await this.options.client.get(this.keyOf(key))) ?? undefined;
  }

  /** Keeps `cursor` under `key` for `ttlMs`. */
  async set(key: string, cursor: string): Promise<void> {
    await this.options.client.set(this.keyOf(key), cursor, 'PX', this.ttlMs);
  }

  /** Forgets `key`. */
  async delete(key: string): Promise<void> {
    await this.options.client.del(this.keyOf(key));
  }
}
