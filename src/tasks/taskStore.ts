/**
 * Where task ids and what is needed to resume them live (spec: ext-tasks, Task Polling: "clients
 * SHOULD persist task IDs to durable storage so that polling can resume after a crash or
 * restart"): a dumb key/value store, in memory by default. A host that must survive a restart
 * passes its own (a file, Redis, IndexedDB); records are plain JSON.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { InputResponse } from '../wire/protocol.js';
import type { MaybePromise } from '../util/maybePromise.js';
import { taskExpiresAt } from '../wire/taskState.js';
import type { Task, TaskStatus } from '../wire/tasks.js';

/** One task as the client keeps it between polls, reconnects and restarts. Plain JSON. */
export interface TaskRecord {
  /** The server's task id (it may act as a bearer token for the task: keep the store private). */
  taskId: string;
  /** The server the task lives on (`transport.serverIdentity`); the task is only ever asked about there. */
  serverIdentity: string;
  /**
   * Whose task this is: the client's private cache partition (`private:<32 hex>`, a digest of
   * its declared auth context) when the call that created it started, if it declares one; part
   * of the record's key. Only a client acting for the same principal lists or resumes it.
   */
  principal?: string | undefined;
  /** The request the task runs: `tools/call`. */
  method: string;
  /** The tool called, when this client created the task. */
  toolName?: string | undefined;
  /** The last status seen. */
  status: TaskStatus;
  /** The last `statusMessage` seen. */
  statusMessage?: string | undefined;
  /** Epoch ms after which the task is given up (`createdAt + ttlMs`); `null` for no limit. */
  expiresAt: number | null;
  /** The server's last `pollIntervalMs`, in ms. */
  pollIntervalMs?: number | undefined;
  /** Keys of `inputRequests` whose answers the server acknowledged (`tasks/update`): never asked again. */
  answeredKeys: string[];
  /**
   * Answers the host gave whose `tasks/update` was not acknowledged yet (say the connection
   * dropped): sent again, without asking again, while the server still lists their keys.
   */
  pendingResponses?: Record<string, InputResponse> | undefined;
  /** Epoch ms of the last write. */
  updatedAt: number;
}

/**
 * Storage for {@link TaskRecord}s. Any method may return a promise. Keys are opaque strings made
 * by {@link taskKey}; one store may hold the tasks of many clients and servers side by side.
 */
export interface TaskStore {
  /** The record under `key`, or `undefined`. */
  get(key: string): MaybePromise<TaskRecord | undefined>;
  /** Stores `record` under `key`, replacing any record there. */
  set(key: string, record: TaskRecord): MaybePromise<void>;
  /** Removes the record under `key`, if any. */
  delete(key: string): MaybePromise<unknown>;
  /** Every key that starts with `prefix` (see {@link taskKeyPrefix}); may be a snapshot. */
  keys(prefix: string): MaybePromise<Iterable<string>>;
}

/**
 * The key prefix of every task of `serverIdentity` made for `principal` (a record's
 * {@link TaskRecord.principal}); without one, of the tasks made for no declared principal (and
 * a prefix of every other: read each record's `principal` too).
 */
export function taskKeyPrefix(serverIdentity: string, principal?: string): string {
  const prefix = `mcp-live/task\u0000${serverIdentity}\u0000`;
  return principal === undefined ? prefix : `${prefix}${principal}\u0000`;
}

/** The store key of one task: its server, its principal and its id, so ids from two servers (or users) never collide. */
export function taskKey(serverIdentity: string, taskId: string, principal?: string): string {
  return taskKeyPrefix(serverIdentity, principal) + taskId;
}

/**
 * The first record of a task this client's `tools/call` of `toolName` created: its seed state
 * (the `CreateTaskResult`), seen at `now` (epoch ms), nothing answered yet.
 */
export function createdTaskRecord(
  serverIdentity: string,
  toolName: string,
  seed: Task,
  now: number,
  principal?: string,
): TaskRecord {
  return {
    taskId: seed.taskId,
    serverIdentity,
    ...(principal !== undefined && { principal }),
    method: 'tools/call',
    toolName,
    status: seed.status,
    ...(seed.statusMessage !== undefined && { statusMessage: seed.statusMessage }),
    expiresAt: taskExpiresAt(seed, now),
    ...(seed.pollIntervalMs !== undefined && { pollIntervalMs: seed.pollIntervalMs }),
    answeredKeys: [],
    updatedAt: now,
  };
}

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** Most records kept; the least recently written go first. Positive integer. @default 1000 */
  maxEntries?: number | undefined;
}

/**
 * The default {@link TaskStore}: a `Map` in this process (tasks survive a reconnect, not a
 * restart). Share one between clients to resume a task on a new connection. Records are
 * copied in and out, as a real store would serialise them.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly records = new Map<string, string>();
  private readonly maxEntries: number;

  /** @throws InvalidArgumentError (-32602) when `maxEntries` is not a positive integer. */
  constructor(options: MemoryTaskStoreOptions = {}) {
    const max = options.maxEntries ?? 1000;
    if (!Number.isInteger(max) || max < 1)
      throw new InvalidArgumentError('maxEntries', max, 'expected a positive integer');
    this.maxEntries = max;
  }

  /** How many records are held. */
  get size(): number {
    return this.records.size;
  }

  get(key: string): TaskRecord | undefined {
    const text = this.records.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as TaskRecord);
  }

  set(key: string, record: TaskRecord): void {
    this.records.delete(key);
    this.records.set(key, JSON.stringify(record));
    if (this.records.size > this.maxEntries) {
      const oldest = this.records.keys().next();
      if (oldest.done !== true) this.records.delete(oldest.value);
    }
  }

  delete(key: string): boolean {
    return this.records.delete(key);
  }

  keys(prefix: string): string[] {
    return [...this.records.keys()].filter((key) => key.startsWith(prefix));
  }
}
