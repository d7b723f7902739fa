import {
  abortedError,
  ConnectionClosedError,
  InvalidArgumentError,
  isCancelledError,
  isTimeoutError,
  ResourceNotFoundError,
  RpcError,
} from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import { isObject, type JsonObject, type JsonRpcNotification } from '../wire/messages.js';
import { JsonRpcSession } from '../jsonrpc/session.js';
import { ResponseCache } from '../cache/responseCache.js';
import type { CacheStats } from '../cache/types.js';
import { pages as walkPages, type ListAllResult, type Page } from '../pagination/paginate.js';
import {
  MetaKey,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
  type CallToolResult,
  type CompleteResult,
  type DiscoverResult,
  type GetPromptResult,
  type Implementation,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  type PromptReference,
  type ReadResourceResult,
  type ResourceTemplateReference,
  type ServerCapabilities,
} from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { CallToolOptions } from '../tasks/options.js';
import { boundedWait, type CloseOptions } from './closeOptions.js';
import { resolveClientOptions, type ClientOptions, type ResolvedClientOptions } from './options.js';
import { requireArray } from '../wire/results.js';
import { Caller, type CallInternals } from './caller.js';
import type { Middleware, UseOptions } from './middleware.js';
import {
  CachedReads,
  checkDiscover,
  checkRead,
  type ListItemTypes,
  type ListMethod,
  type PageParams,
  type WalkOptions,
} from './reads.js';
import { ToolOutputValidators } from './outputValidation.js';
import { ClientStateError } from './errors.js';
import type { Closeable } from '../util/disposable.js';
import type { MaybePromise } from '../util/maybePromise.js';
import { SubscriptionManager } from '../subscriptions/subscriptionManager.js';
import { walkedList } from '../subscriptions/liveList.js';
import { protocolMeta, sessionListenHost } from './sessionHost.js';
import type {
  LiveList,
  LiveListItems,
  LiveListKind,
  LiveListOptions,
  SubscribeOptions,
  Subscription,
} from '../subscriptions/types.js';
import type { SubscriptionFilter } from '../wire/protocol.js';
import type { Era, EraVerdict } from '../era/era.js';
import { EraBinding } from './eraBinding.js';
import { Observer, type CallTarget } from '../observability/observer.js';
import { checkCompleteResult } from '../completion/completeResult.js';
import { createCompleter, type Completer, type CompleterOptions } from '../completion/completer.js';
// Loaded on first use (import() below), so that hosts that never use templates or links do
// not carry the RFC 6570 code in their bundle.
import type { UriTemplateSource, UriTemplateValues } from '../resources/uriTemplate.js';
import type { ReadResourceLinksOptions, ResourceLinkRead, ResourceLinkSource } from '../resources/links.js';
import { fulfilInputRequests } from '../inputRequired/inputHandlers.js';
import { serverOffersTasks } from '../wire/taskCapability.js';
import { TaskManager, isCreateTaskResult, type ResumeTaskOptions } from '../tasks/taskManager.js';
import type { TaskRecord } from '../tasks/taskStore.js';
import type { TaskMode } from '../tasks/options.js';
import type { ToolTask } from '../tasks/toolTask.js';
import type { ClientEvent, ClientState } from '../reconnect/types.js';
import { ClientConnection } from './connection.js';
import { clientSkills, type ClientSkills } from './skills.js';
import { appResourceFrom, checkAppUri, type AppResource, type ReadAppResourceOptions } from '../apps/appResource.js';
import { DEFAULT_MAX_APP_HTML_BYTES } from '../apps/constants.js';
import { serverOffersApps } from '../apps/capability.js';

export type { ClientState } from '../reconnect/types.js';

/**
 * An MCP client for one server. It speaks the 2026-07-28 wire (stateless: every request
 * carries `_meta` with the protocol version, client capabilities and client info), and falls
 * back to the `initialize` handshake of 2025-11-25 and earlier when the server is legacy
 * (`ClientOptions.era`; docs/legacy.md). The same methods work in both eras.
 *
 * ```ts
 * const client = new McpClient({ transport, clientInfo: { name: 'my-host', version: '1.0.0' } });
 * await client.connect();
 * const { tools } = await client.listTools();
 * const result = await client.callTool('echo', { text: 'hi' });
 * await client.close();
 * ```
 *
 * Every method takes {@link CallOptions} last (signal, timeouts, progress, per-call logging) and
 * rejects with a subclass of `McpError`: `RpcError` for errors the server sent (code, message
 * and data untouched), `TimeoutError` (-32001), `CancelledError` (-32800),
 * `ConnectionClosedError` (-32000), `ProtocolError` (-32600) for results that break the schema.
 */
export class McpClient implements Closeable {
  private readonly options: ResolvedClientOptions;
  private readonly session: JsonRpcSession;
  private readonly caller: Caller;
  private readonly responseCache: ResponseCache | undefined;
  private readonly outputValidators: ToolOutputValidators;
  /** Cacheable reads and list walks, through {@link responseCache}. */
  private readonly reads: CachedReads;
  private readonly subscriptionManager: SubscriptionManager;
  private readonly binding: EraBinding;
  private readonly tasks: TaskManager;
  /** Spans and debug lines; undefined unless `telemetry` or `debug` is on. */
  private readonly observer: Observer | undefined;
  /** The state, the events, and the reconnect. */
  private readonly connection: ClientConnection;
  /** `skills`, made on first access. */
  private skillsValue: ClientSkills | undefined;

