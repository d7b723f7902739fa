/**
 * The client's cacheable reads: `server/discover`, list pages and `resources/read` go through
 * the response cache when there is one (what the check returns is what gets stored), and whole
 * lists are walked page by page through the cache's list walk, each page checked (malformed
 * items reported and dropped; tools whose `x-mcp-header` annotation breaks the rules left out).
 * `resources/read` is served here end to end: a fresh cache entry answered synchronously (no
 * request object, no loader, no async frame), else through the cache's fetch; a server's "not
 * found" classified as `ResourceNotFoundError` and the URI dropped from the cache.
 */
import type { ResponseCache } from '../cache/responseCache.js';
import type { CacheSource } from '../cache/types.js';
import { ConnectionClosedError, InvalidArgumentError, ResourceNotFoundError, RpcError } from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import type { JsonObject } from '../wire/messages.js';
import type { CallScope, Observer } from '../observability/observer.lazy.js';
import type { RequestCredential } from '../transport/transport.js';
import {
  listAll,
  pageFromResult,
  type FetchPage,
  type ListAllResult,
  type PaginateOptions,
} from '../pagination/paginate.js';
import type { Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool } from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { Caller } from './caller.js';
import type { CallInternals } from './chain.js';
import type { ToolOutputValidators } from './outputValidation.js';
import { checkListPage, checkRead } from '../wire/results.js';
import { copyWith } from '../util/copyWith.js';
import { thenMaybe } from '../util/maybePromise.js';

/** `{ cursor }` for one page of a list. Omit `cursor` for the first page; `""` is a valid cursor. */
export interface PageParams {
  cursor?: string | undefined;
}

/** The four paginated list methods (spec: server/utilities/pagination). */
export type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

/** The item type of each list method. */
export interface ListItemTypes {
  'tools/list': Tool;
  'prompts/list': Prompt;
  'resources/list': Resource;
  'resources/templates/list': ResourceTemplate;
}

/**
 * Options of a whole-list walk: the {@link CallOptions} of every page request, plus the walk's
 * own. `signal` cancels the whole walk; timeouts apply to each page request on its own.
 */
export interface WalkOptions extends CallOptions {
  /** The most page requests the walk sends, restarts included. @default 1000 */
  maxPages?: number | undefined;
}

/** What {@link CachedReads} works with: the client's caller, checks and state. */
export interface ReadsDeps {
  readonly caller: Caller;
  readonly observer: Observer | undefined;
  readonly outputValidators: ToolOutputValidators;
  /** Told of each tools/list page the server sent (the 2025-11-25 tasks learn `execution.taskSupport`). */
  readonly toolsListed?: ((tools: readonly Tool[]) => void) | undefined;
  readonly onError: (error: Error) => void;
  /** True once the client is closed: it answers nothing, not even from the cache. */
  closed(): boolean;
  /** True while the connection is open: only then does a fresh entry answer without the caller. */
  open(): boolean;
  /** Gives a checked result of `method` the freshness hints of its era (legacy results get `legacyTtlMs`). */
  freshness(method: string, result: JsonObject): JsonObject;
}

/** The client's cacheable reads and list walks (see the file's opening comment). */
export class CachedReads {
  constructor(
    private readonly host: ReadsDeps,
    private readonly cache: ResponseCache | undefined,
  ) {}

  /** `McpClient.readResource` (see its doc comment for what it resolves with and throws). */
  readResource(uri: string, options: CallOptions | undefined): Promise<ReadResourceResult> {
    // 'default' is the unset mode, and 'force-cache' serves a fresh entry as it does; the other modes skip it.
    const cache = this.cache;
    if (
      cache !== undefined &&
      (options === undefined ||
        (options.signal === undefined &&
          (options.cacheMode === undefined ||
            options.cacheMode === 'default' ||
            options.cacheMode === 'force-cache'))) &&
      typeof uri === 'string' &&
      uri !== '' &&
      this.host.open()
    ) {
      const hit = cache.peekFresh('resources/read', uri, this.host.caller.cacheVersion(options));
      if (hit !== undefined) {
        const observer = this.host.observer;
        if (observer !== undefined)
          observer.start('resources/read', { uri }, this.host.caller.protocolVersion).servedFromCache(hit);
        return Promise.resolve(hit as ReadResourceResult);
      }
    }
    return this.readFromServer(uri, options ?? {});
  }

