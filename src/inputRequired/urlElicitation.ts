/**
 * What a 2025-11-25 client does with a `URLElicitationRequiredError` (-32042) when the host has
 * a URL elicitation handler (spec 2025-11-25: client/elicitation, "URL Elicitation Required
 * Error" and "Completion Notifications"): show each URL, wait until the server says each
 * elicitation is complete, and send the request again. A loop over hooks; it never touches a
 * transport.
 */
import type { JsonObject, JsonRpcNotification } from '../wire/messages.js';
import type { ElicitResult } from '../wire/protocol.js';
import { systemClock, type Clock, type Timers } from '../util/clock.js';
import { boundedTimers } from '../util/timerBounds.js';
import { abortError, UrlElicitationRequiredError, type UrlElicitation } from './errors.js';
import { linkCall, raceAbort, type RetryContext } from './driver.js';
import { DEFAULT_MAX_ROUNDS } from './limits.js';

/** Options of {@link retryAfterUrlElicitations}. */
export interface UrlElicitationRoundsOptions {
  /** The request being retried, e.g. `"tools/call"`. Used in errors. */
  method: string;
  /** The error the first attempt failed with; its {@link UrlElicitationRequiredError.wellFormed} is true. */
  first: UrlElicitationRequiredError;
  /** Shows one URL to the user (the host's URL-mode handler, checked); resolves with the user's answer. */
  show: (elicitation: UrlElicitation, index: number, signal: AbortSignal) => Promise<ElicitResult>;
  /** Resolves once the server sent `notifications/elicitation/complete` for `elicitationId`; rejects when `signal` aborts. */
  completed: (elicitationId: string, signal: AbortSignal) => Promise<void>;
  /** Sends the original request again (a new JSON-RPC id) and resolves with its result. */
  retry: (context: RetryContext) => Promise<JsonObject>;
  /** The most retries to send. @default 10 */
  maxRounds?: number | undefined;
  /** Cancels the whole call: every handler, wait and retry. */
  signal?: AbortSignal | undefined;
  /** The call's total budget: `at` on `clock` (ms), after which the call fails with `TimeoutError` (`kind: "total"`). */
  deadline?: { at: number; totalTimeoutMs: number } | undefined;
  /** @default performance.now */
  clock?: Clock | undefined;
  /** @default the globals */
  timers?: Timers | undefined;
}

/**
 * Shows each URL of `first` through `show`, one after the other; when the user accepted every
 * one, waits for the server's completion of each (registered before the first URL is shown, so
 * a quick completion is not missed), then retries. A retry that fails with another well-formed
 * `UrlElicitationRequiredError` starts a new round. Resolves with the first result.
 *
 * @throws UrlElicitationRequiredError (-32042) the last one: when the user declined or cancelled
 *   one of its URLs (the rest are not shown), when it is not well formed, or when retry number
 *   `maxRounds` failed with it again.
 * @throws InputRequestFailedError (-33007) when `show` fails (the handler threw or answered
 *   something that is not an `ElicitResult`).
 * @throws CancelledError (-32800) when `signal` aborts; TimeoutError (-32001, `kind: "total"`)
 *   when `deadline` passes, whatever the loop is waiting for.
 * Errors of a retry other than a well-formed -32042 propagate unchanged. No timer or listener
 * survives the returned promise.
 */
export async function retryAfterUrlElicitations(options: UrlElicitationRoundsOptions): Promise<JsonObject> {
  const { method } = options;
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  const clock = options.clock ?? systemClock;
  const call = linkCall(method, options.signal, options.deadline, clock, boundedTimers(options.timers));
  const { signal } = call;
  try {
    let error = options.first;
    for (let rounds = 0; ;) {
      if (rounds >= maxRounds || !error.wellFormed) throw error;
      const elicitations = error.elicitations;
      const waits = linkedWaits(signal);
      const done = elicitations.map((elicitation) => options.completed(elicitation.elicitationId, waits.signal));
      // Awaited below, or dropped when the user declines: never an unhandled rejection.
      for (const wait of done) wait.catch(() => undefined);
      try {
        for (const [index, elicitation] of elicitations.entries()) {
          const answer = await raceAbort(method, signal, () => options.show(elicitation, index, signal));
          if (answer.action !== 'accept') throw error;
        }
        await raceAbort(method, signal, () => Promise.all(done));
      } finally {
        waits.dispose();
      }
      rounds += 1;
      const left = options.deadline === undefined ? undefined : options.deadline.at - clock.now();
      try {
        return await raceAbort(method, signal, () => options.retry({ signal, round: rounds, remainingMs: left }));
      } catch (next) {
        if (!(next instanceof UrlElicitationRequiredError)) throw next;
        error = next;
      }
    }
  } catch (error) {
    throw signal.aborted && !(error instanceof UrlElicitationRequiredError) ? abortError(method, signal) : error;
  } finally {
    call.dispose();
  }
}

/** A signal for one round's completion waits: aborts with the call, or when the round ends (`dispose`). */
function linkedWaits(outer: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer.reason);
  if (outer.aborted) controller.abort(outer.reason);
  else outer.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      outer.removeEventListener('abort', onAbort);
      if (!controller.signal.aborted) controller.abort(new Error('the round ended'));
    },
  };
}

/**
 * The waits for `notifications/elicitation/complete` (spec 2025-11-25: client/elicitation,
 * "Completion Notifications"), by `elicitationId`. A notification for an id nobody waits for
 * is ignored, as the spec requires for unknown or already completed ids.
 */
export class ElicitationCompletions {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Resolves when `elicitationId` completes; rejects with `signal.reason` when it aborts first. */
  wait(elicitationId: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(elicitationId) ?? new Set<() => void>();
      this.waiting.set(elicitationId, waiters);
      const forget = () => {
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(elicitationId) === waiters) this.waiting.delete(elicitationId);
      };
      const onAbort = () => {
        forget();
        reject(signal.reason);
      };
      const done = () => {
        signal.removeEventListener('abort', onAbort);
        forget();
        resolve();
      };
      waiters.add(done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Settles the waits for the notification's `params.elicitationId`; true when there were some. */
  complete(notification: JsonRpcNotification): boolean {
    const params = notification.params as { elicitationId?: unknown } | undefined;
    const id = typeof params?.elicitationId === 'string' ? params.elicitationId : undefined;
    const waiters = id === undefined ? undefined : this.waiting.get(id);
    if (waiters === undefined) return false;
    for (const done of [...waiters]) done();
    return true;
  }
}
