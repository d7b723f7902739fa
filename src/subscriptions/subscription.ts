/**
 * One subscription's lifecycle (spec: basic/patterns/subscriptions): `opening` → `open` →
 * (`reopening` → `open`)* → `closed`. It sends `subscriptions/listen`, waits for the
 * acknowledgment, keeps the stream open without a timeout, and reopens it under the reopen
 * budget when it ends without the host asking. Incoming notifications reach it through the
 * manager (`subscriptionManager.ts`) and its routes.
 */
import {
  abortedError,
  ConnectionClosedError,
  isCancelledError,
  isRpcError,
  isTimeoutError,
  McpError,
} from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import type { JsonObject, RequestId } from '../wire/messages.js';
import type { ServerCapabilities, SubscriptionFilter } from '../wire/protocol.js';
import type { Clock } from '../util/clock.js';
import { abortableDelay } from '../util/signals.js';
import { boundedTimers } from '../util/timerBounds.js';
import { SubscriptionClosedError, isSubscriptionClosedError } from './errors.js';
import { EventStream } from '../util/eventStream.js';
import { filterMinus, filterUnion, isEmptyFilter, readAcknowledged, type FilterFlag } from './filter.js';
import { invalidationsForFilter } from './filterInvalidations.js';
import type { Invalidation } from './invalidation.js';
import { ReopenBudget, reopenWithRetry } from '../resilience/reopenBudget.js';
import type { ResolvedReopenPolicy } from '../resilience/reopenPolicy.js';
import type {
  Subscription,
  SubscriptionClosed,
  SubscriptionEndReason,
  SubscriptionEvent,
  SubscriptionState,
} from './types.js';
import { HELD_EVENTS } from './options.js';

/** @internal The request a subscription's stream is. */
export const METHOD = 'subscriptions/listen';

/** What the client lends the subscriptions: the session's listen request and its state. */
export interface SubscriptionWireDeps {
  /**
   * Sends `subscriptions/listen` with `notifications: filter` (and the protocol `_meta`).
   * `onRequestId` is called synchronously with its JSON-RPC id. Resolves with the listen's
   * final result (a graceful end); rejects as any request does (`RpcError`, `TimeoutError`
   * after `timeoutMs` without a response, `CancelledError` when `signal` aborts, after which
   * the server is told, `ConnectionClosedError`).
   */
  listen(
    filter: SubscriptionFilter,
    options: { signal: AbortSignal; timeoutMs: number; onRequestId: (id: RequestId) => void },
  ): Promise<JsonObject>;
  /** Clears the timeouts of the pending listen `id` for good (its ack arrived). */
  disarmTimeouts(id: RequestId): void;
  /** Settles the pending listen `id` with `error` without a word to the server (the server ended it). */
  abandon(id: RequestId, error: Error): void;
  /** The server's capabilities from discovery. */
  capabilities(): ServerCapabilities | undefined;
  /** Whether the client is connected (requests can be sent). */
  connected(): boolean;
  /** Whether the client is reconnecting after a drop: a stream it cut is opened again once {@link whenOpen} resolves. */
  reconnecting(): boolean;
  /**
   * Resolves once the client's connection is open (at once when it is); rejects with
   * `CancelledError` when `signal` aborts, `TimeoutError` after `timeoutMs` (no limit when
   * absent), `ConnectionClosedError` when the client gives up or closes.
   */
  whenOpen(signal: AbortSignal | undefined, timeoutMs?: number): Promise<void>;
}

/** @internal What a subscription needs from its manager. */
export interface SubscriptionDeps {
  readonly host: SubscriptionWireDeps;
  readonly clock: Clock;
  readonly random: () => number;
  readonly onError: (error: Error) => void;
  /** Routes notifications naming `id` to `route`. */
  register(id: RequestId, route: ListenRoute): void;
  /** Stops routing `id`. */
  unregister(id: RequestId): void;
  /** Drops the cache entries named (errors are reported, never thrown). */
  invalidate(invalidations: readonly Invalidation[]): Promise<void>;
  /** A subscription was made: keep it (until {@link release}) so that the client can close it. */
  track(subscription: ManagedSubscription): void;
  /** The subscription closed: forget it. */
  release(subscription: ManagedSubscription): void;
}

/** @internal Where the manager sends what arrives for one listen request. */
export interface ListenRoute {
  readonly subscription: ManagedSubscription;
  /** `notifications/subscriptions/acknowledged` with its `notifications` as received. */
  acknowledged(notifications: unknown): void;
  /** `notifications/cancelled` from the server for this listen request. */
  cancelledByServer(reason: string | undefined): void;
}

