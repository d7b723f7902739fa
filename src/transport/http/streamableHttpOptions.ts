/**
 * The options of the Streamable HTTP transport (`streamableHttp.ts`). Runtime-neutral.
 */
import type { Timers } from '../../util/clock.js';
import type { RetryPolicy } from '../../resilience/retryPolicy.js';
import type { AuthProvider } from './auth.js';
import type { LegacyHttpOptions } from './legacy/legacyHttp.js';
import type { FetchLike } from './stack.js';

/** Options for `StreamableHttpTransport`. Every field is optional. */
export interface StreamableHttpTransportOptions {
  /**
   * Headers sent with every POST (for example an API key). The protocol headers (`Accept`,
   * `Content-Type`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) always win over them;
   * `Authorization` from {@link authProvider} wins over a static one.
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * The fetch implementation: every request goes through it (`redirect: 'manual'`, `headers` a
   * plain object with lower-case names). Use it behind a proxy (e.g. with an undici
   * `ProxyAgent` dispatcher) or to instrument requests. On the `mcp-live/node` transport, giving
   * it selects the fetch path instead of `node:http`. @default globalThis.fetch, looked up at each call
   */
  fetch?: FetchLike | undefined;
  /** Supplies the `Authorization` header per request; see {@link AuthProvider}. */
  authProvider?: AuthProvider | undefined;
  /**
   * Retries of transient failures before any response: connection refused (every method),
   * connection reset and HTTP 429/502/503/504 (idempotent messages only; 429 for every method),
   * honouring `Retry-After`. `false` disables them. @default `{ retries: 2, minDelayMs: 500,
   * maxDelayMs: 5000, factor: 2, jitter: true, maxRetryAfterMs: 30000 }`
   */
  retry?: RetryPolicy | false | undefined;
  /**
   * Timers for the waits of a 2025-11-25 server's wire: the SSE `retry` before a broken stream
   * is resumed or the standalone GET stream reopened, the `DELETE` timeout, and the HTTP+SSE
   * fallback's `endpoint` wait. The waits between the retries of transient failures (`retry`,
   * a `Retry-After` too) and of the standalone GET stream do not use them: they run on the
   * global `setTimeout`. @default the globals, looked up per call (fake-timer friendly)
   */
  timers?: Timers | undefined;
  /** Longest SSE event accepted, in characters. @default 67108864 */
  maxEventChars?: number | undefined;
  /**
   * Longest JSON response body accepted, in bytes: a longer one (or one whose `Content-Length`
   * says so) is dropped as soon as it crosses the limit, and the request fails with
   * `ProtocolError` (-32700, `data.value: { maxBodyBytes, received }`), as an oversized SSE event
   * does. Error bodies are read only in part anyway. @default 67108864 (64 MiB)
   */
  maxBodyBytes?: number | undefined;
  /** Same-origin 307/308 redirects followed per POST. Other redirects fail. @default 3 */
  maxRedirects?: number | undefined;
  /**
   * The legacy wire (2025-11-25 and earlier), used after the client falls back to `initialize`:
   * the standalone GET stream, resumption, `DELETE` on close. See {@link LegacyHttpOptions}.
   * @default every field's default
   */
  legacy?: LegacyHttpOptions | undefined;
}
