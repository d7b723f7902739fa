/**
 * The servers of one host from first to last: added (from the options, the configuration or
 * `add`), their clients made, started in parallel (a lazy one listed from its kept tools until
 * its first call), removed, and closed with the host.
 */
import { MemoryCacheStore, type CacheStore } from '../../cache/cacheStore.js';
import type { McpClient } from '../../client/client.js';
import type { EraMemory } from '../../era/era.js';
import type { AuthContext } from '../../cache/authContext.js';
import { ConnectionClosedError, InvalidArgumentError } from '../../errors/errors.js';
import type { HostServerEntry, HostServerOptions, HostConfig } from './config.js';
import type { HostCore } from './hostCore.js';
import { checkEntry } from './hostOptions.js';
import type { HostMiddleware } from '../policy/hostMiddleware.js';
import { toolGate } from '../policy/toolGate.js';
import { timeOf } from './serverCalls.js';
import { makeServerClient } from './serverClient.js';
import { ServerSlot, type HostServerStatus } from './serverSlot.js';
import { fetchTransport } from './transports.js';
import { loadLazyTools, saveLazyTools, type LazyToolsPlace } from './lazyCatalog.js';
import { statePartition } from '../state/stateStore.js';

/** @internal See the module comment. */
export class HostServers {
  /** The one store of every server's cache (a user scope's servers use their host's). */
  readonly store: CacheStore | false;
  /** What era each server spoke (a user scope's servers share their host's). */
  readonly eraMemory: EraMemory;
  private readonly keptLazy = new WeakMap<ServerSlot, readonly unknown[]>();
  /** Slots of the host a user scope lists and calls but never starts or closes. */
  private readonly borrowed = new WeakSet<ServerSlot>();
  private closing: Promise<void> | undefined;

  constructor(
    private readonly core: HostCore,
    private readonly middleware: HostMiddleware,
    shared: { store: CacheStore | false; eraMemory: EraMemory } | undefined = undefined,
  ) {
    this.store = shared?.store ?? core.options.cacheStore ?? new MemoryCacheStore();
    this.eraMemory = shared?.eraMemory ?? core.options.client?.eraMemory ?? new Map();
  }

  /**
   * Lists a host's servers in a user scope's core, in the host's order: the scope's own slot
   * where it has one by that name, else the host's slot, borrowed (the scope calls it but never
   * starts, removes or closes it), unless `perUser` says it is one the scope must make its own;
   * the scope's other own slots after them.
   */
  borrow(hostSlots: Iterable<ServerSlot>, perUser: (slot: ServerSlot) => boolean): void {
    const own = this.ownSlots();
    const ownByName = new Map(own.map((slot) => [slot.name, slot]));
    this.core.slots.clear();
    for (const slot of hostSlots) {
      const mine = ownByName.get(slot.name);
      if (mine !== undefined) this.core.slots.set(slot.name, mine);
      else if (!perUser(slot)) {
        this.borrowed.add(slot);
        this.core.slots.set(slot.name, slot);
      }
    }
    for (const slot of own) if (!this.core.slots.has(slot.name)) this.core.slots.set(slot.name, slot);
  }

  /** Whether `name` is a slot this core made (not one borrowed from its host). */
  owns(name: string): boolean {
    const slot = this.core.slots.get(name);
    return slot !== undefined && !this.borrowed.has(slot);
  }

  /**
   * Adds a server (not started); `initial` lists a configuration's disabled or malformed entry.
   * @throws InvalidArgumentError (-32602) for an empty or taken name or a malformed entry.
   */
  add(
    name: string,
    entry: HostServerEntry | undefined,
    initial: { state: 'disabled' | 'failed'; error?: Error } | undefined = undefined,
  ): ServerSlot {
    const core = this.core;
    if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('name', name, 'expected a server name');
    if (core.slots.has(name))
      throw new InvalidArgumentError('name', name, 'a server by that name is already in the host');
    if (entry !== undefined) checkEntry(name, entry);
    const slot = new ServerSlot(
      name,
      entry,
      {
        makeClient: (s) => this.makeClient(s),
        changed: () => core.refreshCatalog(),
        stateChanged: (s, previous) =>
          core.events.emit({
            type: 'state',
            server: s.name,
            state: s.state,
            previous,
            ...(s.state === 'failed' && { error: s.status().lastError }),
          }),
        clientEvent: (s, event) => core.events.emit({ type: 'client', server: s.name, event }),
        polling: (s, event, kind) =>
          core.events.emit({
            type: 'polling',
            server: s.name,
            kind,
            reason: event.reason,
            ...(event.error !== undefined && { error: event.error }),
            intervalMs: event.intervalMs,
          }),
        onError: (error, server) => core.report(error, server),
      },
      initial ?? { state: 'new' },
    );
    core.slots.set(name, slot);
    return slot;
  }

