/**
 * Named views of a host: a subset of its catalog (some servers, some tools) with its own events
 * and calls, over the host's connections. One agent gets a triage view, another every tool.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { EventStream } from '../util/eventStream.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../wire/protocol.js';
import type { JsonObject } from '../wire/messages.js';
import type { CallOptions } from '../wire/callOptions.js';
import {
  changedKinds,
  resourcesByUriOf,
  type Catalog,
  type CatalogKind,
  type HostPrompt,
  type HostTool,
} from './catalog/catalog.js';
import type { HostCallOptions, HostCallToolOptions } from './servers/callOptions.js';

/** Options of a view's `callTool`: the host's, without the Tasks extension's manual mode. */
export type ViewCallToolOptions = HostCallToolOptions & { task?: 'auto' | 'off' | undefined };
import { HostRoutingError } from './catalog/errors.js';
import { routeResource, type TemplateMatcher } from './catalog/routing.js';
import type { HostServerState } from './servers/serverSlot.js';
import { checkViewOptions, type HostViewOptions } from './policy/viewOptions.js';

/**
 * An event of a view: `catalog` when the view's own lists changed (`kinds` names them; a change
 * elsewhere in the host is not one), `state` when one of its servers changed state.
 */
export type HostViewEvent =
  | { type: 'catalog'; kinds: readonly CatalogKind[] }
  | { type: 'state'; server: string; state: HostServerState; previous: HostServerState; error?: Error | undefined };

/** @internal What a view needs of its host. */
export interface ViewDeps {
  catalog(): Catalog;
  /** Host events the view follows; returns the function that stops them. */
  listen(listener: (event: HostViewEvent) => void): () => void;
  callTool(tool: HostTool, args: JsonObject, options: ViewCallToolOptions): Promise<CallToolResult>;
  getPrompt(prompt: HostPrompt, args: Record<string, string>, options: CallOptions): Promise<GetPromptResult>;
  readResource(uri: string, options: HostCallOptions): Promise<ReadResourceResult>;
  templateMatcher: TemplateMatcher;
  onError(error: Error): void;
}

/**
 * One named view of an `McpHost` (`host.view(name, options)`): the host's catalog narrowed to
 * `options`, events about that subset only, and calls limited to it. It shares the host's
 * servers and connections; closing it only stops its events.
 */
export class HostView {
  private readonly events: EventStream<HostViewEvent>;
  private readonly stop: () => void;
  private readonly toolPatterns: readonly RegExp[] | undefined;
  private readonly serverSet: ReadonlySet<string> | undefined;
  private current: Catalog;
  private closed = false;

  /** @internal Made by `host.view(name, options)`. */
  constructor(
    /** The view's name. */
    readonly name: string,
    /** What the view shows. */
    readonly options: Readonly<HostViewOptions>,
    private readonly host: ViewDeps,
  ) {
    this.toolPatterns = options.tools?.map(globPattern);
    this.serverSet = options.servers === undefined ? undefined : new Set(options.servers);
    this.events = new EventStream<HostViewEvent>({ onError: (error) => host.onError(error) });
    this.current = this.select(host.catalog());
    this.stop = host.listen((event) => this.onHostEvent(event));
  }

  /** The view's part of the host's catalog (frozen; replaced when it changes). */
  get catalog(): Catalog {
    return this.current;
  }

  /** The view's tools, under the host's exposed names; pass them to the model converters. */
  tools(): readonly HostTool[] {
    return this.current.tools;
  }

  /** The view's prompts, under the host's exposed names. */
  prompts(): Catalog['prompts'] {
    return this.current.prompts;
  }

  /** The view's resources (of the servers it shows). */
  resources(): Catalog['resources'] {
    return this.current.resources;
  }

  /** The view's resource templates (of the servers it shows). */
  resourceTemplates(): Catalog['resourceTemplates'] {
    return this.current.resourceTemplates;
  }

  /** Adds a listener for this view's events; returns the function that removes it. */
  on(listener: (event: HostViewEvent) => void): () => void {
    return this.events.on(listener);
  }

  /**
   * `host.callTool` for a tool of this view, by exposed name: a tool of the host outside the view
   * is unknown here, so a model given this view cannot call it.
   * @throws HostRoutingError (-33051, `unknown-tool`); then as `McpHost.callTool`.
   */
  async callTool(name: string, args: JsonObject = {}, options: ViewCallToolOptions = {}): Promise<CallToolResult> {
    const tool = this.current.toolsByName.get(name);
    if (tool === undefined)
      throw new HostRoutingError(`no tool ${JSON.stringify(name)} in view ${JSON.stringify(this.name)}`, {
        reason: 'unknown-tool',
        name,
      });
    return this.host.callTool(tool, args, options);
  }

