/**
 * `McpHost`: many servers behind one object. It connects them in parallel, keeps one catalog of
 * their tools, prompts and resources current, names tools for models, and routes each call to
 * the server it belongs to.
 */
import { boundedWait, type CloseOptions } from '../client/closeOptions.js';
import type { McpClient } from '../client/client.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { CallToolOptions } from '../tasks/options.js';
import type { ToolTask } from '../tasks/toolTask.js';
import { MemoryCacheStore, type CacheStore } from '../cache/cacheStore.js';
import {
  abortedError,
  ConnectionClosedError,
  InvalidArgumentError,
  isTimeoutError,
  ProtocolError,
} from '../errors/errors.js';
import { abortableDelay } from '../util/signals.js';
import type { JsonObject } from '../wire/messages.js';
import type { EraMemory } from '../era/era.js';
import { EventStream } from '../util/eventStream.js';
import type { LivePollReason } from '../subscriptions/types.js';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Implementation,
  PromptReference,
  ReadResourceResult,
  ResourceTemplateReference,
} from '../wire/protocol.js';
import {
  EMPTY_CATALOG,
  buildCatalog,
  changedKinds,
  type Catalog,
  type CatalogKind,
  type HostPrompt,
  type HostResource,
  type HostResourceTemplate,
  type HostTool,
  type ServerContribution,
} from './catalog.js';
import type { ClientEvent } from '../reconnect/types.js';
import { makeServerClient } from './serverClient.js';
import type { HostSkill } from './hostSkills.js';
import { SkillsFront, type HostSkillsOptions } from './skillsFront.js';
import type { SkillFile } from '../skills/types.js';
import {
  isHostConfig,
  parseHostConfig,
  type HostClientOptions,
  type HostServerEntry,
  type HostServerOptions,
  type ParseHostConfigOptions,
} from './config.js';
import { HostRoutingError, type HostConfigError } from './errors.js';
import { DEFAULT_NAME_SEPARATOR, type ExposedNameCollision, type PrefixMode } from './exposedNames.js';
import { routePrompt, routeResource, routeTemplate, routeTool, type ServerItemRef } from './routing.js';
import { ServerSlot, type HostServerState, type HostServerStatus } from './serverSlot.js';
import { templateMatcher } from './templateRoute.js';
import { restoreModelArguments, type ModelArgumentsFrom } from './modelTools.js';
import type { HostCallOptions, HostCallToolOptions } from './callOptions.js';
import type { ApproveHook } from './policy/approval.js';
import { approveToolCall, type ToolApprovalSetting } from './policy/toolApproval.js';
import { APPROVED_CALL, HostMiddleware, type ApprovedCall } from './policy/hostMiddleware.js';
import type { Middleware } from '../client/middleware.js';
import { argumentsHash } from './policy/argumentsHash.js';
import { assertOverrides, overrideOf, wireArguments } from './policy/overrides.js';
import { HostView } from './policy/views.js';
import { checkViewOptions, type HostViewOptions } from './policy/viewOptions.js';
import { fetchTransport, type CreateTransport } from './transports.js';
import { systemClock, systemTimers, type Clock, type Timers } from '../util/clock.js';
import type { CompleterOptions } from '../completion/completer.js';
import type { HostCompletion } from './completionCandidates.js';
import type { ResolvedMentions, ResolveMentionsOptions } from './mentions.js';
import type { PromptApi } from './promptMessages.js';
import type { ParsedSlashCommand } from './slashCommandLine.js';
import type { SlashCommand, SlashCommandOptions } from './slashCommands.js';
import { UserInput, type RunSlashCommandOptions, type SlashCommandRun } from './userInput.js';

/** First wait before a call that reached no server is sent again, in ms (doubling, up to the max). */
const UNREACHED_RETRY_MS = 100;
const UNREACHED_RETRY_MAX_MS = 1000;

/** A call that failed before anything reached the server: its connection was refused, unresolved or unreachable. */
function unreached(error: unknown): boolean {
  return (
    error instanceof ConnectionClosedError &&
    error.data.connectFailure !== undefined &&
    error.data.connectFailure !== 'tls' &&
    error.data.connectFailure !== 'blocked'
  );
}

/** A call's deadline when neither the call nor the client options give a `timeoutMs`: the client's default. */
const DEFAULT_CALL_TIMEOUT_MS = 60_000;
import type { AppsOptions } from '../client/options.js';
import { checkAppUri, type AppResource, type AppResourceOptions } from '../apps/appResource.js';
import { isModelVisible } from '../apps/toolUi.js';
import { routeAppResource } from './appRouting.js';
import { ContextBudget } from './contextBudget/contextBudget.js';
import type { ContextBudgetOptions } from './contextBudget/options.js';
import type { ArtifactStore } from './contextBudget/artifacts.js';
import type { ToolSession } from './contextBudget/toolSession.js';
import type { BoundedResult } from './contextBudget/resultBudget.js';
import type { ToolSearchOptions, ToolSearchResult } from './contextBudget/toolSearch.js';
import { tagInstructions, type InstructionsOptions } from './contextBudget/instructions.js';
import { loadLazyTools, saveLazyTools } from './contextBudget/lazyCatalog.js';

