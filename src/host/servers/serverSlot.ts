/**
 * One server of a host: its client, its live lists, and its state as the host reports it.
 * The host owns the slots; a slot tells the host when its contribution to the catalog changed.
 */
import type { McpClient } from '../../client/client.js';
import { abortedError, ConnectionClosedError, McpError, ProtocolError } from '../../errors/errors.js';
import { legacyToolUncallable } from '../../tasks/legacySupport.js';
import { ErrorCode } from '../../errors/codes.js';
import type { Era } from '../../era/era.js';
import type { LiveList, LiveListEvent, Subscription } from '../../subscriptions/types.js';
import type {
  Implementation,
  Prompt,
  Resource,
  ResourceTemplate,
  SubscriptionFilter,
  Tool,
} from '../../wire/protocol.js';
import type { Clock, Timers, WallClock } from '../../util/clock.js';
import { CATALOG_KINDS, type CatalogKind, type ServerContribution } from '../catalog/catalog.js';
import type { ClientEvent, ReconnectCause } from '../../reconnect/types.js';
import type { HostServerEntry, ServerLocation } from './config.js';
import { HostRoutingError } from '../catalog/errors.js';

/**
 * A server's state in the host.
 * - `new`: added, `connect()` not called yet;
 * - `connecting`: first connection and first list loads under way;
 * - `open`: connected; its items are in the catalog, `available`;
 * - `reconnecting`: the connection dropped and the client is reconnecting; its items stay in
 *   the catalog, `unavailable`, with its last instructions, and calls to it wait for it (within
 *   their deadline; a call whose deadline ends before the next attempt fails at once);
 *   `retryAt` says when the next attempt starts (minutes away during a cool-down). Once its
 *   client waits a cool-down (the quick phase, `reconnect.quickPhaseMs`, 60 s by default, or
 *   the window budget, is spent) its items and instructions leave the catalog (one `catalog`
 *   event), and come back when it is open again;
 * - `failed`: it could not start, or dropped and will not come back by itself (`lastError` says
 *   why); a client that retries its first connection moves on to `open` when it succeeds
 *   (`retryAt` set while it waits to; never for a command that does not exist, ENOENT or EACCES);
 * - `closed`: closed by the host (`close()`, `remove()`);
 * - `disabled`: `"disabled": true` in the configuration; never started.
 */
export type HostServerState = 'new' | 'connecting' | 'open' | 'reconnecting' | 'failed' | 'closed' | 'disabled';

/** What `McpHost.servers` says of one server. */
export interface HostServerStatus {
  readonly name: string;
  readonly state: HostServerState;
  /** The entry's transport type; `undefined` for an entry the configuration could not read. */
  readonly type: ServerLocation['type'] | undefined;
  /** The negotiated protocol version, once connected. */
  readonly protocolVersion: string | undefined;
  /** The era it speaks (`modern` or `legacy`), once connected. */
  readonly era: Era | undefined;
  /** Its self-reported identity (display only), once connected. */
  readonly serverInfo: Implementation | undefined;
  /**
   * Why it failed, or the last error of its lists: a `ConnectionClosedError` with the exit code
   * and stderr tail, an `HttpError` with the status, a `HostConfigError` naming the field...
   */
  readonly lastError: Error | undefined;
  /**
   * While its client waits to reconnect (`reconnecting`, or `failed` with a first connect being
   * retried): when the next attempt starts, in ms since the epoch; in the past while that attempt
   * runs. `undefined` otherwise. See `McpClient.retryAt`.
   */
  readonly retryAt: number | undefined;
}

/** What a slot needs from its host. */
export interface SlotDeps {
  /** Makes the client of this slot (transport and options). May throw: the slot fails. */
  makeClient(slot: ServerSlot): McpClient;
  /** The slot's contribution or state changed: the host rebuilds the catalog. */
  changed(): void;
  stateChanged(slot: ServerSlot, previous: HostServerState): void;
  clientEvent(slot: ServerSlot, event: ClientEvent): void;
  /** The slot's lists are fetched on a timer: changes are not pushed (said once per slot). */
  polling(slot: ServerSlot, event: Extract<LiveListEvent<unknown>, { type: 'polling' }>, kind: CatalogKind): void;
  onError(error: Error, server: string): void;
}

type Lists = { [K in CatalogKind]: readonly unknown[] };

