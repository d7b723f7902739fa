/**
 * Whose call is on a shared server's client right now. A server without per-user credentials
 * keeps one client for every user scope of a host; its response cache resolves the partition of
 * each request synchronously when the request starts (cache/partitionResolver.ts), so a scope's
 * call runs its first, synchronous part inside {@link PrincipalWindow.run} and the client's
 * `authContext` reads {@link PrincipalWindow.current} then. Outside a window (the host's own
 * calls, its live lists) it is `undefined` and the entry's own auth context applies.
 */
import type { AuthContext } from '../../cache/authContext.js';

/** @internal See the module comment. */
export class PrincipalWindow {
  private value: AuthContext | undefined;

  /** The auth context of the scope whose call is starting, or `undefined` outside a scope's call. */
  get current(): AuthContext | undefined {
    return this.value;
  }

  /**
   * Runs `start` (the synchronous start of one call) with `context` as {@link current}, and
   * restores the previous value when it returns or throws; what `start` returns (a promise) is
   * returned as it is.
   */
  run<T>(context: AuthContext, start: () => T): T {
    const previous = this.value;
    this.value = context;
    try {
      return start();
    } finally {
      this.value = previous;
    }
  }
}