/** Options of `new McpHost(options)`. */
export interface McpHostOptions {
  /** This host's name and version, sent to every server (an entry's `client.clientInfo` wins). */
  clientInfo: Implementation;
  /** The servers, by name, in the order the catalog lists them. @default none (add them with `add`) */
  servers?: Readonly<Record<string, HostServerEntry>> | undefined;
  /** Client options every server gets; an entry's `client` options win, key by key. @default {} */
  client?: HostClientOptions | undefined;
  /**
   * The MCP Apps extension for every server (docs/apps.md): the `apps` client option's default
   * (`client.apps` and an entry's `client.apps` win, so one server can opt in or out).
   * @default off
   */
  apps?: AppsOptions | boolean | undefined;
  /**
   * Makes the transport of a stdio or remote entry. @default `fetchTransport` (runtime-neutral:
   * no stdio) for the `McpHost` of `mcp-live`; `nodeTransport` (stdio, `node:http`, `ws`) for
   * the `McpHost` of `mcp-live/node`
   */
  createTransport?: CreateTransport | undefined;
  /**
   * The one cache store of every server's response cache; keys carry each server's identity, so
   * entries never mix (see docs/host.md). `false`: no cache. An entry's `client.cache: false`
   * turns its cache off. @default a new `MemoryCacheStore` (5000 entries / 50 MiB)
   */
  cacheStore?: CacheStore | false | undefined;
  /** When tool and prompt names get their server's prefix. @default "always" */
  prefixMode?: PrefixMode | undefined;
  /** Between prefix and name; letters, digits, `_` and `-` only. @default "__" */
  separator?: string | undefined;
  /** Skills (SEP-2640): which servers' skills are trusted, and the built-in tools' result size. @default {} */
  skills?: HostSkillsOptions | undefined;
  /**
   * Tool search with deferred definitions, and bounded tool results (docs/host.md, "The
   * context budget"). @default { defer: 'auto', deferThresholdTokens: 20000, maxResultTokens: 25000 }
   */
  contextBudget?: ContextBudgetOptions | undefined;
  /** Prompts as slash commands: the reserved server names (docs/host.md). @default { reservedServers: ["anthropic-skills"] } */
  slashCommands?: SlashCommandOptions | undefined;
  /**
   * Completion as the user types (`completeSlashCommand`, `completeMention`): debounce, cache
   * lifetime and size, as `client.completer()` takes them. @default { debounceMs: 150, cacheTtlMs: 30000 }
   */
  completion?: CompleterOptions | undefined;
  /** Receives non-fatal problems of every server (and of the host), tagged with the server name. @default ignore */
  onError?: ((error: Error, server: string | undefined) => void) | undefined;
  /**
   * Approves each `callTool` before it is sent (a server's own `approve` replaces it for that
   * server): `approvalPreset(...)`, `approveWithElicitation(...)` or your own hook.
   * A denial throws `ToolApprovalDeniedError` (-32052). @default none: every call goes
   */
  approve?: ApproveHook | undefined;
  /** How long a call waits for its approval, in ms; no answer by then is a denial. @default 120000 */
  approvalTimeoutMs?: number | undefined;
  /** Named views of the host (`host.view(name)`), by name. @default none */
  views?: Readonly<Record<string, HostViewOptions>> | undefined;
}

/** Options of {@link McpHost.fromConfig}: the host's options, per-server options by name, and parsing options. */
export interface HostFromConfigOptions extends Omit<McpHostOptions, 'servers'>, ParseHostConfigOptions {
  /** Per-server options (client options, tool filter, prefix, authProvider), by server name. */
  servers?: Readonly<Record<string, HostServerOptions>> | undefined;
}

const DEFAULT_MODEL_ARGUMENTS: ModelArgumentsFrom = { api: 'openAiChat', strict: 'auto' };

/**
 * One host event. `state`: a server changed state. `catalog`: the catalog changed (`kinds`
 * says which lists; read them from the host): a server's list changed, its items came or went,
 * or its availability changed. `collision`: tools or prompts that would have shared an exposed
 * name (they were renamed, never dropped). `client`: a reconnect event of a server's client.
 * `slashCommands`: the slash commands changed (once per change; read `commands` or
 * `host.slashCommands()`). `polling`: a server's changes are not pushed (its listen was refused, never acknowledged,
 * keeps dropping, or is not offered), so its lists are fetched again every `intervalMs`
 * (docs/host.md); said once per server, and `error`, when there is one, is also its
 * `lastError`. All are tagged with the server, where there is one.
 */
export type HostEvent =
  | { type: 'state'; server: string; state: HostServerState; previous: HostServerState; error?: Error | undefined }
  | { type: 'catalog'; kinds: readonly CatalogKind[] }
  | {
      type: 'polling';
      server: string;
      /** The first list found polling. */
      kind: CatalogKind;
      reason: LivePollReason;
      error?: Error | undefined;
      intervalMs: number;
    }
  | { type: 'collision'; kind: 'tools' | 'prompts' | 'slashCommands'; collision: ExposedNameCollision }
  | { type: 'client'; server: string; event: ClientEvent }
  | { type: 'skills'; skills: readonly HostSkill[] }
  | { type: 'slashCommands'; commands: readonly SlashCommand[] };

/**
 * Many MCP servers behind one object: one `McpClient` per server, connected in parallel, one
 * live catalog, one cache store, and calls routed by name (docs/host.md).
 *
 * In Node, import `McpHost` from `mcp-live/node`: the same class with the Node transports
 * (stdio among them) as its default `createTransport`.
 *
 * ```ts
 * await using host = McpHost.fromConfig(await loadHostConfig('mcp.json'), { clientInfo }); // from mcp-live/node
 * await host.connect(); // every server settles: open or failed
 * const tools = toAnthropicTools(host.tools()); // `<server>__<tool>` names
 * const result = await host.callTool('github__create_issue', { title: 'Bug' });
 * ```
 */
export class McpHost {
  private readonly options: McpHostOptions;
  private closing: Promise<void> | undefined;
  private readonly slots = new Map<string, ServerSlot>();
  private readonly events: EventStream<HostEvent>;
  private readonly store: CacheStore | false;
  private readonly eraMemory: EraMemory;
  private configErrorList: readonly HostConfigError[] = [];
  private catalogValue: Catalog = EMPTY_CATALOG;
  private started = false;
  private closed = false;
  private skillsFront: SkillsFront | undefined;
  private readonly budget: ContextBudget;
  private readonly viewsByName = new Map<string, HostView>();
  private readonly userInput: UserInput;
  private readonly middleware = new HostMiddleware();
  private readonly keptLazy = new WeakMap<ServerSlot, readonly unknown[]>();

