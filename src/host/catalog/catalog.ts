/**
 * The host's catalog: the union of the lists of every server that is open or coming back, each
 * item tagged with its server and that server's availability, tools and prompts under their
 * exposed names. Pure: built from the servers' current lists, rebuilt whenever one of them (or
 * a server's availability) changes.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../wire/protocol.js';
import {
  assignExposedNames,
  type ExposedNameCollision,
  type NameAssignment,
  type NameRequest,
  type NameRules,
} from './exposedNames.js';
import { overriddenTool, overrideOf, type ToolOverride, type ToolOverrides } from './overrides.js';

/** Which of a server's tools the host exposes, by their original names. Deny wins over allow. */
export interface ToolFilter {
  /** Only these tools. @default every tool */
  allow?: readonly string[] | undefined;
  /** Never these tools. @default none */
  deny?: readonly string[] | undefined;
}

/** The four lists of the catalog (the names `McpClient.live()` uses). */
export type CatalogKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** Every {@link CatalogKind}, in catalog order. */
export const CATALOG_KINDS: readonly CatalogKind[] = Object.freeze([
  'tools',
  'prompts',
  'resources',
  'resourceTemplates',
]);

/**
 * Whether a catalog item's server can take a call now: `available` (the server is `open`) or
 * `unavailable` (it is `connecting` or `reconnecting`; a call routed to it waits for it, within
 * the call's deadline). Servers that failed for good, closed, were removed or are disabled have
 * no items in the catalog at all.
 */
export type HostAvailability = 'available' | 'unavailable';

/** A tool of one server, under the name the model sees. */
export interface HostTool {
  /** The server that listed it. */
  readonly server: string;
  /** Whether its server is open now ({@link HostAvailability}). */
  readonly availability: HostAvailability;
  /** The name to give the model (`<server>__<tool>`...); `McpHost.callTool` takes it. */
  readonly exposedName: string;
  /** The tool exactly as the server listed it; `tool.name` is what goes on the wire. */
  readonly tool: Tool;
  /**
   * The tool as models are given it, when the server's `overrides` change it (name, title,
   * description, annotations, hidden arguments); the converters use it. `undefined`: `tool` as is.
   */
  readonly modelTool?: Tool | undefined;
}

/**
 * The tool as a model is given it: the server's `overrides` applied (name, title, description,
 * annotations, hidden arguments out of the schema; `overriddenTool`), else the tool as listed.
 * Every text the host sends a model about a tool (converters, search index and results,
 * deferral estimates, errors) is read from this, never from `tool`.
 */
export function modelFacingTool(tool: HostTool): Tool {
  return tool.modelTool ?? tool.tool;
}

/** A prompt of one server, under its exposed name (same rules as tools). */
export interface HostPrompt {
  readonly server: string;
  readonly availability: HostAvailability;
  readonly exposedName: string;
  readonly prompt: Prompt;
}

/** A resource of one server. */
export interface HostResource {
  readonly server: string;
  readonly availability: HostAvailability;
  readonly resource: Resource;
}

/** A resource template of one server. */
export interface HostResourceTemplate {
  readonly server: string;
  readonly availability: HostAvailability;
  readonly resourceTemplate: ResourceTemplate;
}

/** What one server (open, or coming back) contributes to the catalog. */
export interface ServerContribution {
  server: string;
  /** @default "available" */
  availability?: HostAvailability | undefined;
  /** The prefix of its exposed names; `""` for none. */
  prefix: string;
  toolFilter?: ToolFilter | undefined;
  /** How its tools are presented to models, by original name. */
  overrides?: ToolOverrides | undefined;
  tools: readonly Tool[];
  prompts: readonly Prompt[];
  resources: readonly Resource[];
  resourceTemplates: readonly ResourceTemplate[];
}

/** A tool or prompt a server listed that the catalog leaves out, and why. */
export interface CatalogLeftOut {
  readonly kind: 'tools' | 'prompts';
  readonly server: string;
  /** Its name as the server listed it. */
  readonly name: string;
  readonly reason: string;
}

