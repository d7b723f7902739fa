/**
 * Canonical cache keys (spec: server/utilities/caching, "Cache Key").
 *
 * A key is the JSON text of the array
 * `["mcp-live/cache/2", serverTag, method, param, protocolVersion, partition]`:
 *
 * - `serverTag`: a short, stable digest of who the server is as the client knows it (the
 *   transport's command line or URL, never the server's self-reported name): the first 16 hex
 *   digits of the SHA-256 of the identity ({@link serverTag}). Keys of two servers sharing a
 *   store differ as long as their identities do (a 64-bit digest), and the command line, which
 *   may be long, is not repeated in every key;
 * - `param`: the request parameter that changes the result: the `uri` of `resources/read`
 *   and `skills/get`, the `cursor` of a list page (`null` for the first page, so an absent
 *   cursor and `""` differ), the JSON text of `[uri, cursor]` for `resources/directory/read`,
 *   `null` for `server/discover`;
 * - `protocolVersion`: the version the request is sent with, followed by its language preference
 *   when it has one (`keyVersion.ts`: `"2026-07-28\u0000fr"`), so that languages never share an
 *   entry;
 * - `partition`: `"public"` or `"private:<id>"`, where `<id>` is a SHA-256 digest of the auth
 *   context or `anonymous` (see `authContext.ts`); a raw credential never appears.
 *
 * JSON array text is injective, so two different requests never share a key, and the leading
 * elements make prefixes: every key of one server (or one server and method) starts with
 * {@link keyPrefix}. {@link CacheKeyBuilder} produces the same text from pre-quoted pieces,
 * as one flat string (a key lives as long as its entry: it must not be a tree of
 * concatenations).
 */
import { sha256Hex } from '../util/sha256.js';

/** First element of every key; bump it when the layout or the entry shape changes. */
export const KEY_NAMESPACE = 'mcp-live/cache/2';

/** `partition` element of public entries. */
export const PUBLIC_PARTITION = 'public';

/** The parts of a key, as {@link cacheKey} takes them and {@link parseCacheKey} returns them. */
export interface CacheKeyParts {
  /** {@link serverTag} of the server identity. */
  serverTag: string;
  method: string;
  /** `uri` (resources/read), cursor or `null` (list pages), `null` (server/discover). */
  param: string | null;
  protocolVersion: string;
  /** {@link PUBLIC_PARTITION} or `"private:<id>"`. */
  partition: string;
}

/**
 * The `serverTag` key element of a server identity: 16 lowercase hex digits of the SHA-256 of
 * the (domain-separated) identity. Computed once per cache.
 */
export function serverTag(serverIdentity: string): string {
  return sha256Hex(`mcp-live/cache/server\u0000${serverIdentity}`).slice(0, 16);
}

