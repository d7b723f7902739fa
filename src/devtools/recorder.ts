/**
 * `DevtoolsRecorder`: what a host is doing, kept as plain data for a devtools view. Attached to
 * an `McpHost` through what the host already offers (`host.on` for its events, `host.use` for
 * one middleware around every request, an `approve` hook wrapper for approvals waiting), it keeps
 * only bounded rings (requests, catalog changes) and a few numbers per server while nobody
 * listens; the servers and the catalog are read from the host when a snapshot is taken, and
 * changes are computed only for listeners. Runtime-neutral: no DOM, no Node API.
 */
import { InvalidArgumentError, isCancelledError } from '../errors/errors.js';
import type { McpHost } from '../host/host.js';
import type { ApproveHook } from '../host/policy/approval.js';
import type { HostEvent } from '../host/servers/hostOptions.js';
import type { CallContext } from '../client/chain.js';
import type { JsonObject } from '../wire/messages.js';
import type { Middleware } from '../client/middleware.js';
import { listCacheEntries } from '../cache/entryListing.js';
import { isCacheableMethod } from '../cache/types.js';
import type { McpClient } from '../client/client.js';
import { systemClock, systemTimers, systemWallClock, type Clock, type Timers, type WallClock } from '../util/clock.js';
import { headOf } from '../util/text.js';
import { ApprovalWaits, type DevtoolsApproveOptions, type PageVerdict } from './approvalWaits.js';
import { cacheEntryId, cacheEntryView, Labels, type Previews } from './cacheView.js';
import { CacheWatch } from './cacheWatch.js';
import { CatalogHistory } from './catalogHistory.js';
import { RingBuffer } from './ringBuffer.js';
import { SubscriptionLog } from './subscriptionLog.js';
import { TaskHistory } from './taskHistory.js';
import type {
  DevtoolsAttempt,
  DevtoolsCacheEntry,
  DevtoolsToolSearch,
  DevtoolsChange,
  DevtoolsError,
  DevtoolsOutcome,
  DevtoolsRequest,
  DevtoolsServer,
  DevtoolsSnapshot,
  DevtoolsSubscription,
} from './snapshot.js';
import { catalogView, errorView, requestTarget, serverView, type ServerNotes } from './views.js';

/** The longest query `searchTools` takes, in characters. */
const MAX_SEARCH_QUERY = 1000;

/** The requests a recorder keeps by default. */
export const DEFAULT_MAX_REQUESTS = 500;
/** The most requests a recorder may be asked to keep. */
const MAX_MAX_REQUESTS = 100_000;
/**
 * The requests that ended in an error kept besides the ring, so that the healthy calls after
 * them do not push the evidence out (the page keeps as many).
 */
export const MAX_FAILED_REQUESTS = 100;
/** The most cache entries shown per server. */
export const MAX_CACHE_ENTRIES = 200;

/** Options of `new DevtoolsRecorder(options)`. */
export interface DevtoolsRecorderOptions {
  /** How many requests the ring keeps, the oldest dropped first; an integer 1–100,000. @default 500 */
  maxRequests?: number | undefined;
  /** The monotonic clock durations are measured with. @default performance.now() */
  clock?: Clock | undefined;
  /** The wall clock of `startedAt`, `since` and `at`. @default Date.now() */
  wallClock?: WallClock | undefined;
  /** The timers the cache entries are read again with while someone listens. @default the globals */
  timers?: Timers | undefined;
}

/** Options of the recorder's actions on the cache. */
export interface DevtoolsActionOptions {
  /** Aborts the action (`CancelledError` -32800). */
  signal?: AbortSignal | undefined;
}

/** One request while the recorder holds it (copied out for a snapshot or a change). */
interface RequestRecord {
  id: number;
  server: string | undefined;
  method: string;
  target: string | undefined;
  startedAt: number;
  /** On the monotonic clock. */
  started: number;
  durationMs: number | undefined;
  outcome: DevtoolsOutcome;
  error: DevtoolsError | undefined;
  bytes: number | undefined;
  attempts: AttemptRecord[];
}