  /**
   * `host.getPrompt` for a prompt of this view, by exposed name.
   * @throws HostRoutingError (-33051, `unknown-prompt`); then as `McpHost.getPrompt`.
   */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    const prompt = this.current.promptsByName.get(name);
    if (prompt === undefined)
      throw new HostRoutingError(`no prompt ${JSON.stringify(name)} in view ${JSON.stringify(this.name)}`, {
        reason: 'unknown-prompt',
        name,
      });
    return this.host.getPrompt(prompt, args, options);
  }

  /**
   * `host.readResource`, routed among this view's servers only.
   * @throws HostRoutingError (-33051): `unknown-resource`, `ambiguous-resource`, `unknown-server`
   *   (a server outside the view); then as `McpHost.readResource`.
   */
  async readResource(uri: string, options: HostCallOptions = {}): Promise<ReadResourceResult> {
    const server = options.server ?? routeResource(this.current, uri, this.host.templateMatcher);
    if (this.serverSet !== undefined && !this.serverSet.has(server))
      throw new HostRoutingError(`server ${JSON.stringify(server)} is not in view ${JSON.stringify(this.name)}`, {
        reason: 'unknown-server',
        name: server,
      });
    return this.host.readResource(uri, { ...options, server });
  }

  /** Stops this view's events (the host and its servers go on). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stop();
    this.events.end();
  }

  private onHostEvent(event: HostViewEvent): void {
    if (event.type === 'state') {
      if (this.serverSet === undefined || this.serverSet.has(event.server)) this.events.emit(event);
      return;
    }
    const before = this.current;
    const after = this.select(this.host.catalog());
    const kinds = changedKinds(before, after);
    if (kinds.length === 0) return;
    this.current = after;
    this.events.emit({ type: 'catalog', kinds });
  }

  /** The view's part of `catalog`; the previous one when nothing in it changed. */
  private select(catalog: Catalog): Catalog {
    const servers = this.serverSet;
    const inServers = (item: { server: string }): boolean => servers === undefined || servers.has(item.server);
    const patterns = this.toolPatterns;
    const tools = catalog.tools.filter(
      (t) => inServers(t) && (patterns === undefined || patterns.some((p) => p.test(t.exposedName))),
    );
    const prompts = catalog.prompts.filter(inServers);
    const resources = catalog.resources.filter(inServers);
    const resourceTemplates = catalog.resourceTemplates.filter(inServers);
    const collisionIn = (c: Catalog['toolCollisions'][number]): boolean => c.items.some(inServers);
    return Object.freeze({
      tools: Object.freeze(tools),
      prompts: Object.freeze(prompts),
      resources: Object.freeze(resources),
      resourceTemplates: Object.freeze(resourceTemplates),
      toolCollisions: Object.freeze(catalog.toolCollisions.filter(collisionIn)),
      promptCollisions: Object.freeze(catalog.promptCollisions.filter(collisionIn)),
      toolsByName: new Map(tools.map((t) => [t.exposedName, t])),
      promptsByName: new Map(prompts.map((p) => [p.exposedName, p])),
      resourcesByUri: resourcesByUriOf(resources),
      leftOut: Object.freeze(catalog.leftOut.filter(inServers)),
    });
  }
}

/** A `*` glob over a whole exposed name, as a regular expression. */
function globPattern(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

/** @internal The named views of one host (`host.view()`, `host.views`), in the order they were defined. */
export class HostViews {
  private readonly byName = new Map<string, HostView>();

  constructor(private readonly host: ViewDeps) {}

  /**
   * With `options`, defines the view `name`; without, returns the one defined before.
   * @throws InvalidArgumentError (-32602) for a malformed `options`, a name already defined, or
   *   an unknown name without `options`.
   */
  view(name: string, options?: HostViewOptions): HostView {
    const existing = this.byName.get(name);
    if (options === undefined) {
      if (existing !== undefined) return existing;
      throw new InvalidArgumentError('name', name, 'names no view of this host');
    }
    checkViewOptions(name, options);
    if (existing !== undefined) throw new InvalidArgumentError('name', name, 'a view by that name is already defined');
    const view = new HostView(name, Object.freeze({ ...options }), this.host);
    this.byName.set(name, view);
    return view;
  }

  get all(): readonly HostView[] {
    return [...this.byName.values()];
  }

  close(): void {
    for (const view of this.byName.values()) view.close();
  }
}