  /** @throws InvalidArgumentError (-32602) when an option is invalid. */
  constructor(options: ClientOptions) {
    this.options = resolveClientOptions(options);
    const { cache, transport, clock, onError } = this.options;
    // Without a declared auth context, private entries follow the credential each request is sent with.
    const credentialFor = transport.credentialFor?.bind(transport);
    this.responseCache =
      cache === false
        ? undefined
        : new ResponseCache({
            ...cache,
            ...(credentialFor !== undefined && { credentials: credentialFor }),
            serverIdentity: transport.serverIdentity,
            clock,
            onError,
          });
    const { telemetry, debug } = this.options;
    this.observer =
      telemetry === undefined && debug === undefined
        ? undefined
        : new Observer({
            telemetry,
            debug,
            serverIdentity: transport.serverIdentity,
            transport,
            serverInfo: () => this.serverInfo,
            clock,
            onError,
          });
    this.session = new JsonRpcSession({
      ...this.observer?.sessionHooks(),
      transport: this.options.transport,
      timers: this.options.timers,
      clock,
      onNotification: (notification) => this.handleNotification(notification),
      onError: this.options.onError,
      onClose: (info) => this.connection.transportClosed(info),
    });
    this.caller = new Caller(this.session, this.options);
    this.outputValidators = new ToolOutputValidators(this.options.onError);
    this.reads = new CachedReads(
      {
        caller: this.caller,
        observer: this.observer,
        outputValidators: this.outputValidators,
        onError: this.options.onError,
        closed: () => this.connection.state === 'closed',
        freshness: (method, result) => this.binding.freshness(method, result),
      },
      this.responseCache,
    );
    this.subscriptionManager = new SubscriptionManager({
      ...this.options.subscriptions,
      host: sessionListenHost({
        session: this.session,
        requestMeta: () => protocolMeta(this.caller.protocolVersion, this.options),
        capabilities: () => this.serverCapabilities,
        connected: () => this.connection.state === 'open',
        reconnecting: () => this.connection.state === 'reconnecting',
        whenOpen: (signal, timeoutMs) =>
          this.connection.wait('subscriptions/listen', signal, timeoutMs ?? Number.POSITIVE_INFINITY, 'idle'),
      }),
      cache: this.responseCache,
      // Live lists are of the four core lists (LIVE_LIST_METHODS), never of skills/list.
      walk: async (method, walk) => walkedList(await this.reads.listAllOf(method as ListMethod, walk)),
      clock,
      timers: this.options.timers,
      onError,
      timeoutMs: this.options.timeoutMs,
    });
    this.binding = new EraBinding({
      options: this.options,
      session: this.session,
      caller: this.caller,
      subscriptions: this.subscriptionManager,
      discover: (callOptions, internals) => this.loadDiscovery(callOptions, internals),
      connected: () => this.connection.state === 'open',
      sessionLost: (expired) => this.connection.sessionLost(expired),
      sessionRenewed: () => this.connection.sessionRenewed(),
      sessionRenewalFailed: (error) => this.connection.sessionRenewalFailed(error),
    });
    this.tasks = new TaskManager({
      serverIdentity: transport.serverIdentity,
      options: this.options.tasks,
      send: async (method, params, callOptions) =>
        (await this.caller.call({ method, params, options: callOptions, declareTasks: true, cancellable: false }))
          .result,
      fulfil: (requests, signal) =>
        fulfilInputRequests(this.options.handlers, requests, { requestMethod: 'tools/call', signal }),
      subscribe: (filter, subscribeOptions) => this.subscriptionManager.subscribe(filter, subscribeOptions),
      offered: () => this.binding.era === 'modern' && serverOffersTasks(this.serverCapabilities),
      checkResult: (toolName, result) => this.checkToolResult(toolName, result),
      clock,
      timers: this.options.timers,
      onError: (error) => onError(error instanceof Error ? error : new Error(String(error))),
    });
    this.connection = new ClientConnection({
      session: this.session,
      policy: this.options.reconnect,
      restartable: transport.capabilities.restartable === true,
      clock,
      wallClock: this.options.wallClock,
      timers: this.options.timers,
      setWait: (wait) => {
        this.caller.reconnecting = wait;
      },
      renegotiate: (signal) => this.binding.renegotiate(signal),
      renewSession: (signal) => this.binding.renewSession(signal),
      abandonSession: (error) => this.binding.abandonSession(error),
      negotiated: () => ({
        protocolVersion: this.binding.protocolVersion as string,
        era: this.binding.era as Era,
      }),
      dropped: (error) => {
        this.observer?.sessionEnded(error);
        // Notifications were missed while the connection was down: nothing cached may be trusted.
        this.responseCache?.invalidateAll().catch((failure: unknown) => onError(asError(failure)));
        this.subscriptionManager.connectionDropped(error);
      },
      reopened: () => {
        this.observer?.connected(this.binding.era, this.binding.protocolVersion);
        if (this.binding.era === 'legacy')
          this.subscriptionManager.resubscribeLegacy().catch((error: unknown) => onError(asError(error)));
      },
      lost: (error) => {
        this.subscriptionManager.closeAll('transport-closed', error);
        this.tasks.close(error);
      },
      onError,
      debug: this.options.debug,
    });
  }

  /**
   * `new` → `connecting` → `open` → (`reconnecting` → `open`)* → `closed`. `reconnecting` while
   * the client makes a new connection after a drop (requests made then wait for it); `closed`
   * is for good. See {@link on} for the events.
   */
  get state(): ClientState {
    return this.connection.state;
  }