/** One send of a request while the recorder holds it. */
interface AttemptRecord {
  kind: DevtoolsAttempt['kind'];
  offsetMs: number;
  durationMs: number | undefined;
  outcome: DevtoolsAttempt['outcome'];
}

/** The most sends kept per request (a call stuck in rounds keeps its first ones). */
const MAX_ATTEMPTS = 20;

const encoder = new TextEncoder();

/**
 * Keeps a live picture of one `McpHost` for the devtools: its servers (state, era, last error,
 * reconnect attempts, listen or polling, cache counters), its catalog and the last 100 changes of
 * it (what came, left, or changed availability, with the state of the servers involved), the
 * last requests of every server (method, target, start, duration, outcome, bytes), and the tool
 * calls waiting for an approval hook wrapped by {@link approve}.
 *
 * ```ts
 * const recorder = new DevtoolsRecorder();
 * const host = new McpHost({ clientInfo, servers, approve: recorder.approve(askTheUser) });
 * recorder.attach(host);
 * recorder.on((change) => render(change)); // `servers`, `catalog`, `request`, `approvals`
 * const { servers, requests } = recorder.snapshot();
 * ```
 */
export class DevtoolsRecorder {
  private readonly requests: RingBuffer<RequestRecord>;
  /** The last {@link MAX_FAILED_REQUESTS} requests that ended in an error (the same records as in the ring). */
  private readonly failed = new RingBuffer<RequestRecord>(MAX_FAILED_REQUESTS);
  private readonly clock: Clock;
  private readonly wallClock: WallClock;
  private readonly listeners = new Set<(change: DevtoolsChange) => void>();
  private readonly notes = new Map<string, ServerNotes>();
  private readonly approvals: ApprovalWaits;
  private readonly history = new CatalogHistory();
  private readonly labels = new Labels();
  private readonly tasks = new TaskHistory();
  private readonly subscriptionLog: SubscriptionLog;
  private readonly cacheWatch: CacheWatch;
  private attached: McpHost | undefined;
  private detachHost: (() => void) | undefined;
  private lastRequestId = 0;
  /** The cache view's previews of public values, by value. */
  private readonly previews: Previews = new WeakMap();
  /** The servers as last sent by {@link serversIfMoved}. */
  private lastServersText = '';

  /** @throws InvalidArgumentError (-32602) for a `maxRequests` that is not an integer 1–100,000. */
  constructor(options: DevtoolsRecorderOptions = {}) {
    const max = options.maxRequests ?? DEFAULT_MAX_REQUESTS;
    if (!Number.isInteger(max) || max < 1 || max > MAX_MAX_REQUESTS)
      throw new InvalidArgumentError('maxRequests', max, 'expected an integer from 1 to 100000');
    this.requests = new RingBuffer(max);
    this.clock = options.clock ?? systemClock;
    this.wallClock = options.wallClock ?? systemWallClock;
    this.approvals = new ApprovalWaits(this.wallClock, () =>
      this.changed(() => ({ type: 'approvals', approvals: this.approvals.list() })),
    );
    this.subscriptionLog = new SubscriptionLog(
      () => this.wallClock.now(),
      () =>
        this.changed(() => ({
          type: 'subscriptions',
          subscriptions: this.subscriptionList(),
          heard: this.subscriptionLog.list(),
        })),
    );
    this.cacheWatch = new CacheWatch({
      // The servers' cache counters move with every hit, which no event announces: read on the
      // cache's beat too (a new user saw `15 hits` stay on screen while the app hit the cache).
      read: () => {
        this.serversIfMoved();
        return this.readCache();
      },
      changed: (cache) => this.changed(() => ({ type: 'cache', cache })),
      timers: options.timers ?? systemTimers,
    });
  }

  /**
   * Starts recording `host`: one listener (`host.on`) and one middleware (`host.use`, after the
   * middleware added before it; a response the cache answers is no request and is not seen).
   * Returns the function that stops it (also {@link detach}).
   * @throws InvalidArgumentError (-32602) when this recorder is attached already, or `host` is a
   *   user scope (`host.forUser`: its requests pass through its host's middleware; attach that).
   */
  attach(host: McpHost): () => void {
    if (this.attached !== undefined)
      throw new InvalidArgumentError(
        'host',
        'attached',
        'this recorder is attached to a host already: detach it first',
      );
    if (host.principal !== undefined)
      throw new InvalidArgumentError('host', host.principal, 'a user scope: attach the recorder to its host');
    this.history.seed(host.catalog);
    const offEvents = host.on((event) => this.heard(event));
    const offMiddleware = host.use(this.middleware);
    this.attached = host;
    this.watchClients();
    this.detachHost = () => {
      offEvents();
      offMiddleware();
      this.subscriptionLog.stop();
    };
    return () => this.detach();
  }

