/**
 * The host state store: what a turn needs on another worker, in one interface a fleet shares
 * (docs/fleet.md). Artifacts (bounded by the host, each with a TTL) and pending approvals (bound
 * to their call id and arguments hash; the first answer wins), keyed by the user's partition,
 * which follows the cache's rule: a digest of the user's auth context, never the value. Memory
 * by default ({@link MemoryHostStateStore}); Redis in `mcp-live/redis`.
 */
import type { AuthContext } from '../../cache/authContext.js';
import { sha256Hex } from '../../util/sha256.js';
import type { WallClock } from '../../util/clock.js';
import { systemWallClock } from '../../util/clock.js';
import type { MaybePromise } from '../../util/maybePromise.js';
import type { JsonObject } from '../../wire/messages.js';
import type { CallToolResult } from '../../wire/protocol.js';

/** A tool result cut for the model and kept whole, as a store keeps it (`host.artifacts` adds its clock times). */
export interface StoredArtifact {
  /** What `read_artifact` takes: `art_<n>`, or `art_<worker>_<n>` (unique across a fleet) once the store is shared. */
  readonly id: string;
  /** The server and exposed name of the tool that produced it. */
  readonly server: string;
  readonly tool: string;
  /** The text the model would have seen whole. */
  readonly text: string;
  /** The result as the server sent it. */
  readonly result: CallToolResult;
  /** UTF-8 bytes of `text`. */
  readonly bytes: number;
}

/**
 * The calls waiting for an approval's answer in one process, by key: what every store's
 * `waitAnswer` keeps until the answer comes (or the wait's signal aborts).
 */
export class AnswerWaiters {
  private readonly waiting = new Map<string, Set<(answer: ApprovalAnswer | undefined) => void>>();

  /**
   * Waits for {@link resolve} of `key`; resolves with `undefined` when `signal` aborts. `cancel`
   * ends the wait at once (with `undefined`).
   */
  wait(key: string, signal: AbortSignal): { answer: Promise<ApprovalAnswer | undefined>; cancel: () => void } {
    let cancel = (): void => {};
    const answer = new Promise<ApprovalAnswer | undefined>((resolve) => {
      const set = this.waiting.get(key) ?? new Set();
      this.waiting.set(key, set);
      let settled = false;
      const done = (value: ApprovalAnswer | undefined): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', aborted);
        set.delete(done);
        if (set.size === 0 && this.waiting.get(key) === set) this.waiting.delete(key);
        resolve(value);
      };
      const aborted = (): void => done(undefined);
      cancel = aborted;
      set.add(done);
      if (signal.aborted) aborted();
      else signal.addEventListener('abort', aborted, { once: true });
    });
    return { answer, cancel };
  }

  /** Resolves every wait for `key` with `answer`. */
  resolve(key: string, answer: ApprovalAnswer): void {
    for (const done of [...(this.waiting.get(key) ?? [])]) done(answer);
  }
}

/** A tool call waiting for its user's answer, as every worker sees it. */
export interface PendingApproval {
  /** The call's `binding.callId`: what an answer names. */
  readonly callId: string;
  readonly server: string;
  /** The tool's original name. */
  readonly name: string;
  readonly exposedName: string;
  /** The arguments exactly as they will be sent. */
  readonly arguments: Readonly<JsonObject>;
  /** `argumentsHash` of those arguments: an answer for other arguments does not apply. */
  readonly argumentsHash: string;
  /** When the call stops waiting, in ms since the epoch. */
  readonly expiresAt: number;
}

/** A user's answer to one pending approval. */
export interface ApprovalAnswer {
  readonly callId: string;
  /** The arguments hash the user saw (the pending approval's). */
  readonly argumentsHash: string;
  /** `'allow'`, or a denial with the reason the model reads. */
  readonly verdict: 'allow' | { readonly deny: string };
}

/**
 * Where a fleet of hosts keeps what another worker must pick up. Every method takes the user's
 * partition ({@link statePartition}); one user's records are never read under another's.
 * Implementations bound what they keep (TTLs) and may fail: the host then keeps serving from
 * memory and reports a `HostStateError` (-33063).
 */
