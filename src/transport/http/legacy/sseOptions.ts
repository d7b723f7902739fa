/**
 * The options of the deprecated HTTP+SSE transport (`legacySse.ts`), their defaults and its
 * capabilities, shared by the class and the fallback of a `StreamableHttpTransport`
 * (`sseFallback.lazy.ts`, in the legacy wire's part). Runtime-neutral.
 */
import type { Timers } from '../../../util/clock.js';
import type { TransportCapabilities } from '../../transport.js';
import type { AuthProvider } from '../auth.js';
import type { FetchLike } from '../stack.js';

/** Options for `LegacySseTransport`. Every field is optional. */
export interface LegacySseTransportOptions {
  /**
   * Headers sent with the `GET` and every `POST` (for example an API key). `Accept` on the
   * `GET` and `Content-Type` on a `POST` always win; `Authorization` from {@link authProvider}
   * wins over a static one.
   */
  headers?: Readonly<Record<string, string>> | Headers | undefined;
  /** The fetch implementation. @default globalThis.fetch, looked up at each call */
  fetch?: FetchLike | undefined;
  /**
   * Supplies the `Authorization` header of each `GET` and `POST`, as for
   * `StreamableHttpTransport` (attempt 2 after a 401 or a 403 `insufficient_scope`).
   */
  authProvider?: AuthProvider | undefined;
  /** Timers for the `endpoint` wait. @default the globals, looked up per call (fake-timer friendly) */
  timers?: Timers | undefined;
  /** Longest wait, in ms, from the `GET` to the `endpoint` event. @default 10000 */
  endpointTimeoutMs?: number | undefined;
  /** Longest SSE event accepted, in characters. @default 67108864 */
  maxEventChars?: number | undefined;
  /** Same-origin redirects followed per request (307/308; for the `GET` also 301-303). @default 3 */
  maxRedirects?: number | undefined;
}

/** What the transport can do: cancellation is `notifications/cancelled`; replies come on the stream. */
export const SSE_CAPABILITIES: TransportCapabilities = Object.freeze({
  cancelsByAbortingSend: false,
  mirrorsToolParamHeaders: false,
  answersEveryRequest: false,
});

/** Longest wait, in ms, from the `GET` to the `endpoint` event, by default. */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;

/** Same-origin redirects followed per request, by default. */
export const DEFAULT_MAX_REDIRECTS = 3;