  /**
   * While `reconnecting`: when the next attempt starts, in ms since the epoch (wall clock); in
   * the past while that attempt runs. A five-minute cool-down shows here (and in the
   * `reconnecting` event's `retryAt` and `coolDown`). `undefined` in every other state.
   */
  get retryAt(): number | undefined {
    return this.connection.retryAt;
  }

  /**
   * Calls `listener` with every {@link ClientEvent}: `state` changes, and while reconnecting,
   * `reconnecting` (attempt, wait, cause: exit code, signal, stderr tail, WebSocket close
   * code), `reconnected` (the version and era negotiated again) or `gaveUp` (the last cause;
   * `closed` follows). Returns the function that removes this listener. A listener that throws
   * is reported to `onError`. See docs/transports.md, "Reconnecting".
   *
   * ```ts
   * const off = client.on((event) => {
   *   if (event.type === 'reconnecting') console.warn(`server down (${event.cause.reason}); retry in ${event.delayMs} ms`);
   *   if (event.type === 'gaveUp') console.error('server gone:', event.cause.stderrTail);
   * });
   * ```
   */
  on(listener: (event: ClientEvent) => void): () => void {
    return this.connection.on(listener);
  }

  /**
   * Adds a request middleware: `(ctx, next) => result`, around every request this client sends
   * (not around responses served from the cache). It may change `ctx.params`, `ctx.headers` and
   * `ctx.meta` before `next()`, answer without calling it, and rewrite the result or the error;
   * a result it rewrites or makes up is not cached. Middleware run in a fixed order (see
   * {@link Middleware}; docs/middleware.md): `outsideTracing` ones in `use()` order, the
   * built-in `tracing`, the others in `use()` order, then the built-in `logging`, `session` and
   * `toolHeaders`. A middleware that throws fails that request only: an `McpError` as thrown,
   * anything else as `MiddlewareError` (-32041, the value as `cause`). Returns the function that
   * removes it (idempotent); requests already under way keep the chain they started with.
   * @throws TypeError when `middleware` is not a function.
   */
  use(middleware: Middleware, options?: UseOptions): () => void {
    return this.caller.use(middleware, options);
  }

  /** The protocol version in use, once connected: `2026-07-28`, or the legacy version `initialize` negotiated. */
  get protocolVersion(): string | undefined {
    return this.binding.protocolVersion;
  }

  /** The era the server speaks (`modern` or `legacy`), once connected. */
  get era(): Era | undefined {
    return this.binding.era;
  }

  /**
   * What era detection settled on, once connected, as `eraMemory` keeps it: `modern`,
   * `legacy`, or `legacy-sse` when the server was reached over the deprecated HTTP+SSE
   * transport (2024-11-05), the last fallback over HTTP (docs/legacy.md). Its `era` is `legacy`.
   */
  get eraVerdict(): EraVerdict | undefined {
    return this.binding.verdict;
  }

  /**
   * The `server/discover` result kept from `connect()` (or the last `discover()`). On the
   * legacy wire it is built from the InitializeResult (`supportedVersions` is the negotiated
   * version; see {@link initializeResult} for the original).
   */
  get serverDiscovery(): DiscoverResult | undefined {
    return this.binding.discovery;
  }

  /** The InitializeResult exactly as received, on the legacy wire; `undefined` on the modern one. */
  get initializeResult(): JsonObject | undefined {
    return this.binding.initializeResult;
  }

  /** The server's capabilities, from discovery (modern) or the InitializeResult (legacy). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.binding.discovery?.capabilities;
  }

  /** The server's self-reported identity (`_meta["io.modelcontextprotocol/serverInfo"]`, legacy `serverInfo`); display only. */
  get serverInfo(): Implementation | undefined {
    return this.binding.discovery?._meta?.[MetaKey.serverInfo];
  }

  /** The server's `instructions` for models, if it sent any. */
  get instructions(): string | undefined {
    return this.binding.discovery?.instructions;
  }

  /** Who the server is as this client knows it (the transport's command line or URL). */
  get serverIdentity(): string {
    return this.options.transport.serverIdentity;
  }

  /**
   * The response cache (spec: server/utilities/caching), or `undefined` when `cache: false`.
   * Use it to read counters (`stats()`) or drop entries (`invalidateUri`, `invalidateList`,
   * `invalidateMethod`, `invalidateAll`).
   */
  get cache(): ResponseCache | undefined {
    return this.responseCache;
  }

  /** Cache counters: hits, misses, staleServes, evictions, stores, invalidations. All 0 without a cache. */
  cacheStats(): CacheStats {
    return (
      this.responseCache?.stats() ?? { hits: 0, misses: 0, staleServes: 0, evictions: 0, stores: 0, invalidations: 0 }
    );
  }

