/**
 * The wait of messages for a new legacy HTTP session (spec 2025-11-25: basic/transports,
 * Session Management). Loaded with the legacy wire. Runtime-neutral.
 */

/**
 * Holds messages back while a legacy session is being set up: from a 404 that ended the old
 * session (or from the start of a handshake) until `initialize` negotiated the new one (spec
 * 2025-11-25: basic/transports, Session Management), so that they carry the new
 * `Mcp-Session-Id` instead of none. A failed set-up rejects every waiter with its error.
 */
export class SessionSetup {
  /** The messages waiting for the set-up under way (`undefined`: none under way). */
  private waiters: Set<{ resolve(): void; reject(error: unknown): void }> | undefined;
  /** The error the last failed set-up ended with. */
  private failure: unknown;

  /** True while a set-up is under way. */
  get active(): boolean {
    return this.waiters !== undefined;
  }

  /** Starts holding messages back (no-op while already holding). */
  begin(): void {
    this.waiters ??= new Set();
  }

  /**
   * Ends the set-up: waiters go on (no `error`) or reject with `error`, at once (before
   * anything that follows, such as a close, can reject them with its own reason).
   */
  settle(error?: unknown): void {
    const waiters = this.waiters;
    if (waiters === undefined) return;
    this.waiters = undefined;
    if (error !== undefined) this.failure = error;
    for (const waiter of waiters) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }

  /** Whether `error` is what the last failed set-up ended with (not an abort or a close). */
  failedWith(error: unknown): boolean {
    return error !== undefined && error === this.failure;
  }

  /**
   * Resolves when the set-up ends well (at once when none is under way); rejects with the
   * set-up's error, or with the abort reason of the first of `signals` to abort.
   */
  wait(signals: ReadonlyArray<AbortSignal | undefined>): Promise<void> {
    const waiters = this.waiters;
    if (waiters === undefined) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const listeners: Array<[AbortSignal, () => void]> = [];
      const waiter = {
        resolve: () => {
          done();
          resolve();
        },
        reject: (error: unknown) => {
          done();
          reject(error);
        },
      };
      const done = (): void => {
        waiters.delete(waiter);
        for (const [signal, listener] of listeners) signal.removeEventListener('abort', listener);
      };
      for (const signal of signals) {
        if (signal === undefined) continue;
        if (signal.aborted) {
          reject(signal.reason);
          done();
          return;
        }
        const listener = (): void => waiter.reject(signal.reason);
        signal.addEventListener('abort', listener, { once: true });
        listeners.push([signal, listener]);
      }
      waiters.add(waiter);
    });
  }
}
