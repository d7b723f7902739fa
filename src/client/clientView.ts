/**
 * What an `McpClient` knows of its connection and its server: the state and its events, the
 * negotiated version and era, what discovery said, the cache and its counters. Read-only; the
 * verbs are in the subclasses (`clientLists.ts`, `client.ts`).
 */
import type { JsonObject } from '../wire/messages.js';
import type { ResponseCache } from '../cache/responseCache.js';
import type { CacheStats } from '../cache/types.js';
import { MetaKey, type DiscoverResult, type Implementation, type ServerCapabilities } from '../wire/protocol.js';
import type { Era, EraVerdict } from '../era/era.js';
import type { ClientEvent, ClientState } from '../reconnect/types.js';
import type { ClientParts } from './assembly.js';

/** Each client's parts, for {@link partsOf}. */
const PARTS = new WeakMap<ClientView, ClientParts>();

/** @internal The base of `McpClient`: its state, as the getters below give it. */
export abstract class ClientView {
  /** @internal The collaborators the client delegates to (`assembly.ts`). */
  protected readonly parts: ClientParts;

  protected constructor(parts: ClientParts) {
    this.parts = parts;
    PARTS.set(this, parts);
  }

  /**
   * `new` → `connecting` → `open` → (`reconnecting` → `open`)* → `closed`. `reconnecting` while
   * the client makes a new connection after a drop (requests made then wait for it); `closed`
   * is for good. See {@link on} for the events.
   */
  get state(): ClientState {
    return this.parts.connection.state;
  }

  /**
   * While `reconnecting`: when the next attempt starts, in ms since the epoch (wall clock); in
   * the past while that attempt runs. A five-minute cool-down shows here (and in the
   * `reconnecting` event's `retryAt` and `coolDown`). `undefined` in every other state.
   */
  get retryAt(): number | undefined {
    return this.parts.connection.retryAt;
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
    return this.parts.connection.on(listener);
  }

  /** The protocol version in use, once connected: `2026-07-28`, or the legacy version `initialize` negotiated. */
  get protocolVersion(): string | undefined {
    return this.parts.binding.protocolVersion;
  }

  /** The era the server speaks (`modern` or `legacy`), once connected. */
  get era(): Era | undefined {
    return this.parts.binding.era;
  }

  /**
   * What era detection settled on, once connected, as `eraMemory` keeps it: `modern`,
   * `legacy`, or `legacy-sse` when the server was reached over the deprecated HTTP+SSE
   * transport (2024-11-05), the last fallback over HTTP (docs/legacy.md). Its `era` is `legacy`.
   */
  get eraVerdict(): EraVerdict | undefined {
    return this.parts.binding.verdict;
  }

  /**
   * The `server/discover` result kept from `connect()` (or the last `discover()`). On the
   * legacy wire it is built from the InitializeResult (`supportedVersions` is the negotiated
   * version; see {@link initializeResult} for the original).
   */
  get serverDiscovery(): DiscoverResult | undefined {
    return this.parts.binding.discovery;
  }

  /** The InitializeResult exactly as received, on the legacy wire; `undefined` on the modern one. */
  get initializeResult(): JsonObject | undefined {
    return this.parts.binding.initializeResult;
  }

  /** The server's capabilities, from discovery (modern) or the InitializeResult (legacy). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.parts.binding.discovery?.capabilities;
  }

  /** The server's self-reported identity (`_meta["io.modelcontextprotocol/serverInfo"]`, legacy `serverInfo`); display only. */
  get serverInfo(): Implementation | undefined {
    return this.parts.binding.discovery?._meta?.[MetaKey.serverInfo];
  }

  /** The server's `instructions` for models, if it sent any. */
  get instructions(): string | undefined {
    return this.parts.binding.discovery?.instructions;
  }

  /** Who the server is as this client knows it (the transport's command line or URL). */
  get serverIdentity(): string {
    return this.parts.options.transport.serverIdentity;
  }

  /**
   * The response cache (spec: server/utilities/caching), or `undefined` when `cache: false`.
   * Use it to read counters (`stats()`) or drop entries (`invalidateUri`, `invalidateList`,
   * `invalidateMethod`, `invalidateAll`).
   */
  get cache(): ResponseCache | undefined {
    return this.parts.responseCache;
  }

  /** Cache counters: hits, misses, staleServes, evictions, stores, invalidations. All 0 without a cache. */
  cacheStats(): CacheStats {
    return (
      this.parts.responseCache?.stats() ?? {
        hits: 0,
        misses: 0,
        staleServes: 0,
        evictions: 0,
        stores: 0,
        invalidations: 0,
      }
    );
  }
}

/**
 * @internal The parts of `client`, for the features a program opts into by import
 * (`readTemplate`, `readAppResource`...), which are functions of the client, not its methods.
 */
export function partsOf(client: ClientView): ClientParts {
  return PARTS.get(client) as ClientParts;
}
