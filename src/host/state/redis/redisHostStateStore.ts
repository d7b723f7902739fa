/**
 * The host state store in Redis, shared by the workers of a fleet (`mcp-live/redis`): artifacts
 * and pending approvals as keys with a TTL, an approval's answer recorded with `SET NX` (the
 * first answer wins, on whichever worker it is given) and announced on one channel, so the
 * call waiting for it resolves wherever it runs.
 */
import type { Redis } from 'ioredis';
import { InvalidArgumentError } from '../../../errors/errors.js';
import type { JsonObject } from '../../../wire/messages.js';
import { systemTimers, type Timers } from '../../../util/clock.js';
import {
  AnswerWaiters,
  approvalCallDigest,
  type ApprovalAnswer,
  type ApprovalCallKey,
  type HostStateRecordKind,
  type HostStateStore,
  type PendingApproval,
  type StoredArtifact,
} from '../stateStore.js';
import { HostStateError } from '../stateErrors.js';

/** Options of {@link RedisHostStateStore}. */
export interface RedisHostStateStoreOptions {
  /**
   * An ioredis connection the host already has (the store never closes it). Waiting for
   * answers needs a subscriber connection: the store makes one with `client.duplicate()` on the
   * first wait and closes it in {@link RedisHostStateStore.close}.
   */
  client: Redis;
  /** What every key of the store starts with (then `hs:`). Must not hold `{`, `}` or `*`. @default "mcp-live:" */
  prefix?: string | undefined;
  /** Longest wait for one Redis command, in ms; past it the operation fails with `HostStateError` (`timeout`). @default 1000 */
  timeoutMs?: number | undefined;
  /** Receives the errors of the subscriber connection and of malformed records. @default ignore */
  onError?: ((error: Error) => void) | undefined;
  /** Timers for the command timeouts. @default the globals */
  timers?: Timers | undefined;
}

/** Default {@link RedisHostStateStoreOptions.timeoutMs}. */
export const DEFAULT_HOST_STATE_TIMEOUT_MS = 1000;

/**
 * A {@link HostStateStore} in Redis (see the module comment). Keys: `<prefix>hs:art:<partition>:<id>`,
 * `<prefix>hs:pend:<partition>:<callId>`, `<prefix>hs:ans:<partition>:<callId>`, its spent mark `<prefix>hs:spent:<partition>:<callId>`, the answer
 * kept for the retry `<prefix>hs:kept:<partition>:<call digest>` (`GETDEL`: Redis 6.2 or later), the host's records `<prefix>hs:rec:<kind>:<partition>:<id>`; channel
 * `<prefix>hs:answers`. A partition is a digest (`statePartition`), never a user id.
 * @throws InvalidArgumentError (-32602) for a missing client, a bad prefix or timeout.
 */
export class RedisHostStateStore implements HostStateStore {
  private readonly client: Redis;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly timers: Timers;
  private readonly onError: (error: Error) => void;
  private subscriber: Promise<Redis> | undefined;
  private readonly waiters = new AnswerWaiters();
  private closed = false;

  constructor(options: RedisHostStateStoreOptions) {
    if (typeof options?.client?.duplicate !== 'function')
      throw new InvalidArgumentError('client', typeof options?.client, 'expected an ioredis client');
    const prefix = options.prefix ?? 'mcp-live:';
    if (typeof prefix !== 'string' || /[{}*]/.test(prefix))
      throw new InvalidArgumentError('prefix', prefix, 'expected a string without "{", "}" or "*"');
    const timeoutMs = options.timeoutMs ?? DEFAULT_HOST_STATE_TIMEOUT_MS;
    if (!(typeof timeoutMs === 'number' && timeoutMs > 0))
      throw new InvalidArgumentError('timeoutMs', timeoutMs, 'expected a positive number of ms');
    this.client = options.client;
    this.prefix = `${prefix}hs:`;
    this.timeoutMs = timeoutMs;
    this.timers = options.timers ?? systemTimers;
    this.onError = options.onError ?? (() => {});
  }