  /**
   * Starts the transport and settles the era and version (spec: basic/versioning; details in
   * docs/legacy.md). Once open, the client reconnects by itself after a drop
   * (`ClientOptions.reconnect`). With `era: "auto"`: `server/discover` as a probe (`probeTimeoutMs`); a
   * DiscoverResult or a recognised modern error means 2026-07-28 (-32022 leads to one retry
   * with a version from `data.supported`); anything else means legacy: `initialize`, then
   * `notifications/initialized`. The verdict is remembered in `eraMemory`.
   *
   * @returns the DiscoverResult (also kept: see {@link serverDiscovery}); on the legacy wire,
   *   the one built from the InitializeResult.
   * @throws VersionNegotiationError (-32022) when no version is shared, naming both lists;
   *   EraDetectionError (-32015) when neither era works; HttpAuthError (-32011) on 401/403
   *   (never a fallback); ConnectionClosedError (-32000) when the transport cannot start or
   *   closes; any error of `server/discover` (modern) or `initialize` (legacy) itself. A failed
   *   connect closes the client, unless `reconnect.retryFirstConnect` is on and the failure is
   *   one a new attempt may mend: it still rejects, and the client goes on `reconnecting`.
   * @throws ClientStateError (-32040), nothing sent, when connect() was called before on this
   *   client (connecting, open, reconnecting, or closed since): a client connects once.
   * @throws TimeoutError (-32001, `data: { method: 'connect', timeoutMs, kind: 'total' }`) when
   *   `options.timeoutMs` (or a shorter `maxTotalTimeoutMs`) ran out: the options bound the
   *   whole negotiation, every era included (each step, the probe, `initialize`, HTTP+SSE,
   *   waits at most what is left);
   *   CancelledError (-32800) when `options.signal` aborts, at once (already aborted: before
   *   anything starts). These two reject without waiting for the transport to finish closing;
   *   `close()` waits for it.
   */
  async connect(options: CallOptions = {}): Promise<DiscoverResult> {
    const state = this.connection.state;
    if (state !== 'new') throw connectAgain(state);
    const signal = options.signal;
    if (signal?.aborted === true) {
      await this.close();
      throw abortedError('connect', signal.reason);
    }
    this.connection.connecting();
    try {
      await this.session.start();
      const result = await this.binding.negotiate(options);
      this.connection.opened();
      this.observer?.connected(this.binding.era, this.binding.protocolVersion);
      return result;
    } catch (error) {
      if (this.connection.firstConnectFailed(error, signal)) throw error;
      const closing = this.close();
      // The caller's abort and connect()'s own deadline end it now; close() finishes the clean-up.
      const now = isCancelledError(error) || (isTimeoutError(error) && error.data.method === 'connect');
      if (now)
        closing.catch(() => {}); // a later close() reports it
      else await closing;
      throw error;
    }
  }