  /** The host it records, while attached. */
  get host(): McpHost | undefined {
    return this.attached;
  }

  /** How many requests the ring keeps. */
  get maxRequests(): number {
    return this.requests.capacity;
  }

  /** Stops recording: removes the listener and the middleware. What was kept stays readable. Idempotent. */
  detach(): void {
    this.detachHost?.();
    this.detachHost = undefined;
    this.attached = undefined;
  }

  /**
   * An approval hook that shows each call in `approvals` while `hook` decides it, for the
   * `approve` option of the host (or of one server). `hook` is asked exactly as it would be
   * without the recorder; without `hook` every call is allowed, as without an `approve` option.
   * With `options.fromPage`, the page (served with `actions: true`) may answer too, bound to the
   * approval's id and its `argumentsHash`: the first answer wins, the hook's signal aborts when
   * the page answers first; without `hook`, the call waits for the page.
   */
  approve(hook?: ApproveHook, options: DevtoolsApproveOptions = {}): ApproveHook {
    return this.approvals.wrap(hook, options);
  }

  /**
   * Answers a waiting approval (one of `snapshot().approvals`, `answerable`) as its user would:
   * `allow` applies to exactly the arguments `argumentsHash` names; `deny` denies it by the user.
   * @throws InvalidArgumentError (-32602) when no approval by that id waits, it is not
   *   answerable, the hash is not that of its arguments, or `verdict` is neither.
   */
  answerApproval(id: number, argumentsHash: string, verdict: PageVerdict): void {
    this.approvals.answer(id, argumentsHash, verdict);
  }

  /**
   * Drops one cache entry (an `id` of `snapshot().cache`) of `server`'s cache
   * (`ResponseCache.invalidateEntry`: a list page takes its list with it).
   * @returns the number of entries removed.
   * @throws InvalidArgumentError (-32602) when `server` has no cache, or no entry has that id
   *   (gone already); CancelledError (-32800) when `options.signal` aborts.
   */
  async invalidateCacheEntry(server: string, id: string, options: DevtoolsActionOptions = {}): Promise<number> {
    const { client, key } = await this.findEntry(server, id, options.signal);
    const removed = await client.cache!.invalidateEntry(key);
    this.cacheWatch.soon();
    return removed;
  }

  /**
   * Sends again the request that made one cache entry, bypassing the cache (`cacheMode:
   * 'reload'`), through the server's client (and so through the host's middleware): a
   * `resources/read` of its uri, a page of its list, `server/discover`. The host's own live
   * lists are not refreshed by it (they follow `list_changed`). A private entry of another
   * auth context than the host's own is not refetched: its user's requests do that.
   * @returns the method sent.
   * @throws InvalidArgumentError (-32602) as {@link invalidateCacheEntry}, for another user's
   *   private entry, or a method the devtools do not refetch; what the request throws.
   */
  async refetchCacheEntry(server: string, id: string, options: DevtoolsActionOptions = {}): Promise<string> {
    const { client, entry } = await this.findEntry(server, id, options.signal);
    const own = client.cache!.privatePartitionNow() ?? 'private:anonymous';
    if (entry.partition !== 'public' && entry.partition !== own)
      throw new InvalidArgumentError(
        'entry',
        id,
        "a private entry of another user: only that user's requests refetch it",
      );
    const call = { cacheMode: 'reload' as const, signal: options.signal };
    const { method, param } = entry;
    const page = param === null ? {} : { cursor: param };
    if (method === 'resources/read' && param !== null) await client.readResource(param, call);
    else if (method === 'server/discover') await client.discover(call);
    else if (method === 'tools/list') await client.listTools(page, call);
    else if (method === 'prompts/list') await client.listPrompts(page, call);
    else if (method === 'resources/list') await client.listResources(page, call);
    else if (method === 'resources/templates/list') await client.listResourceTemplates(page, call);
    else throw new InvalidArgumentError('entry', id, `the devtools do not refetch ${method}`);
    this.cacheWatch.soon();
    return method;
  }

