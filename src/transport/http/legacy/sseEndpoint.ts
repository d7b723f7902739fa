/**
 * The first event of a deprecated HTTP+SSE stream (MCP 2024-11-05, basic/transports "HTTP with
 * SSE"): `endpoint`, whose data is the URI the client POSTs its messages to. What makes it
 * usable, and the error when it is not. Runtime-neutral.
 */
import { ProtocolError } from '../../../errors/errors.js';
import { bodyExcerpt } from '../../transportErrors.js';
import { safeUrl } from '../body.js';
import type { SseEvent } from '../sseReader.js';

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

/**
 * The endpoint of the first event, resolved against `base` (the URL that answered the GET): an
 * `http:`/`https:` URI without credentials, on the origin of `sseUrl`, without its fragment.
 * `serverIdentity` names the stream in the error.
 * @throws SseEndpointError (-32600) when the first event is missing, is not `endpoint`, or names
 *   an unusable or cross-origin URI.
 */
export function endpointOf(first: SseEvent | undefined, base: string, sseUrl: URL, serverIdentity: string): URL {
  const url = serverIdentity;
  if (first === undefined)
    throw new SseEndpointError('the SSE stream ended before the endpoint event', {
      url,
      problem: 'missing',
      value: undefined,
    });
  if (first.type !== 'endpoint') {
    throw new SseEndpointError(`the first SSE event is "${first.type}", not "endpoint"`, {
      url,
      problem: 'not-first',
      value: { type: first.type, data: bodyExcerpt(first.data) },
    });
  }
  const raw = first.data;
  const resolved = safeUrl(raw.trim(), base);
  if (
    resolved === undefined ||
    (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') ||
    resolved.username !== '' ||
    resolved.password !== ''
  ) {
    throw new SseEndpointError('the endpoint event does not hold an http(s) URI without credentials', {
      url,
      problem: 'invalid',
      value: raw,
      ...(resolved !== undefined && { resolved: resolved.origin + resolved.pathname }),
    });
  }
  resolved.hash = '';
  if (resolved.origin !== sseUrl.origin) {
    throw new SseEndpointError(
      `the endpoint ${resolved.origin} is not on the origin of the SSE stream (${sseUrl.origin}); refused`,
      { url, problem: 'cross-origin', value: raw, resolved: resolved.href },
    );
  }
  return resolved;
}
