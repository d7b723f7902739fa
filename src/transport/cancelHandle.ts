/**
 * {@link CancelHandle}s: the session's own (an `AbortSignal` made only when someone reads it),
 * and a view of a plain `AbortSignal` for callers of `send()` that pass only a signal.
 */
import type { CancelHandle, TransportSendOptions } from './transport.js';

type Listener = () => void;

/**
 * The cancellation of one send, as the session makes it for each request of a transport that
 * cancels by aborting the send. Listeners sit in a field (one) or an array (more); the
 * `AbortSignal` of {@link signal} exists only once read.
 */
export class CancelSource implements CancelHandle {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Listener | Listener[] | undefined = undefined;
  private controller: AbortController | undefined = undefined;

  /** An `AbortSignal` that aborts with this handle; made on first read (already aborted when the handle is). */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  onAbort(listener: Listener): void {
    if (this.aborted) return;
    const current = this.listeners;
    if (current === undefined) this.listeners = listener;
    else if (typeof current === 'function') this.listeners = [current, listener];
    else current.push(listener);
  }

  offAbort(listener: Listener): void {
    const current = this.listeners;
    if (current === listener) this.listeners = undefined;
    else if (Array.isArray(current)) {
      const index = current.indexOf(listener);
      if (index >= 0) current.splice(index, 1);
    }
  }

  /**
   * Cancels the send: sets `aborted` and `reason`, aborts the signal if one was made, then calls
   * each listener once. Later calls do nothing. A listener that throws does not stop the others;
   * its error goes to `onListenerError`.
   */
  abort(reason: unknown, onListenerError?: (error: unknown) => void): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    this.controller?.abort(reason);
    if (listeners === undefined) return;
    for (const listener of typeof listeners === 'function' ? [listeners] : listeners) {
      try {
        listener();
      } catch (error) {
        onListenerError?.(error);
      }
    }
  }
}

/** A {@link CancelHandle} that follows an `AbortSignal`. */
class SignalCancelHandle implements CancelHandle {
  constructor(readonly signal: AbortSignal) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }

  get reason(): unknown {
    return this.signal.reason as unknown;
  }

  onAbort(listener: Listener): void {
    this.signal.addEventListener('abort', listener, { once: true });
  }

  offAbort(listener: Listener): void {
    this.signal.removeEventListener('abort', listener);
  }
}

/** `signal` as a {@link CancelHandle}; `undefined` stays `undefined`. */
export function cancelHandleOf(signal: AbortSignal | undefined): CancelHandle | undefined {
  return signal === undefined ? undefined : new SignalCancelHandle(signal);
}

/**
 * The cancellation of a send: `options.cancel`, else a view of `options.signal`. `signal` is
 * not read when `cancel` is there: reading the session's `signal` makes it.
 */
export function sendCancelOf(options: TransportSendOptions | undefined): CancelHandle | undefined {
  if (options === undefined) return undefined;
  return options.cancel ?? cancelHandleOf(options.signal);
}
