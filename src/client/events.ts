/**
 * `client.events`: the Triggers & Events extension on one client. The facade is small and made on
 * first access; the code behind it (`events/`) is imported on the first call. The router that
 * takes `notifications/events/*` is the client's from the start (assembly.ts).
 */
import { ConnectionClosedError } from '../errors/errors.js';
import { onDemand } from '../errors/moduleLoad.js';
import type { EventsClient, EventsClientDeps } from '../events/eventsClient.lazy.js';
import type { EventLoopDeps } from '../events/loopDeps.js';
import type { EventListing, EventListOptions, EventSubscribeOptions } from '../events/options.js';
import { cursorKey } from '../events/cursorStore.js';
import type { EventsRouter } from '../events/router.js';
import type { EventSubscription } from '../events/subscription.js';
import type { JsonObject } from '../wire/messages.js';
import type { CallOptions } from '../wire/callOptions.js';
import { EventsMethod, eventsCapabilityOf, withEventsExtension } from '../wire/events.js';
import { MetaKey, type ClientCapabilities } from '../wire/protocol.js';
import type { ClientParts } from './assembly.js';
import { protocolMeta } from './sessionHost.js';

/**
 * The Triggers & Events extension on one server (experimental-ext-triggers-events,
 * design-sketch-proposal.md; see docs/events.md). Nothing is sent unless the server declares
 * `capabilities.extensions["io.modelcontextprotocol/events"]`; every request declares it back.
 */
export interface ClientEvents {
  /** The server declares the extension (from discovery; `false` before `connect()`). */
  readonly supported: boolean;
  /**
   * `events/list`: every page (cached until `notifications/events/list_changed` or the first
   * page's `ttlMs`, default 60 s; `cacheMode: 'reload'` reads again), or the one page at `cursor`.
   * Entries without a name or a known delivery mode are left out and named in `skipped`.
   * @throws EventsUnsupportedError (-33080), nothing sent, without the extension; ProtocolError
   *   (-32600) for a malformed page, a repeated cursor or more than `maxPages`; as `request()`.
   */
  list(options?: EventListOptions): Promise<EventListing>;
  /**
   * Subscribes to `name` with `args` (design: Client SDK Guidance): picks the mode (webhook when
   * `options.webhook` is given and offered, then push, then poll; `prefer`, `forbid`, `delivery`
   * steer it), loads the cursor from `cursorStore`, starts the loop and resolves after the first
   * answer (or the first failure it retries). See {@link EventSubscription}.
   * @throws EventsUnsupportedError (-33080); InvalidArgumentError (-32602) for a name
   *   `events/list` does not list, non-object `args` or a non-`https` webhook URL;
   *   NoCompatibleDeliveryModeError (-33081); the server's refusal as its typed class:
   *   EventNotFoundError (-32011), EventForbiddenError (-32012), EventUnsupportedError (-32014),
   *   CallbackEndpointError (-32015), RpcError -32602; CancelledError (-32800) when `signal` aborts.
   */
  subscribe(name: string, args?: JsonObject, options?: EventSubscribeOptions): Promise<EventSubscription>;
  /**
   * The key `subscribe(name, args)` keeps its cursor under in a cursor store, and the name to
   * give its `RedisLease`: the server's identity, `name`, `args` and, when the client declares an
   * auth context (`cache.authContext`; every client of a host's user scope does), a digest of it,
   * so two users' subscriptions to one event never share a cursor or a lease. Loads nothing.
   * @throws InvalidArgumentError (-32602) when the declared auth context is not valid.
   */
  cursorKey(name: string, args?: JsonObject): string;
}

const loadEventsClient = onDemand('events', () =>
  import('../events/eventsClient.lazy.js').then((module) => module.EventsClient),
);

/** Makes `client.events` over a client's parts. */
export function clientEvents(parts: ClientParts, router: EventsRouter): ClientEvents {
  const { options, session, caller, connection } = parts;
  let declared: ClientCapabilities | undefined;
  const meta = (): JsonObject => ({
    [MetaKey.clientCapabilities]: (declared ??= withEventsExtension(options.capabilities)),
  });
  const request = (method: string, params: JsonObject, callOptions: CallOptions) =>
    parts.traced(
      method,
      {},
      async (internals) =>
        (
          await caller.call({
            ...internals,
            method,
            params,
            options: { ...callOptions, meta: { ...callOptions.meta, ...meta() } },
          })
        ).result,
    );
  const whenConnected = (signal: AbortSignal): Promise<void> => {
    if (connection.state === 'open') return Promise.resolve();
    if (connection.state === 'closed')
      return Promise.reject(new ConnectionClosedError('events: client closed', { reason: 'closed' }));
    return new Promise((resolve, reject) => {
      const off = connection.on((event) => {
        if (event.type !== 'state') return;
        if (event.state === 'open') done(resolve);
        else if (event.state === 'closed')
          done(() => reject(new ConnectionClosedError('events: client closed', { reason: 'closed' })));
      });
      const onAbort = (): void => done(() => reject(signal.reason));
      const done = (settle: () => void): void => {
        off();
        signal.removeEventListener('abort', onAbort);
        settle();
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  };
  const loop: EventLoopDeps = {
    request: (method, params, callOptions) => request(method, params, callOptions),
    stream: (params, { signal, timeoutMs, onNotification }) => {
      const wireMeta = protocolMeta(caller.protocolVersion, options);
      wireMeta[MetaKey.clientCapabilities] = declared ??= withEventsExtension(options.capabilities);
      const stops: Array<() => void> = [];
      let id: string | number = -1;
      const done = session
        .request(
          EventsMethod.stream,
          { ...params, _meta: wireMeta },
          {
            signal,
            timeoutMs,
            maxTotalTimeoutMs: timeoutMs,
            resetTimeoutOnProgress: false,
            reissueOnBrokenStream: 0,
            onRequestId: (requestId) => {
              id = requestId;
              stops.push(router.stream(requestId, onNotification));
            },
            onRelatedNotification: (notification) => {
              if (!router.handle(notification)) options.onNotification?.(notification);
            },
          },
        )
        .finally(() => stops.forEach((stop) => stop()));
      return {
        done,
        get id() {
          return id;
        },
        disarm: () => void session.disarmTimeouts(id),
      };
    },
    whenConnected,
    lost: () => connection.state === 'closed',
    timers: options.timers,
    wallClock: options.wallClock,
    onError: options.onError,
  };
  let impl: Promise<EventsClient> | undefined;
  const deps: EventsClientDeps = {
    supported: () => eventsCapabilityOf(parts.capabilities()) !== undefined,
    request,
    loop,
    router,
    serverIdentity: options.transport.serverIdentity,
    principal: () => parts.responseCache?.privatePartitionNow(),
    clock: options.clock,
    onError: options.onError,
  };
  const load = (): Promise<EventsClient> =>
    (impl ??= loadEventsClient().then(
      (EventsClient) => {
        const client = new EventsClient(deps);
        connection.on((event) => {
          if (event.type === 'state' && event.state === 'closed')
            client.lost(new ConnectionClosedError('events: client closed', { reason: 'closed' }));
        });
        return client;
      },
      (error: unknown) => {
        impl = undefined;
        throw error;
      },
    ));
  return {
    get supported() {
      return eventsCapabilityOf(parts.capabilities()) !== undefined;
    },
    list: async (listOptions) => (await load()).list(listOptions),
    subscribe: async (name, args = {}, subscribeOptions = {}) => (await load()).subscribe(name, args, subscribeOptions),
    cursorKey: (name, args = {}) => cursorKey(deps.serverIdentity, name, args, deps.principal()),
  };
}
