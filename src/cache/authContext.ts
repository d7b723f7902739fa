/**
 * Auth contexts and the cache partitions they map to (spec: server/utilities/caching,
 * "Cache Scope Field": private results MUST NOT be shared across authorization contexts).
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { sha256Hex } from '../util/sha256.js';

/**
 * Who the requests are made for, as the host declares it.
 *
 * - a string: a stable identity of the principal (subject id, `tenant/user`, service account).
 *   Prefer this: it survives token refreshes, so the principal keeps its cached entries.
 * - `{ credential }`: the credential itself (an access token). Accepted so a host never has
 *   to derive an id, but the partition changes whenever the token does.
 *
 * Either way the value is hashed (SHA-256, domain-separated) before it is used, so neither an
 * id nor a token ever appears in a cache key, an event or an error.
 */
export type AuthContext = string | { readonly credential: string };

/** An {@link AuthContext}, or a function returning the current one (read at the start of each request). */
export type AuthContextSource = AuthContext | (() => AuthContext | undefined);

/** The partition of one request, resolved from the auth context in force when it started. */
export interface AuthPartition {
  /**
   * `partition` key element for private entries of this auth context: `"private:<32 hex>"`,
   * or `"private:anonymous"` when no auth context is declared and the store is the cache's
   * own. `undefined` when private results must not be cached at all: no auth context and a
   * shared store.
   */
  readonly privateTag: string | undefined;
  /** Separates in-flight loads of different auth contexts (in-flight dedupe is per partition). */
  readonly dedupeTag: string;
}

/** The private tag of requests made for no declared auth context, in the cache's own store. */
export const ANONYMOUS_PRIVATE_TAG = 'private:anonymous';
const ANONYMOUS_OWN: AuthPartition = Object.freeze({
  privateTag: ANONYMOUS_PRIVATE_TAG,
  dedupeTag: ANONYMOUS_PRIVATE_TAG,
});
const ANONYMOUS_SHARED: AuthPartition = Object.freeze({ privateTag: undefined, dedupeTag: 'anonymous' });

/**
 * Resolves the auth context to a partition, memoizing the last digest so an unchanged context
 * costs one comparison. Hashing is synchronous (no Web Crypto promise on the hit path).
 */
export class AuthPartitioner {
  private lastKind: 'id' | 'credential' | undefined;
  private lastValue = '';
  private lastPartition: AuthPartition = ANONYMOUS_OWN;

  /**
   * @param source the host's auth context (see {@link AuthContextSource}); `undefined` = none declared.
   * @param sharedStore true when the store may be shared with other clients: then private
   *   results without a declared auth context are never cached.
   */
  constructor(
    private readonly source: AuthContextSource | undefined,
    private readonly sharedStore: boolean,
  ) {}

  /**
   * The partition for a request starting now.
   * @throws InvalidArgumentError (-32602) when the auth context is neither a string nor
   *   `{ credential: string }`; `data.value` says only its type, never its content.
   */
  current(): AuthPartition {
    const source = this.source;
    return this.of(typeof source === 'function' ? source() : source);
  }

  /**
   * The partition of `context` (memoized for the last one); `undefined` or `''` is the anonymous one.
   * @throws InvalidArgumentError (-32602) as {@link current}.
   */
  of(context: AuthContext | undefined): AuthPartition {
    if (context === undefined || context === '') return this.sharedStore ? ANONYMOUS_SHARED : ANONYMOUS_OWN;
    let kind: 'id' | 'credential';
    let value: string;
    if (typeof context === 'string') {
      kind = 'id';
      value = context;
    } else if (
      typeof context === 'object' &&
      context !== null &&
      typeof context.credential === 'string' &&
      context.credential !== ''
    ) {
      kind = 'credential';
      value = context.credential;
    } else {
      throw new InvalidArgumentError(
        'authContext',
        typeof context,
        'expected a non-empty string or { credential: string }',
      );
    }
    if (kind === this.lastKind && value === this.lastValue) return this.lastPartition;
    const tag = `private:${sha256Hex(`mcp-live/cache/${kind}\u0000${value}`).slice(0, 32)}`;
    this.lastKind = kind;
    this.lastValue = value;
    this.lastPartition = Object.freeze({ privateTag: tag, dedupeTag: tag });
    return this.lastPartition;
  }
}