  /**
   * @throws InvalidArgumentError (-32602) for a bad option (`clientInfo`, `separator`,
   *   `prefixMode`) or a bad server entry.
   */
  constructor(options: McpHostOptions) {
    if (typeof options?.clientInfo?.name !== 'string' || typeof options.clientInfo.version !== 'string')
      throw new InvalidArgumentError('clientInfo', options?.clientInfo, 'expected { name: string, version: string }');
    const separator = options.separator ?? DEFAULT_NAME_SEPARATOR;
    if (typeof separator !== 'string' || !/^[A-Za-z0-9_-]*$/.test(separator))
      throw new InvalidArgumentError('separator', separator, 'expected letters, digits, _ and - only');
    if (options.prefixMode !== undefined && options.prefixMode !== 'always' && options.prefixMode !== 'onCollision')
      throw new InvalidArgumentError('prefixMode', options.prefixMode, 'expected "always" or "onCollision"');
    if (options.approve !== undefined && typeof options.approve !== 'function')
      throw new InvalidArgumentError('approve', options.approve, 'expected a function');
    this.options = options;
    this.events = new EventStream<HostEvent>({ onError: (error) => this.report(error, undefined) });
    this.store = options.cacheStore ?? new MemoryCacheStore();
    this.eraMemory = options.client?.eraMemory ?? new Map();
    this.budget = new ContextBudget(options.contextBudget ?? {}, {
      catalog: () => this.catalogValue,
      servers: () => this.servers,
      serverOptions: (name) => this.slots.get(name)?.entry,
      callTool: (name, args, call) => this.callTool(name, args, call),
    });
    this.userInput = this.makeUserInput();
    for (const [name, entry] of Object.entries(options.servers ?? {})) this.addSlot(name, entry);
    for (const [name, view] of Object.entries(options.views ?? {})) this.view(name, view);
  }

  /**
   * A host for a configuration file's servers: `config` is what `parseHostConfig` or
   * `loadHostConfig` (mcp-live/node) returned, or the raw JSON (parsed here with `options.env`
   * and `options.strict`). Malformed entries become `failed` servers whose `lastError` is the
   * `HostConfigError`; disabled ones are listed as `disabled`.
   * @throws HostConfigError (-32050) as `parseHostConfig`; InvalidArgumentError (-32602) as the
   *   constructor, and when `options.servers` names a server the configuration does not have.
   */
  static fromConfig<Host extends McpHost>(
    this: new (options: McpHostOptions) => Host,
    config: unknown,
    options: HostFromConfigOptions,
  ): Host {
    const parsed = isHostConfig(config) ? config : parseHostConfig(config, options);
    const { servers: perServer, env: _env, strict: _strict, ...hostOptions } = options;
    // Options for a server the file does not have (a typo) would silently not apply: a tool
    // deny list among them.
    for (const name of Object.keys(perServer ?? {}))
      if (!parsed.names.includes(name))
        throw new InvalidArgumentError(`servers.${name}`, name, 'names no server of the configuration');
    const host = new this({ ...hostOptions, views: { ...parsed.views, ...hostOptions.views } });
    host.configErrorList = parsed.errors;
    const errors = new Map(parsed.errors.map((error) => [error.data.server, error]));
    const disabled = new Set(parsed.disabled);
    for (const name of parsed.names) {
      const entry = Object.hasOwn(parsed.servers, name) ? parsed.servers[name] : undefined;
      const error = errors.get(name);
      if (entry !== undefined) host.addSlot(name, { ...entry, ...perServer?.[name] });
      else if (disabled.has(name)) host.addSlot(name, undefined, { state: 'disabled' });
      else if (error !== undefined) host.addSlot(name, undefined, { state: 'failed', error });
    }
    return host;
  }

  /** Every server, in host order: name, state, negotiated version, server info, last error. */
  get servers(): readonly HostServerStatus[] {
    return [...this.slots.values()].map((slot) => slot.status());
  }

  /** One server's status, or `undefined` when there is no server by that name. */
  server(name: string): HostServerStatus | undefined {
    return this.slots.get(name)?.status();
  }

  /** The client of one server (for what the host does not route), once it has one. */
  client(name: string): McpClient | undefined {
    return this.slots.get(name)?.client;
  }

  /** The configuration's malformed entries (also listed in {@link servers} as `failed`). */
  get configErrors(): readonly HostConfigError[] {
    return this.configErrorList;
  }

  /** The whole catalog: the four lists, the collisions, and the lookups routing uses. */
  get catalog(): Catalog {
    return this.catalogValue;
  }

  /** Every tool of every open server, under its exposed name; the array is replaced on each change. */
  tools(): readonly HostTool[] {
    return this.catalogValue.tools;
  }

  /** Every prompt of every open server, under its exposed name. */
  prompts(): readonly HostPrompt[] {
    return this.catalogValue.prompts;
  }

  /** Every resource of every open server. */
  resources(): readonly HostResource[] {
    return this.catalogValue.resources;
  }

  /** Every resource template of every open server. */
  resourceTemplates(): readonly HostResourceTemplate[] {
    return this.catalogValue.resourceTemplates;
  }

  /**
   * Ranked search over the catalog's model-visible tools, deferred or not (docs/host.md, "The
   * context budget"): BM25 over each tool's exposed name, title, description, and parameter
   * names and descriptions; `select:name1,name2` picks tools by exposed name instead. The index
   * follows the catalog item by item. An empty result's `reason` says why when it can (a server
   * not open, filtered out by `servers`, a query without words).
   * @throws InvalidArgumentError (-32602) for a query that is not a string, a `limit` outside
   *   1–100, or `servers` that is not an array of names.
   */
  searchTools(query: string, options?: ToolSearchOptions): ToolSearchResult {
    return this.budget.search(query, options);
  }

  /**
   * A model conversation's view of the tools: `tools()` is the next turn's set (loaded, found,
   * deferred) for `toAnthropicToolSet` and the other `to…ToolSet` converters, and `callTool`
   * runs what the model called, `tool_search` and `read_artifact` included, with its result
   * bounded by `maxResultTokens`.
   */
  toolSession(): ToolSession {
    return this.budget.session();
  }

  /** Results cut for the model, kept whole (bounded by count and bytes, each expiring). */
  get artifacts(): ArtifactStore {
    return this.budget.artifacts;
  }

  /**
   * A result bounded for the model as `toolSession().callTool` bounds it, for a result of
   * `host.callTool` (`tool`: its exposed name): routed by content type, compact, cut to the
   * tool's `maxResultTokens` with the whole kept as an artifact.
   */
  boundToolResult(result: CallToolResult, tool: string): BoundedResult {
    return this.budget.bound(result, this.catalogValue.toolsByName.get(tool), tool);
  }

