/**
 * The error of a deprecated HTTP+SSE stream (MCP 2024-11-05, basic/transports "HTTP with SSE")
 * whose first event is not a usable `endpoint` (see `endpointEvent.ts`). Runtime-neutral.
 */
import { ProtocolError } from '../../../errors/errors.js';

/** What was wrong with the server's `endpoint` event. */
export type SseEndpointProblem = 'missing' | 'not-first' | 'invalid' | 'cross-origin';

/** `data` of a {@link SseEndpointError}. */
export interface SseEndpointErrorData {
  /** Always `"GET"`: the request that opened the stream. */
  method: 'GET';
  /** The SSE URL (origin and path). */
  url: string;
  /**
   * `missing`: the stream ended before any event; `not-first`: the first event was not
   * `endpoint`; `invalid`: its data is not an `http:`/`https:` URI without credentials;
   * `cross-origin`: it resolves to another origin than the SSE URL.
   */
  problem: SseEndpointProblem;
  /** The offending value: the endpoint event's data as sent, or `{ type, data }` of the first event. */
  value: unknown;
  /** The endpoint resolved against the SSE URL, when it parsed. */
  resolved?: string | undefined;
  /** The same text as the message, without the method prefix. */
  reason: string;
}

/**
 * The HTTP+SSE server's stream did not start with a usable `endpoint` event (code -32600,
 * like every `ProtocolError`). `data` is {@link SseEndpointErrorData}, with the offending value.
 * An endpoint on another origin is refused: the client would otherwise send its messages, and
 * its credential, wherever the stream told it to.
 */
export class SseEndpointError extends ProtocolError {
  override name = 'SseEndpointError';
  declare readonly data: SseEndpointErrorData;

  constructor(reason: string, data: Omit<SseEndpointErrorData, 'reason' | 'method'>) {
    const full: { method: string; value: unknown } = { method: 'GET', ...data };
    super(reason, full);
  }
}
