/**
 * The bounds `connect()` was given, over its whole negotiation: all the steps of every era (the
 * `server/discover` probe, a version switch, `initialize`, the HTTP+SSE fallback) together wait
 * at most `timeoutMs` (or `maxTotalTimeoutMs` when it is shorter), each step at most what is
 * left; the caller's signal ends any of them at once.
 */
import { abortedError, CancelledError, isCancelledError, isTimeoutError, TimeoutError } from '../errors/errors.js';
import type { Clock, TimerHandle, Timers } from '../util/clock.js';

/** The per-step waits a step is sent with. */
export interface StepTimeouts {
  /** Idle timeout of the step's request, in ms. */
  timeoutMs: number;
  /** Total timeout of the step's request, in ms: what is left of the budget (or less). */
  maxTotalTimeoutMs: number;
}

/** @internal One `connect()`'s budget; {@link dispose} it when the negotiation ends. */
export class ConnectBudget {
  private readonly deadline: number;
  /** The bound of the whole negotiation, in ms: the shorter of the idle and the total timeout. */
  private readonly totalMs: number;
  private readonly controller = new AbortController();
  private readonly timer: TimerHandle;
  private readonly onCallerAbort: (() => void) | undefined;

  /**
   * @param idleMs `connect({ timeoutMs })`, else the client's: bounds the whole negotiation
   * @param totalMs `maxTotalTimeoutMs`, else the client's: bounds it too when shorter
   * @param caller the caller's signal
   */
  constructor(
    private readonly idleMs: number,
    totalMs: number,
    private readonly caller: AbortSignal | undefined,
    private readonly clock: Clock,
    private readonly timers: Timers,
  ) {
    this.totalMs = Math.min(idleMs, totalMs);
    this.deadline = clock.now() + this.totalMs;
    this.timer = timers.setTimeout(() => this.controller.abort(this.exceeded()), this.totalMs);
    if (caller !== undefined) {
      this.onCallerAbort = () => this.controller.abort(caller.reason);
      if (caller.aborted) this.onCallerAbort();
      else caller.addEventListener('abort', this.onCallerAbort, { once: true });
    }
  }

  /** Aborts when the caller's signal does (with its reason) or the budget runs out (with a TimeoutError). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the whole budget is spent. */
  expired(): boolean {
    return this.clock.now() >= this.deadline;
  }

  /** The timeouts of a step: the idle timeout (shorter for a probe), within what is left. */
  timeouts(probeMs?: number): StepTimeouts {
    const left = Math.max(1, Math.ceil(this.deadline - this.clock.now()));
    const idle = probeMs === undefined ? this.idleMs : Math.min(probeMs, this.idleMs);
    return { timeoutMs: Math.min(idle, left), maxTotalTimeoutMs: Math.min(probeMs ?? left, left) };
  }

  /**
   * Runs one step. Before it: the caller's abort rejects with `CancelledError` (-32800) and a
   * spent budget with `TimeoutError` (-32001, `kind: "total"`, method `connect`), at once. After a
   * failure: the same errors replace whatever the step failed with once the budget is spent or
   * the caller aborted, so the negotiation stops there instead of trying another era.
   */
  async step<T>(run: () => Promise<T>): Promise<T> {
    this.check();
    try {
      return await run();
    } catch (error) {
      if (this.caller?.aborted === true) throw isCancelledError(error) ? error : this.cancelled();
      if (this.expired() && (isTimeoutError(error) || isCancelledError(error))) throw this.exceeded();
      throw error;
    }
  }

  /** True once the caller aborted or the budget is spent: no further step may start. */
  ended(): boolean {
    return this.caller?.aborted === true || this.expired();
  }

  /** Throws when the caller aborted or the budget is spent. */
  check(): void {
    if (this.caller?.aborted === true) throw this.cancelled();
    if (this.expired()) throw this.exceeded();
  }

  dispose(): void {
    this.timers.clearTimeout(this.timer);
    if (this.onCallerAbort !== undefined) this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  private cancelled(): CancelledError | TimeoutError {
    return abortedError('connect', this.caller?.reason);
  }

  private exceeded(): TimeoutError {
    return new TimeoutError({ method: 'connect', timeoutMs: this.totalMs, kind: 'total' });
  }
}
