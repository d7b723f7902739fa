/**
 * `McpHost`: many servers behind one object. It connects them in parallel, keeps one catalog of
 * their tools, prompts and resources current, names tools for models, and routes each call to
 * the server it belongs to. This file is the facade: each verb delegates to the part that owns
 * it (hostAssembly.ts wires them).
 */
import type { AppResource, AppResourceOptions } from '../apps/appResourceCheck.js';
import { boundedWait, type CloseOptions } from '../client/closeOptions.js';
import type { McpClient } from '../client/client.js';
import type { Middleware } from '../client/middleware.js';
import type { SkillFile } from '../skills/types.js';
import type { ToolTask } from '../tasks/toolTask.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { JsonObject } from '../wire/messages.js';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  PromptReference,
  ReadResourceResult,
  ResourceTemplateReference,
} from '../wire/protocol.js';
import type { HostCallOptions, HostCallToolOptions } from './servers/callOptions.js';
import type { Catalog, HostPrompt, HostResource, HostResourceTemplate, HostTool } from './catalog/catalog.js';
import type { HostServerEntry } from './servers/config.js';
import type { ArtifactStore } from './contextBudget/artifacts.js';
import type { ContextBudget } from './contextBudget/contextBudget.js';
import { tagInstructions, type InstructionsOptions } from './contextBudget/instructions.js';
import type { BoundedResult } from './contextBudget/resultBudget.js';
import type { ToolSearchOptions, ToolSearchResult } from './contextBudget/toolSearch.js';
import type { ToolSession } from './contextBudget/toolSession.js';
import type { HostConfigError } from './catalog/errors.js';
import type { HostCompletion } from './userInput/completionCandidates.js';
import { assembleHost, type HostParts } from './hostAssembly.js';
import type { HostSkill } from './skills/hostSkills.js';
import {
  checkHostOptions,
  readHostConfig,
  type HostEvent,
  type HostFromConfigOptions,
  type McpHostOptions,
} from './servers/hostOptions.js';
import type { ResolvedMentions, ResolveMentionsOptions } from './userInput/mentions.js';
import type { HostView } from './views.js';
import { HostEvents, type DeclaredEventSubscription, type HostEventsOptions } from './events/hostEvents.js';
import type { HostViewOptions } from './policy/viewOptions.js';
import type { PromptApi } from './models/promptMessages.js';
import * as calls from './servers/routedCalls.js';
import type { ServerItemRef } from './catalog/routing.js';
import type { HostServerStatus } from './servers/serverSlot.js';
import type { ParsedSlashCommand } from './userInput/slashCommandLine.js';
import type { SlashCommand } from './userInput/slashCommands.js';
import type { RunSlashCommandOptions, SlashCommandRun } from './userInput/userInput.js';
import { checkScopeOptions, type HostScopeOptions } from './scopes/scopeOptions.js';
import { scopeHostOptions, takeScopeSeed } from './scopes/userScope.js';
import { ConnectionClosedError, InvalidArgumentError } from '../errors/errors.js';
import { statePartition } from './state/stateStore.js';

/**
 * One user's view of an `McpHost` (`host.forUser`): the host's surface for that user, less what
 * belongs to the host alone (its middleware, its scopes, its skills). docs/fleet.md.
 */
