/**
 * The first event of a deprecated HTTP+SSE stream (MCP 2024-11-05, basic/transports "HTTP with
 * SSE"): `endpoint`, whose data is the URI the client POSTs its messages to, and what makes it
 * usable. Loaded with the transport's connection (`sseConnection.lazy.ts`). Runtime-neutral.
 */
import { bodyExcerpt } from '../../transportErrors.js';
import { safeUrl } from '../body.js';
import type { SseEvent } from '../sseReader.js';
import { SseEndpointError } from './sseEndpoint.js';

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
