/**
 * What a client tells about its connection: its state, and the events of a reconnect (docs:
 * transports.md, "Reconnecting"). Types only.
 */
import type { Era } from '../era/era.js';

/**
 * Connection state of an `McpClient`: `new` → `connecting` → `open` → (`reconnecting` →
 * `open`)* → `closed`. `reconnecting` when the connection dropped (or, with
 * `reconnect.retryFirstConnect`, the first one could not be made) and the client is making a
 * new one; requests made meanwhile wait for it. `closed` is for good.
 */
export type ClientState = 'new' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * Why a connection dropped, or why a reconnect attempt failed: what the transport knows.
 * `reason` is one of:
 * - `process-exit`: the stdio server process ended (`exitCode`, `signal`, `stderrTail`);
 * - `websocket-close`: the server closed the WebSocket, or it was lost (`closeCode`: 1001
 *   going away, 1006 abnormal, 1012 service restart...);
 * - `connection-lost`: another transport's connection ended;
 * - `http-session-lost`: the legacy HTTP session expired (`httpStatus` 404); a new one is set up
 *   at once (attempt 1), and on the reconnect policy again if that fails;
 * - `connect-failed`: an attempt could not connect or negotiate (`error` says why: the command
 *   could not be spawned, the socket was refused, the server did not answer `server/discover`...).
 */
export interface ReconnectCause {
  reason: 'process-exit' | 'websocket-close' | 'connection-lost' | 'http-session-lost' | 'connect-failed';
  /** Exit code of the stdio server process (`null` when a signal ended it). */
  exitCode?: number | null | undefined;
  /** Signal that ended the stdio server process, e.g. `"SIGKILL"`. */
  signal?: string | null | undefined;
  /** The last bytes (at most 4 KiB) the stdio server wrote to stderr. */
  stderrTail?: string | undefined;
  /** WebSocket close code (RFC 6455 §7.4). */
  closeCode?: number | undefined;
  /** HTTP status, when an HTTP response ended it. */
  httpStatus?: number | undefined;
  /** The error that ended the connection or the attempt (a `ConnectionClosedError`, `TimeoutError`...). */
  error?: unknown;
}

/**
 * One event of `McpClient.on(listener)`:
 * - `state`: the state changed (every change, the first connect included);
 * - `reconnecting`: attempt number `attempt` (from 1 in each reconnect) starts in `delayMs` ms,
 *   at `retryAt` (wall clock, ms since the epoch); `coolDown` is true for the long wait once
 *   the quick retries or the window budget are spent (minutes, by default: show it as waiting,
 *   not as an attempt under way); `cause` is why the connection dropped (before attempt 1) or
 *   why the previous attempt failed;
 * - `reconnected`: attempt `attempt` succeeded; the version and era negotiated again (the server
 *   may have been upgraded or downgraded meanwhile);
 * - `gaveUp`: the reconnect budget is spent, or an attempt failed in a way a retry cannot mend (a
 *   version no longer shared, an authorization refusal, a command that does not exist);
 *   `closed` follows.
 */
export type ClientEvent =
  | { type: 'state'; state: ClientState; previous: ClientState }
  | {
      type: 'reconnecting';
      attempt: number;
      delayMs: number;
      retryAt: number;
      coolDown: boolean;
      cause: ReconnectCause;
    }
  | { type: 'reconnected'; attempt: number; protocolVersion: string; era: Era }
  | { type: 'gaveUp'; attempts: number; cause: ReconnectCause };