  /**
   * {@link snapshot} with every server's cache entries read now (at most
   * {@link MAX_CACHE_ENTRIES} per server): what a new viewer starts from.
   * @throws CancelledError (-32800) when `options.signal` aborts.
   */
  async readSnapshot(options: DevtoolsActionOptions = {}): Promise<DevtoolsSnapshot> {
    const cache = await this.readCache(options.signal);
    this.cacheWatch.take(cache);
    return { ...this.snapshot(), cache };
  }

  /**
   * Adds a listener for every change; returns the function that removes it. While there is a
   * listener, each change is computed and delivered synchronously, and request results are
   * measured (`bytes`); a listener that throws is skipped for that change.
   */
  on(listener: (change: DevtoolsChange) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    const registration = (change: DevtoolsChange): void => listener(change);
    this.listeners.add(registration);
    this.cacheWatch.start();
    return () => {
      this.listeners.delete(registration);
      if (this.listeners.size === 0) this.cacheWatch.stop();
    };
  }

  /**
   * Ranks the host's model-visible tools for `query` as the model's tool search does
   * (`host.searchTools`), for the catalog view's "try a query". Reads only; nothing is recorded.
   * Not attached: no matches, `reason` `not attached`.
   * @param options.limit the most matches, 1–100 (default 10).
   * @throws InvalidArgumentError (-32602) for a `query` that is not a string or is over 1,000
   *   characters, or a `limit` outside 1–100.
   */
  searchTools(query: string, options: { limit?: number | undefined } = {}): DevtoolsToolSearch {
    if (typeof query !== 'string') throw new InvalidArgumentError('query', query, 'expected a string');
    if (query.length > MAX_SEARCH_QUERY)
      throw new InvalidArgumentError('query', headOf(query, 40), `expected at most ${MAX_SEARCH_QUERY} characters`);
    const shown = headOf(query, 200);
    const host = this.attached;
    if (host === undefined) return { query: shown, matches: [], reason: 'not attached', missing: [] };
    const found = host.searchTools(query, { limit: options.limit });
    return {
      query: shown,
      matches: found.matches.map(({ tool, score }) => ({
        exposedName: tool.exposedName,
        server: tool.server,
        name: tool.tool.name,
        score: Math.round(score * 1000) / 1000,
      })),
      reason: found.reason,
      missing: [...(found.missing ?? [])],
    };
  }

  /**
   * Everything at this moment: servers and catalog read from the host now, the kept requests,
   * the approvals waiting, and the cache entries as last read for listeners (empty while nobody
   * listens: {@link readSnapshot} reads them now).
   */
  snapshot(): DevtoolsSnapshot {
    return {
      at: this.wallClock.now(),
      servers: this.serverList(),
      catalog:
        this.attached === undefined ? { items: [], leftOut: [], collisions: [] } : catalogView(this.attached.catalog),
      catalogChanges: this.history.list(),
      requests: this.keptRequests().map(copyRequest),
      approvals: this.approvals.list(),
      cache: this.cacheWatch.latest,
      tasks: this.tasks.list(),
      subscriptions: this.subscriptionList(),
      heard: this.subscriptionLog.list(),
    };
  }

  /** The wall clock's reading, as a function (read only when needed). */
  private readonly now = (): number => this.wallClock.now();

