/**
 * Invalidation across a fleet, for one store: the generation tokens this process reads before
 * it fences a load, the new token and the channel notice of each invalidation made here, the
 * notices heard from other processes, and the invalidations made while Redis was away, kept and
 * replayed before Redis is used again. The tokens themselves are generations.ts's.
 */
import { ProtocolError } from '../../errors/errors.js';
import { keyPrefix, quoteJson } from '../cacheKey.js';
import type { FleetInvalidation } from '../fleet.js';
import { CACHEABLE_METHODS } from '../types.js';
import { decodeNotice, encodeNotice, methodsOf, type Fence, type Generations } from './generations.js';
import type { LocalTier } from './localTier.js';
import type { RedisKeys } from './redisKeys.js';
import type { RedisLink } from './redisLink.js';
import { headOf } from '../../util/text.js';

/** Invalidations kept for replay while Redis is away, per server; past it they merge into one `all`. */
const MAX_PENDING_PER_SERVER = 32;

/** What the notices need from their store. */
export interface FleetNoticeDeps {
  /** Whether Redis is in use now. */
  up(): boolean;
  /** An operation failed: the store goes without Redis until it answers again. */
  failed(error: unknown): void;
  /** Reports a problem to the store's `onError`. */
  report(error: unknown): void;
}

/** The fleet invalidation of one store (see the file's opening comment). */
export class FleetNotices {
  private readonly listeners = new Set<(notice: FleetInvalidation) => void>();
  /** Invalidations made while Redis was away, per server tag, replayed before it is used again. */
  private readonly pending = new Map<string, FleetInvalidation[]>();
  /** Reads of generation hashes in progress, per server tag. */
  private readonly generationReads = new Map<string, Promise<void>>();

  constructor(
    private readonly link: RedisLink,
    private readonly names: RedisKeys,
    private readonly generations: Generations,
    private readonly local: LocalTier | undefined,
    private readonly hooks: FleetNoticeDeps,
  ) {}

  /**
   * The token of `method` this process knows now. The first time a server is seen (and after
   * Redis was lost) the tokens are read first: the promise resolves once they are.
   */
  fence(serverTag: string, method: string): Fence | Promise<Fence> {
    if (this.generations.has(serverTag) || !this.hooks.up()) return this.generations.fence(serverTag, method);
    return this.readGenerations(serverTag).then(() => this.generations.fence(serverTag, method));
  }

  /**
   * Tells this process's listeners at once, writes a new generation token for the covered
   * methods, runs `removeEntries` and only then publishes the notice; while Redis is away the
   * invalidation is kept for {@link replay}.
   */
  async invalidated(notice: FleetInvalidation, removeEntries?: () => Promise<unknown>): Promise<void> {
    this.deliver(notice);
    const methods = methodsOf(notice.target);
    this.local?.dropServer(notice.serverTag, notice.target.kind === 'all' ? undefined : new Set(methods));
    if (!this.hooks.up()) {
      this.keep(notice);
      return;
    }
    try {
      await this.announce(notice, methods, removeEntries);
    } catch (error) {
      this.hooks.failed(error);
      this.keep(notice);
    }
  }

  /** Adds a listener of every invalidation, this process's and the fleet's; returns its removal. */
  onInvalidation(listener: (notice: FleetInvalidation) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A message on the fleet's channel. */
  heard(message: string): void {
    const decoded = decodeNotice(message);
    if (decoded === undefined) {
      this.hooks.report(
        new ProtocolError('not an mcp-live invalidation notice; ignored', { value: headOf(message, 200) }),
      );
      return;
    }
    if (decoded.origin === this.generations.origin) return; // our own, already delivered here
    this.generations.learn(decoded.notice.serverTag, decoded.methods, decoded.token);
    this.local?.dropServer(
      decoded.notice.serverTag,
      decoded.notice.target.kind === 'all' ? undefined : new Set(decoded.methods),
    );
    this.deliver(decoded.notice);
  }

  /**
   * Replays what was invalidated while Redis was away (token, publish, and a `SCAN`/`UNLINK` of
   * what it covers), in order; rejects at the first failure, keeping what is left.
   */
  async replay(): Promise<void> {
    for (const [tag, notices] of [...this.pending]) {
      for (const notice of [...notices]) {
        await this.announce(notice, methodsOf(notice.target));
        await this.link.unlink(await this.link.scan(this.names.pattern(coveredPrefix(notice))));
        notices.shift();
      }
      this.pending.delete(tag);
    }
  }

  /** Forgets every listener (the store closed). */
  close(): void {
    this.listeners.clear();
  }

  /** Reads the generation hash of a server once (concurrent callers share the read); never rejects. */
  private readGenerations(serverTag: string): Promise<void> {
    let pending = this.generationReads.get(serverTag);
    if (pending === undefined) {
      pending = this.link
        .hmget(this.names.generation(serverTag), CACHEABLE_METHODS)
        .then(
          (tokens) => this.generations.learnRead(serverTag, tokens),
          (error: unknown) => this.hooks.failed(error),
        )
        .finally(() => this.generationReads.delete(serverTag));
      this.generationReads.set(serverTag, pending);
    }
    return pending;
  }

  /**
   * Writes the new token (every later fenced write checks it), removes the covered entries when
   * given how, then publishes (a process that hears it finds them gone).
   */
  private async announce(
    notice: FleetInvalidation,
    methods: readonly string[],
    removeEntries?: () => Promise<unknown>,
  ): Promise<void> {
    const token = this.generations.next();
    await this.link.hset(this.names.generation(notice.serverTag), Object.fromEntries(methods.map((m) => [m, token])));
    this.generations.learn(notice.serverTag, methods, token);
    // The cache reports its own deletion failures; the notice goes out whatever happened.
    if (removeEntries !== undefined) await removeEntries().catch(() => undefined);
    await this.link.publish(this.names.channel, encodeNotice(this.generations.origin, token, methods, notice));
  }

  private deliver(notice: FleetInvalidation): void {
    for (const listener of this.listeners) {
      try {
        listener(notice);
      } catch (error) {
        this.hooks.report(error);
      }
    }
  }

  private keep(notice: FleetInvalidation): void {
    let list = this.pending.get(notice.serverTag);
    if (list === undefined) {
      list = [];
      this.pending.set(notice.serverTag, list);
    }
    if (list.length >= MAX_PENDING_PER_SERVER || notice.target.kind === 'all') {
      list.length = 0;
      list.push({ serverTag: notice.serverTag, target: { kind: 'all' } });
    } else if (list[0]?.target.kind !== 'all') {
      list.push(notice);
    }
  }
}

/** The key prefix of everything an invalidation covers (for replays: a superset is fine). */
function coveredPrefix(notice: FleetInvalidation): string {
  const target = notice.target;
  if (target.kind === 'all') return keyPrefix(notice.serverTag);
  if (target.kind === 'uri') return keyPrefix(notice.serverTag, 'resources/read') + quoteJson(target.uri).slice(0, -1);
  return keyPrefix(notice.serverTag, target.method);
}
