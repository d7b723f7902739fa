/**
 * The state every part of one host shares: its servers by name, its catalog (rebuilt from the
 * open servers, one `catalog` event per change), its events and its error sink.
 */
import { ProtocolError } from '../../errors/errors.js';
import { EventStream } from '../../util/eventStream.js';
import {
  buildCatalog,
  changedKinds,
  EMPTY_CATALOG,
  type Catalog,
  type ServerContribution,
} from '../catalog/catalog.js';
import { HostRoutingError } from '../catalog/errors.js';
import type { ExposedNameCollision } from '../catalog/exposedNames.js';
import type { HostEvent, McpHostOptions } from './hostOptions.js';
import type { ServerSlot } from './serverSlot.js';
import { PrincipalWindow } from './principalWindow.js';
import type { AuthContext } from '../../cache/authContext.js';
import type { GateScope } from '../policy/toolGate.js';

/** What follows the catalog, told in a fixed order around each change's `catalog` event. */
export interface CatalogFollowers {
  /** The tool list changed (before the `catalog` event): the search index, the kept lists. */
  toolsChanged(): void;
  /** After the `catalog` and `collision` events: the slash commands. */
  changed(): void;
}

/** What a user scope's core adds to each call (`host.forUser`, docs/fleet.md). */
export interface CoreScope {
  /** The scope's principal, as `host.forUser` was given it. */
  readonly principal: string;
  /** Its private cache partition on the host's shared clients. */
  readonly authContext: AuthContext;
  /** Its approval, in place of the host's, on every client a call of the scope reaches. */
  readonly gate: GateScope;
}

/** @internal See the module comment. */
export class HostCore {
  readonly slots = new Map<string, ServerSlot>();
  readonly events: EventStream<HostEvent>;
  /** The current catalog; replaced, never mutated. */
  catalog: Catalog = EMPTY_CATALOG;
  /** `connect()` was called: a server added from now on connects at once. */
  started = false;
  closed = false;
  /**
   * Aborted by `close()` with a ConnectionClosedError (`reason: 'host closed'`): what waits on
   * the host (a call waiting for approval) ends with it.
   */
  readonly closing = new AbortController();
  /** Whose call starts on the host's shared clients; a scope's core holds its host's. */
  window = new PrincipalWindow();
  /** Set on the core of a user scope: whose calls these are. */
  scope: CoreScope | undefined;

  constructor(
    readonly options: McpHostOptions,
    private readonly followers: CatalogFollowers,
  ) {
    this.events = new EventStream<HostEvent>({ onError: (error) => this.report(error, undefined) });
  }

  /** Hands `error` to the host's `onError`, tagged with its server; a throwing `onError` is ignored. */
  report(error: Error, server: string | undefined): void {
    try {
      this.options.onError?.(error, server);
    } catch {
      // A throwing onError must not break the host.
    }
  }

  /** @throws HostRoutingError (-33051, `unknown-server`) */
  slotNamed(name: string): ServerSlot {
    const slot = typeof name === 'string' ? this.slots.get(name) : undefined;
    if (slot !== undefined) return slot;
    throw new HostRoutingError(`no server named ${JSON.stringify(name)} in the host`, {
      reason: 'unknown-server',
      name,
    });
  }

  /** Rebuilds the catalog from the open servers; one `catalog` event when it changed. */
  refreshCatalog(): void {
    const contributions: ServerContribution[] = [];
    for (const slot of this.slots.values()) {
      const contribution = slot.contribution();
      if (contribution !== undefined) contributions.push(contribution);
    }
    const before = this.catalog;
    const after = buildCatalog(
      contributions,
      { separator: this.options.separator, prefixMode: this.options.prefixMode },
      before,
    );
    const kinds = changedKinds(before, after);
    const known = new Set(before.leftOut.map((item) => JSON.stringify(item)));
    const leftOut = after.leftOut.filter((item) => !known.has(JSON.stringify(item)));
    if (kinds.length === 0 && leftOut.length === 0) return;
    this.catalog = after;
    for (const item of leftOut)
      this.report(
        new ProtocolError(`${item.kind} ${JSON.stringify(item.name)} of ${item.server} left out: ${item.reason}`, {
          value: item,
        }),
        item.server,
      );
    if (kinds.length === 0) return;
    if (kinds.includes('tools')) this.followers.toolsChanged();
    this.events.emit({ type: 'catalog', kinds });
    this.announceCollisions('tools', before.toolCollisions, after.toolCollisions);
    this.announceCollisions('prompts', before.promptCollisions, after.promptCollisions);
    this.followers.changed();
  }

  private announceCollisions(
    kind: 'tools' | 'prompts',
    before: readonly ExposedNameCollision[],
    after: readonly ExposedNameCollision[],
  ): void {
    const known = new Set(before.map(collisionKey));
    for (const collision of after)
      if (!known.has(collisionKey(collision))) this.events.emit({ type: 'collision', kind, collision });
  }
}

function collisionKey(collision: ExposedNameCollision): string {
  return JSON.stringify([collision.exposedName, collision.resolution, collision.items]);
}