  private readonly middleware: Middleware = async (ctx, next) => {
    const record: RequestRecord = {
      id: ++this.lastRequestId,
      server: ctx.serverName,
      method: ctx.method,
      target: requestTarget(ctx.params),
      startedAt: this.wallClock.now(),
      started: this.clock.now(),
      durationMs: undefined,
      outcome: 'pending',
      error: undefined,
      bytes: undefined,
      attempts: [],
    };
    // Each send of the request (the caller's: rounds and sends after a reconnect included).
    if ('onAttempt' in ctx) (ctx as CallContext).onAttempt = (round) => this.attempt(record, round);
    this.requests.push(record);
    this.changed(() => ({ type: 'request', request: copyRequest(record) }));
    try {
      const result = await next();
      // Kept while no one listens too (bounded; one comparison for a result that is no task's).
      if (this.tasks.heard(ctx.serverName, ctx.method, ctx.params, result, this.now))
        this.changed(() => ({ type: 'tasks', tasks: this.tasks.list() }));
      this.ended(record, 'ok', undefined, result);
      return result;
    } catch (error) {
      this.ended(record, isCancelledError(error) ? 'cancelled' : 'error', error, undefined);
      throw error;
    }
  };

  /** The ring, and the failed requests it no longer holds, oldest first. */
  private keptRequests(): RequestRecord[] {
    const ring = this.requests.toArray();
    const first = ring[0]?.id ?? Infinity;
    const older = this.failed.toArray().filter((record) => record.id < first);
    return older.length === 0 ? ring : [...older, ...ring];
  }

  /** One send of `record` starts; returns what hears its answer (`undefined` past {@link MAX_ATTEMPTS}). */
  private attempt(record: RequestRecord, round: boolean): ((result: JsonObject | undefined) => void) | undefined {
    if (record.attempts.length >= MAX_ATTEMPTS) return undefined;
    const sent = this.clock.now();
    const attempt: AttemptRecord = {
      kind: round ? 'round' : record.attempts.length === 0 ? 'first' : 'resend',
      offsetMs: sent - record.started,
      durationMs: undefined,
      outcome: 'pending',
    };
    record.attempts.push(attempt);
    return (result) => {
      attempt.durationMs = this.clock.now() - sent;
      attempt.outcome =
        result === undefined ? 'error' : result['resultType'] === 'input_required' ? 'input_required' : 'result';
      // The request's own end carries its last send; a server asking for input is news while the call runs.
      if (attempt.outcome === 'input_required' && record.outcome === 'pending')
        this.changed(() => ({ type: 'request', request: copyRequest(record) }));
    };
  }

  private ended(record: RequestRecord, outcome: DevtoolsOutcome, error: unknown, result: unknown): void {
    record.durationMs = this.clock.now() - record.started;
    record.outcome = outcome;
    record.error = errorView(error);
    if (outcome === 'error') this.failed.push(record);
    if (this.listeners.size === 0) return;
    if (isCacheableMethod(record.method)) this.cacheWatch.soon();
    if (result !== undefined) record.bytes = encoder.encode(JSON.stringify(result)).length;
    this.changed(() => ({ type: 'request', request: copyRequest(record) }));
  }

  private heard(event: HostEvent): void {
    // A client is made when its server connects: watch its subscriptions from its first event on.
    if (event.type === 'state' || event.type === 'client') this.watchClients();
    switch (event.type) {
      case 'state':
        if (event.state === 'open') this.notesOf(event.server).reconnect = undefined;
        break;
      case 'client': {
        const notes = this.notesOf(event.server);
        const heard = event.event;
        if (heard.type === 'reconnecting') {
          notes.reconnectAttempts++;
          notes.reconnect = {
            attempt: heard.attempt,
            retryAt: heard.retryAt,
            delayMs: heard.delayMs,
            coolDown: heard.coolDown,
            cause: heard.cause.reason,
          };
        } else if (heard.type === 'reconnected') notes.reconnect = undefined;
        break;
      }
      case 'polling':
        this.notesOf(event.server).polling = { reason: event.reason, intervalMs: event.intervalMs };
        break;
      case 'refused': {
        // Kept while no one listens too, as a failed request: what a count of server errors misses.
        const server = event.error.data.server;
        const record: RequestRecord = {
          id: ++this.lastRequestId,
          server: typeof server === 'string' ? server : undefined,
          method: event.method,
          target: event.target,
          startedAt: this.wallClock.now(),
          started: this.clock.now(),
          durationMs: 0,
          outcome: 'refused',
          error: errorView(event.error),
          bytes: undefined,
          attempts: [],
        };
        this.requests.push(record);
        this.failed.push(record);
        this.changed(() => ({ type: 'request', request: copyRequest(record) }));
        break;
      }
      case 'catalog': {
        // Kept while no one listens too (bounded, once per catalog event): the history is what
        // explains, later, why an item left.
        const host = this.attached!;
        this.history.heard(host.catalog, host.servers, this.wallClock.now());
        this.changed(() => ({
          type: 'catalog',
          catalog: catalogView(host.catalog),
          catalogChanges: this.history.list(),
        }));
        return;
      }
      default:
        return;
    }
    this.changed(() => ({ type: 'servers', servers: this.serverList() }));
  }

