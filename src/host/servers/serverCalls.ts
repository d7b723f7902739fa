/**
 * One call on one server of a host: the server waited for while it is on its way to `open`
 * (within the call's own deadline), the call sent again while nothing reached the server, and
 * the server's state kept in line with what the call found.
 */
import type { McpClient } from '../../client/client.js';
import { abortedError, ConnectionClosedError, isTimeoutError } from '../../errors/errors.js';
import {
  systemClock,
  systemTimers,
  systemWallClock,
  type Clock,
  type Timers,
  type WallClock,
} from '../../util/clock.js';
import { abortableDelay } from '../../util/signals.js';
import type { CallOptions } from '../../wire/callOptions.js';
import type { HostCore } from './hostCore.js';
import type { ServerSlot } from './serverSlot.js';
import { GATE_SCOPE } from '../policy/toolGate.js';

/** First wait before a call that reached no server is sent again, in ms (doubling, up to the max). */
const UNREACHED_RETRY_MS = 100;
const UNREACHED_RETRY_MAX_MS = 1000;

/** A call's deadline when neither the call nor the client options give a `timeoutMs`: the client's default. */
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** A call that failed before anything reached the server: its connection was refused, unresolved or unreachable. */
function unreached(error: unknown): boolean {
  return (
    error instanceof ConnectionClosedError &&
    error.data.connectFailure !== undefined &&
    error.data.connectFailure !== 'tls' &&
    error.data.connectFailure !== 'blocked'
  );
}

/**
 * Runs a call on a server's client once it is open: a server that is `connecting` or
 * `reconnecting` is waited for within the call's own deadline (its `timeoutMs`, else the
 * client's; its `signal`), and the call gets what is left of it. A connection found gone
 * updates the server's state.
 * @throws HostRoutingError (-33051, `unknown-server`, `server-unavailable`); CancelledError
 *   (-32800) when the signal aborts during the wait (TimeoutError -32001 when it is an
 *   `AbortSignal.timeout()`); then whatever the call throws.
 */
export async function onServer<T, O extends CallOptions>(
  core: HostCore,
  server: string,
  method: string,
  options: O,
  call: (client: McpClient, options: O) => Promise<T>,
): Promise<T> {
  if (core.scope !== undefined && core.closed)
    throw new ConnectionClosedError(`${method}: the user scope is closed`, { reason: 'scope closed' });
  const slot = core.slotNamed(server);
  if (slot.waitingLazily) void slot.start();
  const { clock, timers, wallClock } = timeOf(core, slot);
  const deadline = deadlineOf(core, slot, options);
  const started = clock.now();
  let lastUnreached: unknown;
  for (let attempt = 1; ; attempt++) {
    const client = await slot.ready({
      method,
      signal: options.signal,
      timeoutMs: deadline - (clock.now() - started),
      clock,
      timers,
      wallClock,
    });
    const waited = clock.now() - started;
    const own = waited > 0 ? { ...options, timeoutMs: Math.max(1, deadline - waited) } : options;
    try {
      return await startCall(core, client, own, call);
    } catch (error) {
      slot.afterFailure(error);
      // A retry that ran out of time while the server was still down is the same verdict.
      if (lastUnreached !== undefined && isTimeoutError(error))
        throw slot.unavailable(clock.now() - started, lastUnreached);
      if (!unreached(error)) throw error;
      lastUnreached = error;
      // Nothing reached the server (a refused connection to a stateless HTTP server that is
      // down): try again within the call's deadline, then say the server is unavailable.
      const pause = Math.min(UNREACHED_RETRY_MAX_MS, UNREACHED_RETRY_MS * 2 ** (attempt - 1));
      const left = deadline - (clock.now() - started);
      if (left <= pause) throw slot.unavailable(clock.now() - started, error);
      try {
        await abortableDelay(pause, timers, options.signal);
      } catch (reason) {
        throw abortedError(method, reason);
      }
    }
  }
}

/**
 * Starts one call: a user scope's call carries the scope's approval and starts inside the
 * host's principal window (its private cache partition on a shared client).
 */
function startCall<T, O extends CallOptions>(
  core: HostCore,
  client: McpClient,
  options: O,
  call: (client: McpClient, options: O) => Promise<T>,
): Promise<T> {
  const scope = core.scope;
  if (scope === undefined) return call(client, options);
  const own = { ...options, [GATE_SCOPE]: scope.gate };
  return core.window.run(scope.authContext, () => call(client, own));
}

/**
 * For a call by `{ server, name }`: the server must be one that can take calls; while it is
 * still connecting for the first time, or reconnects in a cool-down (no items listed either
 * way), waits for it as {@link onServer} does (failing at once when its next attempt is after
 * the deadline).
 * @throws HostRoutingError (-33051, `unknown-server`, `server-unavailable`); CancelledError (-32800)
 */
export async function itemsOf(core: HostCore, name: string, method: string, options: CallOptions): Promise<void> {
  const slot = core.slotNamed(name);
  if (slot.waitingLazily) void slot.start();
  if (!slot.reachable) throw slot.unavailable();
  if (slot.state !== 'connecting' && !slot.withdrawn) return;
  const { clock, timers, wallClock } = timeOf(core, slot);
  const timeoutMs = deadlineOf(core, slot, options);
  await slot.ready({ method, signal: options.signal, timeoutMs, clock, timers, wallClock });
}

/** The clocks and timers of a server's client options (its own over the host's `client` defaults). */
export function timeOf(core: HostCore, slot: ServerSlot): { clock: Clock; timers: Timers; wallClock: WallClock } {
  const own = slot.entry?.client;
  return {
    clock: own?.clock ?? core.options.client?.clock ?? systemClock,
    timers: own?.timers ?? core.options.client?.timers ?? systemTimers,
    wallClock: own?.wallClock ?? core.options.client?.wallClock ?? systemWallClock,
  };
}

/** A call's deadline, in ms: its `timeoutMs`, else its server's client `timeoutMs` (60 000). */
function deadlineOf(core: HostCore, slot: ServerSlot, options: CallOptions): number {
  const value = options.timeoutMs ?? slot.entry?.client?.timeoutMs ?? core.options.client?.timeoutMs;
  return typeof value === 'number' && value > 0 ? value : DEFAULT_CALL_TIMEOUT_MS;
}
