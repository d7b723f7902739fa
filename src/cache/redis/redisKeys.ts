/**
 * Where a fleet store keeps things in Redis. Every key starts with the fleet's prefix and the
 * server tag as a Redis Cluster hash tag, so all the keys of one server live in one slot (the
 * write script reads the generation hash and writes the entry atomically):
 *
 *     <prefix>{<serverTag>}<cache key>         one entry (the cache key of cacheKey.ts)
 *     <prefix>{<serverTag>}gen                 hash: method → generation token
 *     <prefix>{<serverTag>}lock:<cache key>    single-flight lock of one public entry
 *     <prefix>invalidate                       the pub/sub channel of invalidations
 *
 * The server tag is a digest of the server identity and the cache key holds only digests of
 * auth contexts: no token, user id or server URL is written in clear. Pure; no Node API.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import { KEY_NAMESPACE, quoteJson } from '../cacheKey.js';

/** The default fleet prefix. */
export const DEFAULT_PREFIX = 'mcp-live:';

const HEAD = `[${quoteJson(KEY_NAMESPACE)},"`;

/** The server tag of a cache key or key prefix, or `''` when it has none (not a cache key). */
export function serverTagOf(cacheKeyOrPrefix: string): string {
  if (!cacheKeyOrPrefix.startsWith(HEAD)) return '';
  const end = cacheKeyOrPrefix.indexOf('"', HEAD.length);
  return end < 0 ? '' : cacheKeyOrPrefix.slice(HEAD.length, end);
}

/** Escapes Redis glob characters (`SCAN MATCH`) so `text` matches only itself. */
export function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** Key names of one fleet. */
export class RedisKeys {
  /** The invalidation channel. */
  readonly channel: string;

  /**
   * @throws InvalidArgumentError (-32602) when `prefix` is not a string or holds `{` or `}`
   *   (they would change the Redis Cluster hash tag).
   */
  constructor(readonly prefix: string = DEFAULT_PREFIX) {
    if (typeof prefix !== 'string' || /[{}]/.test(prefix))
      throw new InvalidArgumentError('prefix', prefix, 'expected a string without "{" or "}"');
    this.channel = `${prefix}invalidate`;
  }

  /** The Redis key of a cache key. */
  entry(cacheKey: string): string {
    return `${this.prefix}{${serverTagOf(cacheKey)}}${cacheKey}`;
  }

  /** The generation hash of a server. */
  generation(serverTag: string): string {
    return `${this.prefix}{${serverTag}}gen`;
  }

  /** The single-flight lock of a public entry. */
  lock(cacheKey: string): string {
    return `${this.prefix}{${serverTagOf(cacheKey)}}lock:${cacheKey}`;
  }

  /** The `SCAN MATCH` pattern of every entry whose cache key starts with `cachePrefix`. */
  pattern(cachePrefix: string): string {
    const tag = serverTagOf(cachePrefix);
    // Without a tag in the prefix, any hash tag; entries are told apart by the namespace after it.
    const slot = tag === '' ? '{*}' : `{${globEscape(tag)}}`;
    return `${globEscape(this.prefix)}${slot}${globEscape(cachePrefix === '' ? HEAD : cachePrefix)}*`;
  }

  /** The cache key of a Redis entry key, or `undefined` for any other key. */
  cacheKey(redisKey: string): string | undefined {
    if (!redisKey.startsWith(this.prefix) || redisKey[this.prefix.length] !== '{') return undefined;
    const close = redisKey.indexOf('}', this.prefix.length);
    if (close < 0) return undefined;
    const key = redisKey.slice(close + 1);
    return key.startsWith(HEAD) ? key : undefined;
  }
}
