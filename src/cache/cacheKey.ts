/**
 * Canonical cache keys (spec: server/utilities/caching, "Cache Key").
 *
 * A key is the JSON text of the array
 * `["mcp-live/cache/1", serverIdentity, method, param, protocolVersion, partition]`:
 *
 * - `serverIdentity`: who the server is as the client knows it (the transport's command line
 *   or URL), never the server's self-reported name;
 * - `param`: the request parameter that changes the result: the `uri` of `resources/read`,
 *   the `cursor` of a list page (`null` for the first page, so an absent cursor and `""`
 *   differ), `null` for `server/discover`;
 * - `partition`: `"public"` or `"private:<id>"`, where `<id>` is a SHA-256 digest of the auth
 *   context or `anonymous` (see `authContext.ts`); a raw credential never appears.
 *
 * JSON array text is injective, so two different requests never share a key, and the leading
 * elements make prefixes: every key of one server (or one server and method) starts with
 * {@link keyPrefix}. {@link CacheKeyBuilder} produces the same text by concatenating
 * pre-quoted pieces, so building a key costs one string quote at most.
 */

/** First element of every key; bump it when the layout or the entry shape changes. */
export const KEY_NAMESPACE = 'mcp-live/cache/1';

/** `partition` element of public entries. */
export const PUBLIC_PARTITION = 'public';

/** The parts of a key, as {@link cacheKey} takes them and {@link parseCacheKey} returns them. */
export interface CacheKeyParts {
  serverIdentity: string;
  method: string;
  /** `uri` (resources/read), cursor or `null` (list pages), `null` (server/discover). */
  param: string | null;
  protocolVersion: string;
  /** {@link PUBLIC_PARTITION} or `"private:<id>"`. */
  partition: string;
}

// Characters JSON.stringify escapes, plus surrogates (lone ones are escaped): strings without
// them quote as '"' + s + '"'.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(s)` for a string, with a fast path for strings that need no escaping. */
export function quoteJson(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** The canonical key of a request (see the module comment). Same text as {@link CacheKeyBuilder.key}. */
export function cacheKey(parts: CacheKeyParts): string {
  return JSON.stringify([KEY_NAMESPACE, parts.serverIdentity, parts.method, parts.param, parts.protocolVersion, parts.partition]);
}

/**
 * Reads a key made by {@link cacheKey}; `undefined` for anything else (keys of other
 * libraries in a shared store). Used by invalidation, never on the hot path.
 */
export function parseCacheKey(key: string): CacheKeyParts | undefined {
  let value: unknown;
  try {
    value = JSON.parse(key);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 6 || value[0] !== KEY_NAMESPACE) return undefined;
  const [, serverIdentity, method, param, protocolVersion, partition] = value as unknown[];
  if (typeof serverIdentity !== 'string' || typeof method !== 'string' || typeof protocolVersion !== 'string' || typeof partition !== 'string') return undefined;
  if (param !== null && typeof param !== 'string') return undefined;
  return { serverIdentity, method, param, protocolVersion, partition };
}

/**
 * The text every key of `serverIdentity` (and of `method`, when given) starts with. A key
 * starts with this prefix exactly when its leading elements are equal, because each element
 * is complete JSON followed by `,`.
 */
export function keyPrefix(serverIdentity: string, method?: string): string {
  const head = `[${quoteJson(KEY_NAMESPACE)},${quoteJson(serverIdentity)},`;
  return method === undefined ? head : `${head}${quoteJson(method)},`;
}

/** The `param` element for a request: see {@link CacheKeyParts.param}. */
export function keyParam(method: string, request: { uri?: string | undefined; cursor?: string | undefined }): string | null {
  if (method === 'resources/read') return request.uri ?? null;
  return request.cursor ?? null;
}

/** The keys one request may use, as {@link CacheKeyBuilder.requestKeys} returns them. */
export interface RequestKeys {
  readonly protocolVersion: string;
  readonly privateTag: string | undefined;
  readonly dedupeTag: string;
  /** Key of the public entry. */
  readonly publicKey: string;
  /** Key of this auth context's private entry; `undefined` when private entries are not allowed. */
  readonly privateKey: string | undefined;
  /** Key that identifies the request and its auth context among loads in flight. */
  readonly dedupeKey: string;
}

/** Most memoized requests per method before the memo is reset. */
const MEMO_LIMIT = 4096;

/**
 * Builds keys of one server quickly. `middle()` is everything up to the protocol version;
 * `key()` appends `protocolVersion` and `partition`. The output equals {@link cacheKey}.
 * {@link requestKeys} memoizes the keys of recent requests, so a repeated request reuses the
 * same key strings (whose hashes the engine has already computed) instead of building and
 * hashing a new ~100-character string.
 */
export class CacheKeyBuilder {
  private readonly head: string;
  private readonly methodPieces = new Map<string, string>();
  private tailVersion = '';
  private tailPartition = '';
  private tailText = '';
  private readonly memo = new Map<string, Map<string | null, RequestKeys>>();

  constructor(readonly serverIdentity: string) {
    this.head = keyPrefix(serverIdentity);
  }

  /** Every key of this server starts with this. */
  get prefix(): string {
    return this.head;
  }

  /** `[ns, server, method, param,` as JSON text. */
  middle(method: string, param: string | null): string {
    let piece = this.methodPieces.get(method);
    if (piece === undefined) {
      piece = `${quoteJson(method)},`;
      this.methodPieces.set(method, piece);
    }
    return `${this.head}${piece}${param === null ? 'null' : quoteJson(param)},`;
  }

  /** Completes a {@link middle} with the protocol version and partition. */
  finish(middle: string, protocolVersion: string, partition: string): string {
    if (protocolVersion !== this.tailVersion || partition !== this.tailPartition) {
      this.tailVersion = protocolVersion;
      this.tailPartition = partition;
      this.tailText = `${quoteJson(protocolVersion)},${quoteJson(partition)}]`;
    }
    return middle + this.tailText;
  }

  /** The full key. */
  key(method: string, param: string | null, protocolVersion: string, partition: string): string {
    return this.finish(this.middle(method, param), protocolVersion, partition);
  }

  /**
   * The public, private and dedupe keys of a request, memoized per method and param (the
   * last protocol version and auth context seen for it).
   */
  requestKeys(method: string, param: string | null, protocolVersion: string, privateTag: string | undefined, dedupeTag: string): RequestKeys {
    let byParam = this.memo.get(method);
    if (byParam === undefined) {
      byParam = new Map();
      this.memo.set(method, byParam);
    }
    const known = byParam.get(param);
    if (known !== undefined && known.protocolVersion === protocolVersion && known.privateTag === privateTag && known.dedupeTag === dedupeTag) return known;
    const middle = this.middle(method, param);
    const publicKey = this.finish(middle, protocolVersion, PUBLIC_PARTITION);
    const privateKey = privateTag === undefined ? undefined : this.finish(middle, protocolVersion, privateTag);
    const dedupeKey = privateKey !== undefined && privateTag === dedupeTag ? privateKey : this.finish(middle, protocolVersion, dedupeTag);
    const keys: RequestKeys = { protocolVersion, privateTag, dedupeTag, publicKey, privateKey, dedupeKey };
    if (byParam.size >= MEMO_LIMIT && known === undefined) byParam.clear();
    byParam.set(param, keys);
    return keys;
  }
}