/** @internal Settings of one subscription. */
export interface SubscriptionSettings {
  /** The host's filter narrowed to what the server can deliver. */
  requested: SubscriptionFilter;
  /** The part of the host's filter the capabilities ruled out. */
  unsupported: SubscriptionFilter;
  /** Ack timeout, in ms. */
  timeoutMs: number;
  reopen: ResolvedReopenPolicy | false;
  signal?: AbortSignal | undefined;
  onEvent?: ((event: SubscriptionEvent) => void) | undefined;
}

/** How one listen request ended. */
interface ListenEnd {
  reason: SubscriptionEndReason;
  error?: Error | undefined;
}

/** One `subscriptions/listen` request of a subscription. */
class ListenAttempt implements ListenRoute {
  id: RequestId | undefined;
  acked = false;
  ackedAt = 0;
  readonly controller = new AbortController();
  readonly ack: Promise<SubscriptionFilter>;
  resolveAck!: (honoured: SubscriptionFilter) => void;
  rejectAck!: (error: Error) => void;

  constructor(readonly subscription: ManagedSubscription) {
    this.ack = new Promise<SubscriptionFilter>((resolve, reject) => {
      this.resolveAck = resolve;
      this.rejectAck = reject;
    });
    this.ack.catch(() => {}); // the opener may be gone (closed); never unhandled
  }

  acknowledged(notifications: unknown): void {
    this.subscription.onAcknowledged(this, notifications);
  }

  cancelledByServer(reason: string | undefined): void {
    this.subscription.onServerCancelled(this, reason);
  }
}

/** Classifies how a listen request ended from its rejection. */
export function endOf(error: unknown): ListenEnd {
  const asError = error instanceof Error ? error : new Error(String(error));
  if (isSubscriptionClosedError(error))
    return { reason: (error.data as { reason: SubscriptionEndReason }).reason, error: asError };
  if (isCancelledError(error)) return { reason: 'closed', error: asError };
  if (isTimeoutError(error)) return { reason: 'ack-timeout', error: asError };
  if (McpError.is(error) && error.local && error.code === ErrorCode.ConnectionClosed)
    return { reason: 'transport-closed', error: asError };
  if (isRpcError(error)) return { reason: 'server-error', error: asError };
  return { reason: 'failed', error: asError };
}

/**
 * Whether a failed reopen attempt may be tried again: server errors other than "no such
 * method" and "invalid params" (which would fail the same way), timeouts, and early ends.
 * Never after the host's abort, a closed connection, or a local bug (`TypeError`).
 */
export function isRetryableReopenFailure(error: unknown): boolean {
  if (isRpcError(error))
    return (
      error.code !== ErrorCode.MethodNotFound &&
      error.code !== ErrorCode.InvalidParams &&
      error.code !== ErrorCode.InvalidRequest
    );
  if (isTimeoutError(error) || isSubscriptionClosedError(error)) return true;
  return false;
}

/** The error of an opening cut short by the client: the connection's, or `SubscriptionClosedError`. */
function closedWhileOpening(end: ListenEnd, cause: unknown): Error {
  if (end.reason === 'transport-closed' && end.error !== undefined) return end.error;
  if (end.reason === 'client-closed')
    return new ConnectionClosedError(
      `${METHOD}: connection closed (closed by client)`,
      { reason: 'closed by client' },
      cause,
    );
  return new SubscriptionClosedError(`${METHOD} closed while opening (${end.reason})`, { reason: end.reason }, cause);
}

/** @internal The {@link Subscription} implementation. */
export class ManagedSubscription implements Subscription {
  readonly requested: SubscriptionFilter;
  readonly closed: Promise<SubscriptionClosed>;
  private honouredValue: SubscriptionFilter = {};
  private readonly unsupported: SubscriptionFilter;
  private stateValue: SubscriptionState | 'opening' = 'opening';
  private current: ListenAttempt | undefined;
  private readonly lifetime = new AbortController();
  private readonly events: EventStream<SubscriptionEvent>;
  private reopenCount = 0;
  private budget: ReopenBudget | undefined;
  private resolveClosed!: (info: SubscriptionClosed) => void;
  private readonly onHostAbort: (() => void) | undefined;
  private closedInfo: ListenEnd | undefined;