  /**
   * The `instructions` of every open server, in host order, each cut to `maxChars` (default
   * 2000) and tagged `<server-instructions server="name">`, for a system prompt; `""` when no
   * server sent any. They are the servers' words, not the host's.
   */
  instructions(options: InstructionsOptions = {}): string {
    const sources: Array<{ server: string; text: string }> = [];
    for (const slot of this.slots.values()) {
      const text = slot.state === 'open' ? slot.client?.instructions : undefined;
      if (typeof text === 'string') sources.push({ server: slot.name, text });
    }
    return tagInstructions(sources, options);
  }

  /** Adds a listener for every {@link HostEvent}; returns the function that removes it. */
  on(listener: (event: HostEvent) => void): () => void {
    return this.events.on(listener);
  }

  /**
   * Adds a request middleware around every request of every server (those added later too),
   * with the server's name in `ctx.serverName`: the `client.use()` contract (docs/middleware.md;
   * `onToolCall`, `onPromptGet`, `onResourceRead` for the common cases). The host's middleware
   * run in `use()` order, as one link of each client's chain (after `tracing`, before the
   * client's own `logging`, `session` and `toolHeaders`). A `tools/call` a middleware changes
   * after its approval is approved again for what is sent. A middleware that throws fails that
   * request only (`MiddlewareError` -32041 with the cause, or the `McpError` thrown). Returns
   * the function that removes it.
   * @throws TypeError when `middleware` is not a function.
   */
  use(middleware: Middleware): () => void {
    return this.middleware.use(middleware);
  }

  /**
   * A named view of this host: with `options`, defines it (the servers and tools it shows);
   * without, returns the one defined before (or by the configuration's `views`). A view has its
   * own catalog, events and calls over a subset, on this host's connections (docs/host.md#views).
   * @throws InvalidArgumentError (-32602) for a malformed `options`, a name already defined, or
   *   an unknown name without `options`.
   */
  view(name: string, options?: HostViewOptions): HostView {
    const existing = this.viewsByName.get(name);
    if (options === undefined) {
      if (existing !== undefined) return existing;
      throw new InvalidArgumentError('name', name, 'names no view of this host');
    }
    checkViewOptions(name, options);
    if (existing !== undefined) throw new InvalidArgumentError('name', name, 'a view by that name is already defined');
    const view = new HostView(name, Object.freeze({ ...options }), {
      catalog: () => this.catalogValue,
      listen: (listener) =>
        this.on((event) => {
          if (event.type === 'catalog' || event.type === 'state') listener(event);
        }),
      callTool: (tool, args, call) => this.callTool(tool.exposedName, args, call),
      getPrompt: (prompt, args, call) => this.getPrompt(prompt.exposedName, args, call),
      readResource: (uri, call) => this.readResource(uri, call),
      templateMatcher: templateMatcher((error) => this.report(error, undefined)),
      onError: (error) => this.report(error, undefined),
    });
    this.viewsByName.set(name, view);
    return view;
  }

  /** The host's named views, in the order they were defined. */
  get views(): readonly HostView[] {
    return [...this.viewsByName.values()];
  }

  /**
   * Connects every server not yet started, in parallel, and resolves when all have settled
   * (each `open` or `failed`), with every server's status. Never rejects because a server
   * failed: its `lastError` says why (stderr tail, HTTP status...). Servers added later connect
   * as they are added.
   * @throws ConnectionClosedError (-32000) once the host is closed.
   */
  async connect(options: { signal?: AbortSignal | undefined } = {}): Promise<readonly HostServerStatus[]> {
    if (this.closed) throw new ConnectionClosedError('connect: the host is closed', { reason: 'host closed' });
    this.started = true;
    await Promise.all([...this.slots.values()].map((slot) => this.startSlot(slot, options.signal)));
    return this.servers;
  }

  /**
   * Adds a server at run time; once the host has connected, it connects at once and this
   * resolves when it has settled (`open` or `failed`).
   * @throws InvalidArgumentError (-32602) for an empty or taken name or a malformed entry;
   *   ConnectionClosedError (-32000) once the host is closed.
   */
  async add(name: string, entry: HostServerEntry): Promise<HostServerStatus> {
    if (this.closed) throw new ConnectionClosedError('add: the host is closed', { reason: 'host closed' });
    const slot = this.addSlot(name, entry);
    if (this.started) await this.startSlot(slot);
    return slot.status();
  }

  /**
   * Closes one server and removes it; its items leave the catalog.
   * @throws HostRoutingError (-32051, `unknown-server`) when there is no server by that name.
   */
  async remove(name: string): Promise<void> {
    const slot = this.slotNamed(name);
    this.slots.delete(name);
    await slot.close();
    this.refreshCatalog();
  }

  /**
   * Closes every server (no process, socket or timer left) and ends the events. Idempotent.
   * `options` bound the wait as `McpClient.close(options)` does: past it, close() rejects
   * (`TimeoutError` -32001 method `close`, or as the signal says) while the servers finish closing.
   */
  async close(options: CloseOptions = {}): Promise<void> {
    if (this.closing === undefined) {
      this.closed = true;
      this.skillsFront?.close();
      for (const view of this.viewsByName.values()) view.close();
      this.userInput.close();
      this.closing = Promise.allSettled([...this.slots.values()].map((slot) => slot.close())).then(() => {
        this.refreshCatalog();
        this.events.end();
      });
    }
    await boundedWait(this.closing, 'close', options, this.options.client?.timers);
  }