export interface HostStateStore {
  /** Keeps an artifact for `ttlMs` ms. */
  putArtifact(partition: string, artifact: StoredArtifact, ttlMs: number): MaybePromise<void>;
  /** The artifact by id in this partition, or `undefined` (expired, never kept, another user's). */
  getArtifact(partition: string, id: string): MaybePromise<StoredArtifact | undefined>;
  /** Records a pending approval for `ttlMs` ms (its call's wait). */
  putPending(partition: string, pending: PendingApproval, ttlMs: number): MaybePromise<void>;
  /** The partition's pending approvals not answered yet, for a UI on any worker. */
  listPending(partition: string): MaybePromise<readonly PendingApproval[]>;
  /**
   * Records `answer` if it is the first for its call and the call is pending with that arguments
   * hash; true when this answer won (exactly one does), false otherwise. The answer is kept
   * `ttlMs` ms.
   */
  answer(partition: string, answer: ApprovalAnswer, ttlMs: number): MaybePromise<boolean>;
  /**
   * Resolves with the answer of `callId` once there is one (at once when it is there already),
   * wherever it was given; with `undefined` when `signal` aborts first.
   */
  waitAnswer(partition: string, callId: string, signal: AbortSignal): Promise<ApprovalAnswer | undefined>;
  /**
   * Spends the answer of `callId`: resolves with it for the one caller that spends it first
   * (the call that waited, or a retry through {@link takeKeptAnswer}), with `undefined` for
   * every other caller and when there is no live answer. An answer is used exactly once.
   */
  spendAnswer(partition: string, callId: string): MaybePromise<ApprovalAnswer | undefined>;
  /**
   * The answer kept for the retry: the latest answer of a call of this partition with the same
   * server, tool and arguments hash that no call has spent yet (its worker died before it could),
   * spent by this read; `undefined` when there is none.
   */
  takeKeptAnswer(partition: string, call: ApprovalCallKey): MaybePromise<ApprovalAnswer | undefined>;
  /**
   * Keeps a record of the host's own state for `ttlMs` ms: a lazy server's last catalog
   * (`catalog`), a manual-mode `input_required` round waiting for its user (`input`), a slash
   * command's completion state (`completion`). Replaces the record of that kind and id.
   */
  putRecord(
    partition: string,
    kind: HostStateRecordKind,
    id: string,
    value: JsonObject,
    ttlMs: number,
  ): MaybePromise<void>;
  /** The record of that kind and id in this partition, or `undefined` (expired, never kept, another user's). */
  getRecord(partition: string, kind: HostStateRecordKind, id: string): MaybePromise<JsonObject | undefined>;
  /** Reads and removes the record (exactly one caller gets it), or `undefined`. */
  takeRecord(partition: string, kind: HostStateRecordKind, id: string): MaybePromise<JsonObject | undefined>;
}

/** The kinds of the host's records in a state store (see {@link HostStateStore.putRecord}). */
export type HostStateRecordKind = 'catalog' | 'input' | 'completion';

/** What a kept answer is bound to besides its user: the call's server, tool and arguments hash. */
export interface ApprovalCallKey {
  readonly server: string;
  /** The tool's original name. */
  readonly name: string;
  readonly argumentsHash: string;
}

/** The digest naming a call's server, tool and arguments hash in a store key (no raw names in keys). */
export function approvalCallDigest(call: ApprovalCallKey): string {
  return sha256Hex(`mcp-live/host-state/call\u0000${call.server}\u0000${call.name}\u0000${call.argumentsHash}`).slice(
    0,
    32,
  );
}

/**
 * The store partition of a user: `"host"` for the host's own records (no scope), else
 * `"u:<32 hex>"`, a domain-separated SHA-256 of the auth context (the cache's rule: a string id
 * and a `{ credential }` never meet, the value never appears in a key).
 */
export function statePartition(context: AuthContext | undefined): string {
  if (context === undefined) return 'host';
  const [kind, value] = typeof context === 'string' ? ['id', context] : ['credential', context.credential];
  return `u:${sha256Hex(`mcp-live/host-state/${kind}\u0000${value}`).slice(0, 32)}`;
}

interface Timed<T> {
  value: T;
  expiresAt: number;
}

/** Options of {@link MemoryHostStateStore}. */
export interface MemoryHostStateStoreOptions {
  /** Artifacts kept per partition, oldest out first. @default 1000 */
  maxArtifacts?: number | undefined;
  /** Records of each kind kept per partition, oldest out first. @default 1000 */
  maxRecords?: number | undefined;
  /** @default the system wall clock */
  wallClock?: WallClock | undefined;
}

/**
 * A {@link HostStateStore} in this process's memory: what one worker needs when nothing is
 * shared, and the store two hosts of one process share in tests. Nothing survives the process.
 */
export class MemoryHostStateStore implements HostStateStore {
  private readonly artifacts = new Map<string, Map<string, Timed<StoredArtifact>>>();
  private readonly pending = new Map<string, Map<string, Timed<PendingApproval>>>();
  private readonly answers = new Map<string, Timed<ApprovalAnswer>>();
  /** Answer key → when its spent mark expires. */
  private readonly spent = new Map<string, number>();
  /** Partition + call digest → the call id whose answer is kept for the retry. */
  private readonly kept = new Map<string, Timed<string>>();
  private readonly records = new Map<string, Map<string, Timed<JsonObject>>>();
  private readonly maxRecords: number;
  private readonly waiters = new AnswerWaiters();
  private readonly maxArtifacts: number;
  private readonly wallClock: WallClock;

  constructor(options: MemoryHostStateStoreOptions = {}) {
    this.maxArtifacts = options.maxArtifacts ?? 1000;
    this.maxRecords = options.maxRecords ?? 1000;
    this.wallClock = options.wallClock ?? systemWallClock;
  }