/** The union of the servers' lists. Frozen; a new catalog is built on every change. */
export interface Catalog {
  readonly tools: readonly HostTool[];
  readonly prompts: readonly HostPrompt[];
  readonly resources: readonly HostResource[];
  readonly resourceTemplates: readonly HostResourceTemplate[];
  /** Tools that would have shared an exposed name, and how that was resolved. */
  readonly toolCollisions: readonly ExposedNameCollision[];
  /** The same for prompts. */
  readonly promptCollisions: readonly ExposedNameCollision[];
  /**
   * Tools and prompts left out: an empty name (no call could name it on the wire). The host
   * reports each one once to its `onError`.
   */
  readonly leftOut: readonly CatalogLeftOut[];
  /** Tools by exposed name. */
  readonly toolsByName: ReadonlyMap<string, HostTool>;
  /** Prompts by exposed name. */
  readonly promptsByName: ReadonlyMap<string, HostPrompt>;
  /** Resources by URI: every server that lists it. */
  readonly resourcesByUri: ReadonlyMap<string, readonly HostResource[]>;
}

/** The tool parts of each catalog, by server (internal: the incremental rebuild). */
const partsOf = new WeakMap<Catalog, ReadonlyMap<string, ToolPart>>();

/** The catalog of no server. */
export const EMPTY_CATALOG: Catalog = buildCatalog([]);

/**
 * Whether `tool` passes `filter`, which names tools as the model sees them: after the
 * override's rename (`override.name`), before the prefix. Deny wins, and a deny also matches
 * the original name, so a rename never brings back a denied tool.
 */
export function toolAllowed(tool: Tool, filter: ToolFilter | undefined, override?: ToolOverride): boolean {
  if (filter === undefined) return true;
  const name = override?.name ?? tool.name;
  if (filter.deny?.includes(name) === true || filter.deny?.includes(tool.name) === true) return false;
  return filter.allow === undefined || filter.allow.includes(name);
}

/**
 * Builds the union of `contributions` (in host order). Items that are unchanged since
 * `previous` (same server, same listed object, same exposed name, same availability) keep their
 * wrapper object, so consumers can compare by reference.
 */