export type HostScope = Omit<McpHost, 'forUser' | 'use' | 'configErrors' | 'skills' | 'readSkill' | 'callSkillTool'>;

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
  private readonly parts: HostParts;
  /** The context budget (search index, deferral, artifacts, result bounds). */
  private readonly budget: ContextBudget;
  private configErrorList: readonly HostConfigError[] = [];
  /** The configuration file's `events` section (`fromConfig`). */
  private declaredEvents: readonly DeclaredEventSubscription[] = [];
  private hostEvents: HostEvents | undefined;
  /** The user scopes made by {@link forUser} and not closed yet. */
  private readonly scopes = new Set<McpHost>();
  /** On a scope: takes it out of its host's {@link scopes} once it closes. */
  private release: (() => void) | undefined;

  /**
   * @throws InvalidArgumentError (-32602) for a bad option (`clientInfo`, `separator`,
   *   `prefixMode`) or a bad server entry.
   */
  constructor(options: McpHostOptions) {
    checkHostOptions(options);
    this.parts = assembleHost(this, options, takeScopeSeed(options));
    this.budget = this.parts.budget;
    for (const [name, entry] of Object.entries(options.servers ?? {})) this.parts.servers.add(name, entry);
    for (const [name, view] of Object.entries(options.views ?? {})) this.view(name, view);
  }

  /**
   * A host for a configuration file's servers: `config` is what `parseHostConfig` or
   * `loadHostConfig` (mcp-live/node) returned, or the raw JSON (parsed here with `options.env`
   * and `options.strict`). Malformed entries become `failed` servers whose `lastError` is the
   * `HostConfigError`; disabled ones are listed as `disabled`.
   * @throws HostConfigError (-33050) as `parseHostConfig`; InvalidArgumentError (-32602) as the
   *   constructor, and when `options.servers` names a server the configuration does not have.
   */
  static fromConfig<Host extends McpHost>(
    this: new (options: McpHostOptions) => Host,
    config: unknown,
    options: HostFromConfigOptions,
  ): Host {
    const { parsed, perServer, hostOptions } = readHostConfig(config, options);
    const host = new this(hostOptions);
    host.configErrorList = parsed.errors;
    host.declaredEvents = parsed.events ?? [];
    host.parts.servers.addConfigured(parsed, perServer);
    return host;
  }

  /** Every server, in host order: name, state, negotiated version, server info, last error. */
  get servers(): readonly HostServerStatus[] {
    return this.parts.servers.statuses();
  }

  /** One server's status, or `undefined` when there is no server by that name. */
  server(name: string): HostServerStatus | undefined {
    return this.parts.core.slots.get(name)?.status();
  }

  /**
   * The client of one server (for what the host does not route), once it has one. Its
   * `tools/call` (through `callTool` or `request`) passes the host's link, the approval gate
   * included, as every host call does: `approve` is asked, `ToolApprovalDeniedError` (-33052)
   * thrown on a refusal, and a middleware added with its `use()` runs after the gate and cannot
   * change what was approved (docs/host.md#trust-boundary).
   */
  client(name: string): McpClient | undefined {
    // A scope's calls on a server it shares with other users go through the scope's verbs only.
    if (this.parts.core.scope !== undefined && !this.parts.servers.owns(name)) return undefined;
    return this.parts.core.slots.get(name)?.client;
  }

  /** A user scope's principal (`host.forUser(principal)`); `undefined` on a host. */
  get principal(): string | undefined {
    return this.parts.core.scope?.principal;
  }

  /**
   * This scope's partition of the host state store (`statePartition(authContext)`, a digest:
   * safe to log), or the host's own (`'host'`) on a host: what `listPending` takes, and what
   * `resumeInputRound` checks the user against.
   */
  get statePartition(): string {
    return statePartition(this.parts.core.scope?.authContext);
  }

  /**
   * One user's scope of this host: the host's surface (catalog, converters' tools, tool
   * sessions, calls, prompts, resources, slash commands, mentions, views, artifacts) for
   * `principal`, in one process with every other user's (docs/fleet.md).
   *
   * Shared: a server the user gives no credentials for (and that is not `perUser`) is the host's
   * one client and connection; its public cache entries are everyone's. Kept apart: a server
   * the user gives `options.credentials` for, or one whose entry says `perUser: true`, gets a
   * client and connection of the user's own (made now, connecting once the host has connected;
   * `await scope.connect()` waits for them), closed with the scope; the user's private cache
   * entries (partition `options.authContext`, default the principal, on shared and own clients
   * alike); approvals (`options.approve`, in place of the host's, asked for every call of the
   * scope); artifacts; views; slash-command and completion state. `scope.client(name)` gives
   * only the user's own clients. `scope.close()` closes the user's own servers, never the host's;
   * `host.close()` closes every scope.
   *
   * ```ts
   * const alice = host.forUser('user-123', { credentials: { mail: { authProvider: aliceTokens } }, approve: askAlice });
   * await alice.connect(); // alice's own mail connection
   * const result = await alice.toolSession().callTool('mail__search', { q: 'invoice' });
   * await alice.close();
   * ```
   * @param principal a stable, non-empty id of the user (never shown in a key: it is hashed).
   * @throws InvalidArgumentError (-32602) for an empty principal, malformed options, credentials
   *   for a server the host does not have (or of the wrong kind: `env` for a remote server...),
   *   and when called on a scope; ConnectionClosedError (-32000) once the host is closed.
   */
  forUser(principal: string, options: HostScopeOptions = {}): HostScope {
    const core = this.parts.core;
    if (core.scope !== undefined)
      throw new InvalidArgumentError(
        'forUser',
        core.scope.principal,
        'a user scope has no scopes: call it on the host',
      );
    if (core.closed) throw new ConnectionClosedError('forUser: the host is closed', { reason: 'host closed' });
    checkScopeOptions(principal, options, (server) => core.slots.get(server)?.entry);
    const seed = { principal, options, host: { core, servers: this.parts.servers, middleware: this.parts.middleware } };
    const scope = new McpHost(scopeHostOptions(seed));
    this.scopes.add(scope);
    scope.release = () => this.scopes.delete(scope);
    return scope;
  }

  /**
   * The events of this host's servers (Triggers & Events extension, docs/events.md#in-a-host):
   * the event types of every open server that declares the extension under exposed names,
   * subscriptions routed to each type's server, `start()` for the configuration file's `events`
   * section, `toModelText` and `toModelInput` for a model. Made on the first call (later calls
   * return the same one; `options` apply on the first). On a user scope: only the user's own
   * servers (those `scope.client(name)` gives), and no declared subscriptions.
   */
  events(options: Omit<HostEventsOptions, 'declared'> = {}): HostEvents {
    this.hostEvents ??= new HostEvents(this, { ...options, declared: this.declaredEvents });
    return this.hostEvents;
  }

  /** The configuration's malformed entries (also listed in {@link servers} as `failed`). */
  get configErrors(): readonly HostConfigError[] {
    return this.configErrorList;
  }

  /** The whole catalog: the four lists, the collisions, and the lookups routing uses. */
  get catalog(): Catalog {
    return this.parts.core.catalog;
  }

  /** Every tool of every open server, under its exposed name; the array is replaced on each change. */
  tools(): readonly HostTool[] {
    return this.parts.core.catalog.tools;
  }

  /** Every prompt of every open server, under its exposed name. */
  prompts(): readonly HostPrompt[] {
    return this.parts.core.catalog.prompts;
  }

  /** Every resource of every open server. */
  resources(): readonly HostResource[] {
    return this.parts.core.catalog.resources;
  }

  /** Every resource template of every open server. */
  resourceTemplates(): readonly HostResourceTemplate[] {
    return this.parts.core.catalog.resourceTemplates;
  }

  /**
   * Ranked search over the catalog's model-visible tools, deferred or not (docs/host.md, "The
   * context budget"): tools whose exposed, model-facing or original name the query spells
   * first (score over 1,000), then BM25 over each tool as the model is given it (exposed name,
   * title, description, parameter names and descriptions; near words at lower weight);
   * `select:name1,name2` picks tools by exposed name instead. The index
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
   * deferred; the skill tools once `skills()` has listed one) for `toAnthropicToolSet` and the
   * other `to…ToolSet` converters, and `callTool` runs what the model called, `tool_search`,
   * `read_artifact`, `load_skill` and `read_skill_file` included, with its result bounded by
   * `maxResultTokens`.
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
    return this.budget.bound(result, this.parts.core.catalog.toolsByName.get(tool), tool);
  }

  /**
   * The `instructions` of every server whose items are in the catalog (open, or reconnecting
   * outside a cool-down: its last connection's), in host order, each cut to `maxChars` (default
   * 2000) and tagged `<server-instructions server="name">`, for a system prompt; `""` when no
   * server sent any. They are the servers' words, not the host's.
   */
  instructions(options: InstructionsOptions = {}): string {
    const sources: Array<{ server: string; text: string }> = [];
    for (const slot of this.parts.core.slots.values()) {
      const text = slot.instructions;
      if (typeof text === 'string') sources.push({ server: slot.name, text });
    }
    return tagInstructions(sources, options);
  }

  /** Adds a listener for every {@link HostEvent}; returns the function that removes it. */
  on(listener: (event: HostEvent) => void): () => void {
    return this.parts.core.events.on(listener);
  }

  /**
   * Adds a request middleware around every request of every server (those added later too),
   * with the server's name in `ctx.serverName`: the `client.use()` contract (docs/middleware.md;
   * `onToolCall`, `onPromptGet`, `onResourceRead` for the common cases). The host's middleware
   * run in `use()` order, as one link of each client's chain (after `tracing`, before the
   * client's own `logging`, `session` and `toolHeaders`). A `tools/call` is approved after the
   * host's middleware, once, with what they made of it. A middleware that throws fails that
   * request only (`MiddlewareError` -33041 with the cause, or the `McpError` thrown). Returns
   * the function that removes it.
   * @throws TypeError when `middleware` is not a function.
   */
  use(middleware: Middleware): () => void {
    const scope = this.parts.core.scope;
    if (scope !== undefined)
      throw new InvalidArgumentError(
        'use',
        scope.principal,
        "a user scope runs its host's middleware: call host.use()",
      );
    return this.parts.middleware.use(middleware);
  }

  /**
   * A named view of this host: with `options`, defines it (the servers and tools it shows);
   * without, returns the one defined before (or by the configuration's `views`). A view has its
   * own catalog, events and calls over a subset, on this host's connections (docs/host.md#views).
   * @throws InvalidArgumentError (-32602) for a malformed `options`, a name already defined, or
   *   an unknown name without `options`.
   */
  view(name: string, options?: HostViewOptions): HostView {
    return this.parts.views.view(name, options);
  }

  /** The host's named views, in the order they were defined. */
  get views(): readonly HostView[] {
    return this.parts.views.all;
  }

  /**
   * Connects every server not yet started, in parallel, and resolves when all have settled
   * (each `open` or `failed`), with every server's status. Never rejects because a server
   * failed: its `lastError` says why (stderr tail, HTTP status...). Servers added later connect
   * as they are added.
   * @throws ConnectionClosedError (-32000) once the host is closed.
   */
  connect(options: { signal?: AbortSignal | undefined } = {}): Promise<readonly HostServerStatus[]> {
    return this.parts.servers.connect(options.signal);
  }

  /**
   * Adds a server at run time; once the host has connected, it connects at once and this
   * resolves when it has settled (`open` or `failed`).
   * @throws InvalidArgumentError (-32602) for an empty or taken name or a malformed entry;
   *   ConnectionClosedError (-32000) once the host is closed.
   */
  add(name: string, entry: HostServerEntry): Promise<HostServerStatus> {
    return this.parts.servers.addAndStart(name, entry);
  }

  /**
   * Closes one server and removes it; its items leave the catalog.
   * @throws HostRoutingError (-33051, `unknown-server`) when there is no server by that name.
   */
  remove(name: string): Promise<void> {
    return this.parts.servers.remove(name);
  }

  /**
   * Closes every server (no process, socket or timer left) and ends the events. Idempotent.
   * `options` bound the wait as `McpClient.close(options)` does: past it, close() rejects
   * (`TimeoutError` -32001 method `close`, or as the signal says) while the servers finish closing.
   */
  async close(options: CloseOptions = {}): Promise<void> {
    const core = this.parts.core;
    if (!core.closed) {
      core.closed = true;
      core.closing.abort(new ConnectionClosedError('the host closed while the call waited', { reason: 'host closed' }));
      this.parts.close();
      this.release?.();
    }
    const scopes = [...this.scopes].map((scope) => scope.close());
    this.scopes.clear();
    const closing = Promise.all([...scopes, this.parts.servers.close()]).then(() => {});
    await boundedWait(closing, 'close', options, core.options.client?.timers);
  }

  /** Closes the host, as `close()` does: `await using host = …` closes it when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * `tools/call` on the server whose tool this is, under the tool's original name
   * (spec: server/tools). Every option works as on `McpClient.callTool` (`CallToolOptions`:
   * signal, timeouts, progress, `input_required` modes, and the Tasks extension's `task` and
   * `onTask`; with `task: 'manual'` a `ToolTask` may come back).
   * `options.modelArguments` says how the model saw the tool (see `restoreModelArguments`),
   * so its arguments are mapped back before the call: by default the `null`s OpenAI strict
   * mode sends for optional properties that do not accept `null` are left out (such a `null`
   * is never valid for the server, so this is safe for arguments from any model); `{ api:
   * 'gemini', schema: 'openApi' }` also parses the JSON text that subset carries; `'asIs'`
   * sends them untouched.
   * @param tool the exposed name, or `{ server, name }` with the original name.
   * The server's `approve` (else the host's) is asked once, at the end of the host's link (after
   * every middleware), with a deep, frozen snapshot of the final arguments, and that snapshot
   * is what is sent (docs/host.md#trust-boundary).
   * @throws HostRoutingError (-33051): `unknown-tool` (`data.suggestions`: up to three nearest
   *   exposed names), `unknown-server`, `server-unavailable`; ToolApprovalDeniedError (-33052,
   *   `data.deniedBy`); MiddlewareError (-33041) when a link after the gate tries to change
   *   the approved call; then whatever `McpClient.callTool` throws.
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
  callTool(
    tool: string | ServerItemRef,
    args: JsonObject = {},
    options: HostCallToolOptions = {},
  ): Promise<CallToolResult | ToolTask> {
    return calls.callTool(this.parts.core, tool, args, options);
  }

  /**
   * `prompts/get` on the prompt's server, under its original name (spec: server/prompts).
   * @param prompt the exposed name, or `{ server, name }`.
   * @throws HostRoutingError (-33051): `unknown-prompt`, `unknown-server`, `server-unavailable`;
   *   then whatever `McpClient.getPrompt` throws.
   */
  getPrompt(
    prompt: string | ServerItemRef,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    return calls.getPrompt(this.parts.core, prompt, args, options);
  }

  /**
   * `resources/read` on the server that lists `uri`, or else the one whose resource template
   * matches it; `options.server` picks the server instead (spec: server/resources).
   * @throws HostRoutingError (-33051): `ambiguous-resource` (`data.servers`) when more than one
   *   server could serve it, `unknown-resource`, `unknown-server`, `server-unavailable`; then
   *   whatever `McpClient.readResource` throws (ResourceNotFoundError...).
   */
  readResource(uri: string, options: HostCallOptions = {}): Promise<ReadResourceResult> {
    return calls.readResource(this.parts.core, uri, options);
  }

  /**
   * Reads a UI resource (MCP Apps, docs/apps.md) as `McpClient.readAppResource` does, on the
   * server that lists the URI, else the one whose tools link it; `options.server` picks the
   * server instead. The server's `resources/list` entry supplies the CSP and permissions when
   * the read item declares none.
   * @throws AppResourceError (-33070) as `McpClient.readAppResource`; HostRoutingError (-33051):
   *   `ambiguous-resource`, `unknown-resource`, `unknown-server`, `server-unavailable`.
   */
  readAppResource(uri: string, options: HostCallOptions & AppResourceOptions = {}): Promise<AppResource> {
    return calls.readAppResource(this.parts.core, uri, options);
  }

  /**
   * Whether an open server serves MCP Apps: its capabilities list the extension, or one of its
   * tools in the catalog links a `ui://` resource. `false` for a server that is not open.
   */
  offersApps(server: string): boolean {
    return calls.offersApps(this.parts.core, server);
  }

  /**
   * `completion/complete` (spec: server/utilities/completion): a `ref/prompt` names the prompt
   * by its exposed name and goes to its server under the original name; a `ref/resource` goes to
   * the server that lists that template. `options.server` picks the server instead (the ref is
   * then sent as given).
   * @throws HostRoutingError (-33051) as {@link getPrompt} and {@link readResource}; then
   *   whatever `McpClient.complete` throws.
   */
  complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options: HostCallOptions = {},
  ): Promise<CompleteResult> {
    return calls.complete(this.parts.core, ref, argument, context, options);
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
    return this.parts.userInput.commands().commands;
  }

  /**
   * The command and arguments of a line such as `/mcp__jira__create_issue login-bug "very high"`:
   * words fill the prompt's arguments in order; `name=value` gives one by name; quotes (`"`, `'`)
   * hold spaces. The arguments come back by name, in the prompt's order.
   * @throws SlashCommandError (-33055): `data.reason` `not-a-command`, `unknown-command`,
   *   `missing-argument`, `too-many-arguments`, `unknown-argument`, `duplicate-argument`,
   *   `unclosed-quote`; `data.usage` once the command is known.
   */
  parseSlashCommand(line: string): ParsedSlashCommand {
    return this.parts.userInput.parse(line);
  }

  /**
   * Parses `line` and sends `prompts/get` to the command's server (as {@link getPrompt}: the
   * call's signal, deadline and `input_required` handlers); with `options.api`, the messages
   * for that model API too (`toAnthropicMessages`...).
   * @throws SlashCommandError (-33055) as {@link parseSlashCommand}; then as {@link getPrompt}.
   */
  runSlashCommand<A extends PromptApi | undefined = undefined>(
    line: string,
    options: RunSlashCommandOptions<A> = {},
  ): Promise<SlashCommandRun<A>> {
    return this.parts.userInput.run(line, options);
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
    return this.parts.userInput.completeCommand(line, cursor, options.signal);
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
    return this.parts.userInput.resolveMentions(text, options);
  }

  /**
   * Completion of an `@…` being typed: servers, then the resources and templates whose URI,
   * name or title match; inside a template's variable, its values through `completion/complete`
   * (the variables before it as context). Candidates are whole `@server:uri` texts.
   * @throws InvalidArgumentError (-32602); CancelledError (-32800); then what
   *   `completion/complete` fails with.
   */
  completeMention(prefix: string, options: { signal?: AbortSignal | undefined } = {}): Promise<HostCompletion> {
    return this.parts.userInput.completeMention(prefix, options.signal);
  }

  /**
   * The skills of every open server that declares the Skills extension (SEP-2640), each under an
   * exposed name (`<server>__<name>`, the rules of tool names; two skills of one server with one
   * name are named by their paths), with its origin server and `trusted`
   * (`McpHostOptions.skills.trusted`). The first call loads the registry; from then on it stays
   * current (servers opening and leaving, `list_changed` on each server's listen stream; a
   * `skills` event each time). Only listings are fetched, never a skill's files.
   * @throws ModuleLoadError (-33042) when a client's Skills module (loaded on first use) cannot be
   *   loaded (the next call tries again).
   */
  async skills(): Promise<readonly HostSkill[]> {
    return this.parts.skills().skills();
  }

  /**
   * Reads a file of the skill named `name` (default its `SKILL.md`) from the server it came from,
   * verified as `McpClient.skills.read`; `origin` says which server and whether it is trusted.
   * @throws HostRoutingError (-33051): `unknown-skill`, `server-unavailable`; ModuleLoadError
   *   (-33042) as {@link skills}; then as `client.skills.read`.
   */
  async readSkill(name: string, ref?: string, options: CallOptions = {}): Promise<SkillFile & { origin: HostSkill }> {
    return this.parts.skills().readSkill(name, ref, options);
  }

  /**
   * Runs one of the built-in skill tools a model called (`load_skill`, `read_skill_file`; see
   * `SKILL_TOOLS` and `skillsContext`): the file's text, tagged with its origin, or a result with
   * `isError: true` the model can read. Never throws for a bad argument or a failed read.
   * @throws ModuleLoadError (-33042) as {@link skills}.
   */
  async callSkillTool(name: string, args: JsonObject, options: CallOptions = {}): Promise<CallToolResult> {
    return this.parts.skills().callSkillTool(name, args, options);
  }
}