// Characters JSON.stringify escapes, plus surrogates (lone ones are escaped): strings without
// them quote as '"' + s + '"'.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(s)` for a string, with a fast path for strings that need no escaping. */
export function quoteJson(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** The canonical key of a request (see the module comment). Same text as {@link CacheKeyBuilder.key}. */
export function cacheKey(parts: CacheKeyParts): string {
  return JSON.stringify([
    KEY_NAMESPACE,
    parts.serverTag,
    parts.method,
    parts.param,
    parts.protocolVersion,
    parts.partition,
  ]);
}

/**
 * Reads a key made by {@link cacheKey}; `undefined` for anything else (keys of other
 * libraries in a shared store). Used by invalidation and evictions, never on the hit path.
 */
export function parseCacheKey(key: string): CacheKeyParts | undefined {
  let value: unknown;
  try {
    value = JSON.parse(key);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 6 || value[0] !== KEY_NAMESPACE) return undefined;
  const [, tag, method, param, protocolVersion, partition] = value as unknown[];
  if (
    typeof tag !== 'string' ||
    typeof method !== 'string' ||
    typeof protocolVersion !== 'string' ||
    typeof partition !== 'string'
  )
    return undefined;
  if (param !== null && typeof param !== 'string') return undefined;
  return { serverTag: tag, method, param, protocolVersion, partition };
}

/**
 * The text every key of the server with tag `tag` (and of `method`, when given) starts with.
 * A key starts with this prefix exactly when its leading elements are equal, because each
 * element is complete JSON followed by `,`.
 */
export function keyPrefix(tag: string, method?: string): string {
  const head = `[${quoteJson(KEY_NAMESPACE)},${quoteJson(tag)},`;
  return method === undefined ? head : `${head}${quoteJson(method)},`;
}

/** The `param` element for a request: see {@link CacheKeyParts.param}. */
export function keyParam(
  method: string,
  request: { uri?: string | undefined; cursor?: string | undefined },
): string | null {
  if (method === 'resources/read' || method === 'skills/get') return request.uri ?? null;
  // A directory page depends on both: the JSON array text keeps (uri, cursor) pairs apart.
  if (method === 'resources/directory/read') return JSON.stringify([request.uri ?? null, request.cursor ?? null]);
  return request.cursor ?? null;
}

/** The keys one request may use, as {@link CacheKeyBuilder.requestKeys} returns them. */
export interface RequestKeys {
  readonly protocolVersion: string;
  /** `partition` of this auth context's private entries; `undefined` when they are not allowed. */
  readonly privateTag: string | undefined;
  /** Key of the public entry. */
  readonly publicKey: string;
  /** Key of this auth context's private entry; `undefined` when private entries are not allowed. */
  readonly privateKey: string | undefined;
  /** Key that identifies the request and its auth context among loads in flight. */
  readonly dedupeKey: string;
}

/**
 * Builds keys of one server. Every key is returned as one flat string: a key is kept by the
 * store as long as its entry, and a string made by `+` or a template literal stays a tree of
 * its pieces (about 9 objects here) until something flattens it. The output equals
 * {@link cacheKey}.
 *
 * Nothing is memoized per request: what is kept per uri is bounded by the store (the cache's
 * hit index, see `ResponseCache`), never by this builder.
 */
export class CacheKeyBuilder {
  /** {@link serverTag} of the identity. */
  readonly tag: string;
  private readonly head: string;
  private readonly methodPieces = new Map<string, string>();
  private readonly tails = new Map<string, Map<string, string>>();

  constructor(readonly serverIdentity: string) {
    this.tag = serverTag(serverIdentity);
    this.head = keyPrefix(this.tag);
  }

  /** Every key of this server starts with this. */
  get prefix(): string {
    return this.head;
  }

  /** `method,` as JSON text (memoized per method: a handful). */
  private methodPiece(method: string): string {
    let piece = this.methodPieces.get(method);
    if (piece === undefined) {
      piece = `${quoteJson(method)},`;
      this.methodPieces.set(method, piece);
    }
    return piece;
  }

  /** `protocolVersion,partition]` as JSON text (memoized: a handful of versions and partitions). */
  private tail(protocolVersion: string, partition: string): string {
    let byPartition = this.tails.get(protocolVersion);
    if (byPartition === undefined) {
      byPartition = new Map();
      this.tails.set(protocolVersion, byPartition);
    }
    let text = byPartition.get(partition);
    if (text === undefined) {
      if (byPartition.size >= 64) byPartition.clear(); // auth contexts come and go: stay bounded
      text = `${quoteJson(protocolVersion)},${quoteJson(partition)}]`;
      byPartition.set(partition, text);
    }
    return text;
  }

  /** The full key, as one flat string. */
  key(method: string, param: string | null, protocolVersion: string, partition: string): string {
    // Array#join writes one sequential string; `+` would make a rope.
    return [
      this.head,
      this.methodPiece(method),
      param === null ? 'null' : quoteJson(param),
      ',',
      this.tail(protocolVersion, partition),
    ].join('');
  }

  /** The public, private and dedupe keys of a request. */
  requestKeys(
    method: string,
    param: string | null,
    protocolVersion: string,
    privateTag: string | undefined,
    dedupeTag: string,
  ): RequestKeys {
    const publicKey = this.key(method, param, protocolVersion, PUBLIC_PARTITION);
    const privateKey = privateTag === undefined ? undefined : this.key(method, param, protocolVersion, privateTag);
    const dedupeKey =
      privateKey !== undefined && privateTag === dedupeTag
        ? privateKey
        : this.key(method, param, protocolVersion, dedupeTag);
    return { protocolVersion, privateTag, publicKey, privateKey, dedupeKey };
  }
}
