/**
 * Pure converters from what a host holds (its statuses, its catalog, an error) to the devtools'
 * plain data (snapshot.ts), redacted with the debug log's redaction.
 */
import type { Catalog } from '../host/catalog/catalog.js';
import type { HostServerStatus } from '../host/servers/serverSlot.js';
import { logLine, redact, redactText } from '../observability/debug.js';
import { headOf } from '../util/text.js';
import type { CacheStats } from '../cache/types.js';
import type { ServerCapabilities } from '../wire/protocol.js';
import type {
  DevtoolsCatalog,
  DevtoolsCatalogItem,
  DevtoolsError,
  DevtoolsReconnect,
  DevtoolsServer,
} from './snapshot.js';

/** Longest message or description kept, in characters. */
const MAX_MESSAGE = 1024;
const MAX_DESCRIPTION = 200;

/** `error` as name, code and a redacted message; `undefined` stays `undefined`. */
export function errorView(error: unknown): DevtoolsError | undefined {
  if (error === undefined || error === null) return undefined;
  const name = error instanceof Error ? error.name : typeof error;
  const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : undefined;
  if (!(error instanceof Error)) return { name, code, message: headOf(logLine(redact(error)), MAX_MESSAGE) };
  return { name, code, message: redactText(headOf(error.message, MAX_MESSAGE)) };
}

/** What the recorder heard of one server besides its status. */
export interface ServerNotes {
  reconnect?: DevtoolsReconnect | undefined;
  reconnectAttempts: number;
  polling?: { reason: string; intervalMs: number } | undefined;
}

/** What the recorder reads of one server's client, when it has one. */
export interface ClientReading {
  capabilities: ServerCapabilities | undefined;
  cache: CacheStats | undefined;
}

/** One server as the devtools show it. */
export function serverView(
  status: HostServerStatus,
  notes: ServerNotes | undefined,
  client: ClientReading | undefined,
): DevtoolsServer {
  const info = status.serverInfo;
  const cache = client?.cache;
  return {
    name: status.name,
    state: status.state,
    type: status.type,
    era: status.era,
    protocolVersion: status.protocolVersion,
    serverInfo: info === undefined ? undefined : `${info.name} ${info.version}`,
    capabilities: Object.keys(client?.capabilities ?? {}).sort(),
    lastError: errorView(status.lastError),
    reconnect: notes?.reconnect,
    reconnectAttempts: notes?.reconnectAttempts ?? 0,
    updates: notes?.polling === undefined ? 'listen' : 'polling',
    pollReason: notes?.polling?.reason,
    pollIntervalMs: notes?.polling?.intervalMs,
    cache:
      cache === undefined
        ? undefined
        : { hits: cache.hits, misses: cache.misses, stores: cache.stores, invalidations: cache.invalidations },
  };
}

function describe(text: string | undefined): string | undefined {
  return text === undefined ? undefined : redactText(headOf(text, MAX_DESCRIPTION));
}

/** The catalog as the devtools show it: every item of the four lists, what was left out, the collisions. */
export function catalogView(catalog: Catalog): DevtoolsCatalog {
  const items: DevtoolsCatalogItem[] = [];
  for (const t of catalog.tools)
    items.push({
      kind: 'tool',
      server: t.server,
      exposedName: t.exposedName,
      name: t.tool.name,
      availability: t.availability,
      description: describe(t.tool.title ?? t.tool.description),
    });
  for (const p of catalog.prompts)
    items.push({
      kind: 'prompt',
      server: p.server,
      exposedName: p.exposedName,
      name: p.prompt.name,
      availability: p.availability,
      description: describe(p.prompt.title ?? p.prompt.description),
    });
  for (const r of catalog.resources)
    items.push({
      kind: 'resource',
      server: r.server,
      exposedName: redactText(r.resource.uri),
      name: r.resource.name,
      availability: r.availability,
      description: describe(r.resource.title ?? r.resource.description),
    });
  for (const r of catalog.resourceTemplates)
    items.push({
      kind: 'resourceTemplate',
      server: r.server,
      exposedName: redactText(r.resourceTemplate.uriTemplate),
      name: r.resourceTemplate.name,
      availability: r.availability,
      description: describe(r.resourceTemplate.title ?? r.resourceTemplate.description),
    });
  return {
    items,
    leftOut: catalog.leftOut.map((l) => ({ kind: l.kind, server: l.server, name: l.name, reason: l.reason })),
    collisions: [...catalog.toolCollisions, ...catalog.promptCollisions].map((c) => ({
      exposedName: c.exposedName,
      resolution: c.resolution,
      servers: [...new Set(c.items.map((item) => item.server))],
    })),
  };
}

/** What a request is about: the tool or prompt name, the resource URI (redacted); `undefined` otherwise. */
export function requestTarget(params: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof params['name'] === 'string') return params['name'];
  if (typeof params['uri'] === 'string') return redactText(headOf(params['uri'], MAX_DESCRIPTION));
  return undefined;
}
