/**
 * The client of one host server: the host's client defaults under the entry's own options, its
 * transport, the host's one cache store and era memory, and a private-entry partition per
 * configured credentials.
 */
import { McpClient } from '../../client/client.js';
import type { ClientOptions } from '../../client/options.js';
import type { CacheStore } from '../../cache/cacheStore.js';
import type { AuthContext, AuthContextSource } from '../../cache/authContext.js';
import type { EraMemory } from '../../era/era.js';
import type { Transport } from '../../transport/transport.js';
import type { HostClientOptions, HostServerEntry } from './config.js';
import type { Implementation } from '../../wire/protocol.js';
import type { CreateTransport } from './transports.js';

/** What the host lends every client it makes. */
export interface ServerClientContext {
  /** The host's `client` options, under each entry's own. */
  defaults: HostClientOptions;
  /** The host's `clientInfo`, unless the options name one. */
  clientInfo: Implementation;
  createTransport: CreateTransport;
  /** The one store of every server's cache; `false`: no cache. */
  store: CacheStore | false;
  eraMemory: EraMemory;
  /** The host's error sink for this server (after the client options' own `onError`). */
  onError: (error: Error) => void;
  /**
   * The auth context of the user scope a request starts for (`host.forUser`), read when each
   * request starts: the host's shared clients read the scope whose call is starting
   * (`PrincipalWindow.current`), a scope's own clients always answer its principal.
   * `undefined` (the host's own requests) leaves the entry's auth context in force.
   */
  principal?: (() => AuthContext | undefined) | undefined;
}

/**
 * Makes the client of server `name` (not connected). Its cache uses the host's store, with
 * private entries partitioned by the entry's configured credentials (or, with an
 * `authProvider`, by the credential of each request) unless the options declare an auth context; it retries a failed first connection when it can reconnect.
 * @throws what the transport factory or `new McpClient` throws (HostConfigError,
 *   InvalidArgumentError); a transport already made is closed then.
 */
export function makeServerClient(name: string, entry: HostServerEntry, context: ServerClientContext): McpClient {
  const { defaults } = context;
  const own = entry.client ?? {};
  const transport: Transport =
    entry.type === 'custom'
      ? entry.transport()
      : context.createTransport(stripOptions(entry), { server: name, authProvider: entry.authProvider });
  const cacheOption = own.cache ?? defaults.cache;
  let cache: ClientOptions['cache'];
  if (cacheOption === false || context.store === false) cache = false;
  else {
    const declared = cacheOption?.authContext ?? entryAuthContext(entry);
    const authContext = context.principal === undefined ? declared : scopedAuthContext(context.principal, declared);
    cache = {
      ...defaults.cache,
      ...cacheOption,
      store: cacheOption?.store ?? context.store,
      ...(authContext !== undefined && { authContext }),
    };
  }
  const onError = own.onError ?? defaults.onError;
  const options: ClientOptions = {
    ...defaults,
    ...own,
    transport,
    clientInfo: own.clientInfo ?? defaults.clientInfo ?? context.clientInfo,
    cache,
    eraMemory: own.eraMemory ?? context.eraMemory,
    onError: (error) => {
      onError?.(error);
      context.onError(error);
    },
  };
  try {
    return new McpClient(retryingFirstConnect(options));
  } catch (error) {
    void transport.close().catch(() => {});
    throw error;
  }
}

/** The location part of an entry, without the host's own options. */
function stripOptions(entry: Exclude<HostServerEntry, { type: 'custom' }>): Parameters<CreateTransport>[0] {
  const { client: _client, tools: _tools, prefix: _prefix, authProvider: _auth, ...location } = entry;
  return location;
}

/**
 * The auth context of an entry's private cache entries: its configured credentials (stdio
 * `env`, remote `headers`), so that two entries that reach the same server with different
 * credentials never share private entries; neither the env nor the headers ever appear in a
 * key (the cache hashes the context). An entry with an `authProvider` declares none: each of
 * its requests is then partitioned by the credential it is sent with, resolved before the
 * lookup (the provider may serve several users; the credential sent last is another
 * request's, never a partition).
 */
function entryAuthContext(entry: HostServerEntry): AuthContextSource | undefined {
  if (entry.type === 'custom' || entry.authProvider !== undefined) return undefined;
  const configured = entry.type === 'stdio' ? entry.env : entry.headers;
  return `mcp-live/host-entry\u0000${stableJson(configured ?? {})}`;
}

/**
 * The auth context of a client that user scopes share or own: when a request starts for a
 * scope, the scope's principal together with what the entry declares (its configured
 * credentials), so that one user's private entries stay apart per credential too (the user's
 * own token and the app's service token on one URL are two partitions); else what the entry
 * declares alone (read as the cache reads it).
 */
function scopedAuthContext(
  principal: () => AuthContext | undefined,
  declared: AuthContextSource | undefined,
): AuthContextSource {
  return () => {
    const entry = typeof declared === 'function' ? declared() : declared;
    const user = principal();
    if (user === undefined) return entry;
    if (entry === undefined) return user;
    return `mcp-live/scoped\u0000${authContextText(user)}\u0000${authContextText(entry)}`;
  };
}

/** An auth context as one string, its kind first (hashed by the cache before any use). */
function authContextText(context: AuthContext): string {
  return typeof context === 'string' ? `id:${context}` : `credential:${String(context.credential)}`;
}

function stableJson(record: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]]),
  );
}

/**
 * The client options with the first connection retried too (`reconnect.retryFirstConnect`), so
 * that a server that fails to start keeps being tried under the client's reconnect policy.
 * Left as they are when reconnecting is turned off (`reconnect: false`); options that set
 * `retryFirstConnect` themselves keep their choice.
 */
function retryingFirstConnect(options: ClientOptions): ClientOptions {
  const reconnect = options.reconnect;
  if (reconnect === false) return options;
  return { ...options, reconnect: { retryFirstConnect: true, ...reconnect } };
}