/** States a call waits out: the server is on its way to `open`. */
const COMING: ReadonlySet<HostServerState> = new Set(['connecting', 'reconnecting']);

/** How long a call waits for its server ({@link ServerSlot.ready}). */
export interface ReadyOptions {
  /** The call's method, for the `CancelledError` or `TimeoutError` of an aborted wait. */
  method: string;
  signal?: AbortSignal | undefined;
  /** The longest wait, in ms. */
  timeoutMs: number;
  clock: Clock;
  timers: Timers;
  /** The wall clock of the server's client, to compare with its `retryAt`. */
  wallClock: WallClock;
}

/** The filter flag that announces changes of each list. */
const LIST_FLAG: Readonly<Record<CatalogKind, 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'>> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
  resourceTemplates: 'resourcesListChanged',
};

/** Which capability offers each list. */
const OFFERED_BY: Readonly<Record<CatalogKind, 'tools' | 'prompts' | 'resources'>> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resources',
};

/** @internal One server of an `McpHost`. */
export class ServerSlot {
  private stateValue: HostServerState;
  private lastErrorValue: Error | undefined;
  private clientValue: McpClient | undefined;
  /** Tools already reported as left out of the catalog. */
  private readonly uncallableReported = new Set<string>();
  private readonly lists = new Map<CatalogKind, LiveList<unknown>>();
  /** Lists whose `closed` has settled (their last items are kept until a new list replaces them). */
  private readonly closedLists = new WeakSet<LiveList<unknown>>();
  private everOpen = false;
  private closing = false;
  private pollingSaid = false;
  /** The one listen stream of the slot's lists. */
  private shared: Promise<Subscription> | undefined;
  private opening: Promise<void> | undefined;
  private starting: Promise<void> | undefined;
  private stopWatching: () => void = () => {};
  private readonly lifetime = new AbortController();
  /** A lazy server's kept tool list, listed while it has not started (`lazy: true`). */
  private lazyTools: readonly Tool[] | undefined;
  /** Calls waiting for the next state change ({@link ready}). */
  private stateWaiters: Array<() => void> = [];
  /** While `reconnecting`: its client waits a cool-down, so its items are out of the catalog. */
  private coolingDown = false;
  /** The instructions of its last open connection, kept while its items are listed. */
  private lastInstructions: string | undefined;

  constructor(
    readonly name: string,
    /** `undefined` for an entry the configuration could not read (the slot stays `failed`). */
    readonly entry: HostServerEntry | undefined,
    private readonly host: SlotDeps,
    initial: { state: 'new' | 'disabled' | 'failed'; error?: Error | undefined },
  ) {
    this.stateValue = initial.state;
    this.lastErrorValue = initial.error;
  }

  get state(): HostServerState {
    return this.stateValue;
  }

  get client(): McpClient | undefined {
    return this.clientValue;
  }

  status(): HostServerStatus {
    const client = this.clientValue;
    return Object.freeze({
      name: this.name,
      state: this.stateValue,
      type: this.entry?.type,
      protocolVersion: client?.protocolVersion,
      era: client?.era,
      serverInfo: client?.serverInfo,
      lastError: this.lastErrorValue,
      retryAt: client?.retryAt,
    });
  }

  /**
   * The slot's lists for the catalog: `available` while it is open, `unavailable` while it
   * reconnects (the last lists, kept); `undefined` in every other state.
   */
  contribution(): ServerContribution | undefined {
    if (this.entry === undefined) return undefined;
    if (this.stateValue === 'new' && this.lazyTools !== undefined)
      return {
        server: this.name,
        availability: 'unavailable',
        prefix: this.entry.prefix ?? this.name,
        toolFilter: this.entry.tools,
        tools: this.lazyTools,
        prompts: [],
        resources: [],
        resourceTemplates: [],
      };
    if (!this.listed) return undefined;
    const items = {} as Lists;
    for (const kind of CATALOG_KINDS) items[kind] = this.lists.get(kind)?.items ?? [];
    return {
      server: this.name,
      availability: this.stateValue === 'open' ? 'available' : 'unavailable',
      prefix: this.entry.prefix ?? this.name,
      toolFilter: this.entry.tools,
      overrides: this.entry.overrides,
      tools: this.callableTools(items.tools as readonly Tool[]),
      prompts: items.prompts as readonly Prompt[],
      resources: items.resources as readonly Resource[],
      resourceTemplates: items.resourceTemplates as readonly ResourceTemplate[],
    };
  }

