/**
 * What came into the catalog, what left it, and what became unavailable or available again, one
 * entry per catalog event, with the state of each server whose items moved: the answer to "why
 * did this tool leave?" (a list change while its server stayed open, or its server going away).
 * A bounded ring; the diff walks the catalog once per catalog event.
 */
import type { Catalog, HostAvailability } from '../host/catalog/catalog.js';
import type { HostServerStatus } from '../host/servers/serverSlot.js';
import { RingBuffer } from './ringBuffer.js';
import type { DevtoolsCatalogChange } from './snapshot.js';

/** Entries kept. */
const MAX_CHANGES = 100;
/** Names kept per list of one entry; past it, `more` counts the rest. */
const MAX_NAMES = 20;

interface Placed {
  server: string;
  availability: HostAvailability;
}

/** Every item of `catalog` by `kind name` (tools and prompts by exposed name, resources by URI). */
function placesOf(catalog: Catalog): Map<string, Placed> {
  const places = new Map<string, Placed>();
  for (const t of catalog.tools) places.set(`tool ${t.exposedName}`, t);
  for (const p of catalog.prompts) places.set(`prompt ${p.exposedName}`, p);
  for (const r of catalog.resources) places.set(`resource ${r.resource.uri}`, r);
  for (const r of catalog.resourceTemplates) places.set(`resourceTemplate ${r.resourceTemplate.uriTemplate}`, r);
  return places;
}

/** The catalog's changes as they happen, kept in a bounded ring. */
export class CatalogHistory {
  private readonly changes = new RingBuffer<DevtoolsCatalogChange>(MAX_CHANGES);
  private places = new Map<string, Placed>();

  /** Starts from `catalog` (what is there already is no change). */
  seed(catalog: Catalog): void {
    this.places = placesOf(catalog);
  }

  /**
   * The difference between the last catalog and `catalog`, kept and returned; `undefined` when no
   * item came, left or changed availability (a description changed, say).
   */
  heard(catalog: Catalog, servers: readonly HostServerStatus[], at: number): DevtoolsCatalogChange | undefined {
    const now = placesOf(catalog);
    const lists = {
      added: [] as string[],
      removed: [] as string[],
      unavailable: [] as string[],
      available: [] as string[],
    };
    const moved = new Set<string>();
    for (const [key, place] of now) {
      const before = this.places.get(key);
      const list =
        before === undefined
          ? lists.added
          : before.availability === place.availability
            ? undefined
            : place.availability === 'available'
              ? lists.available
              : lists.unavailable;
      if (list === undefined) continue;
      list.push(key);
      moved.add(place.server);
    }
    for (const [key, place] of this.places)
      if (!now.has(key)) {
        lists.removed.push(key);
        moved.add(place.server);
      }
    this.places = now;
    if (moved.size === 0) return undefined;
    let more = 0;
    const cut = (names: string[]): string[] => {
      more += Math.max(0, names.length - MAX_NAMES);
      return names.slice(0, MAX_NAMES);
    };
    const change: DevtoolsCatalogChange = {
      at,
      added: cut(lists.added),
      removed: cut(lists.removed),
      unavailable: cut(lists.unavailable),
      available: cut(lists.available),
      more,
      servers: servers.filter((s) => moved.has(s.name)).map((s) => ({ name: s.name, state: s.state })),
    };
    this.changes.push(change);
    return change;
  }

  /** The kept entries, oldest first. */
  list(): DevtoolsCatalogChange[] {
    return this.changes.toArray();
  }
}