  private notesOf(server: string): ServerNotes {
    let notes = this.notes.get(server);
    if (notes === undefined) this.notes.set(server, (notes = { reconnectAttempts: 0 }));
    return notes;
  }

  /** Delivers the change `make` computes, computed only when someone listens. */
  /** A `servers` change when the servers read now differ from the last ones sent (their cache counters, mostly). */
  private serversIfMoved(): void {
    if (this.listeners.size === 0) return;
    const servers = this.serverList();
    const text = JSON.stringify(servers);
    if (text === this.lastServersText) return;
    this.lastServersText = text;
    this.changed(() => ({ type: 'servers', servers }));
  }

  private changed(make: () => DevtoolsChange): void {
    if (this.listeners.size === 0 || this.attached === undefined) return;
    const change = make();
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // A viewer's failure is the viewer's: the host and the other viewers go on.
      }
    }
  }

  private serverList(): DevtoolsServer[] {
    const host = this.attached;
    if (host === undefined) return [];
    return host.servers.map((status) => {
      const client = host.client(status.name);
      return serverView(
        status,
        this.notes.get(status.name),
        client === undefined ? undefined : { capabilities: client.serverCapabilities, cache: client.cache?.stats() },
      );
    });
  }

  /** Watches the subscriptions of every client of the host not watched yet (a server added, a client made). */
  private watchClients(): void {
    const host = this.attached;
    if (host === undefined) return;
    for (const { name } of host.servers) {
      const client = host.client(name);
      if (client !== undefined) this.subscriptionLog.watch(name, client);
    }
  }

  private subscriptionList(): DevtoolsSubscription[] {
    const host = this.attached;
    if (host === undefined) return [];
    return host.servers.flatMap(({ name }) => {
      const client = host.client(name);
      return client === undefined ? [] : this.subscriptionLog.openOf(name, client);
    });
  }

  /** Every server's cache entries, read now. */
  private async readCache(signal?: AbortSignal): Promise<DevtoolsCacheEntry[]> {
    const host = this.attached;
    if (host === undefined) return [];
    const out: DevtoolsCacheEntry[] = [];
    for (const { name } of host.servers) {
      const cache = host.client(name)?.cache;
      if (cache === undefined) continue;
      let own: string | undefined;
      try {
        own = cache.privatePartitionNow();
      } catch {
        own = undefined; // an auth context the cache refuses: no entry is the host's own then
      }
      const entries = await listCacheEntries(cache, { limit: MAX_CACHE_ENTRIES, signal, wallClock: this.wallClock });
      for (const entry of entries) out.push(cacheEntryView(name, entry, own, this.labels, this.previews));
    }
    return out;
  }

  /** The client of `server` and its entry by the page's id. */
  private async findEntry(server: string, id: string, signal: AbortSignal | undefined) {
    const client: McpClient | undefined = typeof server === 'string' ? this.attached?.client(server) : undefined;
    if (client?.cache === undefined)
      throw new InvalidArgumentError('server', server, 'no server with a cache by that name');
    const entries = await listCacheEntries(client.cache, {
      limit: MAX_CACHE_ENTRIES,
      signal,
      wallClock: this.wallClock,
    });
    const entry = entries.find((e) => cacheEntryId(server, e.key, this.labels) === id);
    if (entry === undefined) throw new InvalidArgumentError('entry', id, 'no cache entry by that id (gone?)');
    return { client, entry, key: entry.key };
  }
}

function copyRequest(record: RequestRecord): DevtoolsRequest {
  const { started: _started, attempts, ...request } = record;
  return { ...request, attempts: attempts.map((attempt) => ({ ...attempt })) };
}
