/**
 * `host.artifacts`: the whole text of tool results that were cut for the model, kept so the
 * host app can read them and the model can page through them (`read_artifact`). Bounded by
 * count and bytes (oldest first out) and each artifact expires; nothing is kept on disk.
 */
import type { CallToolResult } from '../../wire/protocol.js';
import { systemClock, type Clock } from '../../util/clock.js';
import { codePointStart, pageEnd } from '../../util/text.js';
import type { HostStateStore, StoredArtifact } from '../state/stateStore.js';
import { HostStateError } from '../state/stateErrors.js';

/** @internal Where a fleet's artifacts are kept besides this process (`McpHostOptions.state`). */
export interface ArtifactTier {
  readonly store: HostStateStore;
  /** The user's partition of the store (`statePartition`). */
  readonly partition: string;
  /** Reports a store that failed: the artifact stays on this worker only. */
  onError(error: Error): void;
}

/** Bounds of the artifact store. */
export interface ArtifactLimits {
  /** @default 100 */
  maxCount?: number | undefined;
  /** UTF-8 bytes of every artifact's text together; a larger text is not kept. @default 64 MiB */
  maxBytes?: number | undefined;
  /** How long an artifact is kept, in ms. @default 3 600 000 (an hour) */
  ttlMs?: number | undefined;
  /** @default the system clock */
  clock?: Clock | undefined;
}

/** One kept result: what a host state store keeps of it, and when it was made and expires here. */
export interface Artifact extends StoredArtifact {
  /** `Clock.now()` at creation and expiry, in ms. */
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** One page of an artifact's text. */
export interface ArtifactPage {
  readonly id: string;
  /** Characters from the start of the text. */
  readonly offset: number;
  readonly text: string;
  /** Where the next page starts; `undefined` on the last page. */
  readonly nextOffset: number | undefined;
  /** The text's length, in characters. */
  readonly totalChars: number;
}

const DEFAULT_MAX_COUNT = 100;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_TTL_MS = 3_600_000;

/** The store behind `host.artifacts` (see the module comment). */
export class ArtifactStore {
  private readonly items = new Map<string, Artifact>();
  private bytesValue = 0;
  private next = 1;
  private readonly maxCount: number;
  private readonly maxBytes: number;
  private readonly ttlMs: number;
  private readonly clock: Clock;
  private tier: ArtifactTier | undefined;
  /** Makes ids unique across workers once the store is shared. */
  private worker = '';

  constructor(limits: ArtifactLimits = {}) {
    this.maxCount = positive(limits.maxCount, DEFAULT_MAX_COUNT);
    this.maxBytes = positive(limits.maxBytes, DEFAULT_MAX_BYTES);
    this.ttlMs = positive(limits.ttlMs, DEFAULT_TTL_MS);
    this.clock = limits.clock ?? systemClock;
  }

  /**
   * @internal Keeps every artifact in `tier` too, so another worker's `read_artifact` finds it
   * ({@link fetch}); ids become `art_<worker>_<n>`.
   */
  share(tier: ArtifactTier): void {
    this.tier = tier;
    const bytes = crypto.getRandomValues(new Uint8Array(4));
    this.worker = `${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}_`;
  }

  /** Whether artifacts are kept in a store other workers read too (`McpHostOptions.state`). */
  get shared(): boolean {
    return this.tier !== undefined;
  }

  /** Artifacts kept now. */
  get size(): number {
    this.sweep();
    return this.items.size;
  }

  /** UTF-8 bytes of every kept text. */
  get bytes(): number {
    this.sweep();
    return this.bytesValue;
  }

  /** Every kept artifact, oldest first. */
  list(): Artifact[] {
    this.sweep();
    return [...this.items.values()];
  }

  /** The artifact by id; `undefined` once it expired or was pushed out. */
  get(id: string): Artifact | undefined {
    this.sweep();
    return this.items.get(id);
  }

  /**
   * Keeps a text, pushing out the oldest artifacts past the bounds; `undefined` when the text
   * alone is larger than `maxBytes` (nothing is kept).
   */
  put(source: { server: string; tool: string; text: string; result: CallToolResult }): Artifact | undefined {
    this.sweep();
    const bytes = utf8Length(source.text);
    if (bytes > this.maxBytes) return undefined;
    const now = this.clock.now();
    const artifact: Artifact = Object.freeze({
      id: `art_${this.worker}${this.next++}`,
      ...source,
      bytes,
      createdAt: now,
      expiresAt: now + this.ttlMs,
    });
    this.keep(artifact);
    if (this.tier !== undefined) this.keepShared(this.tier, artifact);
    return artifact;
  }