  /** Adds a configuration's servers in its order: entries (with their per-server options), disabled, malformed. */
  addConfigured(parsed: HostConfig, perServer: Readonly<Record<string, HostServerOptions>> | undefined): void {
    const errors = new Map(parsed.errors.map((error) => [error.data.server, error]));
    const disabled = new Set(parsed.disabled);
    for (const name of parsed.names) {
      const entry = Object.hasOwn(parsed.servers, name) ? parsed.servers[name] : undefined;
      const error = errors.get(name);
      if (entry !== undefined) this.add(name, { ...entry, ...perServer?.[name] });
      else if (disabled.has(name)) this.add(name, undefined, { state: 'disabled' });
      else if (error !== undefined) this.add(name, undefined, { state: 'failed', error });
    }
  }

  /** `host.connect()`: every server not yet started, in parallel; resolves when all have settled. */
  async connect(signal: AbortSignal | undefined): Promise<readonly HostServerStatus[]> {
    if (this.core.closed) throw new ConnectionClosedError('connect: the host is closed', { reason: 'host closed' });
    this.core.started = true;
    // A per-user server is connected by each user scope, never by the host itself.
    const starting = this.ownSlots().filter((slot) => this.core.scope !== undefined || slot.entry?.perUser !== true);
    await Promise.all(starting.map((slot) => this.start(slot, signal)));
    return this.statuses();
  }

  /** `host.add()`: adds a server, and starts it once the host has connected. */
  async addAndStart(name: string, entry: HostServerEntry): Promise<HostServerStatus> {
    if (this.core.closed) throw new ConnectionClosedError('add: the host is closed', { reason: 'host closed' });
    const slot = this.add(name, entry);
    if (this.core.started && (this.core.scope !== undefined || entry.perUser !== true)) await this.start(slot);
    return slot.status();
  }

  /** `host.remove()`: closes one server; its items leave the catalog. */
  async remove(name: string): Promise<void> {
    const slot = this.core.slotNamed(name);
    this.core.slots.delete(name);
    if (!this.borrowed.has(slot)) await slot.close();
    this.core.refreshCatalog();
  }

  /** Closes every server, then rebuilds the catalog and ends the events; the same promise each time. */
  close(): Promise<void> {
    this.closing ??= Promise.allSettled(this.ownSlots().map((slot) => slot.close())).then(() => {
      this.core.refreshCatalog();
      this.core.events.end();
    });
    return this.closing;
  }

  /** Every server's status, in host order. */
  statuses(): readonly HostServerStatus[] {
    return [...this.core.slots.values()].map((slot) => slot.status());
  }

  /** The slots this host (or scope) made: every one but those borrowed from its host. */
  private ownSlots(): ServerSlot[] {
    return [...this.core.slots.values()].filter((slot) => !this.borrowed.has(slot));
  }

  /** Where this core's lazy servers' lists are kept: the state store (this core's partition) when the host has one. */
  private lazyPlace(): LazyToolsPlace {
    const state = this.core.options.state;
    return {
      cache: this.store,
      state: state && { store: state, partition: statePartition(this.core.scope?.authContext) },
    };
  }

  /** Keeps the tool list of every open lazy server in the store, when it changed. */
  keepLazyTools(): void {
    for (const slot of this.ownSlots()) {
      const entry = slot.entry;
      if (entry?.lazy !== true || slot.state !== 'open') continue;
      const tools = slot.contribution()?.tools;
      if (tools === undefined || this.keptLazy.get(slot) === tools) continue;
      this.keptLazy.set(slot, tools);
      void saveLazyTools(this.lazyPlace(), slot.name, entry, tools, Date.now());
    }
  }

  /**
   * Starts a slot; a lazy one (`lazy: true`) with a kept tool list only lists it, and starts on
   * its first call (`onServer`).
   */
  private async start(slot: ServerSlot, signal?: AbortSignal): Promise<void> {
    const entry = slot.entry;
    if (entry?.lazy === true && slot.state === 'new') {
      const tools = await loadLazyTools(this.lazyPlace(), slot.name, entry, Date.now());
      if (tools !== undefined && !this.core.closed) return slot.listLazily(tools);
    }
    await slot.start(signal);
  }

  /**
   * Whose private cache entries a request of this core's clients reads and writes: a scope's
   * own clients always its principal; the host's the scope whose call starts (its window).
   */
  private principalOf(): () => AuthContext | undefined {
    const scope = this.core.scope;
    if (scope !== undefined) return () => scope.authContext;
    const window = this.core.window;
    return () => window.current;
  }

  /** The client of one server (see `serverClient.ts`), with the host's middleware on it. */
  private makeClient(slot: ServerSlot): McpClient {
    const options = this.core.options;
    const client = makeServerClient(slot.name, slot.entry as HostServerEntry, {
      defaults: options.apps === undefined ? (options.client ?? {}) : { apps: options.apps, ...options.client },
      clientInfo: options.clientInfo,
      createTransport: options.createTransport ?? fetchTransport,
      store: this.store,
      eraMemory: this.eraMemory,
      onError: (error) => this.core.report(error, slot.name),
      principal: this.principalOf(),
    });
    const core = this.core;
    this.middleware.install(
      client,
      slot.name,
      toolGate(slot.name, {
        options,
        entry: () => slot.entry,
        listed: (name) => core.catalog.tools.find((t) => t.server === slot.name && t.tool.name === name),
        time: () => timeOf(core, slot),
        closed: core.closing.signal,
      }),
    );
    return client;
  }
}