  /**
   * Sends `server/discover` and keeps the result (spec: server/discover). On the legacy wire,
   * which has no such method, it sends nothing and resolves with {@link serverDiscovery}.
   * @throws ProtocolError (-32600) if `supportedVersions` or `capabilities` is missing.
   */
  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    if (this.binding.era === 'legacy' && this.binding.discovery !== undefined) return this.binding.discovery;
    return this.loadDiscovery(options, undefined);
  }

  private async loadDiscovery(options: CallOptions, internals: CallInternals | undefined): Promise<DiscoverResult> {
    const result = (await this.reads.cached(
      'server/discover',
      {},
      {},
      options,
      checkDiscover,
      internals,
    )) as DiscoverResult;
    this.binding.discovery = result;
    return result;
  }

  /** One page of `tools/list` (spec: server/tools). Malformed tools are reported and left out. */
  async listTools(params: PageParams = {}, options: CallOptions = {}): Promise<ListToolsResult> {
    return (await this.reads.listPage('tools/list', params, options)) as ListToolsResult;
  }

  /** One page of `prompts/list` (spec: server/prompts). */
  async listPrompts(params: PageParams = {}, options: CallOptions = {}): Promise<ListPromptsResult> {
    return (await this.reads.listPage('prompts/list', params, options)) as ListPromptsResult;
  }

  /** One page of `resources/list` (spec: server/resources). */
  async listResources(params: PageParams = {}, options: CallOptions = {}): Promise<ListResourcesResult> {
    return (await this.reads.listPage('resources/list', params, options)) as ListResourcesResult;
  }

  /** One page of `resources/templates/list` (spec: server/resources, Resource Templates). */
  async listResourceTemplates(
    params: PageParams = {},
    options: CallOptions = {},
  ): Promise<ListResourceTemplatesResult> {
    return (await this.reads.listPage('resources/templates/list', params, options)) as ListResourceTemplatesResult;
  }

  /**
   * `resources/read` (spec: server/resources). An empty `contents` array is a successful read
   * of an empty resource. Use `viewContents()` to tell text from bytes without guessing.
   * @throws ResourceNotFoundError for -32602 with `data.uri` (2026-07-28) or -32002 (legacy);
   *   `code` and `data` stay as the server sent them.
   * @throws InvalidArgumentError (-32602) for an empty or non-string `uri`.
   */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    // A fresh cache hit needs no request object, no loader and no async frame. 'default' is the
    // unset mode, and 'force-cache' serves a fresh entry as it does; the other modes skip it.
    if (
      this.connection.state === 'open' &&
      (options === undefined ||
        (options.signal === undefined &&
          (options.cacheMode === undefined || options.cacheMode === 'default' || options.cacheMode === 'force-cache')))
    ) {
      const cache = this.responseCache;
      if (cache !== undefined && typeof uri === 'string' && uri !== '') {
        const hit = cache.peekFresh('resources/read', uri, this.caller.protocolVersion);
        if (hit !== undefined) {
          if (this.observer !== undefined)
            this.observer.start('resources/read', { uri }, this.caller.protocolVersion).servedFromCache(hit);
          return Promise.resolve(hit as ReadResourceResult);
        }
      }
    }
    return this.readResourceFromServer(uri, options ?? {});
  }

  /**
   * The Skills extension (SEP-2640) on this server: list, get, verified reads of a skill's files,
   * directory reads. Its code is loaded on the first call. See {@link ClientSkills} and
   * docs/skills.md.
   */
  get skills(): ClientSkills {
    return (this.skillsValue ??= clientSkills({
      capabilities: () => this.serverCapabilities,
      cached: (method, params, key, options, check) =>
        this.reads.cachedOutcome(method, params, key, options, check, { declareSkills: true }),
      read: async (uri, options) => {
        try {
          const outcome = await this.reads.cachedOutcome('resources/read', { uri }, { uri }, options, checkRead);
          return { result: outcome.result as ReadResourceResult, source: outcome.source };
        } catch (error) {
          throw asNotFound(error, uri);
        }
      },
      invalidateList: (method) => this.responseCache?.invalidateList(method) ?? Promise.resolve(0),
    }));
  }

  private async readResourceFromServer(uri: string, options: CallOptions): Promise<ReadResourceResult> {
    if (typeof uri !== 'string' || uri === '')
      throw new InvalidArgumentError('uri', uri, 'expected a non-empty URI string (RFC 3986)');
    try {
      return (await this.reads.cached('resources/read', { uri }, { uri }, options, checkRead)) as ReadResourceResult;
    } catch (error) {
      const mapped = asNotFound(error, uri);
      if (mapped instanceof ResourceNotFoundError) await this.responseCache?.invalidateUri(uri);
      throw mapped;
    }
  }

  /**
   * `prompts/get` with string arguments (spec: server/prompts).
   * @throws ProtocolError (-32600) if the result has no `messages` array.
   */
  getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    if (typeof name !== 'string' || name === '')
      return Promise.reject(new InvalidArgumentError('name', name, 'expected a prompt name'));
    return this.traced('prompts/get', { name }, async (internals) => {
      const { result } = await this.caller.call({
        ...internals,
        method: 'prompts/get',
        params: { name, arguments: args },
        options,
      });
      requireArray('prompts/get', result, 'messages');
      return result as GetPromptResult;
    });
  }

  /**
   * `tools/call` (spec: server/tools). A tool that failed reports `isError: true` in a
   * successful result; only protocol failures reject.
   *
   * With the Tasks extension on (`ClientOptions.tasks`, or `options.task`) and listed by the
   * server, the call declares it and the server may answer with a task (docs/tasks.md): in
   * `auto` mode it is followed to its end and its result returned as if the call had waited
   * (`signal` then cancels it with `tasks/cancel`); with `task: 'manual'` its {@link ToolTask}
   * handle is returned instead.
   *
   * @throws InvalidArgumentError (-32602), nothing sent, when `name` is not a non-empty string
   *   (given `{ name, arguments }`, the official client's call style, it says to use
   *   `callTool(name, args)`) or `args` is not an object.
   * @throws ProtocolError (-32600) if the result has no `content` array.
   * @throws ToolOutputValidationError (-32016) when the tool was listed with an `outputSchema`
   *   and the result's `structuredContent` is missing or breaks it (`data.result` keeps the
   *   result as received; spec: server/tools, Output Schema).
   * @throws MissingClientCapabilityError (-32021) when the server needs a capability the call
   *   did not declare (such as the Tasks extension).
   * @throws on a task, as `ToolTask.result()`: TaskFailedError, TaskCancelledError,
   *   TaskExpiredError (-32031), TaskNotFoundError, ConnectionClosedError (the task can be
   *   resumed with {@link resumeTask}).
   */
  callTool(
    name: string,
    args: JsonObject | undefined,
    options: CallToolOptions & { task: 'manual' },
  ): Promise<CallToolResult | ToolTask>;
  callTool(
    name: string,
    args?: JsonObject,
    options?: CallToolOptions & { task?: 'auto' | 'off' | undefined },
  ): Promise<CallToolResult>;
  callTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<CallToolResult | ToolTask> {
    if (isObject(name) && typeof name['name'] === 'string')
      return Promise.reject(
        new InvalidArgumentError(
          'name',
          name,
          `expected a tool name: use callTool(name, args), not callTool({ name, arguments }) (mcp-live takes them apart: callTool(${JSON.stringify(name['name'])}, ${JSON.stringify(name['arguments'] ?? {})}))`,
        ),
      );
    if (typeof name !== 'string' || name === '')
      return Promise.reject(new InvalidArgumentError('name', name, 'expected a tool name'));
    if (!isObject(args)) return Promise.reject(new InvalidArgumentError('arguments', args, 'expected an object'));
    let mode: TaskMode;
    try {
      mode = this.tasks.modeFor(options.task);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.traced('tools/call', { name }, async (scoped) => {
      const internals = mode === 'off' ? scoped : { ...scoped, declareTasks: true };
      let result: JsonObject;
      try {
        ({ result } = await this.caller.call({
          ...internals,
          method: 'tools/call',
          params: { name, arguments: args },
          options,
        }));
      } catch (error) {
        // -32020 on HTTP: our Mcp-Param-* headers disagree with the server's current tool
        // definition. Learn the tools again, once, and retry once.
        if (
          !(error instanceof RpcError) ||
          error.code !== ErrorCode.HeaderMismatch ||
          this.caller.toolHeaders === undefined
        )
          throw error;
        await this.listAllTools({ ...options, cacheMode: 'reload' });
        ({ result } = await this.caller.call({
          ...internals,
          method: 'tools/call',
          params: { name, arguments: args },
          options,
        }));
      }
      if (mode !== 'off' && isCreateTaskResult(result)) return this.tasks.take(name, result, mode, options);
      return this.checkToolResult(name, result);
    });
  }

  /**
   * Expands an RFC 6570 resource template with `variables` and reads the URI it gives, through
   * the cache, as {@link readResource} (spec: server/resources, Resource Templates).
   * `template` is a `ResourceTemplate` from `resources/templates/list`, its `uriTemplate`
   * string, or a parsed `UriTemplate`.
   * @throws UriTemplateError (an InvalidArgumentError, -32602) for a malformed template or a
   *   value it cannot expand, naming the template and the variable (nothing is sent); then as
   *   {@link readResource}.
   */
  async readTemplate(
    template: UriTemplateSource,
    variables: UriTemplateValues,
    options?: CallOptions,
  ): Promise<ReadResourceResult> {
    const { expandUriTemplate } = await import('../resources/uriTemplate.js');
    return this.readResource(expandUriTemplate(template, variables), options);
  }

  /**
   * Suggestions for one variable of a resource template: `completion/complete` with
   * `ref: { type: "ref/resource", uri: <the template> }` (spec: server/utilities/completion).
   * `context` holds the variables already chosen. One request per call; for completion as a
   * user types, use {@link completer}.
   * @throws UriTemplateError (-32602) when `name` is not a variable of the template or the
   *   template is malformed; then as {@link complete}.
   */
  async completeTemplateArgument(
    template: UriTemplateSource,
    name: string,
    value: string,
    context?: Readonly<Record<string, string>>,
    options: CallOptions = {},
  ): Promise<CompleteResult> {
    const { templateArgumentRef } = await import('../resources/uriTemplate.js');
    const ref = templateArgumentRef(template, name);
    return this.complete(
      ref,
      { name, value },
      context === undefined ? undefined : { arguments: { ...context } },
      options,
    );
  }

  /**
   * Completion as a user types, for one prompt or resource template (spec:
   * server/utilities/completion: debounce, cache). Call `complete(argument, value, context)` on
   * every keystroke: calls within `debounceMs` replace each other, a newer call cancels the
   * request in flight (`notifications/cancelled`), answers are reused for `cacheTtlMs`, and
   * only the latest call resolves with its own answer (earlier ones resolve `superseded`).
   * Without the server's `completions` capability nothing is sent (`unsupported`).
   * See {@link Completer}, {@link CompleterOptions} and docs/resources.md.
   * @throws InvalidArgumentError (-32602) for a malformed ref or option.
   */
  completer(ref: PromptReference | ResourceTemplateReference, options: CompleterOptions = {}): Completer {
    return createCompleter(
      {
        capabilities: () => this.serverCapabilities,
        send: (params, signal, timeoutMs) =>
          this.request('completion/complete', params, { signal, ...(timeoutMs !== undefined && { timeoutMs }) }),
        onError: this.options.onError,
        clock: this.options.clock,
        timers: this.options.timers,
      },
      ref,
      options,
    );
  }

  /**
   * Reads a UI resource (MCP Apps, docs/apps.md) through the cache, as {@link readResource}, and
   * checks it: a `ui://` URI, MIME type `text/html;profile=mcp-app`, at most
   * `options.maxBytes` (default `apps.maxHtmlBytes`, 1 MiB) of HTML. Resolves with the HTML, its
   * declared CSP and permissions (from the read item's `_meta.ui`, else from `options.listed`,
   * the `resources/list` entry) and a fingerprint that changes whenever any of them does.
   * @throws AppResourceError (-32070): `not-ui-uri` (nothing sent), `mime-type`, `too-large`,
   *   `no-contents`, `not-utf8`; then whatever {@link readResource} throws.
   */
  async readAppResource(uri: string, options: ReadAppResourceOptions = {}): Promise<AppResource> {
    checkAppUri(uri);
    const { maxBytes, listed, ...call } = options;
    const result = await this.readResource(uri, call);
    return appResourceFrom(result, uri, {
      maxBytes: maxBytes ?? this.options.apps?.maxHtmlBytes ?? DEFAULT_MAX_APP_HTML_BYTES,
      listed,
    });
  }

  /**
   * Whether this server serves MCP Apps: its capabilities list `io.modelcontextprotocol/ui`, or
   * one of `tools` (its tool list, e.g. from `listAllTools`) links a `ui://` resource.
   */
  offersApps(tools: readonly Tool[] = []): boolean {
    return serverOffersApps(this.serverCapabilities, tools);
  }

  /**
   * Reads the `resource_link` items of a tool result or prompt result (or of content blocks),
   * those `options.filter` keeps, through the cache, at most `options.concurrency` at a time
   * (spec: server/tools, Resource Links). Resolves in link order; a link that fails has its own
   * `error` (`ResourceNotFoundError` when the server has no such resource), the others their
   * `result`. Malformed links are left out and reported to `onError`.
   * @throws CancelledError (-32800) when `options.signal` aborts.
   */
  async readResourceLinks(
    source: ResourceLinkSource,
    options: ReadResourceLinksOptions = {},
  ): Promise<ResourceLinkRead[]> {
    const { readResourceLinks } = await import('../resources/links.js');
    return readResourceLinks(
      (uri, callOptions) => this.readResource(uri, callOptions),
      source,
      options,
      this.options.onError,
    );
  }

  /**
   * Picks up a task (Tasks extension) on this connection: after a dropped connection, on a new
   * client, after a restart. The stored record (`ClientOptions.tasks.store`) brings back which
   * input keys were answered; `tasks/get` brings the task as it is now. Then call
   * `result()` on the handle to follow it to its end.
   *
   * ```ts
   * for (const record of await client.storedTasks()) {
   *   const task = await client.resumeTask(record.taskId);
   *   console.log(await task.result());
   * }
   * ```
   *
   * @throws InvalidArgumentError (-32602), nothing sent, for an empty id or a record of another
   *   server; TaskExpiredError (-32031), nothing sent, once the stored `createdAt + ttlMs` has
   *   passed; TaskNotFoundError (-32602 as sent) when the server does not know the id; any
   *   error of `tasks/get`.
   */
  resumeTask(taskId: string, options: ResumeTaskOptions = {}): Promise<ToolTask> {
    return this.tasks.resume(taskId, options);
  }

  /** The task records kept for this server (`ClientOptions.tasks.store`), for a host resuming after a restart. */
  storedTasks(): Promise<TaskRecord[]> {
    return this.tasks.stored();
  }

  /** The checks every `tools/call` result passes, task or not. */
  private checkToolResult(name: string | undefined, result: JsonObject): MaybePromise<CallToolResult> {
    requireArray('tools/call', result, 'content');
    const checked = name === undefined ? undefined : this.outputValidators.check(name, result);
    return checked === undefined ? (result as CallToolResult) : checked.then(() => result as CallToolResult);
  }

  /**
   * `completion/complete`: suggestions for one argument of a prompt or resource template
   * (spec: server/utilities/completion). `context.arguments` gives already-chosen values.
   * More than 100 `values` are cut to 100 and reported to `onError`; `total` and `hasMore`
   * stay as sent.
   * @throws ProtocolError (-32600) when `completion.values` is not an array of strings.
   */
  complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options: CallOptions = {},
  ): Promise<CompleteResult> {
    const params: JsonObject = { ref, argument };
    if (context !== undefined) params['context'] = context;
    return this.traced('completion/complete', {}, async (internals) => {
      const { result } = await this.caller.call({ ...internals, method: 'completion/complete', params, options });
      return checkCompleteResult(result, this.options.onError).result;
    });
  }

  /**
   * Sends any request and returns its complete result, with the protocol `_meta` added. For
   * methods this class has no verb for yet; prefer the verbs, which check their results.
   */
  request(method: string, params: JsonObject = {}, options: CallOptions = {}): Promise<JsonObject> {
    return this.traced(
      method,
      targetOf(params),
      async (internals) => (await this.caller.call({ ...internals, method, params, options })).result,
    );
  }

  /**
   * Walks a list page by page (spec: server/utilities/pagination): the first request carries no
   * `cursor`, each next one the previous `nextCursor` verbatim (`""` included), until a page has
   * none. Pages come from the cache when fresh; a completed walk is stored as one list (its
   * freshness is the shortest page TTL; one private page makes it all private).
   * @throws PaginationLimitError (-32004) on the page cap or a repeated page; PaginationError
   *   (-32004, `data.reason: "invalid-cursor"`) when a cursor is rejected again after one restart
   *   from page one; CancelledError (-32800) on abort; any error of a page request.
   */
  async *pages<M extends ListMethod>(
    method: M,
    options: WalkOptions = {},
  ): AsyncGenerator<Page<ListItemTypes[M]>, void, undefined> {
    const walk = this.reads.listWalk(method, options);
    try {
      yield* walkPages(walk.fetchPage, walk.paginate);
      await walk.commit();
    } catch (error) {
      walk.scope?.fail(error);
      throw error;
    } finally {
      walk.scope?.succeed();
    }
  }

  /** Every tool, fetched page by page as they are consumed (`tools/list`). Errors as {@link pages}. */
  tools(options: WalkOptions = {}): AsyncGenerator<Tool, void, undefined> {
    return this.itemsOf('tools/list', options);
  }

  /** Every prompt (`prompts/list`). Errors as {@link pages}. */
  prompts(options: WalkOptions = {}): AsyncGenerator<Prompt, void, undefined> {
    return this.itemsOf('prompts/list', options);
  }

  /** Every resource (`resources/list`). Errors as {@link pages}. */
  resources(options: WalkOptions = {}): AsyncGenerator<Resource, void, undefined> {
    return this.itemsOf('resources/list', options);
  }

  /** Every resource template (`resources/templates/list`). Errors as {@link pages}. */
  resourceTemplates(options: WalkOptions = {}): AsyncGenerator<ResourceTemplate, void, undefined> {
    return this.itemsOf('resources/templates/list', options);
  }

  /** The whole `tools/list`: `{ items, pages, results }`; never a partial list. Errors as {@link pages}. */
  listAllTools(options: WalkOptions = {}): Promise<ListAllResult<Tool>> {
    return this.reads.listAllOf('tools/list', options);
  }

  /** The whole `prompts/list`. Errors as {@link pages}. */
  listAllPrompts(options: WalkOptions = {}): Promise<ListAllResult<Prompt>> {
    return this.reads.listAllOf('prompts/list', options);
  }

  /** The whole `resources/list`. Errors as {@link pages}. */
  listAllResources(options: WalkOptions = {}): Promise<ListAllResult<Resource>> {
    return this.reads.listAllOf('resources/list', options);
  }

  /** The whole `resources/templates/list`. Errors as {@link pages}. */
  listAllResourceTemplates(options: WalkOptions = {}): Promise<ListAllResult<ResourceTemplate>> {
    return this.reads.listAllOf('resources/templates/list', options);
  }

  /**
   * Opens a `subscriptions/listen` stream of its own for `filter` and resolves at the server's
   * acknowledgment (spec: basic/patterns/subscriptions); see {@link Subscription}. What the
   * capabilities or the ack leave out is in `notHonoured`, not thrown. The cache drops what a
   * change makes stale before any listener hears of it. A stream that ends unexpectedly is
   * reopened (`ClientOptions.subscriptions.reopen`), then `resync`; a dropped connection closes
   * it. `options.timeoutMs` covers only the wait for the ack. Details: docs/subscriptions.md.
   *
   * @throws InvalidArgumentError (-32602) for a malformed filter or one that asks for nothing;
   *   ConnectionClosedError (-32000) when not connected or the connection drops first;
   *   TimeoutError (-32001) without an acknowledgment in time; CancelledError (-32800) when
   *   `options.signal` aborts first; RpcError as the server sent it (e.g. -32602);
   *   SubscriptionClosedError (-32008) when the server ends the stream before acknowledging it.
   */
  subscribe(filter: SubscriptionFilter, options: SubscribeOptions = {}): Promise<Subscription> {
    return this.subscriptionManager.subscribe(filter, options);
  }

  /**
   * The whole list of `kind`, kept current: subscribes to its `list_changed`, loads every page,
   * and fetches it again (debounced) after each change. A failed refresh keeps the last good
   * list, flagged stale. See {@link LiveList}.
   * @throws as {@link subscribe}, and as {@link pages} for the first load; nothing stays open then.
   */
  live<K extends LiveListKind>(
    kind: K,
    options: LiveListOptions<LiveListItems[K]> = {},
  ): Promise<LiveList<LiveListItems[K]>> {
    return this.subscriptionManager.live(kind, options);
  }

  /**
   * Closes the transport (and the server process on stdio). A reconnect under way stops at once
   * (no backoff timer is left). Pending calls, and calls waiting for a reconnect, reject with
   * `ConnectionClosedError`; background cache refreshes stop; subscriptions and live lists
   * close with reason `client-closed`; tasks being followed stop following (they keep running
   * on the server, and their records stay for {@link resumeTask}). Idempotent.
   *
   * `options.signal` and `options.timeoutMs` (ms) bound the wait for the transport to finish
   * (a stdio server to exit, a WebSocket close handshake, an HTTP session `DELETE`): past the
   * bound, close() rejects with `TimeoutError` (-32001, method `close`) or, for the signal,
   * as a call does (`CancelledError` -32800, or `TimeoutError` for `AbortSignal.timeout()`).
   * The client is closed either way and the clean-up goes on in the background.
   */
  async close(options: CloseOptions = {}): Promise<void> {
    const stopped = this.connection.close();
    this.observer?.sessionEnded();
    this.subscriptionManager.closeAll('client-closed');
    this.tasks.close(new ConnectionClosedError('connection closed (closed by client)', { reason: 'closed by client' }));
    this.responseCache?.dispose();
    const done = stopped.then(() => this.session.close());
    await boundedWait(done, 'close', options, this.options.timers);
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async *itemsOf<M extends ListMethod>(
    method: M,
    options: WalkOptions,
  ): AsyncGenerator<ListItemTypes[M], void, undefined> {
    for await (const page of this.pages(method, options)) yield* page.items;
  }

  /**
   * Runs one uncached call, in a scope of its own when observed. Unobserved, it is `run(undefined)`
   * (the public verbs are not `async` themselves, so this adds no promise of its own).
   */
  private traced<T>(
    method: string,
    target: CallTarget,
    run: (internals: CallInternals | undefined) => Promise<T>,
  ): Promise<T> {
    if (this.observer === undefined) return run(undefined);
    const scope = this.observer.start(method, target, this.caller.protocolVersion);
    return scope.settle(run({ scope }));
  }

  private handleNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/message') {
      this.caller.routeLog(notification);
      return;
    }
    if (notification.method === 'notifications/tools/list_changed') this.caller.toolHeaders?.clear();
    if (this.subscriptionManager.handleNotification(notification)) return;
    this.options.onNotification?.(notification);
  }
}

