/**
 * The reconnect of one client after a drop: the budget that judges each failure
 * (`resilience/reconnectPolicy.ts`), the loop of attempts (`reconnect/loop.ts`), the causes, and
 * giving up. Loaded while `connect()` runs when the client may reconnect (a reconnect policy
 * and a transport that can start again), so it is there before the connection can drop; the
 * connection it serves (`connection.ts`) holds the state, the events and the waiting requests.
 */
import { ConnectionClosedError } from '../errors/errors.js';
import type { TransportCloseInfo } from '../transport/transport.js';
import { causeOfClose, causeOfFailure, isRetryableConnectFailure } from '../reconnect/cause.js';
import { reconnectLoop } from '../reconnect/loop.js';
import {
  ReconnectBudget,
  type ReconnectDecision,
  type ResolvedReconnectPolicy,
} from '../resilience/reconnectPolicy.js';
import type { ReconnectCause } from '../reconnect/types.js';
import { describeCause, type ConnectionCore } from './connectionCore.js';

/** @internal Made by the connection it serves (`ClientConnection`), once loaded. */
export class Reconnector {
  private readonly budget: ReconnectBudget;
  /** The loop under way; stopped when the client closes. */
  private loop: { controller: AbortController; done: Promise<void> } | undefined;

  constructor(
    private readonly core: ConnectionCore,
    policy: ResolvedReconnectPolicy,
  ) {
    this.budget = new ReconnectBudget(policy);
  }

  /** Whether a loop runs (the legacy session's own renewal then leaves it alone). */
  get running(): boolean {
    return this.loop !== undefined;
  }

  /**
   * `connect()` failed with `error` and `reconnect.retryFirstConnect` is on: a reconnect when
   * the failure is one another attempt may mend and the budget allows it.
   * @returns true when the client goes on reconnecting.
   */
  firstConnectFailed(error: unknown, signal: AbortSignal | undefined): boolean {
    if (signal?.aborted === true || !isRetryableConnectFailure(error)) return false;
    const decision = this.budget.attemptFailed(this.core.hooks.clock.now());
    if (decision === undefined) return false;
    this.reconnect(causeOfFailure(error), decision);
    return true;
  }

  /** The open connection dropped (`info`, the error pending requests got): a reconnect, or giving up at once. */
  dropped(info: TransportCloseInfo, error: ConnectionClosedError, openedAt: number): void {
    const cause = causeOfClose(info, error);
    const decision = this.budget.dropped(openedAt, this.core.hooks.clock.now());
    this.core.hooks.dropped(error);
    if (decision === undefined) {
      this.core.setState('reconnecting');
      this.giveUp(0, cause);
      return;
    }
    this.reconnect(cause, decision);
  }

  /** A legacy HTTP session expired: counted as a drop and an attempt started. */
  sessionLost(openedAt: number, now: number): void {
    this.budget.dropped(openedAt, now);
    this.budget.attemptStarted(now);
  }

  /**
   * A new legacy HTTP session could not be set up (`error`): the reconnect loop takes over when
   * a retry may mend it and the budget allows it; else the client gives up.
   * @returns the error the requests that waited for the session reject with, unless the client
   *   is still reconnecting (then they wait for the reconnect).
   */
  sessionRenewalFailed(error: unknown): unknown {
    const cause = causeOfFailure(error);
    const decision = isRetryableConnectFailure(error)
      ? this.budget.attemptFailed(this.core.hooks.clock.now())
      : undefined;
    if (decision === undefined) {
      this.giveUp(1, cause);
      return this.core.lostWith ?? error;
    }
    this.reconnect(cause, decision, true);
    return error;
  }

  /** The client closes: stops the loop at once and resolves once it has ended. */
  async stop(): Promise<void> {
    const loop = this.loop;
    if (loop === undefined) return;
    loop.controller.abort(new ConnectionClosedError('closed by client', { reason: 'closed by client' }));
    await loop.done;
  }

  /**
   * Runs the reconnect loop: each attempt restarts the session and negotiates again, or, for a
   * lost legacy HTTP session (`renewal`), sets up a new session on the same transport (its
   * attempt 1 was made at once and failed).
   */
  private reconnect(cause: ReconnectCause, first: ReconnectDecision, renewal = false): void {
    this.core.hooks.setWait(this.core.wait);
    this.core.setState('reconnecting');
    const controller = new AbortController();
    const done = this.run(cause, first, renewal, controller.signal).catch((error: unknown) => {
      if (!controller.signal.aborted)
        this.core.hooks.onError(error instanceof Error ? error : new Error(String(error)));
    });
    this.loop = { controller, done };
  }

  private async run(
    cause: ReconnectCause,
    first: ReconnectDecision,
    renewal: boolean,
    signal: AbortSignal,
  ): Promise<void> {
    const { hooks } = this.core;
    const { session, clock } = hooks;
    const outcome = await reconnectLoop({
      budget: this.budget,
      clock,
      signal,
      first: { delayMs: first.delayMs, coolDown: first.coolDown, cause },
      firstAttempt: renewal ? 2 : 1,
      attempt: async (attempt) => {
        this.core.log(`attempt ${attempt}`);
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
        this.core.log(
          `reconnecting in ${delayMs} ms${coolDown ? ' (a cool-down)' : ''} (attempt ${attempt}): ${describeCause(why)}`,
        );
        this.core.announce({ type: 'reconnecting', attempt, delayMs, coolDown, cause: why });
      },
    });
    if (signal.aborted || this.core.state !== 'reconnecting') return;
    this.loop = undefined;
    if (!outcome.reconnected) {
      this.giveUp(outcome.attempts, outcome.cause);
      return;
    }
    this.core.reopenedAfter(outcome.attempts);
    // A renewed legacy session re-subscribes by itself (EraBinding); a new connection is told here.
    if (renewal) return;
    hooks.reopened();
    // Closed again before the loop could tell (its close was taken for the attempt's): a new drop.
    const lastClose = this.core.lastClose;
    if (session.state === 'closed' && lastClose !== undefined) this.core.transportClosed(lastClose);
  }

  /** The budget is spent (or the failure cannot be mended): `gaveUp`, then closed for good. */
  private giveUp(attempts: number, cause: ReconnectCause): void {
    this.loop = undefined;
    this.core.log(`gave up after ${attempts} attempt(s): ${describeCause(cause)}`);
    this.core.emit({ type: 'gaveUp', attempts, cause });
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
    this.core.end(error, this.core.hooks.abandonSession(error));
  }
}
