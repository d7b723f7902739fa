// Shared data of the bench servers: the same resources, texts and cursors for the official
// server (server.mjs) and the precomputed-bytes floor server (floor-server.mjs), so every
// client parses the same results whichever server answers.

export const PROTOCOL_VERSION = '2026-07-28';
export const SERVER_INFO = { name: 'mcp-live-bench', version: '1.0.0' };
export const RESOURCE_COUNT = 10_000;
export const PAGE_SIZE = 100;
/** Cache hints of the bench server: resources/read 10 minutes, public (as the issue asks). */
export const READ_HINT = { ttlMs: 600_000, cacheScope: 'public' };
export const LIST_HINT = { ttlMs: 600_000, cacheScope: 'public' };
export const TOOLS_HINT = { ttlMs: 600_000, cacheScope: 'public' };
export const DISCOVER_HINT = { ttlMs: 600_000, cacheScope: 'public' };

export const resourceUri = (n) => `bench://r/${n}`;

export function resourceEntry(n) {
  return { uri: resourceUri(n), name: `r${n}`, mimeType: 'text/plain' };
}

const FILLER = 'The quick brown fox jumps over the lazy dog. '.repeat(22).slice(0, 980);
/** About 1 KiB of text (1,000 + twice the uri), distinct per resource: the uri is spelled out at both ends. */
export function resourceText(uri) {
  return `${uri}\n${FILLER}\nend of ${uri}\n`;
}

/** Opaque cursor: base64url of the next offset, with a tag so nobody parses it as a number. */
export const encodeCursor = (offset) => Buffer.from(`o:${offset}`, 'utf8').toString('base64url');
export function decodeCursor(cursor) {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith('o:')) return undefined;
  const offset = Number(text.slice(2));
  return Number.isSafeInteger(offset) && offset > 0 && offset < RESOURCE_COUNT ? offset : undefined;
}

/** One resources/list page (without cache hints), from `offset`. */
export function listPage(offset) {
  const resources = [];
  const end = Math.min(offset + PAGE_SIZE, RESOURCE_COUNT);
  for (let i = offset; i < end; i++) resources.push(resourceEntry(i + 1));
  return end < RESOURCE_COUNT ? { resources, nextCursor: encodeCursor(end) } : { resources };
}

export const ECHO_TOOL = {
  name: 'echo',
  description: 'Returns its text argument.',
  // Exactly what the official server derives from its zod schema, key order included.
  inputSchema: {
    type: 'object',
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    properties: { text: { type: 'string' } },
    required: ['text'],
  },
};

/** Appends the pid to $BENCH_SPAWN_LOG, so a run can count server spawns. */
export async function recordSpawn() {
  const file = process.env.BENCH_SPAWN_LOG;
  if (file === undefined || file === '') return;
  const { appendFileSync } = await import('node:fs');
  appendFileSync(file, `${process.pid}\n`);
}