/** What a `request()` is about, for its span: `params.name` or `params.uri`. */
function targetOf(params: unknown): CallTarget {
  if (!isObject(params)) return {};
  if (typeof params['name'] === 'string') return { name: params['name'] };
  return typeof params['uri'] === 'string' ? { uri: params['uri'] } : {};
}

/** Classifies a resources/read failure as not-found when the server said so (B10). */
function asNotFound(error: unknown, uri: string): unknown {
  if (!(error instanceof RpcError) || error instanceof ResourceNotFoundError) return error;
  const data = error.data as { uri?: unknown } | undefined;
  const notFound =
    error.code === ErrorCode.ResourceNotFoundLegacy ||
    (error.code === ErrorCode.InvalidParams && (typeof data?.uri === 'string' || /not found/i.test(error.message)));
  return notFound
    ? new ResourceNotFoundError({ code: error.code, message: error.message, data: error.data }, uri)
    : error;
}

/** The error of a second `connect()`: what state the client is in, and what to do instead. */
function connectAgain(state: ClientState): ClientStateError {
  const message =
    state === 'connecting'
      ? 'connect() was already called and is still under way; await that call'
      : state === 'open'
        ? 'the client is already connected (connect() runs once per McpClient)'
        : state === 'reconnecting'
          ? 'the client is connected and reconnecting by itself (connect() runs once per McpClient)'
          : 'the client was closed; an McpClient connects once: create a new one to connect again';
  return new ClientStateError({ method: 'connect', state }, message);
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