  /**
   * The artifact by id, from this process or, once shared, from the store (another worker cut
   * it; it is then kept here too). `undefined` when neither has it; a store that fails is
   * reported and read as a miss.
   */
  async fetch(id: string): Promise<Artifact | undefined> {
    const own = this.get(id);
    const tier = this.tier;
    if (own !== undefined || tier === undefined || typeof id !== 'string') return own;
    let stored: StoredArtifact | undefined;
    try {
      stored = await tier.store.getArtifact(tier.partition, id);
    } catch (error) {
      tier.onError(asStateError(error, 'getArtifact', undefined));
      return undefined;
    }
    if (stored === undefined) return undefined;
    if (!isStoredArtifact(stored, id) || utf8Length(stored.text) > this.maxBytes) {
      tier.onError(
        new HostStateError(`the store's artifact ${JSON.stringify(id)} is malformed`, {
          operation: 'getArtifact',
          reason: 'malformed-record',
        }),
      );
      return undefined;
    }
    const now = this.clock.now();
    const artifact: Artifact = Object.freeze({
      id,
      server: stored.server,
      tool: stored.tool,
      text: stored.text,
      result: stored.result,
      bytes: utf8Length(stored.text),
      createdAt: now,
      expiresAt: now + this.ttlMs,
    });
    this.keep(artifact);
    return artifact;
  }

  private keep(artifact: Artifact): void {
    this.items.set(artifact.id, artifact);
    this.bytesValue += artifact.bytes;
    for (const old of this.items.values()) {
      if (this.items.size <= this.maxCount && this.bytesValue <= this.maxBytes) break;
      this.drop(old);
    }
  }

  private keepShared(tier: ArtifactTier, artifact: Artifact): void {
    const { id, server, tool, text, result, bytes } = artifact;
    const lost = `artifact ${id} (kept on this worker only)`;
    try {
      Promise.resolve(
        tier.store.putArtifact(tier.partition, { id, server, tool, text, result, bytes }, this.ttlMs),
      ).catch((error: unknown) => tier.onError(asStateError(error, 'putArtifact', lost)));
    } catch (error) {
      tier.onError(asStateError(error, 'putArtifact', lost));
    }
  }

  /**
   * At most `maxChars` characters (UTF-16 code units) of an artifact's text from `offset`, cut
   * on a whole character (src/util/text.ts `pageEnd`: a page never splits a surrogate pair or,
   * near its end, a grapheme cluster; a first character longer than `maxChars` comes whole).
   * An `offset` inside a surrogate pair starts at the pair. Pages read from 0, each at the
   * last one's `nextOffset`, join back to the whole text. `undefined` for an unknown or
   * expired id.
   */
  read(id: string, offset: number, maxChars: number): ArtifactPage | undefined {
    const artifact = this.get(id);
    if (artifact === undefined) return undefined;
    const total = artifact.text.length;
    const start = codePointStart(artifact.text, Math.min(Math.max(0, Math.floor(offset)), total));
    const end = pageEnd(artifact.text, start, maxChars);
    return Object.freeze({
      id,
      offset: start,
      text: artifact.text.slice(start, end),
      nextOffset: end < total ? end : undefined,
      totalChars: total,
    });
  }

  /** Removes one artifact; true when there was one. */
  delete(id: string): boolean {
    const artifact = this.items.get(id);
    if (artifact === undefined) return false;
    this.drop(artifact);
    return true;
  }

  /** Removes every artifact. */
  clear(): void {
    this.items.clear();
    this.bytesValue = 0;
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const artifact of this.items.values()) if (artifact.expiresAt <= now) this.drop(artifact);
  }

  private drop(artifact: Artifact): void {
    this.items.delete(artifact.id);
    this.bytesValue -= artifact.bytes;
  }
}

function isStoredArtifact(value: unknown, id: string): value is StoredArtifact {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record['id'] === id &&
    typeof record['server'] === 'string' &&
    typeof record['tool'] === 'string' &&
    typeof record['text'] === 'string' &&
    typeof record['result'] === 'object' &&
    record['result'] !== null
  );
}

/** A store failure as the host reports it: a `HostStateError` as thrown, else one wrapping it. */
function asStateError(error: unknown, operation: string, lost: string | undefined): HostStateError {
  if (error instanceof HostStateError)
    return lost === undefined || error.data.lost !== undefined
      ? error
      : new HostStateError(`${error.message}: ${lost}`, { ...error.data, lost }, error.cause);
  const message = error instanceof Error ? error.message : String(error);
  return new HostStateError(
    `host state store failed (${operation}): ${message}${lost ? `: ${lost}` : ''}`,
    {
      operation,
      reason: 'unreachable',
      ...(lost !== undefined && { lost }),
    },
    error,
  );
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** UTF-8 bytes of a string, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
