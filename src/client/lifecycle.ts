/**
 * A client's `connect()` and `close()`: start the transport, negotiate the era, open (or, on a
 * failure a new attempt may mend, go on reconnecting); close everything the client runs, within
 * the caller's bound on the transport's own close.
 */
import { abortedError, ConnectionClosedError, isCancelledError, isTimeoutError } from '../errors/errors.js';
import type { DiscoverResult } from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { ClientState } from '../reconnect/types.js';
import { boundedWait, type CloseOptions } from './closeOptions.js';
import { ClientStateError } from './errors.js';
import type { ClientParts } from './assembly.js';

/** `McpClient.connect` (see its doc comment for what it resolves with and throws). */
export async function connect(parts: ClientParts, options: CallOptions): Promise<DiscoverResult> {
  const { connection, binding } = parts;
  const state = connection.state;
  if (state !== 'new') throw connectAgain(state);
  const signal = options.signal;
  if (signal?.aborted === true) {
    await close(parts, {});
    throw abortedError('connect', signal.reason);
  }
  connection.connecting();
  try {
    // Telemetry and the debug log load while the transport starts, before anything is sent.
    await Promise.all([parts.session.start(), parts.observe()]);
    const result = await binding.negotiate(options);
    connection.opened();
    parts.observer?.connected(binding.era, binding.protocolVersion);
    return result;
  } catch (error) {
    if (connection.firstConnectFailed(error, signal)) throw error;
    const closing = close(parts, {});
    // The caller's abort and connect()'s own deadline end it now; close() finishes the clean-up.
    const now = isCancelledError(error) || (isTimeoutError(error) && error.data.method === 'connect');
    if (now)
      closing.catch(() => {}); // a later close() reports it
    else await closing;
    throw error;
  }
}

/** `McpClient.close` (see its doc comment). Idempotent. */
export async function close(parts: ClientParts, options: CloseOptions): Promise<void> {
  // A tasks/cancel sent just before (the caller aborted) gets its answer first (≤ 2 s).
  if (parts.connection.state !== 'closed') await parts.tasks.drainCancels();
  const stopped = parts.connection.close();
  parts.observer?.sessionEnded();
  parts.subscriptions.closeAll('client-closed');
  parts.tasks.close(new ConnectionClosedError('connection closed (closed by client)', { reason: 'closed by client' }));
  parts.responseCache?.dispose();
  const done = stopped.then(() => parts.session.close());
  await boundedWait(done, 'close', options, parts.options.timers);
}

/** The error of a second `connect()`: what state the client is in, and what to do instead. */
function connectAgain(state: ClientState): ClientStateError {
  const message =
    state === 'connecting'
      ? 'connect() was already called and is still under way; await that call'
      : state === 'open'
        ? 'the client is already connected (connect() runs once per McpClient)'
        : state === 'reconnecting'
          ? 'the client is connected and reconnecting by itself (connect() runs once per McpClient)'
          : 'the client was closed; an McpClient connects once: create a new one to connect again';
  return new ClientStateError({ method: 'connect', state }, message);
}
