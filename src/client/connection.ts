/**
 * The connection of one client: its state, its events, the requests that wait while it
 * reconnects, and the reconnect after a drop (the budget that judges each failure,
 * `reconnect/policy.ts`; the loop of attempts, `reconnect/loop.ts`; the causes,
 * `reconnect/cause.ts`; giving up). While it reconnects, the caller's requests wait here, and
 * so do subscriptions; once a new connection is negotiated they go on. Keeps `McpClient` a
 * facade.
 */
import { abortedError, ConnectionClosedError, TimeoutError } from '../errors/errors.js';
import { EventStream } from '../util/eventStream.js';
import type { JsonRpcSession } from '../jsonrpc/session.js';
import type { Era } from '../era/era.js';
import type { TransportCloseInfo } from '../transport/transport.js';
import type { Clock, TimerHandle, Timers, WallClock } from '../util/clock.js';
import type { DebugSink } from '../observability/debug.js';
import { causeOfClose, causeOfFailure, describeCause, isRetryableConnectFailure } from '../reconnect/cause.js';
import { reconnectLoop } from '../reconnect/loop.js';
import { ReconnectBudget, type ReconnectDecision, type ResolvedReconnectPolicy } from '../reconnect/policy.js';
import type { ClientEvent, ClientState, ReconnectCause } from '../reconnect/types.js';
import type { ConnectionWait } from './caller.js';

/** What the connection borrows from its client. */
export interface ConnectionDeps {
  session: JsonRpcSession;
  /** The reconnect policy; `false` when the client never reconnects. */
  policy: ResolvedReconnectPolicy | false;
  /** Whether the transport can be started again (`capabilities.restartable`). */
  restartable: boolean;
  clock: Clock;
  /** For `retryAt`: when a waited-for attempt starts, in wall-clock time. */
  wallClock: WallClock;
  timers: Timers;
  /** Set while reconnecting (the caller's requests wait on it), cleared once open. */
  setWait(wait: ConnectionWait | undefined): void;
  /** Negotiates on the restarted session: era and version again. */
  renegotiate(signal: AbortSignal): Promise<void>;
  /** Sets up a new legacy HTTP session on the same transport (`initialize` again); rejects as `initialize` does. */
  renewSession(signal: AbortSignal): Promise<void>;
  /**
   * No new legacy HTTP session will come: what the transport holds for one rejects with
   * `error`. Resolves once it has (never rejects).
   */
  abandonSession(error: unknown): Promise<void>;
  /** What was negotiated, for `reconnected`. */
  negotiated(): { protocolVersion: string; era: Era };
  /** The connection dropped (`error`: what pending requests got, or the expired session) and a reconnect starts. */
  dropped(error: Error): void;
  /** A new connection is open and negotiated. */
  reopened(): void;
  /** The connection is gone for good (no reconnect, or the client gave up): what depends on it ends with `error`. */
  lost(error: ConnectionClosedError): void;
  onError: (error: Error) => void;
  debug: DebugSink | undefined;
}

/** A `reconnecting` event before its `retryAt` is stamped. */
type Reconnecting = Omit<Extract<ClientEvent, { type: 'reconnecting' }>, 'retryAt'>;

/** One request (or subscription) waiting for the connection to open again. */
interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

/** @internal Owned by `McpClient`; see the module comment. */
export class ClientConnection {
  private stateValue: ClientState = 'new';
  private readonly events: EventStream<ClientEvent>;
  private readonly waiters = new Set<Waiter>();
  /** When the current connection was negotiated (clock ms). */
  private openedAt = 0;
  /** Judges each drop and failed attempt; `undefined` when the client never reconnects. */
  private readonly budget: ReconnectBudget | undefined;
  /** The reconnect loop under way; stopped when the client closes. */
  private loop: { controller: AbortController; done: Promise<void> } | undefined;
  /** The last close the transport reported, in any state. */
  lastClose: TransportCloseInfo | undefined;
  /** The `retryAt` of the last `reconnecting` event. */
  private retryAtValue: number | undefined;
  /** What ended the connection when the client gave up (or a lost HTTP session closed it). */
  lostWith: ConnectionClosedError | undefined;

  constructor(readonly hooks: ConnectionDeps) {
    this.events = new EventStream<ClientEvent>({ onError: (error) => hooks.onError(error) });
    this.budget = hooks.policy === false ? undefined : new ReconnectBudget(hooks.policy);
  }

  get state(): ClientState {
    return this.stateValue;
  }

