/**
 * The host's catalog: the union of the lists of every server that is open or coming back, each
 * item tagged with its server and that server's availability, tools and prompts under their
 * exposed names. Pure: built from the servers' current lists, rebuilt whenever one of them (or
 * a server's availability) changes.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '../wire/protocol.js';
import type { ToolFilter } from './config.js';
import { assignExposedNames, type ExposedNameCollision, type NameRequest, type NameRules } from './exposedNames.js';
import { overriddenTool, overrideOf, type ToolOverride, type ToolOverrides } from './policy/overrides.js';

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
  const named = <T extends { name: string }>(kind: CatalogLeftOut['kind'], server: string, item: T): boolean => {
    if (item.name !== '') return true;
    leftOut.push(Object.freeze({ kind, server, name: item.name, reason: 'an empty name: no call can name it' }));
    return false;
  };
  // Overrides first, then the filter on the names they give, then the exposed-name rules.
  const toolSources = contributions.flatMap((c) =>
    c.tools.flatMap((tool) => {
      if (!named('tools', c.server, tool)) return [];
      const override = overrideOf(c.overrides, tool.name);
      return toolAllowed(tool, c.toolFilter, override) ? [{ c, tool, override }] : [];
    }),
  );
  const promptSources = contributions.flatMap((c) =>
    c.prompts.filter((prompt) => named('prompts', c.server, prompt)).map((prompt) => ({ c, prompt })),
  );

  const toolNames = assignExposedNames(
    toolSources.map(({ c, tool, override }): NameRequest => ({
      server: c.server,
      prefix: c.prefix,
      name: override?.name ?? tool.name,
    })),
    rules,
  );
  const promptNames = assignExposedNames(
    promptSources.map(({ c, prompt }): NameRequest => ({ server: c.server, prefix: c.prefix, name: prompt.name })),
    rules,
  );

  const oldTools = new Map((previous?.tools ?? []).map((t) => [`${t.server}\u0000${t.exposedName}`, t]));
  const tools: HostTool[] = [];
  toolSources.forEach(({ c, tool, override }, i) => {
    const exposedName = toolNames.names[i];
    if (exposedName === undefined) return;
    const old = oldTools.get(`${c.server}\u0000${exposedName}`);
    const availability = availabilityOf(c);
    tools.push(
      old !== undefined && old.tool === tool && old.availability === availability
        ? old
        : Object.freeze({
            server: c.server,
            availability,
            exposedName,
            tool,
            ...(override !== undefined && { modelTool: overriddenTool(tool, override) }),
          }),
    );
  });

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

  return Object.freeze({
    tools: Object.freeze(tools),
    prompts: Object.freeze(prompts),
    resources: Object.freeze(resources),
    resourceTemplates: Object.freeze(resourceTemplates),
    toolCollisions: Object.freeze(toolNames.collisions),
    promptCollisions: Object.freeze(promptNames.collisions),
    leftOut: Object.freeze(leftOut),
    toolsByName: new Map(tools.map((t) => [t.exposedName, t])),
    promptsByName: new Map(prompts.map((p) => [p.exposedName, p])),
    resourcesByUri,
  });
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
