/**
 * The transport options of one request's send: its headers, idempotency and credential, and,
 * on a transport that cancels by aborting the send, the send's cancellation.
 */
import type { CancelSource } from '../transport/cancelHandle.js';
import type { RequestCredential, TransportSendOptions } from '../transport/transport.js';
import type { SessionRequestOptions } from './sessionOptions.js';

/**
 * What `transport.send` gets for a request with these options: `undefined` when there is
 * nothing to say; with `cancel` (the send's cancellation) a {@link CancellableSendOptions}.
 */
export function sendOptionsOf(
  options: SessionRequestOptions,
  cancel: CancelSource | undefined,
): TransportSendOptions | undefined {
  const { transportHeaders, idempotent, credential } = options;
  if (cancel !== undefined) return new CancellableSendOptions(cancel, transportHeaders, idempotent, credential);
  if (transportHeaders === undefined && idempotent === undefined && credential === undefined) return undefined;
  const sendOptions: TransportSendOptions = {};
  if (transportHeaders !== undefined) sendOptions.headers = transportHeaders;
  if (idempotent !== undefined) sendOptions.idempotent = idempotent;
  if (credential !== undefined) sendOptions.credential = credential;
  return sendOptions;
}

/**
 * The send options of a request the session cancels by aborting its send. `signal` is a getter
 * on the prototype, so the `AbortSignal` exists only if a transport reads it (an object literal
 * with a getter would cost more per request than the rest of the send).
 */
class CancellableSendOptions implements TransportSendOptions {
  constructor(
    readonly cancel: CancelSource,
    readonly headers: Readonly<Record<string, string>> | undefined,
    readonly idempotent: boolean | undefined,
    readonly credential: RequestCredential | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.cancel.signal;
  }
}
