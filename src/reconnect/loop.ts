/**
 * The reconnect loop: waits, attempts, and asks the budget for the next wait, until an attempt
 * succeeds, the budget is spent, a failure no attempt can mend comes up, or the signal aborts.
 * A loop over hooks on the one retry loop of `resilience/retry.ts` (p-retry). The budget names
 * every wait (the client announces each one, `reconnecting` with `delayMs`, before it starts),
 * slept on the global timers, so fake timers drive the whole loop; it never touches a transport
 * itself.
 */
import { retry } from '../resilience/retry.js';
import type { Clock } from '../util/clock.js';
import { abortableDelay } from '../util/signals.js';
import { boundedTimers } from '../util/timerBounds.js';
import { causeOfFailure, isRetryableConnectFailure } from './cause.js';
import type { ReconnectBudget } from './policy.js';
import type { ReconnectCause } from './types.js';

/** Options of {@link reconnectLoop}. */
export interface ReconnectLoopOptions {
  budget: ReconnectBudget;
  clock: Clock;
  /** Stops the loop at once (the client closed): the current wait is cleared, and the loop rejects with `signal.reason`. */
  signal: AbortSignal;
  /**
   * The wait before the first attempt, in ms, whether it is a cool-down, and why there is a
   * wait (the drop, or the failed first connect).
   */
  first: { delayMs: number; coolDown?: boolean | undefined; cause: ReconnectCause };
  /**
   * The number of the loop's first attempt, when attempts were made before it (a legacy HTTP
   * session renewal that failed at once is attempt 1; the loop goes on from 2). @default 1
   */
  firstAttempt?: number | undefined;
  /** One attempt (number `attempt`, from `firstAttempt`): resolves once a new connection is open and negotiated. */
  attempt(attempt: number, signal: AbortSignal): Promise<void>;
  /** Told before each wait: the attempt that follows it, the wait in ms, whether it is a cool-down, and why. */
  onReconnecting(attempt: number, delayMs: number, coolDown: boolean, cause: ReconnectCause): void;
}

/** How a loop that was not aborted ended. */
export type ReconnectOutcome =
  | { reconnected: true; attempts: number }
  | {
      reconnected: false;
      /** Attempts made (0 when the budget was spent at the drop itself). */
      attempts: number;
      /** Why it stopped: the last attempt's failure. */
      cause: ReconnectCause;
    };

/**
 * Runs the attempts (see the module comment). Resolves with how it ended; rejects only with
 * `signal.reason` when the signal aborts.
 */
export async function reconnectLoop(options: ReconnectLoopOptions): Promise<ReconnectOutcome> {
  const { budget, clock, signal } = options;
  const before = (options.firstAttempt ?? 1) - 1;
  let attempts = before;
  options.onReconnecting(before + 1, options.first.delayMs, options.first.coolDown ?? false, options.first.cause);
  await abortableDelay(options.first.delayMs, boundedTimers(), signal);
  try {
    await retry(
      (attempt) => {
        attempts = before + attempt;
        budget.attemptStarted(clock.now());
        return options.attempt(attempts, signal);
      },
      {
        retries: Number.POSITIVE_INFINITY,
        signal,
        next: (error, attempt) => {
          if (!isRetryableConnectFailure(error)) return undefined;
          const decision = budget.attemptFailed(clock.now());
          if (decision === undefined) return undefined;
          options.onReconnecting(before + attempt + 1, decision.delayMs, decision.coolDown, causeOfFailure(error));
          return decision.delayMs;
        },
      },
    );
    return { reconnected: true, attempts };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return { reconnected: false, attempts, cause: causeOfFailure(error) };
  }
}
