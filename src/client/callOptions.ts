import type { Progress } from '../jsonrpc/sessionOptions.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { LoggingLevel, LoggingMessage } from '../types/protocol.js';
import type { CacheMode } from '../cache/types.js';
import type { InputRetry } from '../inputRequired/retry.js';
import type { InputRequiredMode } from './options.js';
import type { TaskCallOptions } from '../tasks/options.js';

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
   * How this call uses the response cache, named as `fetch` names them: `default` (a fresh
   * entry, else the server), `no-store` (bypass the cache), `reload` and `no-cache` (always ask
   * the server, then store), `force-cache` (any entry, even stale), `only-if-cached` (an entry
   * or `CacheMissError`, -32005, with nothing sent). Only cacheable methods look at it.
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
   * otherwise the call fails with `StreamBrokenError` (-32012: the outcome is unknown).
   * @default true, except `tools/call`: true only for tools listed with `readOnlyHint` or
   *   `idempotentHint`
   */
  idempotent?: boolean | undefined;
}

/**
 * Options of `callTool`: {@link CallOptions} plus the Tasks extension's `task` and `onTask`. On
 * a task, `signal` cancels it with `tasks/cancel`; `timeoutMs` applies to each request;
 * `maxTotalTimeoutMs` bounds the whole task only when given on the call (the task's own TTL
 * bounds it otherwise); `onProgress` also hears each task state (`progress` counts them,
 * `message` is the `statusMessage` or the status).
 */
export type CallToolOptions = CallOptions & TaskCallOptions;