export function buildCatalog(
  contributions: readonly ServerContribution[],
  rules: NameRules = {},
  previous?: Catalog,
): Catalog {
  const leftOut: CatalogLeftOut[] = [];
  const named = (kind: CatalogLeftOut['kind'], server: string, item: { name: string }): boolean => {
    if (item.name !== '') return true;
    leftOut.push(Object.freeze({ kind, server, name: item.name, reason: 'an empty name: no call can name it' }));
    return false;
  };
  const previousParts = previous === undefined ? undefined : partsOf.get(previous);
  const toolParts = contributions.map((c) => toolPartOf(c, rules, named, previousParts?.get(c.server)));
  const toolNames = combinedNames(toolParts, rules);
  const promptSources = contributions.flatMap((c) =>
    c.prompts.filter((prompt) => named('prompts', c.server, prompt)).map((prompt) => ({ c, prompt })),
  );
  const promptNames = assignExposedNames(
    promptSources.map(({ c, prompt }): NameRequest => ({ server: c.server, prefix: c.prefix, name: prompt.name })),
    rules,
  );

  const tools: HostTool[] = [];
  const parts = new Map<string, ToolPart>();
  toolParts.forEach((part, p) => {
    const c = contributions[p] as ServerContribution;
    const names = toolNames[p] as ReadonlyArray<string | undefined>;
    const availability = availabilityOf(c);
    const old = previousParts?.get(c.server)?.wrappers;
    // A server whose tools, names and availability did not change keeps its wrappers as a whole.
    if (
      old !== undefined &&
      part.wrappers === old &&
      old.availability === availability &&
      sameItems(old.names, names)
    ) {
      tools.push(...old.tools);
      parts.set(c.server, part);
      return;
    }
    const oldByName = new Map(
      (
        old?.tools ??
        (previousParts === undefined ? previous?.tools.filter((t) => t.server === c.server) : undefined) ??
        []
      ).map((t) => [t.exposedName, t]),
    );
    const own: HostTool[] = [];
    part.sources.forEach(({ tool, override }, i) => {
      const exposedName = names[i];
      if (exposedName === undefined) return;
      const kept = oldByName.get(exposedName);
      own.push(
        kept !== undefined && kept.tool === tool && kept.availability === availability
          ? kept
          : Object.freeze({
              server: c.server,
              availability,
              exposedName,
              tool,
              ...(override !== undefined && { modelTool: overriddenTool(tool, override) }),
            }),
      );
    });
    tools.push(...own);
    parts.set(c.server, { ...part, wrappers: { availability, names, tools: own } });
  });
  const toolCollisions = toolNames.collisions;

  const oldPrompts = new Map((previous?.prompts ?? []).map((p) => [`${p.server}\u0000${p.exposedName}`, p]));
  const prompts: HostPrompt[] = [];
  promptSources.forEach(({ c, prompt }, i) => {
    const exposedName = promptNames.names[i];
    if (exposedName === undefined) return;
    const old = oldPrompts.get(`${c.server}\u0000${exposedName}`);
    const availability = availabilityOf(c);
    prompts.push(
      old !== undefined && old.prompt === prompt && old.availability === availability
        ? old
        : Object.freeze({ server: c.server, availability, exposedName, prompt }),
    );
  });

  const oldResources = new Map((previous?.resources ?? []).map((r) => [r.resource, r]));
  const resources = contributions.flatMap((c) =>
    c.resources.map((resource) => {
      const old = oldResources.get(resource);
      const availability = availabilityOf(c);
      return old !== undefined && old.server === c.server && old.availability === availability
        ? old
        : Object.freeze({ server: c.server, availability, resource });
    }),
  );
  const oldTemplates = new Map((previous?.resourceTemplates ?? []).map((r) => [r.resourceTemplate, r]));
  const resourceTemplates = contributions.flatMap((c) =>
    c.resourceTemplates.map((resourceTemplate) => {
      const old = oldTemplates.get(resourceTemplate);
      const availability = availabilityOf(c);
      return old !== undefined && old.server === c.server && old.availability === availability
        ? old
        : Object.freeze({ server: c.server, availability, resourceTemplate });
    }),
  );

  const resourcesByUri = resourcesByUriOf(resources);

  const catalog: Catalog = Object.freeze({
    tools: Object.freeze(tools),
    prompts: Object.freeze(prompts),
    resources: Object.freeze(resources),
    resourceTemplates: Object.freeze(resourceTemplates),
    toolCollisions: Object.freeze(toolCollisions),
    promptCollisions: Object.freeze(promptNames.collisions),
    leftOut: Object.freeze(leftOut),
    toolsByName: new Map(tools.map((t) => [t.exposedName, t])),
    promptsByName: new Map(prompts.map((p) => [p.exposedName, p])),
    resourcesByUri,
  });
  partsOf.set(catalog, parts);
  return catalog;
}

/** One tool the catalog takes from a server, with its override. */
interface ToolSource {
  readonly tool: Tool;
  readonly override: ToolOverride | undefined;
}

/**
 * What one server's tools gave the last catalog, kept so that the next build redoes only the
 * servers that changed: the inputs, the tools kept with their overrides, the exposed names they
 * would have on their own, and the wrappers made.
 */
interface ToolPart {
  readonly server: string;
  readonly prefix: string;
  readonly listed: readonly Tool[];
  readonly toolFilter: ToolFilter | undefined;
  readonly overrides: ToolOverrides | undefined;
  readonly sources: readonly ToolSource[];
  /** Names assigned among this server's tools only. */
  readonly own: NameAssignment;
  /** Every name its tools have, and had before a hash suffix: what no other server's may meet. */
  readonly taken: ReadonlySet<string>;
  /** Tools left out for an empty name (reported again in each catalog, as a full build does). */
  readonly unnamed: number;
  readonly wrappers?:
    | { availability: HostAvailability; names: ReadonlyArray<string | undefined>; tools: readonly HostTool[] }
    | undefined;
}

