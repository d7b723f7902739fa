/**
 * What a client's connection (`connection.ts`) and its reconnect (`reconnector.ts`, loaded on
 * demand) share: the hooks the connection borrows from its client, and the part of the
 * connection the reconnect drives (its state, its events, the requests that wait).
 */
import type { ConnectionClosedError } from '../errors/errors.js';
import type { JsonRpcSession } from '../jsonrpc/session.js';
import type { Era } from '../era/era.js';
import type { TransportCloseInfo } from '../transport/transport.js';
import type { Clock, Timers, WallClock } from '../util/clock.js';
import type { DebugSink } from '../observability/debug.js';
import type { ResolvedReconnectPolicy } from '../resilience/reconnectPolicy.js';
import type { ClientEvent, ClientState, ReconnectCause } from '../reconnect/types.js';
import type { ConnectionWait } from './caller.js';

/** What the connection borrows from its client. */
export interface ConnectionHooks {
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
export type Reconnecting = Omit<Extract<ClientEvent, { type: 'reconnecting' }>, 'retryAt'>;

/** The part of a connection its reconnect drives. @internal */
export interface ConnectionCore {
  readonly hooks: ConnectionHooks;
  readonly state: ClientState;
  /** What ended the connection, once it is gone for good. */
  readonly lostWith: ConnectionClosedError | undefined;
  /** The last close the transport reported, in any state. */
  readonly lastClose: TransportCloseInfo | undefined;
  /** The connection's wait for requests made while it reconnects. */
  readonly wait: ConnectionWait;
  setState(state: ClientState): void;
  emit(event: ClientEvent): void;
  /** Emits `reconnecting`, stamping `retryAt` (now plus its wait, on the wall clock). */
  announce(event: Reconnecting): void;
  /** Open again after `attempts` attempts: what waits goes on, and `reconnected`. */
  reopenedAfter(attempts: number): void;
  /** Closed for good with `error`, once `abandoned` (what the transport held for a new session) has failed. */
  end(error: ConnectionClosedError, abandoned: Promise<void>): void;
  /** The session's transport closed (a drop found after a reconnect, handled as a new one). */
  transportClosed(info: TransportCloseInfo): void;
  log(message: string): void;
}

/** One line for a cause: its reason and what the transport said. */
export function describeCause(cause: ReconnectCause): string {
  const parts: string[] = [cause.reason];
  if (cause.exitCode !== undefined && cause.exitCode !== null) parts.push(`exit code ${cause.exitCode}`);
  if (cause.signal !== undefined && cause.signal !== null) parts.push(`signal ${cause.signal}`);
  if (cause.closeCode !== undefined) parts.push(`close code ${cause.closeCode}`);
  if (cause.httpStatus !== undefined) parts.push(`HTTP ${cause.httpStatus}`);
  if (cause.error instanceof Error) parts.push(cause.error.message);
  return parts.join(', ');
}