  /** Whether it reconnects in a cool-down, its items out of the catalog until it is open. */
  get withdrawn(): boolean {
    return this.stateValue === 'reconnecting' && this.coolingDown;
  }

  /** Whether its items are in the catalog: open, or reconnecting outside a cool-down. */
  private get listed(): boolean {
    return this.stateValue === 'open' || (this.stateValue === 'reconnecting' && this.everOpen && !this.coolingDown);
  }

  /**
   * The server's `instructions` while its items are listed: its client's while it is open, the
   * last connection's while it reconnects outside a cool-down; `undefined` otherwise.
   */
  get instructions(): string | undefined {
    if (this.entry === undefined || !this.listed) return undefined;
    return this.stateValue === 'open' ? this.clientValue?.instructions : this.lastInstructions;
  }

  /**
   * The tools this client can call: a 2025-11-25 tool that requires a task on a server that does
   * not run tool tasks is left out (docs/tasks.md), reported to `onError` once per tool name.
   */
  private callableTools(tools: readonly Tool[]): readonly Tool[] {
    const client = this.clientValue;
    if (client?.era !== 'legacy') return tools;
    const kept: Tool[] = [];
    for (const tool of tools) {
      const reason = legacyToolUncallable(tool, client.serverCapabilities);
      if (reason === undefined) {
        kept.push(tool);
        continue;
      }
      if (this.uncallableReported.has(tool.name)) continue;
      this.uncallableReported.add(tool.name);
      this.host.onError(
        new ProtocolError(`tool ${JSON.stringify(tool.name)} left out: ${reason}`, {
          method: 'tools/list',
          value: { tool: tool.name, reason },
        }),
        this.name,
      );
    }
    return kept.length === tools.length ? tools : kept;
  }

  /**
   * A lazy server not started yet: lists `tools` (its last known list) as `unavailable` until
   * a call starts it ({@link startLazy}).
   */
  listLazily(tools: readonly Tool[]): void {
    if (this.stateValue !== 'new') return;
    this.lazyTools = tools;
    this.host.changed();
  }

  /** Whether this is a lazy server listed from its kept tools and not started yet. */
  get waitingLazily(): boolean {
    return this.stateValue === 'new' && this.lazyTools !== undefined;
  }

  /**
   * Connects and loads the lists; settles when the slot is `open` or `failed` (never rejects).
   * Only from `new`; a second call while it runs joins the first.
   */
  start(signal?: AbortSignal): Promise<void> {
    if (this.starting !== undefined) return this.starting;
    if (this.stateValue !== 'new') return Promise.resolve();
    this.starting = this.run(signal);
    return this.starting;
  }