  constructor(
    private readonly deps: SubscriptionDeps,
    private readonly settings: SubscriptionSettings,
  ) {
    this.requested = Object.freeze({ ...settings.requested });
    this.unsupported = settings.unsupported;
    this.closed = new Promise<SubscriptionClosed>((resolve) => {
      this.resolveClosed = resolve;
    });
    this.events = new EventStream<SubscriptionEvent>({
      onError: deps.onError,
      keyOf: (event) =>
        event.type === 'resourceUpdated'
          ? `resourceUpdated ${event.uri}`
          : event.type === 'taskStatus'
            ? `taskStatus ${event.task.taskId}`
            : event.type.endsWith('Changed')
              ? event.type
              : undefined,
      holdUntilHeard: HELD_EVENTS,
    });
    if (settings.onEvent !== undefined) this.events.on(settings.onEvent);
    const signal = settings.signal;
    if (signal !== undefined) {
      this.onHostAbort = () => this.finish({ reason: 'closed' }, signal.reason);
      signal.addEventListener('abort', this.onHostAbort, { once: true });
    }
  }

  get honoured(): SubscriptionFilter {
    return this.honouredValue;
  }

  get notHonoured(): SubscriptionFilter {
    return filterUnion(this.unsupported, filterMinus(this.requested, this.honouredValue));
  }

  get subscriptionId(): RequestId | undefined {
    const attempt = this.current;
    return attempt !== undefined && attempt.acked ? attempt.id : undefined;
  }

  get state(): SubscriptionState {
    return this.stateValue === 'opening' ? 'reopening' : this.stateValue;
  }

  get reopens(): number {
    return this.reopenCount;
  }

  on(listener: (event: SubscriptionEvent) => void): () => void {
    return this.events.on(listener);
  }

  [Symbol.asyncIterator](): AsyncIterator<SubscriptionEvent> {
    return this.events.iterate();
  }

