/**
 * The last tool list of a lazy server (`lazy: true`), kept in the host's cache store so a
 * later host (this process or another sharing the store) can list the server's tools without
 * starting it. The key names the server and where it is (command and arguments, or URL), so
 * an entry that changed where it points does not reuse another's list. With a host state store
 * (`McpHostOptions.state`), the list is kept there instead, in the partition of whoever opened
 * the server (a scope's own server: its user's; the host's: `host`), so a cold worker of a fleet
 * lists it without connecting and one user's list is never another's.
 */
import type { CacheStore } from '../../cache/cacheStore.js';
import type { Tool } from '../../wire/protocol.js';
import type { JsonObject } from '../../wire/messages.js';
import type { HostServerEntry } from './config.js';
import { sha256Hex } from '../../util/sha256.js';
import type { HostStateStore } from '../state/stateStore.js';

/** @internal Where a host keeps its lazy servers' lists: the cache store, or the state store's partition. */
export interface LazyToolsPlace {
  readonly cache: CacheStore | false;
  readonly state?: { readonly store: HostStateStore; readonly partition: string } | undefined;
}

const PREFIX = 'mcp-live:host-lazy-tools:';
/** The longest a kept list is used, in ms (a week); refreshed each time the server opens. */
const KEEP_MS = 7 * 24 * 3_600_000;
/** Tools read from a kept list (the list is server data: bounded before use). */
const MAX_TOOLS = 10_000;

/** @internal The store key of a server's kept tool list. */
export function lazyToolsKey(name: string, entry: HostServerEntry): string {
  const where =
    entry.type === 'stdio'
      ? [entry.type, entry.command, ...(entry.args ?? []), entry.cwd ?? '']
      : entry.type === 'custom'
        ? [entry.type]
        : [entry.type, entry.url];
  return `${PREFIX}${encodeURIComponent(name)}:${encodeURIComponent(JSON.stringify(where))}`;
}

/** @internal The kept tool list of a server, or `undefined` (none, malformed, or older than a week). */
export async function loadLazyTools(
  place: LazyToolsPlace,
  name: string,
  entry: HostServerEntry,
  now: number,
): Promise<readonly Tool[] | undefined> {
  try {
    let value: JsonObject | undefined;
    if (place.state !== undefined)
      value = await place.state.store.getRecord(place.state.partition, 'catalog', recordId(name, entry));
    else if (place.cache !== false) value = (await place.cache.get(lazyToolsKey(name, entry)))?.value;
    const tools = value?.['tools'];
    const savedAt = value?.['savedAt'];
    if (!Array.isArray(tools) || typeof savedAt !== 'number' || now - savedAt > KEEP_MS) return undefined;
    return tools
      .slice(0, MAX_TOOLS)
      .filter(
        (t): t is Tool => typeof t === 'object' && t !== null && typeof (t as { name?: unknown }).name === 'string',
      );
  } catch {
    return undefined;
  }
}

/** @internal Keeps a server's tool list (failures are ignored: the list is only a head start). */
export async function saveLazyTools(
  place: LazyToolsPlace,
  name: string,
  entry: HostServerEntry,
  tools: readonly Tool[],
  now: number,
): Promise<void> {
  const value = { tools: tools, savedAt: now } as JsonObject;
  try {
    if (place.state !== undefined) {
      await place.state.store.putRecord(place.state.partition, 'catalog', recordId(name, entry), value, KEEP_MS);
      return;
    }
    if (place.cache === false) return;
    await place.cache.set(lazyToolsKey(name, entry), {
      value,
      receivedAt: 0,
      ttlMs: KEEP_MS,
      scope: 'private',
      bytes: JSON.stringify(value).length,
      expiresAt: now + KEEP_MS,
    });
  } catch {
    // A store that refuses it: the next host starts the server to list its tools.
  }
}

/** The state store id of a server's list: a digest of its cache key (server name and where it is). */
function recordId(name: string, entry: HostServerEntry): string {
  return sha256Hex(lazyToolsKey(name, entry)).slice(0, 32);
}
