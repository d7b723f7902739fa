/**
 * The connection of one client: its state, its events, and the requests that wait while it
 * reconnects. The reconnect after a drop (`reconnector.ts`: the budget, the loop of attempts,
 * giving up) loads while `connect()` runs when the client may reconnect. While it reconnects,
 * the caller's requests wait here, and so do subscriptions; once a new connection is negotiated
 * they go on. Keeps `McpClient` a facade.
 */
import { abortedError, ConnectionClosedError, TimeoutError } from '../errors/errors.js';
import { onDemand } from '../errors/moduleLoad.js';
import { EventStream } from '../util/eventStream.js';
import type { TransportCloseInfo } from '../transport/transport.js';
import type { TimerHandle } from '../util/clock.js';
import type { ClientEvent, ClientState, ReconnectCause } from '../reconnect/types.js';
import type { ConnectionWait } from './caller.js';
import { describeCause, type ConnectionCore, type ConnectionHooks, type Reconnecting } from './connectionCore.js';
import type { Reconnector } from './reconnector.js';

export type { ConnectionHooks } from './connectionCore.js';

/** One request (or subscription) waiting for the connection to open again. */
interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

/** The reconnect and the causes of a drop: loaded while `connect()` runs when the client may reconnect. */
const loadReconnect = onDemand('reconnect', async () => {
  const [{ Reconnector }, { causeOfFailure }] = await Promise.all([
    import('./reconnector.js'),
    import('../reconnect/cause.js'),
  ]);
  return { Reconnector, causeOfFailure };
});

/** @internal Owned by `McpClient`; see the module comment. */
export class ClientConnection implements ConnectionCore {
  private stateValue: ClientState = 'new';
  private readonly events: EventStream<ClientEvent>;
  private readonly waiters = new Set<Waiter>();
  /** When the current connection was negotiated (clock ms). */
  private openedAt = 0;
  /** The reconnect, once loaded (only with a reconnect policy). */
  private reconnector: Reconnector | undefined;
  /** The last close the transport reported, in any state. */
  lastClose: TransportCloseInfo | undefined;
  /** The `retryAt` of the last `reconnecting` event. */
  private retryAtValue: number | undefined;
  /** What ended the connection when the client gave up (or a lost HTTP session closed it). */
  lostWith: ConnectionClosedError | undefined;

  constructor(readonly hooks: ConnectionHooks) {
    this.events = new EventStream<ClientEvent>({ onError: (error) => hooks.onError(error) });
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

  /**
   * Loads the reconnect when the client may reconnect (a reconnect policy), so that it is there
   * before the connection can drop; `connect()` awaits it with the transport's start.
   * @throws ModuleLoadError (-33042) when it cannot be loaded.
   */
  async prepare(): Promise<void> {
    const policy = this.hooks.policy;
    if (policy === false || this.reconnector !== undefined) return;
    const { Reconnector } = await loadReconnect();
    this.reconnector ??= new Reconnector(this, policy);
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
   * attempt may mend, the client goes on reconnecting (and `connect()` still rejects).
   * @returns true when it does; false when the client is to close.
   */
  async firstConnectFailed(error: unknown, signal: AbortSignal | undefined): Promise<boolean> {
    const { policy, restartable } = this.hooks;
    if (this.stateValue !== 'connecting' || policy === false || !policy.retryFirstConnect || !restartable) return false;
    try {
      await this.prepare();
    } catch {
      return false; // without its reconnect, the client closes as it would have without a policy
    }
    if (this.stateValue !== 'connecting') return false;
    return (this.reconnector as Reconnector).firstConnectFailed(error, signal);
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
    const { restartable } = this.hooks;
    const reconnector = this.reconnector;
    if (reconnector === undefined || !restartable || info.initiatedByClient) {
      this.setState('closed');
      this.hooks.lost(error);
      this.events.end();
      return;
    }
    reconnector.dropped(info, error, this.openedAt);
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
    this.reconnector?.sessionLost(this.openedAt, this.hooks.clock.now());
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
    if (this.stateValue !== 'reconnecting' || this.reconnector?.running === true) return;
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
  async sessionRenewalFailed(error: unknown): Promise<unknown> {
    if (this.stateValue === 'closed') return this.lostWith ?? error;
    if (this.stateValue !== 'reconnecting' || this.reconnector?.running === true) return error;
    if (this.reconnector !== undefined) return this.reconnector.sessionRenewalFailed(error);
    let reason = error instanceof Error ? error.message : String(error);
    try {
      const { causeOfFailure } = await loadReconnect();
      reason = describeCause(causeOfFailure(error));
    } catch {
      // the error's own message says enough
    }
    if (this.stateValue !== 'reconnecting') return this.lostWith ?? error;
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
    await this.reconnector?.stop();
  }

  /** Open again after `attempts` attempts: what waits goes on, and `reconnected`. */
  reopenedAfter(attempts: number): void {
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
  end(error: ConnectionClosedError, abandoned: Promise<void>): void {
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

  /** Emits `reconnecting`, with its `retryAt`: now plus its wait, on the wall clock. */
  announce(event: Reconnecting): void {
    this.retryAtValue = this.hooks.wallClock.now() + event.delayMs;
    this.events.emit({ ...event, retryAt: this.retryAtValue });
  }

  emit(event: ClientEvent): void {
    this.events.emit(event);
  }

  private failWaiters(reason: string): void {
    for (const waiter of [...this.waiters])
      waiter.reject(new ConnectionClosedError(`connection closed (${reason})`, { reason, outcome: 'not-sent' }));
  }

  setState(state: ClientState): void {
    const previous = this.stateValue;
    if (previous === state) return;
    this.stateValue = state;
    this.events.emit({ type: 'state', state, previous });
  }

  log(message: string): void {
    this.hooks.debug?.({ type: 'reconnect', message });
  }
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
