/**
 * One user's scope of a host (`host.forUser`): a core of its own over the host's servers. A
 * server without per-user credentials is the host's slot, borrowed (its one client and
 * connection; the scope's calls carry the scope's approval and start in the host's principal
 * window, so its private cache entries are the user's); a server the user has credentials for
 * (or that is `perUser`) is a slot of the scope's own, made with the user's entry and closed
 * with the scope. The scope follows the host's servers as they come and go.
 */
import type { McpHostOptions } from '../servers/hostOptions.js';
import type { HostCore } from '../servers/hostCore.js';
import type { HostServers } from '../servers/serverLifecycle.js';
import type { HostMiddleware } from '../policy/hostMiddleware.js';
import type { ServerSlot } from '../servers/serverSlot.js';
import { userEntry, type HostScopeOptions } from './scopeOptions.js';

/** What a scope's assembly borrows from its host. */
export interface ScopeSeed {
  readonly principal: string;
  readonly options: HostScopeOptions;
  readonly host: { readonly core: HostCore; readonly servers: HostServers; readonly middleware: HostMiddleware };
}

/** Seeds by the options object of the scope being made (read once by its constructor). */
const seeds = new WeakMap<McpHostOptions, ScopeSeed>();

/**
 * The options of the `McpHost` that is `seed`'s scope, and the seed planted for its
 * constructor ({@link takeScopeSeed}).
 */
export function scopeHostOptions(seed: ScopeSeed): McpHostOptions {
  const { servers: _servers, views: _views, ...host } = seed.host.core.options;
  const options: McpHostOptions = {
    ...host,
    ...(seed.options.views !== undefined && { views: seed.options.views }),
    ...(seed.options.approve !== undefined && { approve: seed.options.approve }),
    ...(seed.options.approvalTimeoutMs !== undefined && { approvalTimeoutMs: seed.options.approvalTimeoutMs }),
  };
  seeds.set(options, seed);
  return options;
}

/** The seed planted for `options`, once: a host made from them is a scope. */
export function takeScopeSeed(options: McpHostOptions): ScopeSeed | undefined {
  const seed = seeds.get(options);
  seeds.delete(options);
  return seed;
}

/** Marks `core` as the scope's: its principal, its cache partition, its approval; the host's window. */
export function scopeCore(core: HostCore, seed: ScopeSeed): void {
  core.window = seed.host.core.window;
  const authContext = seed.options.authContext ?? seed.principal;
  core.scope = Object.freeze({
    principal: seed.principal,
    authContext,
    gate: Object.freeze({
      approve: seed.options.approve,
      approvalTimeoutMs: seed.options.approvalTimeoutMs,
      user: authContext,
      closed: core.closing.signal,
    }),
  });
}

/**
 * Lists the host's servers in the scope (see the module comment) and keeps them in line with
 * the host's; the host's events of borrowed servers are the scope's too. Returns the function
 * that stops following the host.
 */
export function followHost(core: HostCore, servers: HostServers, seed: ScopeSeed): () => void {
  const host = seed.host.core;
  const credentials = seed.options.credentials ?? {};
  const own = (slot: ServerSlot): boolean =>
    slot.entry !== undefined && (slot.entry.perUser === true || Object.hasOwn(credentials, slot.name));
  const sync = (): void => {
    // A per-user server the scope has no slot of yet (the first sync, or one the host added).
    for (const slot of host.slots.values())
      if (own(slot) && !servers.owns(slot.name) && !core.closed)
        void servers
          .addAndStart(slot.name, userEntry(slot.entry!, credentials[slot.name]))
          .catch((error: unknown) => core.report(error instanceof Error ? error : new Error(String(error)), slot.name));
    servers.borrow(host.slots.values(), own);
    core.refreshCatalog();
  };
  sync();
  return host.events.on((event) => {
    if (event.type === 'state' || event.type === 'client' || event.type === 'polling') {
      const slot = host.slots.get(event.server);
      if (slot !== undefined && core.slots.get(event.server) === slot) core.events.emit(event);
    }
    if (event.type === 'catalog' || event.type === 'state') sync();
  });
}
