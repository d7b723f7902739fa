/**
 * The options of one call, as every layer that sends a request reads them: cancellation,
 * timeouts, progress, per-call logging, extra `_meta`, the cache mode and the `input_required`
 * mode. Types only; the client's defaults fill what a call leaves unset.
 */
import type { JsonObject } from './messages.js';
import type { InputResponse, LoggingLevel, LoggingMessage } from './protocol.js';

/** One `notifications/progress` update, as handed to the `onProgress` call option. */
export interface Progress {
  /** Progress so far; increases with each update. */
  progress: number;
  /** Total amount of work, when the server knows it. */
  total?: number | undefined;
  /** Human-readable status, when the server sent one. */
  message?: string | undefined;
}

/**
 * How one request uses the cache; the names and meanings follow `fetch()`'s `RequestInit.cache`.
 *
 * - `default`: a fresh entry is returned; otherwise the request is sent and the result stored
 *   (with `staleWhileRevalidateMs`, a recently stale entry is returned and refreshed in the
 *   background; with `staleIfErrorMs`, a failed request may fall back to the stale entry).
 * - `no-store`: the cache is neither read nor written; no in-flight sharing either.
 * - `reload`: the request is always sent; the result is stored.
 * - `no-cache`: same as `reload`. HTTP would revalidate conditionally; MCP has no conditional
 *   requests, so revalidation is a full request.
 * - `force-cache`: any entry, fresh or stale, is returned; otherwise as `default`.
 * - `only-if-cached`: any entry, fresh or stale, is returned; otherwise the call fails with
 *   `CacheMissError` (-33005) and nothing is sent.
 */
export type CacheMode = 'default' | 'no-store' | 'reload' | 'no-cache' | 'force-cache' | 'only-if-cached';

/** What the client does with an `input_required` result (spec: basic/patterns/mrtr). */
export type InputRequiredMode = 'auto' | 'manual';

/**
 * The fields a retry adds to the original request's params (spec: basic/patterns/mrtr,
 * Client Requirements 1–2). A key is present only when it is to be sent: `inputResponses` when
 * the server asked for input, `requestState` when the server sent one in the result being
 * answered.
 */
export interface InputRetry {
  inputResponses?: Record<string, InputResponse>;
  requestState?: string;
}

/**
 * Options every client call takes as its last argument. Unset fields fall back to the
 * client's defaults ({@link ClientOptions}).
 */
export interface CallOptions {
  /** Cancels the call: it rejects with `CancelledError` (code -32800) and the server is told. */
  signal?: AbortSignal | undefined;
  /**
   * Idle timeout in ms: the call fails with `TimeoutError` (code -32001, `data.kind: "idle"`)
   * when neither a response nor (with `resetTimeoutOnProgress`) progress arrives in time.
   * @default the client's `timeoutMs` (60 000)
   */
  timeoutMs?: number | undefined;
  /**
   * Hard limit in ms on the whole call, whatever progress arrives
   * (`TimeoutError`, `data.kind: "total"`). @default the client's `maxTotalTimeoutMs` (600 000)
   */
  maxTotalTimeoutMs?: number | undefined;
  /** Whether progress notifications restart the idle timeout. @default true */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Receives `notifications/progress` for this call (spec: basic/patterns/progress). */
  onProgress?: ((progress: Progress) => void) | undefined;
  /**
   * Asks the server for `notifications/message` at or above this level for this call only
   * (`_meta["io.modelcontextprotocol/logLevel"]`, spec: server/utilities/logging).
   */
  logLevel?: LoggingLevel | undefined;
  /** Receives the log messages of this call (needs `logLevel`). */
  onLog?: ((message: LoggingMessage) => void) | undefined;
  /** Extra `_meta` keys for this request; merged with the protocol keys, never dropped. */
  meta?: JsonObject | undefined;
  /**
   * The user's language preference for this call, in place of the client's `acceptLanguage`
   * (and of an `acceptLanguage` key in {@link meta}): an `Accept-Language` value such as
   * `"de"`, sent as `_meta["io.modelcontextprotocol/acceptLanguage"]` and, over HTTP, as
   * `Accept-Language`; part of the cache key. Follows SEP-2792, a draft.
   * @throws InvalidArgumentError (-32602), nothing sent, for a value that is not an
   *   `Accept-Language` value.
   * @default the client's `acceptLanguage`
   */
  acceptLanguage?: string | undefined;
  /**
   * How this call uses the response cache, named as `fetch` names them: `default` (a fresh
   * entry, else the server), `no-store` (bypass the cache), `reload` and `no-cache` (always ask
   * the server, then store), `force-cache` (any entry, even stale), `only-if-cached` (an entry
   * or `CacheMissError`, -33005, with nothing sent). Only cacheable methods look at it.
   * @default "default"
   */
  cacheMode?: CacheMode | undefined;
  /** Per-call override of the client's `inputRequired` mode. */
  inputRequired?: InputRequiredMode | undefined;
  /**
   * Manual mode: the `inputResponses` / `requestState` to send with this call, usually
   * `inputRetryFor(method, error.data.result, responses)` from an `InputRequiredError`.
   */
  inputRetry?: InputRetry | undefined;
  /** Per-call override of the client's `maxInputRounds`. */
  maxInputRounds?: number | undefined;
  /**
   * Whether this request may run twice without harm. Streamable HTTP re-issues such a request
   * when its response stream breaks, and retries it after a connection reset or HTTP 502-504;
   * otherwise the call fails with `StreamBrokenError` (-33012: the outcome is unknown).
   * @default true, except `tools/call`: true only for tools listed with `readOnlyHint` or
   *   `idempotentHint`
   */
  idempotent?: boolean | undefined;
}
