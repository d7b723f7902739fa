/**
 * The wiring of one `McpClient`: its collaborators (session, caller, cache, reads,
 * subscriptions, era binding, tasks, connection, observer) made and tied to each other, once,
 * at construction. `McpClient` holds the result and delegates to it.
 */
import { isObject, type JsonObject, type JsonRpcNotification } from '../wire/messages.js';
import { JsonRpcSession } from '../jsonrpc/session.js';
import { ResponseCache } from '../cache/responseCache.js';
import { MetaKey, type DiscoverResult, type Implementation, type ServerCapabilities } from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { ResolvedClientOptions } from './options.js';
import { Caller } from './caller.js';
import { type CallInternals } from './chain.js';
import { CachedReads, type ListMethod } from './reads.js';
import { checkDiscover } from '../wire/results.js';
import { checkToolResult, ToolOutputValidators } from './outputValidation.js';
import { SubscriptionManager } from '../subscriptions/subscriptionManager.js';
import { walkedList, type WalkedList } from '../subscriptions/walkedList.js';
import { protocolMeta, sessionListenHost } from './sessionHost.js';
import type { Era } from '../era/era.js';
import { EraBinding } from './eraBinding.js';
import type { CallTarget, Observer } from '../observability/observer.lazy.js';
import { onDemand } from '../errors/moduleLoad.js';
import { fulfilLater } from './inputRounds.js';
import { serverOffersTasks } from '../wire/taskCapability.js';
import { TaskManager } from '../tasks/taskManager.js';
import { ClientConnection } from './connection.js';
import { EventsRouter } from '../events/router.js';

/** The collaborators of one client (see the file's opening comment). */
export interface ClientParts {
  readonly options: ResolvedClientOptions;
  readonly session: JsonRpcSession;
  readonly caller: Caller;
  /** Undefined when `cache: false`. */
  readonly responseCache: ResponseCache | undefined;
  readonly outputValidators: ToolOutputValidators;
  /** Cacheable reads and list walks, through {@link responseCache}. */
  readonly reads: CachedReads;
  readonly subscriptions: SubscriptionManager;
  readonly binding: EraBinding;
  readonly tasks: TaskManager;
  /**
   * Spans and debug lines; undefined unless `telemetry` or `debug` is on, and until
   * {@link observe} has loaded it.
   */
  readonly observer: Observer | undefined;
  /**
   * Loads and makes the {@link observer} when `telemetry` or `debug` is on (once; `connect()`
   * awaits it before anything is sent); resolves at once when both are off.
   * @throws ModuleLoadError (-33042) when its module cannot be loaded.
   */
  observe(): Promise<void>;
  /** The state, the events, and the reconnect. */
  readonly connection: ClientConnection;
  /** Where `notifications/events/*` go (the Triggers & Events extension, `client.events`). */
  readonly eventsRouter: EventsRouter;
  /** The server's capabilities, once known. */
  capabilities(): ServerCapabilities | undefined;
  /** `server/discover` through the cache, kept as the binding's discovery. */
  loadDiscovery(options: CallOptions, internals: CallInternals | undefined): Promise<DiscoverResult>;
  /**
   * Runs one uncached call, in a scope of its own when observed. Unobserved, it is
   * `run(undefined)` (the verbs are not `async` themselves, so this adds no promise of its own).
   */
  traced<T>(method: string, target: CallTarget, run: (internals: CallInternals | undefined) => Promise<T>): Promise<T>;
}