  /**
   * While `reconnecting`: when the next attempt starts (wall clock, ms since the epoch), as the
   * last `reconnecting` event said; in the past while that attempt runs. `undefined` in every
   * other state.
   */
  get retryAt(): number | undefined {
    return this.stateValue === 'reconnecting' ? this.retryAtValue : undefined;
  }

  /** See `McpClient.on`. */
  on(listener: (event: ClientEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** `connect()` begins. */
  connecting(): void {
    this.setState('connecting');
  }

  /** `connect()` negotiated: the connection is open. */
  opened(): void {
    if (this.stateValue !== 'connecting') return;
    this.openedAt = this.hooks.clock.now();
    this.setState('open');
  }

  /**
   * `connect()` failed with `error`. With `reconnect.retryFirstConnect` and a failure another
   * attempt may mend (the budget allowing), the client goes on reconnecting (and `connect()`
   * still rejects).
   * @returns true when it does; false when the client is to close.
   */
  firstConnectFailed(error: unknown, signal: AbortSignal | undefined): boolean {
    const { policy, restartable } = this.hooks;
    const budget = this.budget;
    if (this.stateValue !== 'connecting' || policy === false || !policy.retryFirstConnect || !restartable) return false;
    if (budget === undefined || signal?.aborted === true || !isRetryableConnectFailure(error)) return false;
    const decision = budget.attemptFailed(this.hooks.clock.now());
    if (decision === undefined) return false;
    this.reconnect(causeOfFailure(error), decision);
    return true;
  }

  /**
   * The session's transport closed. From `open`: a reconnect when the policy allows it and the
   * transport can start again (and the close was not the owner's), else closed for good. In any
   * other state the close belongs to `connect()`, to an attempt, or to `close()`, which handle it.
   */
  transportClosed(info: TransportCloseInfo): void {
    this.lastClose = info;
    if (this.stateValue !== 'open') return;
    const error = new ConnectionClosedError(
      `connection closed (${info.reason})`,
      { reason: info.reason, exitCode: info.exitCode, signal: info.signal, stderrTail: info.stderrTail },
      info.cause,
    );
    const budget = this.budget;
    if (budget === undefined || !this.hooks.restartable || info.initiatedByClient) {
      this.setState('closed');
      this.hooks.lost(error);
      this.events.end();
      return;
    }
    const cause = causeOfClose(info, error);
    const decision = budget.dropped(this.openedAt, this.hooks.clock.now());
    this.hooks.dropped(error);
    if (decision === undefined) {
      this.setState('reconnecting');
      this.giveUp(0, cause);
      return;
    }
    this.reconnect(cause, decision);
  }

  /**
   * The legacy HTTP session expired (a 404 to a request that carried it) and the client sets
   * up a new one on the same transport at once: `reconnecting` (cause `http-session-lost`,
   * attempt 1, no wait) until {@link sessionRenewed} or {@link sessionRenewalFailed}. The
   * budget counts it as a drop (a session that dies young is a quick failure). Requests are
   * held by the transport meanwhile, not here.
   */
  sessionLost(expired: unknown): void {
    if (this.stateValue !== 'open') return;
    const error = expired instanceof Error ? expired : new Error(String(expired));
    const status = (expired as { data?: { status?: unknown } } | undefined)?.data?.status;
    if (this.budget !== undefined) {
      const now = this.hooks.clock.now();
      this.budget.dropped(this.openedAt, now);
      this.budget.attemptStarted(now);
    }
    this.hooks.dropped(error);
    this.setState('reconnecting');
    const cause: ReconnectCause = {
      reason: 'http-session-lost',
      ...(typeof status === 'number' && { httpStatus: status }),
      error: expired,
    };
    this.log(`a new HTTP session: ${describeCause(cause)}`);
    this.announce({ type: 'reconnecting', attempt: 1, delayMs: 0, coolDown: false, cause });
  }

  /** The new legacy HTTP session that {@link sessionLost} started is ready: open again, `reconnected`. */
  sessionRenewed(): void {
    if (this.stateValue !== 'reconnecting' || this.loop !== undefined) return;
    this.reopenedAfter(1);
  }

  /**
   * The new legacy HTTP session that {@link sessionLost} started could not be set up (`error`).
   * With a reconnect policy and a failure a retry may mend, the client stays `reconnecting` and
   * tries again on the policy's backoff and budget (requests wait for it); with a spent budget,
   * or a failure no retry mends, it gives up (`gaveUp`, then `closed`). With `reconnect: false`
   * it closes, as after any drop with reconnect off (no `gaveUp`); what the transport held for
   * the new session rejects with `error`.
   * @returns the error the requests that waited for this set-up reject with, unless the client
   *   is still reconnecting (then they wait for the reconnect).
   */
  sessionRenewalFailed(error: unknown): unknown {
    if (this.stateValue === 'closed') return this.lostWith ?? error;
    if (this.stateValue !== 'reconnecting' || this.loop !== undefined) return error;
    const cause = causeOfFailure(error);
    if (this.budget !== undefined) {
      const decision = isRetryableConnectFailure(error) ? this.budget.attemptFailed(this.hooks.clock.now()) : undefined;
      if (decision === undefined) {
        this.giveUp(1, cause);
        return this.lostWith ?? error;
      }
      this.reconnect(cause, decision, true);
      return error;
    }
    const reason = describeCause(cause);
    this.log(`no new HTTP session, and reconnect is off: ${reason}`);
    this.end(
      new ConnectionClosedError(
        `connection lost: a new HTTP session could not be set up (${reason})`,
        { reason: 'http-session-lost' },
        error,
      ),
      this.hooks.abandonSession(error),
    );
    return error;
  }

  /**
   * Waits, at most `timeoutMs` (`Infinity`: no limit), until the connection is open; at once
   * when it is. Rejects with `TimeoutError` (`kind` as given), `CancelledError` when `signal`
   * aborts, `ConnectionClosedError` (`outcome: "not-sent"`) when the client is closed or gives up.
   */
  readonly wait: ConnectionWait = (method, signal, timeoutMs, kind) => {
    if (this.stateValue === 'open') return Promise.resolve();
    if (this.stateValue !== 'reconnecting')
      return Promise.reject(
        new ConnectionClosedError(`${method}: ${this.stateValue === 'closed' ? 'client is closed' : 'not connected'}`, {
          reason: this.stateValue === 'closed' ? 'client is closed' : 'not connected',
          outcome: 'not-sent',
        }),
      );
    if (signal?.aborted === true) return Promise.reject(abortedError(method, signal.reason));
    return new Promise<void>((resolve, reject) => {
      let timer: TimerHandle;
      const done = (): void => {
        this.waiters.delete(waiter);
        if (timer !== undefined) this.hooks.timers.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        resolve: () => {
          done();
          resolve();
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      const onAbort = (): void => waiter.reject(abortedError(method, signal?.reason));
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (Number.isFinite(timeoutMs))
        timer = this.hooks.timers.setTimeout(
          () => waiter.reject(new TimeoutError({ method, timeoutMs, kind })),
          Math.max(0, timeoutMs),
        );
    });
  };

  /**
   * The client closes: stops the reconnect under way at once (its wait is cleared; an attempt
   * in progress is cancelled), fails what waits, and resolves once the loop has ended.
   */
  async close(): Promise<void> {
    if (this.stateValue === 'closed') return;
    const reconnecting = this.stateValue === 'reconnecting';
    this.setState('closed');
    this.hooks.setWait(undefined);
    if (reconnecting) this.failWaiters('closed by client');
    this.events.end();
    const loop = this.loop;
    if (loop === undefined) return;
    loop.controller.abort(new ConnectionClosedError('closed by client', { reason: 'closed by client' }));
    await loop.done;
  }

  /** Open again after `attempts` attempts: what waits goes on, and `reconnected`. */
  private reopenedAfter(attempts: number): void {
    this.openedAt = this.hooks.clock.now();
    this.hooks.setWait(undefined);
    this.setState('open');
    for (const waiter of [...this.waiters]) waiter.resolve();
    const { protocolVersion, era } = this.hooks.negotiated();
    this.log(`reconnected after ${attempts} attempt(s): ${era} wire, protocol ${protocolVersion}`);
    this.events.emit({ type: 'reconnected', attempt: attempts, protocolVersion, era });
  }

  /**
   * Closed for good with `error`: what waits and what depends on the connection ends with it,
   * and the session closes once what the transport held for a new HTTP session has failed
   * (`abandoned`), so that those requests get their own error rather than the close's.
   */
  private end(error: ConnectionClosedError, abandoned: Promise<void>): void {
    this.lostWith = error;
    this.hooks.setWait(undefined);
    this.setState('closed');
    for (const waiter of [...this.waiters]) waiter.reject(error);
    this.hooks.lost(error);
    this.events.end();
    abandoned
      .then(() => this.hooks.session.close())
      .catch((closeError: unknown) => this.hooks.onError(asError(closeError)));
  }

  /**
   * Runs the reconnect loop: each attempt restarts the session and negotiates again, or, for a
   * lost legacy HTTP session (`renewal`), sets up a new session on the same transport (its
   * attempt 1 was made at once and failed).
   */
  private reconnect(cause: ReconnectCause, first: ReconnectDecision, renewal = false): void {
    this.hooks.setWait(this.wait);
    this.setState('reconnecting');
    const controller = new AbortController();
    const done = this.run(cause, first, renewal, controller.signal).catch((error: unknown) => {
      if (!controller.signal.aborted) this.hooks.onError(error instanceof Error ? error : new Error(String(error)));
    });
    this.loop = { controller, done };
  }

  private async run(
    cause: ReconnectCause,
    first: ReconnectDecision,
    renewal: boolean,
    signal: AbortSignal,
  ): Promise<void> {
    const hooks = this.hooks;
    const { session, clock } = hooks;
    const outcome = await reconnectLoop({
      budget: this.budget as ReconnectBudget,
      clock,
      signal,
      first: { delayMs: first.delayMs, coolDown: first.coolDown, cause },
      firstAttempt: renewal ? 2 : 1,
      attempt: async (attempt) => {
        this.log(`attempt ${attempt}`);
        if (renewal) return hooks.renewSession(signal);
        // What is left of the previous connection (or attempt) is closed first.
        if (session.state !== 'closed') await session.close();
        signal.throwIfAborted();
        await session.restart();
        try {
          signal.throwIfAborted();
          await hooks.renegotiate(signal);
        } catch (error) {
          await session.close();
          throw error;
        }
      },
      onReconnecting: (attempt, delayMs, coolDown, why) => {
        this.log(
          `reconnecting in ${delayMs} ms${coolDown ? ' (a cool-down)' : ''} (attempt ${attempt}): ${describeCause(why)}`,
        );
        this.announce({ type: 'reconnecting', attempt, delayMs, coolDown, cause: why });
      },
    });
    if (signal.aborted || this.state !== 'reconnecting') return;
    this.loop = undefined;
    if (!outcome.reconnected) {
      this.giveUp(outcome.attempts, outcome.cause);
      return;
    }
    this.reopenedAfter(outcome.attempts);
    // A renewed legacy session re-subscribes by itself (EraBinding); a new connection is told here.
    if (renewal) return;
    hooks.reopened();
    // Closed again before the loop could tell (its close was taken for the attempt's): a new drop.
    const lastClose = this.lastClose;
    if (session.state === 'closed' && lastClose !== undefined) this.transportClosed(lastClose);
  }

  /** The budget is spent (or the failure cannot be mended): `gaveUp`, then closed for good. */
  private giveUp(attempts: number, cause: ReconnectCause): void {
    this.loop = undefined;
    this.log(`gave up after ${attempts} attempt(s): ${describeCause(cause)}`);
    this.events.emit({ type: 'gaveUp', attempts, cause });
    const error = new ConnectionClosedError(
      `connection lost; gave up reconnecting after ${attempts} attempt(s): ${describeCause(cause)}`,
      {
        reason: 'gave up reconnecting',
        ...(cause.exitCode !== undefined && { exitCode: cause.exitCode }),
        ...(cause.signal !== undefined && { signal: cause.signal }),
        ...(cause.stderrTail !== undefined && { stderrTail: cause.stderrTail }),
      },
      cause.error,
    );
    this.end(error, this.hooks.abandonSession(error));
  }

  /** Emits `reconnecting`, with its `retryAt`: now plus its wait, on the wall clock. */
  private announce(event: Reconnecting): void {
    this.retryAtValue = this.hooks.wallClock.now() + event.delayMs;
    this.events.emit({ ...event, retryAt: this.retryAtValue });
  }

  private failWaiters(reason: string): void {
    for (const waiter of [...this.waiters])
      waiter.reject(new ConnectionClosedError(`connection closed (${reason})`, { reason, outcome: 'not-sent' }));
  }

  private setState(state: ClientState): void {
    const previous = this.stateValue;
    if (previous === state) return;
    this.stateValue = state;
    this.events.emit({ type: 'state', state, previous });
  }

  private log(message: string): void {
    this.hooks.debug?.({ type: 'reconnect', message });
  }
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