  putArtifact(partition: string, artifact: StoredArtifact, ttlMs: number): void {
    const kept = bucket(this.artifacts, partition);
    kept.set(artifact.id, { value: artifact, expiresAt: this.wallClock.now() + ttlMs });
    for (const id of kept.keys()) {
      if (kept.size <= this.maxArtifacts) break;
      kept.delete(id);
    }
  }

  getArtifact(partition: string, id: string): StoredArtifact | undefined {
    return this.live(this.artifacts.get(partition), id);
  }

  putPending(partition: string, pending: PendingApproval, ttlMs: number): void {
    bucket(this.pending, partition).set(pending.callId, { value: pending, expiresAt: this.wallClock.now() + ttlMs });
  }

  listPending(partition: string): readonly PendingApproval[] {
    const kept = this.pending.get(partition);
    if (kept === undefined) return [];
    return [...kept.keys()].flatMap((id) => {
      const pending = this.live(kept, id);
      return pending === undefined || this.answers.has(answerKey(partition, id)) ? [] : [pending];
    });
  }

  answer(partition: string, answer: ApprovalAnswer, ttlMs: number): boolean {
    const key = answerKey(partition, answer.callId);
    const pending = this.live(this.pending.get(partition), answer.callId);
    if (pending === undefined || pending.argumentsHash !== answer.argumentsHash) return false;
    const previous = this.answers.get(key);
    if (previous !== undefined && previous.expiresAt > this.wallClock.now()) return false;
    const expiresAt = this.wallClock.now() + ttlMs;
    this.answers.set(key, { value: answer, expiresAt });
    this.kept.set(answerKey(partition, approvalCallDigest(pending)), { value: answer.callId, expiresAt });
    this.sweep();
    this.waiters.resolve(key, answer);
    return true;
  }

  spendAnswer(partition: string, callId: string): ApprovalAnswer | undefined {
    const key = answerKey(partition, callId);
    const given = this.answers.get(key);
    const now = this.wallClock.now();
    if (given === undefined || given.expiresAt <= now) return undefined;
    if ((this.spent.get(key) ?? 0) > now) return undefined;
    this.spent.set(key, given.expiresAt);
    return given.value;
  }

  takeKeptAnswer(partition: string, call: ApprovalCallKey): ApprovalAnswer | undefined {
    const key = answerKey(partition, approvalCallDigest(call));
    const kept = this.kept.get(key);
    if (kept === undefined) return undefined;
    this.kept.delete(key);
    if (kept.expiresAt <= this.wallClock.now()) return undefined;
    return this.spendAnswer(partition, kept.value);
  }

  putRecord(partition: string, kind: HostStateRecordKind, id: string, value: JsonObject, ttlMs: number): void {
    const kept = bucket(this.records, `${partition}\u0000${kind}`);
    kept.delete(id);
    kept.set(id, { value: structuredClone(value), expiresAt: this.wallClock.now() + ttlMs });
    for (const key of kept.keys()) {
      if (kept.size <= this.maxRecords) break;
      kept.delete(key);
    }
  }

  getRecord(partition: string, kind: HostStateRecordKind, id: string): JsonObject | undefined {
    const value = this.live(this.records.get(`${partition}\u0000${kind}`), id);
    return value === undefined ? undefined : structuredClone(value);
  }

  takeRecord(partition: string, kind: HostStateRecordKind, id: string): JsonObject | undefined {
    const kept = this.records.get(`${partition}\u0000${kind}`);
    const value = this.live(kept, id);
    kept?.delete(id);
    return value;
  }

  /** Drops expired answers, spent marks and kept entries (they are bounded by their TTL). */
  private sweep(): void {
    const now = this.wallClock.now();
    for (const [key, entry] of this.answers) if (entry.expiresAt <= now) this.answers.delete(key);
    for (const [key, until] of this.spent) if (until <= now) this.spent.delete(key);
    for (const [key, entry] of this.kept) if (entry.expiresAt <= now) this.kept.delete(key);
  }

  waitAnswer(partition: string, callId: string, signal: AbortSignal): Promise<ApprovalAnswer | undefined> {
    const key = answerKey(partition, callId);
    const given = this.answers.get(key);
    if (given !== undefined && given.expiresAt > this.wallClock.now()) return Promise.resolve(given.value);
    return this.waiters.wait(key, signal).answer;
  }

  private live<T>(kept: Map<string, Timed<T>> | undefined, id: string): T | undefined {
    const entry = kept?.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.wallClock.now()) return entry.value;
    kept?.delete(id);
    return undefined;
  }
}

function bucket<T>(map: Map<string, Map<string, T>>, partition: string): Map<string, T> {
  let kept = map.get(partition);
  if (kept === undefined) {
    kept = new Map();
    map.set(partition, kept);
  }
  return kept;
}

function answerKey(partition: string, callId: string): string {
  return `${partition}\u0000${callId}`;
}