/** Makes and ties the collaborators of a client with resolved `options`. */
export function assembleClient(options: ResolvedClientOptions): ClientParts {
  const { cache, transport, clock, onError, timers } = options;
  // Without a declared auth context, private entries follow the credential each request is sent with.
  const credentialFor = transport.credentialFor?.bind(transport);
  const responseCache =
    cache === false
      ? undefined
      : new ResponseCache({
          ...cache,
          ...(credentialFor !== undefined && { credentials: credentialFor }),
          serverIdentity: transport.serverIdentity,
          clock,
          onError,
        });
  const capabilities = (): ServerCapabilities | undefined => binding.discovery?.capabilities;
  const serverInfo = (): Implementation | undefined => binding.discovery?._meta?.[MetaKey.serverInfo];
  const { telemetry, debug } = options;
  let observer: Observer | undefined;
  // The session's wire hooks, once the observer is loaded (absent when neither option is on).
  let wireHooks: ReturnType<Observer['sessionHooks']> = {};
  const observing = telemetry !== undefined || debug !== undefined;
  const observe = async (): Promise<void> => {
    if (!observing || observer !== undefined) return;
    const { Observer } = await loadObserver();
    observer ??= new Observer({
      telemetry,
      debug,
      serverIdentity: transport.serverIdentity,
      transport,
      serverInfo,
      clock,
      onError,
    });
    wireHooks = observer.sessionHooks();
  };
  const eventsRouter = new EventsRouter();
  const handleNotification = (notification: JsonRpcNotification): void => {
    if (notification.method === 'notifications/message') {
      caller.routeLog(notification);
      return;
    }
    if (notification.method === 'notifications/elicitation/complete' && caller.elicitationCompleted(notification))
      return;
    caller.notified(notification.method);
    if (subscriptions.handleNotification(notification)) return;
    if (eventsRouter.handle(notification)) return;
    options.onNotification?.(notification);
  };
  const session = new JsonRpcSession({
    ...(observing && {
      onWire: (direction, message) => wireHooks.onWire?.(direction, message),
      onReissue: (method, oldId, newId) => wireHooks.onReissue?.(method, oldId, newId),
    }),
    transport,
    timers,
    clock,
    onNotification: handleNotification,
    onError,
    onClose: (info) => connection.transportClosed(info),
  });
  const caller = new Caller(session, options);
  const outputValidators = new ToolOutputValidators(onError);
  const reads: CachedReads = new CachedReads(
    {
      caller,
      get observer() {
        return observer;
      },
      outputValidators,
      toolsListed: (tools) => tasks.learnTools(tools),
      onError,
      closed: () => connection.state === 'closed',
      open: () => connection.state === 'open',
      freshness: (method, result): JsonObject => binding.freshness(method, result),
    },
    responseCache,
  );
  const subscriptions: SubscriptionManager = new SubscriptionManager({
    ...options.subscriptions,
    host: sessionListenHost({
      session,
      requestMeta: () => protocolMeta(caller.protocolVersion, options),
      capabilities,
      connected: (): boolean => connection.state === 'open',
      reconnecting: () => connection.state === 'reconnecting',
      whenOpen: (signal, timeoutMs) =>
        connection.wait('subscriptions/listen', signal, timeoutMs ?? Number.POSITIVE_INFINITY, 'idle'),
    }),
    cache: responseCache,
    // Live lists are of the four core lists (LIVE_LIST_METHODS), never of skills/list.
    walk: async (method, walk): Promise<WalkedList> => walkedList(await reads.listAllOf(method as ListMethod, walk)),
    clock,
    timers,
    onError,
    timeoutMs: options.timeoutMs,
  });
  const loadDiscovery = async (callOptions: CallOptions, internals: CallInternals | undefined) => {
    const result = (await reads.cached(
      'server/discover',
      {},
      {},
      callOptions,
      checkDiscover,
      internals,
    )) as DiscoverResult;
    binding.discovery = result;
    return result;
  };
  const binding: EraBinding = new EraBinding({
    options,
    session,
    caller,
    subscriptions,
    discover: loadDiscovery,
    connected: () => connection.state === 'open',
    sessionLost: (expired) => connection.sessionLost(expired),
    sessionRenewed: () => connection.sessionRenewed(),
    sessionRenewalFailed: (error) => Promise.resolve(connection.sessionRenewalFailed(error)),
  });
  const tasks = new TaskManager({
    serverIdentity: transport.serverIdentity,
    principal: () => responseCache?.privatePartitionNow(),
    options: options.tasks,
    send: async (method, params, callOptions) =>
      (await caller.call({ method, params, options: callOptions, declareTasks: true, cancellable: false })).result,
    fulfil: (requests, signal) => fulfilLater(options.handlers, requests, { requestMethod: 'tools/call', signal }),
    subscribe: (filter, subscribeOptions) => subscriptions.subscribe(filter, subscribeOptions),
    offered: () => binding.era === 'modern' && serverOffersTasks(capabilities()),
    legacyCapabilities: () => (binding.era === 'legacy' ? capabilities() : undefined),
    checkResult: (toolName, result) => checkToolResult(outputValidators, toolName, result),
    clock,
    timers,
    onError: (error) => onError(asError(error)),
  });
  const connection: ClientConnection = new ClientConnection({
    session,
    policy: options.reconnect,
    restartable: transport.capabilities.restartable === true,
    clock,
    wallClock: options.wallClock,
    timers,
    setWait: (wait) => {
      caller.reconnecting = wait;
    },
    renegotiate: (signal) => binding.renegotiate(signal),
    renewSession: (signal) => binding.renewSession(signal),
    abandonSession: (error) => binding.abandonSession(error),
    negotiated: () => ({ protocolVersion: binding.protocolVersion as string, era: binding.era as Era }),
    dropped: (error) => {
      observer?.sessionEnded(error);
      // Notifications were missed while the connection was down: nothing cached may be trusted.
      responseCache?.invalidateAll().catch((failure: unknown) => onError(asError(failure)));
      subscriptions.connectionDropped(error);
    },
    reopened: () => {
      observer?.connected(binding.era, binding.protocolVersion);
      if (binding.era === 'legacy')
        subscriptions.resubscribeLegacy().catch((error: unknown) => onError(asError(error)));
    },
    lost: (error) => {
      subscriptions.closeAll('transport-closed', error);
      tasks.close(error);
    },
    onError,
    debug: options.debug,
  });
  return {
    options,
    session,
    caller,
    responseCache,
    outputValidators,
    reads,
    subscriptions,
    binding,
    tasks,
    get observer() {
      return observer;
    },
    observe,
    connection,
    eventsRouter,
    capabilities,
    loadDiscovery,
    traced: (method, target, run) => {
      if (observer === undefined) return run(undefined);
      const scope = observer.start(method, target, caller.protocolVersion);
      return scope.settle(run({ scope }));
    },
  };
}

/** The spans and debug lines of a client, loaded when `telemetry` or `debug` is on. */
const loadObserver = onDemand('observability', () => import('../observability/observer.lazy.js'));

/** What a `request()` is about, for its span: `params.name` or `params.uri`. */
export function targetOf(params: unknown): CallTarget {
  if (!isObject(params)) return {};
  if (typeof params['name'] === 'string') return { name: params['name'] };
  return typeof params['uri'] === 'string' ? { uri: params['uri'] } : {};
}

export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