  async putArtifact(partition: string, artifact: StoredArtifact, ttlMs: number): Promise<void> {
    await this.run('putArtifact', () =>
      this.client.set(this.key('art', partition, artifact.id), JSON.stringify(artifact), 'PX', ttl(ttlMs)),
    );
  }

  async getArtifact(partition: string, id: string): Promise<StoredArtifact | undefined> {
    const text = await this.run('getArtifact', () => this.client.get(this.key('art', partition, id)));
    return this.parse<StoredArtifact>(text, 'getArtifact');
  }

  async putPending(partition: string, pending: PendingApproval, ttlMs: number): Promise<void> {
    await this.run('putPending', () =>
      this.client.set(this.key('pend', partition, pending.callId), JSON.stringify(pending), 'PX', ttl(ttlMs)),
    );
  }

  async listPending(partition: string): Promise<readonly PendingApproval[]> {
    const pattern = `${this.key('pend', partition, '')}*`;
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.run('listPending', () =>
        this.client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000),
      );
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    if (keys.length === 0) return [];
    const answerKeys = keys.map((key) => this.prefix + 'ans:' + key.slice(this.prefix.length + 'pend:'.length));
    const values = await this.run('listPending', () => this.client.mget(...keys, ...answerKeys));
    const list: PendingApproval[] = [];
    keys.forEach((_, i) => {
      const pending = this.parse<PendingApproval>(values[i] ?? null, 'listPending');
      if (pending !== undefined && values[keys.length + i] == null) list.push(pending);
    });
    return list;
  }

  async answer(partition: string, answer: ApprovalAnswer, ttlMs: number): Promise<boolean> {
    const pending = this.parse<PendingApproval>(
      await this.run('answer', () => this.client.get(this.key('pend', partition, answer.callId))),
      'answer',
    );
    if (pending === undefined || pending.argumentsHash !== answer.argumentsHash) return false;
    const key = this.key('ans', partition, answer.callId);
    const won = await this.run('answer', () => this.client.set(key, JSON.stringify(answer), 'PX', ttl(ttlMs), 'NX'));
    if (won !== 'OK') return false;
    // Kept for the retry of the same call (same user, tool and arguments) should its worker be gone.
    await this.run('answer', () =>
      this.client.set(this.key('kept', partition, approvalCallDigest(pending)), answer.callId, 'PX', ttl(ttlMs)),
    ).catch((error: unknown) => this.onError(error as Error));
    // Every worker hears it; the one whose call waits resolves it. A lost publish is caught by the wait's own read.
    await this.run('answer', () => this.client.publish(this.channel, JSON.stringify({ key, answer }))).catch(
      (error: unknown) => this.onError(error as Error),
    );
    return true;
  }

  async waitAnswer(partition: string, callId: string, signal: AbortSignal): Promise<ApprovalAnswer | undefined> {
    if (signal.aborted) return undefined;
    const key = this.key('ans', partition, callId);
    await this.subscribed();
    const { answer, cancel } = this.waiters.wait(key, signal);
    // An answer given before the subscription was in place: read it once. A failed read fails the wait.
    try {
      const stored = this.parse<ApprovalAnswer>(await this.run('waitAnswer', () => this.client.get(key)), 'waitAnswer');
      if (stored !== undefined) this.waiters.resolve(key, stored);
    } catch (error) {
      cancel();
      throw error;
    }
    return answer;
  }

  async spendAnswer(partition: string, callId: string): Promise<ApprovalAnswer | undefined> {
    const text = await this.run(
      'spendAnswer',
      () =>
        this.client.eval(
          SPEND_SCRIPT,
          2,
          this.key('ans', partition, callId),
          this.key('spent', partition, callId),
        ) as Promise<string | null>,
    );
    return this.parse<ApprovalAnswer>(text, 'spendAnswer');
  }

  async takeKeptAnswer(partition: string, call: ApprovalCallKey): Promise<ApprovalAnswer | undefined> {
    const callId = await this.run('takeKeptAnswer', () =>
      this.client.getdel(this.key('kept', partition, approvalCallDigest(call))),
    );
    return callId === null ? undefined : this.spendAnswer(partition, callId);
  }

  async putRecord(
    partition: string,
    kind: HostStateRecordKind,
    id: string,
    value: JsonObject,
    ttlMs: number,
  ): Promise<void> {
    await this.run('putRecord', () =>
      this.client.set(this.key(`rec:${kind}`, partition, id), JSON.stringify(value), 'PX', ttl(ttlMs)),
    );
  }

  async getRecord(partition: string, kind: HostStateRecordKind, id: string): Promise<JsonObject | undefined> {
    const text = await this.run('getRecord', () => this.client.get(this.key(`rec:${kind}`, partition, id)));
    return this.parse<JsonObject>(text, 'getRecord');
  }

  async takeRecord(partition: string, kind: HostStateRecordKind, id: string): Promise<JsonObject | undefined> {
    const text = await this.run('takeRecord', () => this.client.getdel(this.key(`rec:${kind}`, partition, id)));
    return this.parse<JsonObject>(text, 'takeRecord');
  }

  /** Closes the subscriber connection the store made (never the client it was given). Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber !== undefined) {
      const connection = await subscriber.catch(() => undefined);
      connection?.disconnect();
    }
  }

  private get channel(): string {
    return `${this.prefix}answers`;
  }

  private key(
    kind: 'art' | 'pend' | 'ans' | 'spent' | 'kept' | `rec:${HostStateRecordKind}`,
    partition: string,
    id: string,
  ): string {
    return `${this.prefix}${kind}:${partition}:${id}`;
  }

  private subscribed(): Promise<Redis> {
    if (this.closed) return Promise.reject(this.failure('wait', 'unreachable', new Error('the store is closed')));
    this.subscriber ??= (async () => {
      const connection = this.client.duplicate();
      connection.on('error', (error: Error) => this.onError(this.failure('subscribe', 'unreachable', error)));
      connection.on('message', (channel: string, message: string) => {
        if (channel !== this.channel) return;
        let parsed: { key?: unknown; answer?: ApprovalAnswer };
        try {
          parsed = JSON.parse(message) as typeof parsed;
        } catch {
          return;
        }
        if (typeof parsed.key !== 'string' || parsed.answer === undefined) return;
        this.waiters.resolve(parsed.key, parsed.answer);
      });
      await this.run('subscribe', () => connection.subscribe(this.channel));
      return connection;
    })();
    this.subscriber.catch(() => {
      this.subscriber = undefined; // the next wait tries again
    });
    return this.subscriber;
  }

  private parse<T>(text: string | null, operation: string): T | undefined {
    if (text === null) return undefined;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null) return value as T;
    } catch {
      // reported below
    }
    this.onError(this.failure(operation, 'malformed-record', undefined));
    return undefined;
  }

  private run<T>(operation: string, command: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = this.timers.setTimeout(() => reject(this.failure(operation, 'timeout', undefined)), this.timeoutMs);
      let pending: Promise<T>;
      try {
        pending = command();
      } catch (error) {
        this.timers.clearTimeout(timer);
        reject(this.failure(operation, 'unreachable', error));
        return;
      }
      pending.then(
        (value) => {
          this.timers.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          this.timers.clearTimeout(timer);
          reject(this.failure(operation, 'unreachable', error));
        },
      );
    });
  }

  private failure(operation: string, reason: HostStateError['data']['reason'], cause: unknown): HostStateError {
    const why =
      reason === 'timeout'
        ? `no answer within ${this.timeoutMs} ms`
        : reason === 'malformed-record'
          ? 'a key holds no record of this store'
          : cause instanceof Error
            ? cause.message
            : String(cause);
    return new HostStateError(`host state store (Redis) ${operation}: ${why}`, { operation, reason }, cause);
  }
}

/**
 * KEYS[1] the answer, KEYS[2] its spent mark: the answer for the one caller that sets the mark
 * (kept as long as the answer), nil for the others and when there is no answer.
 */
const SPEND_SCRIPT = `
local left = redis.call('PTTL', KEYS[1])
if left <= 0 then return false end
if not redis.call('SET', KEYS[2], '1', 'PX', left, 'NX') then return false end
return redis.call('GET', KEYS[1])
`;

function ttl(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}