  close(): Promise<void> {
    this.finish({ reason: 'closed' });
    return Promise.resolve();
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Opens the first stream and resolves at its acknowledgment, once the cache entries the
   * acknowledged subset covers are dropped (changes before it were never announced). With
   * nothing deliverable to ask for, sends nothing and resolves at once. On failure the subscription is closed and the
   * error rethrown (a host abort as `CancelledError` with the signal's reason as `cause`).
   */
  async open(): Promise<void> {
    const signal = this.settings.signal;
    if (isEmptyFilter(this.requested)) {
      this.stateValue = 'open';
      return;
    }
    try {
      const { honoured } = await this.firstListen();
      this.honouredValue = honoured;
      // Changes before the acknowledgment were never announced: what the stream covers from now
      // on may already be stale in the cache (as after a reopen).
      await this.deps.invalidate(invalidationsForFilter(honoured));
      if (this.stateValue === 'opening') this.stateValue = 'open';
    } catch (error) {
      if (signal?.aborted) {
        this.finish({ reason: 'closed' });
        throw abortedError(METHOD, signal.reason);
      }
      const closedBy = this.closedInfo;
      if (closedBy !== undefined) throw closedWhileOpening(closedBy, error);
      this.finish(endOf(error));
      throw error;
    }
    const closedBy = this.closedInfo;
    if (closedBy !== undefined) {
      if (signal?.aborted) throw abortedError(METHOD, signal.reason);
      throw closedWhileOpening(closedBy, undefined);
    }
  }

  /** Closes for good (idempotent): stops any reopen, cancels the stream, ends iterators. */
  finish(end: ListenEnd, abortReason?: unknown): void {
    if (this.stateValue === 'closed') return;
    this.stateValue = 'closed';
    this.closedInfo = end;
    const reason =
      abortReason ?? new SubscriptionClosedError(`subscription closed (${end.reason})`, { reason: end.reason });
    this.lifetime.abort(reason);
    const attempt = this.current;
    this.current = undefined;
    // Still pending: the session cancels it on the wire. Already settled: nothing happens.
    attempt?.controller.abort(reason);
    if (this.onHostAbort !== undefined) this.settings.signal?.removeEventListener('abort', this.onHostAbort);
    this.deps.release(this);
    this.events.end();
    this.resolveClosed({
      reason: end.reason,
      ...(end.error !== undefined && { error: end.error }),
      reopens: this.reopenCount,
    });
  }

  /** @internal The client closed, or its transport dropped (announced with `subscriptionLost` when the stream was up). */
  closeFromClient(reason: 'client-closed' | 'transport-closed', error?: Error): void {
    if (this.stateValue === 'closed') return;
    if (reason === 'transport-closed' && this.stateValue !== 'opening') {
      this.events.emit({ type: 'subscriptionLost', reason, error, willReopen: false });
    }
    this.finish({ reason, error });
  }

  /** Delivers one change event routed here by the manager (after the cache was invalidated). */
  deliver(event: SubscriptionEvent, flag: FilterFlag | 'resourceSubscriptions' | 'taskIds'): boolean {
    if (this.stateValue === 'closed') return false;
    const asked =
      flag === 'resourceSubscriptions'
        ? (this.requested.resourceSubscriptions?.length ?? 0) > 0
        : flag === 'taskIds'
          ? event.type === 'taskStatus' && this.requested.taskIds?.includes(event.task.taskId) === true
          : this.requested[flag] === true;
    if (!asked) return false;
    this.events.emit(event);
    return true;
  }

  /** @internal The ack of `attempt` arrived. */
  onAcknowledged(attempt: ListenAttempt, notifications: unknown): void {
    if (attempt.acked || attempt.id === undefined) return;
    attempt.acked = true;
    attempt.ackedAt = this.deps.clock.now();
    this.deps.host.disarmTimeouts(attempt.id);
    attempt.resolveAck(readAcknowledged(notifications, this.requested));
  }

  /** @internal The server sent `notifications/cancelled` for `attempt`. */
  onServerCancelled(attempt: ListenAttempt, reason: string | undefined): void {
    if (attempt.id === undefined) return;
    const id = attempt.id;
    this.deps.host.abandon(
      id,
      new SubscriptionClosedError(`the server cancelled ${METHOD}${reason === undefined ? '' : `: ${reason}`}`, {
        reason: 'server-cancelled',
        subscriptionId: id,
      }),
    );
  }

  /** Sends one listen request; resolves at its ack, rejects if it ends (or fails) first. */
  private startListen(): Promise<{ attempt: ListenAttempt; honoured: SubscriptionFilter }> {
    const attempt = new ListenAttempt(this);
    this.current = attempt;
    let request: Promise<JsonObject>;
    try {
      request = this.deps.host.listen(this.requested, {
        signal: attempt.controller.signal,
        timeoutMs: this.settings.timeoutMs,
        onRequestId: (id) => {
          attempt.id = id;
          this.deps.register(id, attempt);
        },
      });
    } catch (error) {
      request = Promise.reject(error);
    }
    request.then(
      () => this.listenEnded(attempt, { reason: 'server-ended' }),
      (error: unknown) => this.listenEnded(attempt, endOf(error)),
    );
    return attempt.ack.then((honoured) => ({ attempt, honoured }));
  }

  private listenEnded(attempt: ListenAttempt, ended: ListenEnd): void {
    if (attempt.id !== undefined) this.deps.unregister(attempt.id);
    const end = this.connectedEnd(ended);
    if (!attempt.acked) {
      attempt.rejectAck(
        end.error ??
          new SubscriptionClosedError(`${METHOD} ended before it was acknowledged (${end.reason})`, {
            reason: end.reason,
            ...(attempt.id !== undefined && { subscriptionId: attempt.id }),
          }),
      );
      return;
    }
    if (this.current !== attempt || this.stateValue === 'closed') return;
    this.current = undefined;
    this.streamLost(end, attempt.ackedAt);
  }

  /** A closed-connection error while the client is still connected: only this request's stream broke. */
  private connectedEnd(end: ListenEnd): ListenEnd {
    return end.reason === 'transport-closed' && this.deps.host.connected() ? { ...end, reason: 'stream-dropped' } : end;
  }

  /**
   * The first stream: sent (after the reconnect under way, if any) and acknowledged. A drop of
   * the connection before the ack, while the client reconnects, sends it again once it is back.
   */
  private async firstListen(): Promise<{ attempt: ListenAttempt; honoured: SubscriptionFilter }> {
    for (;;) {
      if (this.deps.host.reconnecting())
        await this.deps.host.whenOpen(this.lifetime.signal, this.settings.timeoutMs).catch((error: unknown) => {
          throw this.lifetime.signal.aborted ? this.lifetime.signal.reason : error;
        });
      try {
        return await this.startListen();
      } catch (error) {
        if (this.closedInfo !== undefined || !this.cutByReconnect(endOf(error))) throw error;
      }
    }
  }

  /** Whether a listen ended because the connection dropped and the client is getting a new one. */
  private cutByReconnect(end: ListenEnd): boolean {
    return end.reason === 'transport-closed' && this.deps.host.reconnecting();
  }

  /** An acknowledged stream ended without the host asking: reopen it, or close for good. */
  private streamLost(end: ListenEnd, ackedAt: number): void {
    const policy = this.settings.reopen;
    if (policy !== false && this.cutByReconnect(end) && !isEmptyFilter(this.honouredValue)) {
      // The connection dropped and the client reconnects: listen again once it is back.
      this.stateValue = 'reopening';
      this.events.emit({ type: 'subscriptionLost', reason: end.reason, error: end.error, willReopen: true });
      void this.resumeAfterReconnect();
      return;
    }
    const final =
      policy === false ||
      end.reason === 'transport-closed' ||
      !this.deps.host.connected() ||
      isEmptyFilter(this.honouredValue);
    if (final) {
      this.events.emit({ type: 'subscriptionLost', reason: end.reason, error: end.error, willReopen: false });
      this.finish(end);
      return;
    }
    this.budget ??= new ReopenBudget(policy, this.deps.random);
    const decision = this.budget.streamEnded(ackedAt, this.deps.clock.now());
    this.stateValue = 'reopening';
    this.lostAndReopen(end, decision.delayMs, this.budget);
  }

  /** Tells the host the stream was lost and will reopen in `delayMs`, then reopens it then. */
  private lostAndReopen(end: ListenEnd, delayMs: number, budget: ReopenBudget): void {
    this.events.emit({
      type: 'subscriptionLost',
      reason: end.reason,
      error: end.error,
      willReopen: true,
      retryInMs: delayMs,
    });
    void this.reopen(delayMs, budget);
  }

  private async reopen(delayMs: number, budget: ReopenBudget): Promise<void> {
    const signal = this.lifetime.signal;
    try {
      // On the global timers, as every wait of the reopen loop (resilience/retry.ts).
      await abortableDelay(delayMs, boundedTimers(), signal);
      const { attempt, honoured } = await reopenWithRetry(() => this.startListen(), {
        budget,
        clock: this.deps.clock,
        signal,
        retryable: (error) =>
          this.deps.host.connected() && (isRetryableReopenFailure(error) || endOf(error).reason === 'transport-closed'),
        onRetry: (error, decision) => {
          const end = this.connectedEnd(endOf(error));
          this.events.emit({
            type: 'subscriptionLost',
            reason: end.reason,
            error: end.error,
            willReopen: true,
            retryInMs: decision.delayMs,
          });
        },
      });
      await this.resynced(attempt, honoured);
    } catch (error) {
      if (this.stateValue === 'closed') return;
      const end = endOf(error);
      if (this.cutByReconnect(end)) {
        void this.resumeAfterReconnect();
        return;
      }
      this.events.emit({ type: 'subscriptionLost', reason: end.reason, error: end.error, willReopen: false });
      this.finish(end);
    }
  }

  /**
   * After a drop, while the client reconnects: waits for the new connection, then sends the
   * same filter again (at once: the client's reconnect budget already paced it), and
   * announces `resync`. Dropped again meanwhile: waits again. A listen the new connection
   * refuses goes on under the reopen budget, as any reopen; the client giving up closes it.
   */
  private async resumeAfterReconnect(): Promise<void> {
    const signal = this.lifetime.signal;
    try {
      for (;;) {
        await this.deps.host.whenOpen(signal);
        let opened: { attempt: ListenAttempt; honoured: SubscriptionFilter };
        try {
          opened = await this.startListen();
        } catch (error) {
          if (this.stateValue === 'closed') return;
          const end = this.connectedEnd(endOf(error));
          if (this.cutByReconnect(end)) continue;
          const policy = this.settings.reopen;
          if (policy === false || !isRetryableReopenFailure(error)) throw error;
          this.budget ??= new ReopenBudget(policy, this.deps.random);
          const decision = this.budget.attemptFailed(this.deps.clock.now());
          this.lostAndReopen(end, decision.delayMs, this.budget);
          return;
        }
        await this.resynced(opened.attempt, opened.honoured);
        return;
      }
    } catch (error) {
      if (this.stateValue === 'closed') return;
      const end = endOf(error);
      this.events.emit({ type: 'subscriptionLost', reason: end.reason, error: end.error, willReopen: false });
      this.finish(end);
    }
  }

  /** A reopened stream was acknowledged: the cache drops what the filter covers, then `resync`. */
  private async resynced(attempt: ListenAttempt, honoured: SubscriptionFilter): Promise<void> {
    this.reopenCount++;
    this.honouredValue = honoured;
    // Notifications may have been missed while the stream was down.
    await this.deps.invalidate(invalidationsForFilter(this.requested));
    if (this.stateValue === 'closed' || this.current !== attempt) return;
    this.stateValue = 'open';
    this.events.emit({
      type: 'resync',
      reopens: this.reopenCount,
      honoured: this.honouredValue,
      notHonoured: this.notHonoured,
    });
  }
}