  /** Closes the host, as `close()` does: `await using host = …` closes it when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * `tools/call` on the server whose tool this is, under the tool's original name
   * (spec: server/tools). Every option works as on `McpClient.callTool` ({@link CallToolOptions}:
   * signal, timeouts, progress, `input_required` modes, and the Tasks extension's `task` and
   * `onTask`; with `task: 'manual'` a `ToolTask` may come back).
   * `options.modelArguments` says how the model saw the tool (see `restoreModelArguments`),
   * so its arguments are mapped back before the call: by default the `null`s OpenAI strict
   * mode sends for optional properties that do not accept `null` are left out (such a `null`
   * is never valid for the server, so this is safe for arguments from any model); `{ api:
   * 'gemini', schema: 'openApi' }` also parses the JSON text that subset carries; `'asIs'`
   * sends them untouched.
   * @param tool the exposed name, or `{ server, name }` with the original name.
   * @throws HostRoutingError (-32051): `unknown-tool`, `unknown-server`, `server-unavailable`;
   *   then whatever `McpClient.callTool` throws.
   */
  callTool(
    tool: string | ServerItemRef,
    args: JsonObject | undefined,
    options: HostCallToolOptions & { task: 'manual' },
  ): Promise<CallToolResult | ToolTask>;
  callTool(
    tool: string | ServerItemRef,
    args?: JsonObject,
    options?: HostCallToolOptions & { task?: 'auto' | 'off' | undefined },
  ): Promise<CallToolResult>;
  async callTool(
    tool: string | ServerItemRef,
    args: JsonObject = {},
    options: HostCallToolOptions = {},
  ): Promise<CallToolResult | ToolTask> {
    if (typeof tool !== 'string') await this.itemsOf(tool.server, 'tools/call', options);
    const target = routeTool(this.catalogValue, tool);
    if (typeof tool === 'string' && !isModelVisible(target.tool))
      throw new HostRoutingError(
        `tool ${JSON.stringify(tool)} is for apps only (visibility without "model"): call it as { server, name }`,
        { reason: 'unknown-tool', name: tool },
      );
    const { modelArguments = DEFAULT_MODEL_ARGUMENTS, ...callOptions } = options;
    const restored = modelArguments === 'asIs' ? args : restoreModelArguments(target, args, modelArguments);
    const entry = this.slots.get(target.server)?.entry;
    const override = overrideOf(entry?.overrides, target.tool.name);
    const sent = wireArguments(override, restored);
    const approval: ToolApprovalSetting = {
      approve: entry?.approve ?? this.options.approve,
      trusted: entry?.trusted === true,
      override,
      timeoutMs: this.options.approvalTimeoutMs,
      signal: callOptions.signal,
      ...this.timeOf(this.slotNamed(target.server)),
    };
    await approveToolCall(target, sent, approval);
    const approved: ApprovedCall | undefined =
      approval.approve === undefined
        ? undefined
        : {
            name: target.tool.name,
            argumentsHash: argumentsHash(sent),
            reapprove: (name, changed) => approveToolCall(this.listedTool(target.server, name), changed, approval),
          };
    const sending = approved === undefined ? callOptions : { ...callOptions, [APPROVED_CALL]: approved };
    return this.onServer(target.server, 'tools/call', sending, (client, call) =>
      client.callTool(target.tool.name, sent, call as CallToolOptions & { task: 'manual' }),
    );
  }

  /**
   * `prompts/get` on the prompt's server, under its original name (spec: server/prompts).
   * @param prompt the exposed name, or `{ server, name }`.
   * @throws HostRoutingError (-32051): `unknown-prompt`, `unknown-server`, `server-unavailable`;
   *   then whatever `McpClient.getPrompt` throws.
   */
  async getPrompt(
    prompt: string | ServerItemRef,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    if (typeof prompt !== 'string') await this.itemsOf(prompt.server, 'prompts/get', options);
    const target = routePrompt(this.catalogValue, prompt);
    return this.onServer(target.server, 'prompts/get', options, (client, call) =>
      client.getPrompt(target.prompt.name, args, call),
    );
  }

  /**
   * `resources/read` on the server that lists `uri`, or else the one whose resource template
   * matches it; `options.server` picks the server instead (spec: server/resources).
   * @throws HostRoutingError (-32051): `ambiguous-resource` (`data.servers`) when more than one
   *   server could serve it, `unknown-resource`, `unknown-server`, `server-unavailable`; then
   *   whatever `McpClient.readResource` throws (ResourceNotFoundError...).
   */
  async readResource(uri: string, options: HostCallOptions = {}): Promise<ReadResourceResult> {
    const { server, ...call } = options;
    if (typeof uri !== 'string' || uri === '')
      throw new InvalidArgumentError('uri', uri, 'expected a non-empty URI string (RFC 3986)');
    const target =
      server ??
      routeResource(
        this.catalogValue,
        uri,
        templateMatcher((error) => this.report(error, undefined)),
      );
    return this.onServer(target, 'resources/read', call, (client, own) => client.readResource(uri, own));
  }

  /**
   * Reads a UI resource (MCP Apps, docs/apps.md) as `McpClient.readAppResource` does, on the
   * server that lists the URI, else the one whose tools link it; `options.server` picks the
   * server instead. The server's `resources/list` entry supplies the CSP and permissions when
   * the read item declares none.
   * @throws AppResourceError (-32070) as `McpClient.readAppResource`; HostRoutingError (-32051):
   *   `ambiguous-resource`, `unknown-resource`, `unknown-server`, `server-unavailable`.
   */
  async readAppResource(uri: string, options: HostCallOptions & AppResourceOptions = {}): Promise<AppResource> {
    checkAppUri(uri);
    const { server, listed, ...call } = options;
    const target = server ?? routeAppResource(this.catalogValue, uri);
    const entry = listed ?? this.catalogValue.resourcesByUri.get(uri)?.find((r) => r.server === target)?.resource;
    return this.onServer(target, 'resources/read', call, (client, own) =>
      client.readAppResource(uri, { ...own, listed: entry }),
    );
  }

  /**
   * Whether an open server serves MCP Apps: its capabilities list the extension, or one of its
   * tools in the catalog links a `ui://` resource. `false` for a server that is not open.
   */
  offersApps(server: string): boolean {
    const client = this.slots.get(server)?.client;
    if (client === undefined || this.slots.get(server)?.status().state !== 'open') return false;
    return client.offersApps(this.catalogValue.tools.filter((t) => t.server === server).map((t) => t.tool));
  }