/** `c`'s tool part: `previous` when its inputs are the same (same items by reference), else made anew. */
function toolPartOf(
  c: ServerContribution,
  rules: NameRules,
  named: (kind: CatalogLeftOut['kind'], server: string, item: { name: string }) => boolean,
  previous: ToolPart | undefined,
): ToolPart {
  if (
    previous !== undefined &&
    previous.prefix === c.prefix &&
    previous.toolFilter === c.toolFilter &&
    previous.overrides === c.overrides &&
    sameItems(previous.listed, c.tools)
  ) {
    for (let i = 0; i < previous.unnamed; i++) named('tools', c.server, { name: '' });
    return previous;
  }
  let unnamed = 0;
  // Overrides first, then the filter on the names they give, then the exposed-name rules.
  const sources = c.tools.flatMap((tool): ToolSource[] => {
    if (!named('tools', c.server, tool)) {
      unnamed++;
      return [];
    }
    const override = overrideOf(c.overrides, tool.name);
    return toolAllowed(tool, c.toolFilter, override) ? [{ tool, override }] : [];
  });
  const own = assignExposedNames(
    sources.map(({ tool, override }): NameRequest => ({
      server: c.server,
      prefix: c.prefix,
      name: override?.name ?? tool.name,
    })),
    rules,
  );
  const taken = new Set<string>();
  for (const name of own.names) if (name !== undefined) taken.add(name);
  for (const collision of own.collisions) if (collision.resolution === 'suffixed') taken.add(collision.exposedName);
  return {
    server: c.server,
    prefix: c.prefix,
    listed: c.tools,
    toolFilter: c.toolFilter,
    overrides: c.overrides,
    sources,
    own,
    taken,
    unnamed,
  };
}

/**
 * The exposed names of every server's tools, by part. Each server's own names stand when no
 * name of one server meets a name of another (with `prefixMode: 'always'`, the default, and
 * distinct prefixes: always); otherwise the rules run over all tools together.
 */
function combinedNames(
  parts: readonly ToolPart[],
  rules: NameRules,
): Array<ReadonlyArray<string | undefined>> & { collisions: ExposedNameCollision[] } {
  let apart = rules.prefixMode !== 'onCollision';
  if (apart) {
    const seen = new Set<string>();
    for (const part of parts) {
      for (const name of part.taken)
        if (seen.has(name)) {
          apart = false;
          break;
        }
      if (!apart) break;
      for (const name of part.taken) seen.add(name);
    }
  }
  if (apart) {
    const out = Object.assign(
      parts.map((part): ReadonlyArray<string | undefined> => part.own.names),
      { collisions: [] as ExposedNameCollision[] },
    );
    // The order of the rules run over everything: suffixed names, then duplicates.
    const collisions = parts.flatMap((part) => part.own.collisions);
    out.collisions = [
      ...collisions.filter((c) => c.resolution === 'suffixed'),
      ...collisions.filter((c) => c.resolution === 'duplicate'),
    ];
    return out;
  }
  const requests = parts.flatMap((part) =>
    part.sources.map(({ tool, override }): NameRequest => ({
      server: part.server,
      prefix: part.prefix,
      name: override?.name ?? tool.name,
    })),
  );
  const all = assignExposedNames(requests, rules);
  const out = Object.assign([] as Array<ReadonlyArray<string | undefined>>, {
    collisions: [] as ExposedNameCollision[],
  });
  let at = 0;
  for (const part of parts) {
    out.push(all.names.slice(at, at + part.sources.length));
    at += part.sources.length;
  }
  out.collisions = all.collisions;
  return out;
}

/** Whether two lists hold the same items (by reference) in the same order. */
function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function availabilityOf(contribution: ServerContribution): HostAvailability {
  return contribution.availability ?? 'available';
}

/** The kinds whose lists differ between two catalogs (by item wrapper identity and order). */
export function changedKinds(before: Catalog, after: Catalog): CatalogKind[] {
  return CATALOG_KINDS.filter((kind) => {
    const a: readonly unknown[] = before[kind];
    const b: readonly unknown[] = after[kind];
    return a.length !== b.length || a.some((item, i) => item !== b[i]);
  });
}

/** The catalog's `resourcesByUri`: each URI's items in order, one per server. */
export function resourcesByUriOf(resources: readonly HostResource[]): Map<string, HostResource[]> {
  const byUri = new Map<string, HostResource[]>();
  for (const item of resources) {
    const list = byUri.get(item.resource.uri);
    if (list === undefined) byUri.set(item.resource.uri, [item]);
    else if (!list.some((other) => other.server === item.server)) list.push(item);
  }
  return byUri;
}
