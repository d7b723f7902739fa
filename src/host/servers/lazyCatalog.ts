/**
 * The last tool list of a lazy server (`lazy: true`), kept in the host's cache store so a
 * later host (this process or another sharing the store) can list the server's tools without
 * starting it. The key names the server and where it is (command and arguments, or URL), so
 * an entry that changed where it points does not reuse another's list.
 */
import type { CacheStore } from '../../cache/cacheStore.js';
import type { Tool } from '../../wire/protocol.js';
import type { JsonObject } from '../../wire/messages.js';
import type { HostServerEntry } from './config.js';

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
  store: CacheStore | false,
  name: string,
  entry: HostServerEntry,
  now: number,
): Promise<readonly Tool[] | undefined> {
  if (store === false) return undefined;
  try {
    const kept = await store.get(lazyToolsKey(name, entry));
    const tools = kept?.value['tools'];
    const savedAt = kept?.value['savedAt'];
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
  store: CacheStore | false,
  name: string,
  entry: HostServerEntry,
  tools: readonly Tool[],
  now: number,
): Promise<void> {
  if (store === false) return;
  const value = { tools: tools, savedAt: now } as JsonObject;
  try {
    await store.set(lazyToolsKey(name, entry), {
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