  /**
   * `completion/complete` (spec: server/utilities/completion): a `ref/prompt` names the prompt
   * by its exposed name and goes to its server under the original name; a `ref/resource` goes to
   * the server that lists that template. `options.server` picks the server instead (the ref is
   * then sent as given).
   * @throws HostRoutingError (-32051) as {@link getPrompt} and {@link readResource}; then
   *   whatever `McpClient.complete` throws.
   */
  async complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options: HostCallOptions = {},
  ): Promise<CompleteResult> {
    const { server, ...call } = options;
    const method = 'completion/complete';
    if (server !== undefined)
      return this.onServer(server, method, call, (client, own) => client.complete(ref, argument, context, own));
    if (ref?.type === 'ref/prompt') {
      const target = routePrompt(this.catalogValue, ref.name);
      return this.onServer(target.server, method, call, (client, own) =>
        client.complete({ ...ref, name: target.prompt.name }, argument, context, own),
      );
    }
    if (ref?.type === 'ref/resource') {
      const target = routeTemplate(this.catalogValue, ref.uri);
      return this.onServer(target, method, call, (client, own) => client.complete(ref, argument, context, own));
    }
    throw new InvalidArgumentError(
      'ref',
      ref,
      'expected { type: "ref/prompt", name } or { type: "ref/resource", uri }',
    );
  }

  /**
   * The open servers' prompts as slash commands, named as Claude Code names them: typed
   * `/mcp__<server>__<prompt>` (each character of the server name outside `A-Za-z0-9_-` as
   * `_`, the prompt's name as declared), shown as `/<server>:<prompt> (MCP)`, with title,
   * description, arguments in order and usage. Kept current with the catalog (one
   * `slashCommands` event per change); two prompts whose commands meet both get a hash suffix
   * (a `collision` event, kind `slashCommands`); the prompts of `slashCommands.reservedServers`
   * are left out. No converter offers prompts to a model. docs/host.md.
   */
  slashCommands(): readonly SlashCommand[] {
    return this.userInput.commands().commands;
  }

  /**
   * The command and arguments of a line such as `/mcp__jira__create_issue login-bug "very high"`:
   * words fill the prompt's arguments in order; `name=value` gives one by name; quotes (`"`, `'`)
   * hold spaces. The arguments come back by name, in the prompt's order.
   * @throws SlashCommandError (-32055): `data.reason` `not-a-command`, `unknown-command`,
   *   `missing-argument`, `too-many-arguments`, `unknown-argument`, `duplicate-argument`,
   *   `unclosed-quote`; `data.usage` once the command is known.
   */
  parseSlashCommand(line: string): ParsedSlashCommand {
    return this.userInput.parse(line);
  }

  /**
   * Parses `line` and sends `prompts/get` to the command's server (as {@link getPrompt}: the
   * call's signal, deadline and `input_required` handlers); with `options.api`, the messages
   * for that model API too (`toAnthropicMessages`...).
   * @throws SlashCommandError (-32055) as {@link parseSlashCommand}; then as {@link getPrompt}.
   */
  runSlashCommand<A extends PromptApi | undefined = undefined>(
    line: string,
    options: RunSlashCommandOptions<A> = {},
  ): Promise<SlashCommandRun<A>> {
    return this.userInput.run(line, options);
  }

  /**
   * Completion of a slash command line at `cursor` (UTF-16 offset, default the end): in the
   * command word, the commands that match (prefix, then substring, then fuzzy); after it, the
   * argument under the cursor through `completion/complete`, with the arguments already typed
   * as `context.arguments`, debounced and cached (`McpHostOptions.completion`). Call it on every
   * keystroke: an earlier call still waiting resolves `superseded`. Candidates carry the
   * server's `total` and `hasMore`.
   * @throws InvalidArgumentError (-32602) for a bad line or cursor; CancelledError (-32800);
   *   then what `completion/complete` fails with.
   */
  completeSlashCommand(
    line: string,
    cursor?: number,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<HostCompletion> {
    return this.userInput.completeCommand(line, cursor, options.signal);
  }

  /**
   * Reads every `@server:uri` of `text` from that server (as {@link readResource}: its cache,
   * its templates) and returns the text then the contents as MCP content (and, with
   * `options.api`, as that API's user messages), within `options.maxChars` characters of
   * contents (default 100 000): a mention over what is left becomes a resource link with a
   * note. Mentions of no server, or that fail to read, are in `unresolved` with the error.
   * @throws InvalidArgumentError (-32602) for bad options; CancelledError (-32800).
   */
  resolveMentions<A extends PromptApi | undefined = undefined>(
    text: string,
    options: ResolveMentionsOptions<A> = {},
  ): Promise<ResolvedMentions<A>> {
    return this.userInput.resolveMentions(text, options);
  }

  /**
   * Completion of an `@…` being typed: servers, then the resources and templates whose URI,
   * name or title match; inside a template's variable, its values through `completion/complete`
   * (the variables before it as context). Candidates are whole `@server:uri` texts.
   * @throws InvalidArgumentError (-32602); CancelledError (-32800); then what
   *   `completion/complete` fails with.
   */
  completeMention(prefix: string, options: { signal?: AbortSignal | undefined } = {}): Promise<HostCompletion> {
    return this.userInput.completeMention(prefix, options.signal);
  }

  private makeUserInput(): UserInput {
    const clock = this.options.client?.clock ?? systemClock;
    const timers = this.options.client?.timers ?? systemTimers;
    return new UserInput(
      {
        catalog: () => this.catalogValue,
        servers: () => [...this.slots.keys()],
        getPrompt: (server, name, args, call) => this.getPrompt({ server, name }, args, call),
        readResource: (uri, own) => this.readResource(uri, own),
        complete: (server, ref, argument, context, own) => this.complete(ref, argument, context, { ...own, server }),
        capabilities: (server) => this.slots.get(server)?.client?.serverCapabilities,
        changed: (commands) => this.events.emit({ type: 'slashCommands', commands }),
        collision: (collision) => this.events.emit({ type: 'collision', kind: 'slashCommands', collision }),
        onError: (error, server) => this.report(error, server),
        clock,
        timers,
      },
      { slashCommands: this.options.slashCommands, completion: this.options.completion },
    );
  }

  // -------------------------------------------------------------------------------------------

  private addSlot(
    name: string,
    entry: HostServerEntry | undefined,
    initial: { state: 'disabled' | 'failed'; error?: Error } | undefined = undefined,
  ): ServerSlot {
    if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('name', name, 'expected a server name');
    if (this.slots.has(name))
      throw new InvalidArgumentError('name', name, 'a server by that name is already in the host');
    if (entry !== undefined) checkEntry(name, entry);
    const slot = new ServerSlot(
      name,
      entry,
      {
        makeClient: (s) => this.makeClient(s),
        changed: () => this.refreshCatalog(),
        stateChanged: (s, previous) =>
          this.events.emit({
            type: 'state',
            server: s.name,
            state: s.state,
            previous,
            ...(s.state === 'failed' && { error: s.status().lastError }),
          }),
        clientEvent: (s, event) => this.events.emit({ type: 'client', server: s.name, event }),
        polling: (s, event, kind) =>
          this.events.emit({
            type: 'polling',
            server: s.name,
            kind,
            reason: event.reason,
            ...(event.error !== undefined && { error: event.error }),
            intervalMs: event.intervalMs,
          }),
        onError: (error, server) => this.report(error, server),
      },
      initial ?? { state: 'new' },
    );
    this.slots.set(name, slot);
    return slot;
  }

  /** The client of one server (see `serverClient.ts`). */
  private makeClient(slot: ServerSlot): McpClient {
    const client = makeServerClient(slot.name, slot.entry as HostServerEntry, {
      defaults:
        this.options.apps === undefined
          ? (this.options.client ?? {})
          : { apps: this.options.apps, ...this.options.client },
      clientInfo: this.options.clientInfo,
      createTransport: this.options.createTransport ?? fetchTransport,
      store: this.store,
      eraMemory: this.eraMemory,
      onError: (error) => this.report(error, slot.name),
    });
    this.middleware.install(client, slot.name);
    return client;
  }

  /**
   * The skills of every open server that declares the Skills extension (SEP-2640), each under an
   * exposed name (`<server>__<name>`, the rules of tool names; two skills of one server with one
   * name are named by their paths), with its origin server and `trusted`
   * (`McpHostOptions.skills.trusted`). The first call loads the registry; from then on it stays
   * current (servers opening and leaving, `list_changed` on each server's listen stream; a
   * `skills` event each time). Only listings are fetched, never a skill's files.
   */
  skills(): Promise<readonly HostSkill[]> {
    return this.skillsVerbs().skills();
  }

  /**
   * Reads a file of the skill named `name` (default its `SKILL.md`) from the server it came from,
   * verified as `McpClient.skills.read`; `origin` says which server and whether it is trusted.
   * @throws HostRoutingError (-32051): `unknown-skill`, `server-unavailable`; then as `client.skills.read`.
   */
  readSkill(name: string, ref?: string, options: CallOptions = {}): Promise<SkillFile & { origin: HostSkill }> {
    return this.skillsVerbs().readSkill(name, ref, options);
  }

  /**
   * Runs one of the built-in skill tools a model called (`load_skill`, `read_skill_file`; see
   * `SKILL_TOOLS` and `skillsContext`): the file's text, tagged with its origin, or a result with
   * `isError: true` the model can read. Never throws for a bad argument or a failed read.
   */
  callSkillTool(name: string, args: JsonObject, options: CallOptions = {}): Promise<CallToolResult> {
    return this.skillsVerbs().callSkillTool(name, args, options);
  }

  private skillsVerbs(): SkillsFront {
    return (this.skillsFront ??= new SkillsFront(
      {
        openServers: () =>
          [...this.slots.values()].flatMap((slot) => {
            const contribution = slot.contribution();
            return contribution === undefined ? [] : [{ server: slot.name, prefix: contribution.prefix }];
          }),
        client: (server) => this.client(server),
        onState: (listener) => this.on((event) => event.type === 'state' && listener(event.server, event.state)),
        separator: this.options.separator,
        prefixMode: this.options.prefixMode,
        changed: (skills) => this.events.emit({ type: 'skills', skills }),
        onError: (error, server) => this.report(error, server),
      },
      this.options.skills,
    ));
  }

  /**
   * Runs a call on a server's client once it is open: a server that is `connecting` or
   * `reconnecting` is waited for within the call's own deadline (its `timeoutMs`, else the
   * client's; its `signal`), and the call gets what is left of it. A connection found gone
   * updates the server's state.
   * @throws HostRoutingError (-32051, `unknown-server`, `server-unavailable`); CancelledError
   *   (-32800) when the signal aborts during the wait (TimeoutError -32001 when it is an
   *   `AbortSignal.timeout()`); then whatever the call throws.
   */
  private async onServer<T, O extends CallOptions>(
    server: string,
    method: string,
    options: O,
    call: (client: McpClient, options: O) => Promise<T>,
  ): Promise<T> {
    const slot = this.slotNamed(server);
    if (slot.waitingLazily) void slot.start();
    const { clock, timers } = this.timeOf(slot);
    const deadline = this.deadlineOf(slot, options);
    const started = clock.now();
    let lastUnreached: unknown;
    for (let attempt = 1; ; attempt++) {
      const client = await slot.ready({
        method,
        signal: options.signal,
        timeoutMs: deadline - (clock.now() - started),
        clock,
        timers,
      });
      const waited = clock.now() - started;
      const own = waited > 0 ? { ...options, timeoutMs: Math.max(1, deadline - waited) } : options;
      try {
        return await call(client, own);
      } catch (error) {
        slot.afterFailure(error);
        // A retry that ran out of time while the server was still down is the same verdict.
        if (lastUnreached !== undefined && isTimeoutError(error))
          throw slot.unavailable(clock.now() - started, lastUnreached);
        if (!unreached(error)) throw error;
        lastUnreached = error;
        // Nothing reached the server (a refused connection to a stateless HTTP server that is
        // down): try again within the call's deadline, then say the server is unavailable.
        const pause = Math.min(UNREACHED_RETRY_MAX_MS, UNREACHED_RETRY_MS * 2 ** (attempt - 1));
        const left = deadline - (clock.now() - started);
        if (left <= pause) throw slot.unavailable(clock.now() - started, error);
        try {
          await abortableDelay(pause, timers, options.signal);
        } catch (reason) {
          throw abortedError(method, reason);
        }
      }
    }
  }

  /**
   * For a call by `{ server, name }`: the server must be one that can take calls; while it is
   * still connecting for the first time (no items yet), waits for it as {@link onServer} does.
   * @throws HostRoutingError (-32051, `unknown-server`, `server-unavailable`); CancelledError (-32800)
   */
  private async itemsOf(name: string, method: string, options: CallOptions): Promise<void> {
    const slot = this.slotNamed(name);
    if (slot.waitingLazily) void slot.start();
    if (!slot.reachable) throw slot.unavailable();
    if (slot.state !== 'connecting') return;
    const { clock, timers } = this.timeOf(slot);
    await slot.ready({ method, signal: options.signal, timeoutMs: this.deadlineOf(slot, options), clock, timers });
  }

  /**
   * Starts a slot; a lazy one (`lazy: true`) with a kept tool list only lists it, and starts on
   * its first call (`onServer`).
   */
  private async startSlot(slot: ServerSlot, signal?: AbortSignal): Promise<void> {
    const entry = slot.entry;
    if (entry?.lazy === true && slot.state === 'new') {
      const tools = await loadLazyTools(this.store, slot.name, entry, Date.now());
      if (tools !== undefined && !this.closed) return slot.listLazily(tools);
    }
    await slot.start(signal);
  }

  /** Keeps the tool list of every open lazy server in the store, when it changed. */
  private keepLazyTools(): void {
    for (const slot of this.slots.values()) {
      const entry = slot.entry;
      if (entry?.lazy !== true || slot.state !== 'open') continue;
      const tools = slot.contribution()?.tools;
      if (tools === undefined || this.keptLazy.get(slot) === tools) continue;
      this.keptLazy.set(slot, tools);
      void saveLazyTools(this.store, slot.name, entry, tools, Date.now());
    }
  }

  /** The clock and timers of a server's client options (its own over the host's `client` defaults). */
  private timeOf(slot: ServerSlot): { clock: Clock; timers: Timers } {
    const own = slot.entry?.client;
    return {
      clock: own?.clock ?? this.options.client?.clock ?? systemClock,
      timers: own?.timers ?? this.options.client?.timers ?? systemTimers,
    };
  }

  /** A call's deadline, in ms: its `timeoutMs`, else its server's client `timeoutMs` (60 000). */
  private deadlineOf(slot: ServerSlot, options: CallOptions): number {
    const value = options.timeoutMs ?? slot.entry?.client?.timeoutMs ?? this.options.client?.timeoutMs;
    return typeof value === 'number' && value > 0 ? value : DEFAULT_CALL_TIMEOUT_MS;
  }

  /** A server's tool by original name, for an approval; one the catalog does not list has no annotations. */
  private listedTool(server: string, name: string): HostTool {
    const listed = this.catalogValue.tools.find((t) => t.server === server && t.tool.name === name);
    return (
      listed ?? {
        server,
        availability: 'available',
        exposedName: name,
        tool: { name, inputSchema: { type: 'object' } },
      }
    );
  }

  /** @throws HostRoutingError (-32051, `unknown-server`) */
  private slotNamed(name: string): ServerSlot {
    const slot = typeof name === 'string' ? this.slots.get(name) : undefined;
    if (slot !== undefined) return slot;
    throw new HostRoutingError(`no server named ${JSON.stringify(name)} in the host`, {
      reason: 'unknown-server',
      name,
    });
  }

  /** Rebuilds the catalog from the open servers; one `catalog` event when it changed. */
  private refreshCatalog(): void {
    const contributions: ServerContribution[] = [];
    for (const slot of this.slots.values()) {
      const contribution = slot.contribution();
      if (contribution !== undefined) contributions.push(contribution);
    }
    const before = this.catalogValue;
    const after = buildCatalog(
      contributions,
      { separator: this.options.separator, prefixMode: this.options.prefixMode },
      before,
    );
    const kinds = changedKinds(before, after);
    const known = new Set(before.leftOut.map((item) => JSON.stringify(item)));
    const leftOut = after.leftOut.filter((item) => !known.has(JSON.stringify(item)));
    if (kinds.length === 0 && leftOut.length === 0) return;
    this.catalogValue = after;
    for (const item of leftOut)
      this.report(
        new ProtocolError(`${item.kind} ${JSON.stringify(item.name)} of ${item.server} left out: ${item.reason}`, {
          value: item,
        }),
        item.server,
      );
    if (kinds.length === 0) return;
    if (kinds.includes('tools')) {
      this.budget.catalogChanged();
      this.keepLazyTools();
    }
    this.events.emit({ type: 'catalog', kinds });
    this.announceCollisions('tools', before.toolCollisions, after.toolCollisions);
    this.announceCollisions('prompts', before.promptCollisions, after.promptCollisions);
    this.userInput.catalogChanged();
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

  private report(error: Error, server: string | undefined): void {
    try {
      this.options.onError?.(error, server);
    } catch {
      // A throwing onError must not break the host.
    }
  }
}

function collisionKey(collision: ExposedNameCollision): string {
  return JSON.stringify([collision.exposedName, collision.resolution, collision.items]);
}

/** @throws InvalidArgumentError (-32602) for an entry `add` or the constructor cannot run. */
function checkEntry(name: string, entry: HostServerEntry): void {
  const bad = (field: string, value: unknown, reason: string): never => {
    throw new InvalidArgumentError(`servers.${name}.${field}`, value, reason);
  };
  if (typeof entry !== 'object' || entry === null) bad('', entry, 'expected a server entry');
  switch (entry.type) {
    case 'stdio':
      if (typeof entry.command !== 'string' || entry.command === '')
        bad('command', entry.command, 'expected a command');
      break;
    case 'http':
    case 'sse':
    case 'ws':
      if (typeof entry.url !== 'string') bad('url', undefined, 'expected a URL string');
      break;
    case 'custom':
      if (typeof entry.transport !== 'function') bad('transport', entry.transport, 'expected a function');
      break;
    default:
      bad('type', (entry as { type?: unknown }).type, 'expected "stdio", "http", "sse", "ws" or "custom"');
  }
  if (entry.prefix !== undefined && typeof entry.prefix !== 'string') bad('prefix', entry.prefix, 'expected a string');
  if (entry.trusted !== undefined && typeof entry.trusted !== 'boolean')
    bad('trusted', entry.trusted, 'expected true or false');
  if (entry.approve !== undefined && typeof entry.approve !== 'function')
    bad('approve', entry.approve, 'expected a function');
  assertOverrides(name, entry.overrides);
  for (const key of ['allow', 'deny'] as const) {
    const list = entry.tools?.[key];
    if (list !== undefined && !(Array.isArray(list) && list.every((n) => typeof n === 'string')))
      bad(`tools.${key}`, list, 'expected an array of tool names');
  }
}
