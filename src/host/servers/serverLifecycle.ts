/**
 * The servers of one host from first to last: added (from the options, the configuration or
 * `add`), their clients made, started in parallel (a lazy one listed from its kept tools until
 * its first call), removed, and closed with the host.
 */
import { MemoryCacheStore, type CacheStore } from '../../cache/cacheStore.js';
import type { McpClient } from '../../client/client.js';
import type { EraMemory } from '../../era/era.js';
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
import { loadLazyTools, saveLazyTools } from './lazyCatalog.js';

/** @internal See the module comment. */
export class HostServers {
  private readonly store: CacheStore | false;
  private readonly eraMemory: EraMemory;
  private readonly keptLazy = new WeakMap<ServerSlot, readonly unknown[]>();
  private closing: Promise<void> | undefined;

  constructor(
    private readonly core: HostCore,
    private readonly middleware: HostMiddleware,
  ) {
    this.store = core.options.cacheStore ?? new MemoryCacheStore();
    this.eraMemory = core.options.client?.eraMemory ?? new Map();
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
    await Promise.all([...this.core.slots.values()].map((slot) => this.start(slot, signal)));
    return this.statuses();
  }

  /** `host.add()`: adds a server, and starts it once the host has connected. */
  async addAndStart(name: string, entry: HostServerEntry): Promise<HostServerStatus> {
    if (this.core.closed) throw new ConnectionClosedError('add: the host is closed', { reason: 'host closed' });
    const slot = this.add(name, entry);
    if (this.core.started) await this.start(slot);
    return slot.status();
  }

  /** `host.remove()`: closes one server; its items leave the catalog. */
  async remove(name: string): Promise<void> {
    const slot = this.core.slotNamed(name);
    this.core.slots.delete(name);
    await slot.close();
    this.core.refreshCatalog();
  }

  /** Closes every server, then rebuilds the catalog and ends the events; the same promise each time. */
  close(): Promise<void> {
    this.closing ??= Promise.allSettled([...this.core.slots.values()].map((slot) => slot.close())).then(() => {
      this.core.refreshCatalog();
      this.core.events.end();
    });
    return this.closing;
  }

  /** Every server's status, in host order. */
  statuses(): readonly HostServerStatus[] {
    return [...this.core.slots.values()].map((slot) => slot.status());
  }

  /** Keeps the tool list of every open lazy server in the store, when it changed. */
  keepLazyTools(): void {
    for (const slot of this.core.slots.values()) {
      const entry = slot.entry;
      if (entry?.lazy !== true || slot.state !== 'open') continue;
      const tools = slot.contribution()?.tools;
      if (tools === undefined || this.keptLazy.get(slot) === tools) continue;
      this.keptLazy.set(slot, tools);
      void saveLazyTools(this.store, slot.name, entry, tools, Date.now());
    }
  }

  /**
   * Starts a slot; a lazy one (`lazy: true`) with a kept tool list only lists it, and starts on
   * its first call (`onServer`).
   */
  private async start(slot: ServerSlot, signal?: AbortSignal): Promise<void> {
    const entry = slot.entry;
    if (entry?.lazy === true && slot.state === 'new') {
      const tools = await loadLazyTools(this.store, slot.name, entry, Date.now());
      if (tools !== undefined && !this.core.closed) return slot.listLazily(tools);
    }
    await slot.start(signal);
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
      }),
    );
    return client;
  }
}
