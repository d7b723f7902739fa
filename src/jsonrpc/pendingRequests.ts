/**
 * The requests of a JSON-RPC session that await their response: found by id or by the progress
 * token the caller chose, timed by one timer for the earliest deadline, settled once, and the
 * ids recently given up on remembered (a late response to one of them is dropped quietly).
 */
import type { CancelSource } from '../transport/cancelHandle.js';
import type { Clock, Timers } from '../util/clock.js';
import type { JsonObject, JsonRpcRequest, RequestId } from '../wire/messages.js';
import type { SessionRequestOptions } from './sessionOptions.js';
import { SessionTimer } from './sessionTimer.js';

/** One request awaiting its response. */
export interface PendingRequest {
  /** Changes when the request is re-issued after a broken stream. */
  id: RequestId;
  message: JsonRpcRequest;
  reissuesLeft: number;
  readonly method: string;
  readonly options: SessionRequestOptions;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
  /** Clock time (ms) at which the idle timeout ends; progress moves it when `resetTimeoutOnProgress`. */
  idleDeadline: number;
  /** Clock time (ms) at which the total timeout ends; `Infinity` when the idle one always comes first. */
  totalDeadline: number;
  /**
   * True while the deadlines count: from the send until the request settles or
   * {@link PendingRequests.untime} ends them for good.
   */
  timed: boolean;
  abortListener: (() => void) | undefined;
  /** The cancellation of the current send; renewed when the request is re-issued. */
  sendCancel: CancelSource | undefined;
  /** True when aborting {@link sendCancel} is the whole cancellation (no `notifications/cancelled`). */
  abortOnly: boolean;
  progressToken: string | number;
  /**
   * Set when the transport refused or failed the send because its connection is ending: the
   * request waits for that close, which settles it with this outcome.
   */
  sendFailed: 'unknown' | 'not-sent' | undefined;
}

/** Which of a request's deadlines passed: the idle one (no news for `timeoutMs`) or the total one. */
export type DeadlineKind = 'idle' | 'total';

const RECENTLY_CANCELLED_LIMIT = 1024;

/** See the file's opening comment. */
export class PendingRequests {
  private readonly byId = new Map<RequestId, PendingRequest>();
  /** Caller-chosen progress tokens that differ from the request id. */
  private readonly byToken = new Map<string | number, PendingRequest>();
  private readonly recentlyCancelled = new Set<RequestId>();
  /** The one timer, for the earliest deadline of the timed requests; cleared when none is. */
  private readonly timer: SessionTimer;
  /** Requests whose deadlines count ({@link PendingRequest.timed}). */
  private timedCount = 0;

  /**
   * @param expired called for each request whose deadline passed, while it is still pending
   *   (an idle deadline first when both did)
   */
  constructor(
    timers: Timers,
    private readonly clock: Clock,
    private readonly expired: (entry: PendingRequest, kind: DeadlineKind) => void,
  ) {
    this.timer = new SessionTimer(timers, clock, (now) => this.onDeadlines(now));
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: RequestId): PendingRequest | undefined {
    return this.byId.get(id);
  }

  /** The pending requests, as a list that later changes do not affect. */
  list(): PendingRequest[] {
    return [...this.byId.values()];
  }

  add(entry: PendingRequest): void {
    this.byId.set(entry.id, entry);
    if (entry.progressToken !== entry.id) this.byToken.set(entry.progressToken, entry);
  }

  /** The request a progress notification's token names, if still pending. */
  forProgressToken(token: string | number): PendingRequest | undefined {
    const entry = this.byToken.get(token) ?? this.byId.get(token);
    return entry?.progressToken === token ? entry : undefined;
  }

  /** The request is sent again under `newId`: `oldId` is forgotten, as if cancelled. */
  renamed(entry: PendingRequest, oldId: RequestId, newId: RequestId): void {
    this.byId.delete(oldId);
    this.rememberCancelled(oldId);
    entry.id = newId;
    this.byId.set(newId, entry);
  }

  /** Starts the request's deadlines at `now` (clock ms). */
  time(entry: PendingRequest, now: number): void {
    const options = entry.options;
    entry.idleDeadline = now + options.timeoutMs;
    // Without progress resets, a total limit no longer than the idle one never comes first.
    entry.totalDeadline =
      options.maxTotalTimeoutMs > options.timeoutMs || options.resetTimeoutOnProgress
        ? now + options.maxTotalTimeoutMs
        : Infinity;
    entry.timed = true;
    this.timedCount++;
    this.timer.arm(Math.min(entry.idleDeadline, entry.totalDeadline), now);
  }

  /** Progress came: the idle deadline starts again (only the number moves; the timer finds it later). */
  touched(entry: PendingRequest): void {
    if (entry.options.resetTimeoutOnProgress && entry.timed)
      entry.idleDeadline = this.clock.now() + entry.options.timeoutMs;
  }

  /** The request's deadlines stop counting; the timer is cleared once none does. */
  untime(entry: PendingRequest): void {
    if (!entry.timed) return;
    entry.timed = false;
    this.timedCount--;
    if (this.timedCount === 0) this.timer.clear();
  }

  /**
   * Removes a pending request, ends its deadlines and its signal's listener, and rejects or
   * resolves it. Does nothing when it is no longer pending.
   */
  settle(entry: PendingRequest, outcome: Error | JsonObject): void {
    if (this.byId.get(entry.id) !== entry) return;
    this.byId.delete(entry.id);
    if (entry.progressToken !== entry.id) this.byToken.delete(entry.progressToken);
    this.untime(entry);
    if (entry.abortListener !== undefined) entry.options.signal?.removeEventListener('abort', entry.abortListener);
    if (outcome instanceof Error) entry.reject(outcome);
    else entry.resolve(outcome);
  }

  /** Remembers `id` as given up on, among the last 1024. */
  rememberCancelled(id: RequestId): void {
    if (this.recentlyCancelled.size >= RECENTLY_CANCELLED_LIMIT) {
      const oldest = this.recentlyCancelled.values().next();
      if (oldest.done !== true) this.recentlyCancelled.delete(oldest.value);
    }
    this.recentlyCancelled.add(id);
  }

  /** True (once) when `id` was given up on recently: its late response is expected. */
  forgetCancelled(id: RequestId): boolean {
    return this.recentlyCancelled.delete(id);
  }

  /**
   * The timer fired at `now`: each request whose deadline passed expires, and the earliest
   * deadline left is returned (`Infinity`: none).
   */
  private onDeadlines(now: number): number {
    let next = Infinity;
    let due: PendingRequest[] | undefined;
    for (const entry of this.byId.values()) {
      if (!entry.timed) continue;
      const at = Math.min(entry.idleDeadline, entry.totalDeadline);
      if (!(at > now)) (due ??= []).push(entry);
      else if (at < next) next = at;
    }
    if (due !== undefined) {
      for (const entry of due) {
        if (this.byId.get(entry.id) !== entry) continue;
        this.expired(entry, entry.totalDeadline < entry.idleDeadline ? 'total' : 'idle');
      }
    }
    return this.timedCount > 0 ? next : Infinity;
  }
}