  /** A `resources/read` through the cache that says where its result came from (the Skills extension's verified reads). */
  async readWithSource(
    uri: string,
    options: CallOptions,
  ): Promise<{ result: ReadResourceResult; source: CacheSource }> {
    try {
      const outcome = await this.cachedOutcome('resources/read', { uri }, { uri }, options, checkRead);
      return { result: outcome.result as ReadResourceResult, source: outcome.source };
    } catch (error) {
      throw asNotFound(error, uri);
    }
  }

  /**
   * A cacheable request: served from the cache when the call's mode allows, else sent; what
   * `check` returns is what gets stored (and frozen). Legacy results get `legacyTtlMs`.
   */
  cached(
    method: string,
    params: JsonObject,
    key: { uri?: string; cursor?: string },
    options: CallOptions,
    check: (method: string, result: JsonObject) => JsonObject | Promise<JsonObject>,
    internals?: CallInternals,
  ): Promise<JsonObject> {
    try {
      return this.cachedOutcome(method, params, key, options, check, internals).then(resultOf);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** {@link cached}, telling where the result came from: `network`, or a `cache` or `stale` entry. */
  cachedOutcome(
    method: string,
    params: JsonObject,
    key: { uri?: string; cursor?: string },
    options: CallOptions,
    check: (method: string, result: JsonObject) => JsonObject | Promise<JsonObject>,
    internals?: CallInternals,
  ): Promise<{ result: JsonObject; source: CacheSource }> {
    if (this.host.observer === undefined) return this.fromCache(method, params, key, options, check, internals);
    const scope = this.host.observer.start(
      method,
      key.uri === undefined ? {} : { uri: key.uri },
      this.host.caller.protocolVersion,
      true,
    );
    return scope.settle(this.fromCache(method, params, key, options, check, { ...internals, scope }));
  }

  async listPage(method: ListMethod, params: PageParams, options: CallOptions): Promise<JsonObject> {
    const cursor = params.cursor;
    if (cursor !== undefined && typeof cursor !== 'string')
      throw new InvalidArgumentError('cursor', cursor, 'expected a string');
    const wire: JsonObject = cursor === undefined ? {} : { cursor };
    return this.cached(method, wire, cursor === undefined ? {} : { cursor }, options, (m, result) =>
      this.checkPage(m as ListMethod, result),
    );
  }

  async listAllOf<M extends ListMethod>(method: M, options: WalkOptions): Promise<ListAllResult<ListItemTypes[M]>> {
    const walk = this.listWalk(method, options);
    const run = async (): Promise<ListAllResult<ListItemTypes[M]>> => {
      const all = await listAll(walk.fetchPage, walk.paginate);
      await walk.commit();
      return all;
    };
    return walk.scope === undefined ? run() : walk.scope.settle(run());
  }

  /** The hooks of one list walk: each page through the cache's walk, restarts dropping its pages. */
  listWalk<M extends ListMethod>(
    method: M,
    options: WalkOptions,
  ): {
    fetchPage: FetchPage<ListItemTypes[M]>;
    paginate: PaginateOptions;
    commit(): Promise<unknown>;
    scope: CallScope | undefined;
  } {
    const cacheWalk = this.cache?.walkList({
      method,
      protocolVersion: this.host.caller.cacheVersion(options),
      mode: options.cacheMode,
    });
    const scope = this.host.observer?.start(method, {}, this.host.caller.protocolVersion, true);
    const internals = scope === undefined ? undefined : { scope };
    const load = (cursor: string | undefined) => (signal: AbortSignal | undefined, credential?: RequestCredential) =>
      this.loadPage(method, cursor, copyWith(options, 'signal', signal), { ...internals, credential });
    const fetchPage: FetchPage<ListItemTypes[M]> = async (cursor, signal) => {
      if (this.host.closed())
        throw new ConnectionClosedError(`${method}: client is closed`, { reason: 'client is closed' });
      let result: JsonObject;
      if (cacheWalk === undefined) {
        ({ result } = await load(cursor)(signal));
        scope?.page(undefined);
      } else {
        const outcome = await cacheWalk.page(cursor, load(cursor), signal);
        result = outcome.result;
        scope?.page(outcome.source);
      }
      return pageFromResult<ListItemTypes[M]>(method, result);
    };
    return {
      scope,
      fetchPage,
      paginate: {
        method,
        maxPages: options.maxPages,
        signal: options.signal,
        ...(cacheWalk !== undefined && { onRestart: async () => void (await cacheWalk.restart()) }),
      },
      commit: () => cacheWalk?.commit() ?? Promise.resolve(),
    };
  }

  /** {@link cachedOutcome} without its span: promise reactions, no async frames (the path of every uncached read). */
  private fromCache(
    method: string,
    params: JsonObject,
    key: { uri?: string; cursor?: string },
    options: CallOptions,
    check: (method: string, result: JsonObject) => JsonObject | Promise<JsonObject>,
    internals: CallInternals | undefined,
  ): Promise<{ result: JsonObject; source: CacheSource }> {
    try {
      const cache = this.cache;
      if (cache === undefined || options.cacheMode === 'no-store') internals?.scope?.cache('bypass');
      if (cache === undefined)
        return this.host.caller
          .call({ ...internals, method, params, options })
          .then((loaded) =>
            thenMaybe(check(method, loaded.result), (result) => ({ result, source: 'network' as const })),
          );
      // A closed client answers nothing, not even from the cache.
      if (this.host.closed())
        throw new ConnectionClosedError(`${method}: client is closed`, { reason: 'client is closed' });
      return cache
        .fetch(
          {
            method,
            ...key,
            protocolVersion: this.host.caller.cacheVersion(options),
            mode: options.cacheMode,
            signal: options.signal,
          },
          (signal, credential) =>
            this.host.caller
              .call({ ...internals, credential, method, params, options: copyWith(options, 'signal', signal) })
              .then((loaded) =>
                thenMaybe(check(method, loaded.result), (result) => ({
                  result: this.host.freshness(method, result),
                  storable: loaded.storable,
                })),
              ),
        )
        .then((outcome) => {
          if (options.cacheMode !== 'no-store') internals?.scope?.cacheSource(outcome.source);
          return { result: outcome.result, source: outcome.source };
        });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `resources/read` through the cache's fetch: one reaction for a failure, none added to a result (no async frame). */
  private readFromServer(uri: string, options: CallOptions): Promise<ReadResourceResult> {
    if (typeof uri !== 'string' || uri === '')
      return Promise.reject(new InvalidArgumentError('uri', uri, 'expected a non-empty URI string (RFC 3986)'));
    const read = this.cached('resources/read', { uri }, { uri }, options, checkRead) as Promise<ReadResourceResult>;
    return read.catch((error: unknown) => {
      const mapped = asNotFound(error, uri);
      if (!(mapped instanceof ResourceNotFoundError)) throw mapped;
      return Promise.resolve(this.cache?.invalidateUri(uri)).then(() => {
        throw mapped;
      });
    });
  }

  /** Sends one list page request and checks it (malformed items reported and dropped). */
  private async loadPage(
    method: ListMethod,
    cursor: string | undefined,
    options: CallOptions,
    internals?: CallInternals,
  ): Promise<{ result: JsonObject; storable: boolean }> {
    const params: JsonObject = cursor === undefined ? {} : { cursor };
    const outcome = await this.host.caller.call({ ...internals, method, params, options });
    return {
      result: this.host.freshness(method, this.checkPage(method, outcome.result)),
      storable: outcome.storable,
    };
  }

  /**
   * Checks a list page (malformed items reported and dropped). Tools whose `x-mcp-header`
   * annotation breaks the rules were dropped already by the transport's link (Streamable HTTP).
   */
  private checkPage(method: ListMethod, result: JsonObject): JsonObject {
    const page = checkListPage(method, result, this.host.onError);
    if (method !== 'tools/list') return page;
    this.host.outputValidators.learn(page['tools'] as Tool[]);
    this.host.toolsListed?.(page['tools'] as Tool[]);
    return page;
  }
}

const resultOf = (outcome: { result: JsonObject }): JsonObject => outcome.result;

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
