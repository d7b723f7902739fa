/**
 * The deprecated HTTP+SSE transport opened by a `StreamableHttpTransport` at its own URL, when
 * its client falls back to it (`LegacyWireControl.openSse`; docs/legacy.md). Loaded then, with
 * the transport's connection (`sseConnection.lazy.ts`). Runtime-neutral.
 */
import { ConnectionClosedError } from '../../../errors/errors.js';
import type { Timers } from '../../../util/clock.js';
import type { TransportHandlers } from '../../transport.js';
import type { AuthorizationSource } from '../authorization.js';
import type { FetchLike } from '../stack.js';
import { SseConnection } from './sseConnection.lazy.js';
import { DEFAULT_ENDPOINT_TIMEOUT_MS, DEFAULT_MAX_REDIRECTS } from './sseOptions.js';

/**
 * @internal What a `StreamableHttpTransport` lends the HTTP+SSE fallback it opens at its own
 * URL (see {@link openSseFallback}): its settings, its handlers, and its close.
 */
export interface SseFallbackDeps {
  readonly url: string;
  readonly headers: Headers;
  readonly fetch: FetchLike;
  readonly timers: Timers;
  readonly maxEventChars: number | undefined;
  /** The host's handlers; `undefined` when it was never started or is closed. */
  readonly handlers: TransportHandlers | undefined;
  /** The host's `Authorization` of each try; the fallback's requests use it (and the credentials it pinned). */
  readonly auth: AuthorizationSource;
  /** Aborted when the host closes: the stream then ends without an `onClose` (the host reports its own). */
  readonly closeSignal: AbortSignal;
  /** The stream ended by itself and `onClose` was called: the host counts as closed from now on. */
  onClosed(): void;
}

/**
 * @internal Opens the deprecated HTTP+SSE transport at the host's URL for a
 * `StreamableHttpTransport` whose client fell back to it (`LegacyWireControl.openSse`).
 * Resolves once the `endpoint` event arrived; rejects like `LegacySseTransport.start()`.
 */
export async function openSseFallback(host: SseFallbackDeps, signal: AbortSignal | undefined): Promise<SseConnection> {
  const handlers = host.handlers;
  if (handlers === undefined || host.closeSignal.aborted)
    throw new ConnectionClosedError('GET: the HTTP transport is not open', { reason: 'transport closed' });
  const url = new URL(host.url);
  const connection = new SseConnection(
    {
      url,
      serverIdentity: `${url.origin}${url.pathname}`,
      headers: host.headers,
      auth: host.auth,
      fetch: host.fetch,
      timers: host.timers,
      endpointTimeoutMs: DEFAULT_ENDPOINT_TIMEOUT_MS,
      maxEventChars: host.maxEventChars,
      maxRedirects: DEFAULT_MAX_REDIRECTS,
    },
    new AbortController(),
  );
  await connection.open(handlers, signal, { closeSignal: host.closeSignal, onClosed: () => host.onClosed() });
  return connection;
}
