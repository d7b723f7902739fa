/**
 * The generation guard across a fleet. Each server has a hash in Redis, method → token; every
 * invalidation writes a new, never-repeated token for the methods it covers. A load takes a
 * fence (the token this process last knew) before it is sent, and its result is written by a
 * script that compares that token with the hash: if any process invalidated the method since,
 * the write is refused atomically, however late the news reaches this process.
 *
 * What this process knows of the tokens may be behind (a notice still in flight, a reconnect,
 * a Redis restart): a token that is behind only makes writes be refused, never accepted, and a
 * refused write brings back the current token. Tokens are unique (process origin + counter),
 * so a hash lost in a Redis restart can never bring an old token back (no ABA).
 */
import { CACHEABLE_METHODS } from '../types.js';
import type { InvalidateTarget } from '../types.js';
import type { FleetInvalidation } from '../fleet.js';
import { luaScript } from './redisLink.js';

/** A load's fence: the token of its server and method when it started. */
export interface Fence {
  readonly serverTag: string;
  readonly method: string;
  /** `undefined` while this process does not know the token yet: the write is refused and learns it. */
  readonly token: string | undefined;
}

/** Sent for a token this process does not know: never equal to a stored one. */
export const UNKNOWN_TOKEN = '?';

/**
 * KEYS: entry, generation hash. ARGV: method, fence token, entry text, PX ms.
 * Returns `{1, token}` when written, `{0, token}` when refused, `token` being the current one
 * (`""` before any invalidation).
 */
export const WRITE_ENTRY = luaScript(`local current = redis.call('HGET', KEYS[2], ARGV[1]) or ''
if current ~= ARGV[2] then return {0, current} end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return {1, current}`);

/** The methods whose entries an invalidation covers. */
export function methodsOf(target: InvalidateTarget): readonly string[] {
  switch (target.kind) {
    case 'all':
      return CACHEABLE_METHODS;
    case 'uri':
      return ['resources/read'];
    default:
      return [target.method];
  }
}

/** What this process knows of the fleet's tokens. */
export class Generations {
  private readonly known = new Map<string, Map<string, string>>();
  /** Servers whose whole hash was read since the last {@link forget}. */
  private readonly read = new Set<string>();
  private counter = 0;

  /** @param origin this process's id (random), the first half of every token it makes. */
  constructor(readonly origin: string) {}

  /** True when the tokens of the server tagged `serverTag` were read since the last {@link forget}. */
  has(serverTag: string): boolean {
    return this.read.has(serverTag);
  }

  fence(serverTag: string, method: string): Fence {
    return { serverTag, method, token: this.known.get(serverTag)?.get(method) };
  }

  /** A token no process has made before. */
  next(): string {
    return `${this.origin}.${++this.counter}`;
  }

  /** Records `token` as the current one of `methods` (a notice, a refused write, this process's own invalidation). */
  learn(serverTag: string, methods: readonly string[], token: string): void {
    let byMethod = this.known.get(serverTag);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.known.set(serverTag, byMethod);
    }
    for (const method of methods) byMethod.set(method, token);
  }

  /**
   * Records tokens read from the hash (`HMGET` of {@link CACHEABLE_METHODS}, `null` = none yet),
   * keeping any token a notice brought meanwhile.
   */
  learnRead(serverTag: string, tokens: ReadonlyArray<string | null>): void {
    let byMethod = this.known.get(serverTag);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.known.set(serverTag, byMethod);
    }
    CACHEABLE_METHODS.forEach((method, i) => {
      if (!byMethod.has(method)) byMethod.set(method, tokens[i] ?? '');
    });
    this.read.add(serverTag);
  }

  /** Forgets every token (after losing Redis: the hashes may be gone); they are read again on use. */
  forget(): void {
    this.known.clear();
    this.read.clear();
  }
}

/** An invalidation as published on the channel. */
interface WireNotice {
  /** Origin of the publishing process. */
  o: string;
  /** The new token. */
  g: string;
  /** Methods it covers. */
  m: string[];
  /** serverTag. */
  t: string;
  /** target. */
  k: InvalidateTarget;
  /** partition, for list/current. */
  p?: string;
}

/** The channel message of an invalidation (no origin object of the cache: it never leaves the process). */
export function encodeNotice(
  origin: string,
  token: string,
  methods: readonly string[],
  notice: FleetInvalidation,
): string {
  const wire: WireNotice = { o: origin, g: token, m: [...methods], t: notice.serverTag, k: notice.target };
  if (notice.partition !== undefined) wire.p = notice.partition;
  return JSON.stringify(wire);
}

/** A channel message read back; `undefined` for anything that is not one. */
export function decodeNotice(
  text: string,
): { origin: string; token: string; methods: string[]; notice: FleetInvalidation } | undefined {
  let wire: Partial<WireNotice>;
  try {
    wire = JSON.parse(text) as Partial<WireNotice>;
  } catch {
    return undefined;
  }
  if (typeof wire !== 'object' || wire === null) return undefined;
  const { o, g, m, t, k, p } = wire;
  if (typeof o !== 'string' || typeof g !== 'string' || typeof t !== 'string') return undefined;
  if (!Array.isArray(m) || !m.every((method) => typeof method === 'string')) return undefined;
  if (p !== undefined && typeof p !== 'string') return undefined;
  const target = checkTarget(k);
  if (target === undefined) return undefined;
  return {
    origin: o,
    token: g,
    methods: m,
    notice: { serverTag: t, target, ...(p !== undefined && { partition: p }) },
  };
}

function checkTarget(value: unknown): InvalidateTarget | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const target = value as Record<string, unknown>;
  switch (target['kind']) {
    case 'all':
      return { kind: 'all' };
    case 'uri':
      return typeof target['uri'] === 'string' ? { kind: 'uri', uri: target['uri'] } : undefined;
    case 'method':
      return typeof target['method'] === 'string' ? { kind: 'method', method: target['method'] } : undefined;
    case 'list': {
      const which = target['authContext'];
      if (typeof target['method'] !== 'string' || (which !== 'all' && which !== 'current')) return undefined;
      return { kind: 'list', method: target['method'], authContext: which };
    }
    default:
      return undefined;
  }
}
