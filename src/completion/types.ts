/** The shapes of completion as a user types: a completer, what it answers, what it needs. */
import type { JsonObject } from '../wire/messages.js';
import type { PromptReference, ResourceTemplateReference, ServerCapabilities } from '../wire/protocol.js';
import type { Clock, Timers } from '../util/clock.js';

/** What one {@link Completer.complete} call resolves with; switch on `status`. */
export type CompletionOutcome = CompletionAnswer | CompletionSuperseded | CompletionUnsupported;

/** The answer for this call's own argument, value and context. */
export interface CompletionAnswer {
  status: 'completed';
  /** At most 100 suggestions, in the server's order. */
  values: string[];
  /** As the server sent it: how many suggestions exist in all. */
  total?: number | undefined;
  /** As the server sent it: whether there are more than `values`. */
  hasMore?: boolean | undefined;
  /** How many values beyond the spec's 100 the server sent and the client dropped (also reported to `onError`). */
  trimmed: number;
  /** `server`: a request was sent for this call; `cache`: a recent answer for the same input. */
  source: 'server' | 'cache';
}

/**
 * A newer call (or `close()`) took this call's place before it was answered: its request was
 * not sent, or was cancelled on the wire (`notifications/cancelled`). Resolved at the moment it
 * is superseded, so earlier calls always settle before later ones. Ignore it.
 */
export interface CompletionSuperseded {
  status: 'superseded';
}

/** The server does not declare the `completions` capability: nothing was sent. */
export interface CompletionUnsupported {
  status: 'unsupported';
  values: [];
  /** Why, in words. */
  reason: string;
}

/** Completion for one prompt or resource template, as a user types. See `client.completer()`. */
export interface Completer {
  /** The `ref` every request carries. */
  readonly ref: PromptReference | ResourceTemplateReference;
  /**
   * Asks for suggestions for `argument` given what the user has typed (`value`) and the
   * arguments already chosen (`context`, sent as `context.arguments`). Call it on every
   * keystroke: only the latest call is answered with its own suggestions; each earlier one
   * resolves `superseded` when the next call arrives.
   *
   * @throws (rejects) InvalidArgumentError (-32602) for a non-string argument, value or context
   *   value; CancelledError (-32800) when `options.signal` aborts first (its request, if sent,
   *   is cancelled on the wire); ProtocolError (-32600) for a result without a `values` array of
   *   strings; the request's own errors (RpcError as sent, TimeoutError,
   *   ConnectionClosedError). Only the latest call ever rejects with a request's error.
   */
  complete(
    argument: string,
    value: string,
    context?: Readonly<Record<string, string>>,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<CompletionOutcome>;
  /** Supersedes the pending call, cancels its request, drops the cache. Later calls resolve `superseded`. Idempotent. */
  close(): void;
}

/** What a {@link Completer} needs from a client. */
export interface CompleterDeps {
  /** The server's capabilities; `undefined` while unknown (then requests are sent). */
  capabilities(): ServerCapabilities | undefined;
  /** Sends `completion/complete` with these params and resolves with the raw result. */
  send(params: JsonObject, signal: AbortSignal, timeoutMs: number | undefined): Promise<JsonObject>;
  /** Where trimmed values and malformed fields are reported. */
  onError(error: Error): void;
  clock: Clock;
  timers: Timers;
}

/** The checked options of a completer. @internal */
export interface ResolvedCompleterOptions {
  debounceMs: number;
  cacheTtlMs: number;
  maxCacheEntries: number;
  timeoutMs: number | undefined;
}