  private async run(signal: AbortSignal | undefined): Promise<void> {
    this.setState('connecting');
    let client: McpClient;
    try {
      client = this.host.makeClient(this);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.clientValue = client;
    this.stopWatching = client.on((event) => this.onClientEvent(event));
    const abort = (): void => this.lifetime.abort(signal?.reason);
    if (signal?.aborted === true) abort();
    else signal?.addEventListener('abort', abort, { once: true });
    try {
      await client.connect({ signal: this.lifetime.signal });
    } catch (error) {
      if (!this.closing) this.fail(error);
      return;
    } finally {
      signal?.removeEventListener('abort', abort);
    }
    await this.ensureOpen();
  }

  /** Closes the client and the lists (no process or timer left). Idempotent. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.lifetime.abort(new ConnectionClosedError(`server ${this.name} removed`, { reason: 'closed by host' }));
    this.stopWatching();
    const lists = [...this.lists.values()];
    await Promise.allSettled([
      ...lists.map((list) => list.close()),
      this.shared?.then((sub) => sub.close()),
      this.clientValue?.close(),
    ]);
    if (this.stateValue !== 'disabled') this.setState('closed');
    this.host.changed();
  }

  /** Whether a call to this server may wait for it: it is open, connecting or reconnecting. */
  get reachable(): boolean {
    this.sync();
    return this.stateValue === 'open' || COMING.has(this.stateValue);
  }

  /**
   * The open client for a call. While the server is `connecting` or `reconnecting`, waits
   * for it to open, at most `options.timeoutMs`; when its next reconnect attempt starts after
   * that (`retryAt`, say during a cool-down), it fails at once rather than wait for nothing.
   * @throws HostRoutingError (-33051, `server-unavailable`, with `data.state`, `data.retryAt`
   *   while it reconnects, and the last error as `cause`) when it is in another state, leaves
   *   for one, its next attempt is after the deadline, or it is not open in time;
   *   CancelledError (-32800) when `options.signal` aborts first (TimeoutError -32001 when it
   *   is an `AbortSignal.timeout()`).
   */
  async ready(options: ReadyOptions): Promise<McpClient> {
    const started = options.clock.now();
    for (;;) {
      this.sync();
      const client = this.clientValue;
      if (this.stateValue === 'open' && client !== undefined) return client;
      if (options.signal?.aborted === true) throw abortedError(options.method, options.signal.reason);
      const left = options.timeoutMs - (options.clock.now() - started);
      if (!COMING.has(this.stateValue) || left <= 0) throw this.unavailable(options.clock.now() - started);
      // Waiting cannot help when the next attempt starts after the deadline.
      const retryAt = this.stateValue === 'reconnecting' ? client?.retryAt : undefined;
      if (retryAt !== undefined && retryAt - options.wallClock.now() > left)
        throw this.unavailable(options.clock.now() - started);
      await this.nextState(left, options);
    }
  }

  /** The error of a call this server cannot take; `error`, when given, is its new last error. */
  unavailable(waitedMs = 0, error?: unknown): HostRoutingError {
    if (error instanceof Error) this.lastErrorValue = error;
    const last = this.lastErrorValue;
    const waited = Math.round(waitedMs) > 0 ? ` after waiting ${Math.round(waitedMs)} ms` : '';
    const retryAt = this.stateValue === 'reconnecting' ? this.clientValue?.retryAt : undefined;
    const next = retryAt !== undefined ? `; next attempt at ${new Date(retryAt).toISOString()}` : '';
    return new HostRoutingError(
      `server ${JSON.stringify(this.name)} is ${this.stateValue}${waited}${next}${last ? `: ${last.message}` : ''}`,
      {
        reason: 'server-unavailable',
        server: this.name,
        state: this.stateValue,
        ...(retryAt !== undefined && { retryAt }),
        ...(last !== undefined && { lastError: last.message }),
      },
      last,
    );
  }

  /** Resolves at the next state change, after `ms`, or when the signal aborts (never rejects). */
  private nextState(ms: number, options: ReadyOptions): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        options.timers.clearTimeout(timer);
        options.signal?.removeEventListener('abort', done);
        this.stateWaiters = this.stateWaiters.filter((waiter) => waiter !== done);
        resolve();
      };
      const timer = options.timers.setTimeout(done, ms);
      options.signal?.addEventListener('abort', done, { once: true });
      this.stateWaiters.push(done);
    });
  }

  /** After a call failed: notices a connection that is gone. */
  afterFailure(error: unknown): void {
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) this.sync(error);
  }

  /**
   * Brings the slot's state in line with its client's: a client that closed under an open slot
   * (a crash, without a client that reconnects) makes it `failed`.
   */
  private sync(cause?: unknown): void {
    const client = this.clientValue;
    if (client === undefined || this.closing) return;
    const state = client.state;
    if (state === 'closed' && (this.stateValue === 'open' || this.stateValue === 'reconnecting')) {
      this.fail(cause ?? new ConnectionClosedError(`server ${this.name}: connection closed`, { reason: 'closed' }));
    } else if (state === 'reconnecting' && this.stateValue === 'open') {
      this.setState('reconnecting');
      this.host.changed();
    }
  }

  private onClientEvent(event: ClientEvent): void {
    if (this.closing) return;
    switch (event.type) {
      case 'state':
        if (event.state === 'open') void this.ensureOpen();
        else if (event.state === 'reconnecting') {
          if (this.stateValue === 'open' || this.stateValue === 'connecting') {
            this.setState(this.everOpen ? 'reconnecting' : 'failed');
            this.host.changed();
          }
        } else if (event.state === 'closed') this.sync();
        break;
      case 'reconnecting':
        this.lastErrorValue = causeError(this.name, event.cause);
        if (event.coolDown && !this.coolingDown && this.stateValue === 'reconnecting') {
          this.coolingDown = true;
          this.host.changed();
        }
        // A call waiting for the server looks again at when the next attempt starts.
        this.wake();
        break;
      case 'gaveUp':
        this.lastErrorValue = causeError(this.name, event.cause);
        break;
      case 'reconnected':
        break;
    }
    this.host.clientEvent(this, event);
  }

  /** Opens the live lists the server offers (again, after a reconnect), then the slot is `open`. */
  private ensureOpen(): Promise<void> {
    this.opening ??= this.openLists().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async openLists(): Promise<void> {
    const client = this.clientValue;
    if (client === undefined || this.closing) return;
    const capabilities = client.serverCapabilities ?? {};
    const wanted = CATALOG_KINDS.filter((kind) => capabilities[OFFERED_BY[kind]] !== undefined);
    const opening = wanted.filter((kind) => {
      const current = this.lists.get(kind);
      return current === undefined || this.closedLists.has(current);
    });
    const subscription = this.sharedSubscription(client, opening, opening.length === wanted.length);
    await Promise.all(
      opening.map(async (kind) => {
        try {
          const list = await client.live(kind, {
            onEvent: (event) => this.onListEvent(kind, event),
            ...(subscription !== undefined && { subscription }),
          });
          if (this.closing) {
            await list.close();
            return;
          }
          this.lists.set(kind, list);
          void list.closed.then((info) => {
            this.closedLists.add(list);
            if (this.lists.get(kind) === list && info.reason !== 'closed') this.sync(info.error);
          });
        } catch (error) {
          // A server may offer resources without templates: -32601 means "no such list".
          if (kind === 'resourceTemplates' && error instanceof McpError && error.code === ErrorCode.MethodNotFound)
            return;
          if (this.closing || client.state !== 'open') return;
          this.lastErrorValue = asError(error);
          this.host.onError(this.lastErrorValue, this.name);
        }
      }),
    );
    if (this.closing || client.state !== 'open') {
      this.sync();
      return;
    }
    this.everOpen = true;
    this.coolingDown = false;
    this.lastInstructions = client.instructions;
    if (this.stateValue !== 'open') this.setState('open');
    this.host.changed();
  }

  /**
   * One `subscriptions/listen` stream for every list the slot opens (the combined filter), so
   * a server costs one stream, not one per list. A listen that fails leaves the lists polling.
   */
  private sharedSubscription(
    client: McpClient,
    kinds: readonly CatalogKind[],
    replaces: boolean,
  ): Promise<Subscription> | undefined {
    if (kinds.length === 0) return undefined;
    const filter: SubscriptionFilter = {};
    for (const kind of kinds) filter[LIST_FLAG[kind]] = true;
    const subscription = client.subscribe(filter);
    subscription.catch(() => {}); // each list hears the failure, and polls
    // Lists still open keep hearing the previous stream; once none is left on it, it goes.
    if (replaces) void this.shared?.then((sub) => sub.close()).catch(() => {});
    this.shared = subscription;
    return subscription;
  }

  private onListEvent(kind: CatalogKind, event: LiveListEvent<unknown>): void {
    if (this.closing) return;
    if (event.type === 'updated' && event.changed && this.lists.has(kind)) this.host.changed();
    else if (event.type === 'refreshFailed') this.host.onError(event.error, this.name);
    else if (event.type === 'polling' && !this.pollingSaid) {
      this.pollingSaid = true;
      if (event.error !== undefined) this.lastErrorValue = event.error;
      this.host.polling(this, event, kind);
    }
  }

  private fail(error: unknown): void {
    this.lastErrorValue = asError(error);
    this.setState('failed');
    this.host.changed();
  }

  private setState(state: HostServerState): void {
    const previous = this.stateValue;
    if (previous === state) return;
    this.stateValue = state;
    if (state !== 'reconnecting') this.coolingDown = false;
    this.host.stateChanged(this, previous);
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.stateWaiters]) waiter();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The error a reconnect cause carries, or one made from it. */
function causeError(server: string, cause: ReconnectCause): Error {
  if (cause.error instanceof Error) return cause.error;
  return new ConnectionClosedError(`server ${server}: ${cause.reason}`, {
    reason: cause.reason,
    exitCode: cause.exitCode,
    signal: cause.signal,
    stderrTail: cause.stderrTail,
  });
}
