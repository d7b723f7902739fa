/**
 * Reading HTTP responses without trusting them (media types, JSON and JSON-RPC error bodies,
 * capped excerpts) and checking endpoint URLs. Shared by the HTTP transports and `src/auth/`.
 * Runtime-neutral.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import { isObject, type JsonRpcErrorObject } from '../../wire/messages.js';

/** Bytes of an error body read for its excerpt or its JSON-RPC error. */
export const ERROR_BODY_BYTES = 64 * 1024;

/** The media type of a `Content-Type` value, lower-cased, without parameters; `undefined` when absent. */
export function mediaType(header: string | null | undefined): string | undefined {
  const type = (header ?? '').split(';')[0]?.trim().toLowerCase();
  return type === undefined || type === '' ? undefined : type;
}

/** `JSON.parse`, or `undefined` for an empty or unparsable text. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The `error` member of a JSON-RPC error response, when `value` is one. */
export function jsonRpcError(value: unknown): JsonRpcErrorObject | undefined {
  if (!isObject(value) || value['jsonrpc'] !== '2.0') return undefined;
  const error = value['error'];
  if (!isObject(error) || !Number.isInteger(error['code']) || typeof error['message'] !== 'string') return undefined;
  return error as unknown as JsonRpcErrorObject;
}

/** `new URL(location, base)`, or `undefined` when it does not parse. */
export function safeUrl(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** Drops a body without reading it (frees the connection). */
export async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Already errored or locked: nothing to free.
  }
}

/** Reads at most `maxBytes` of a body as UTF-8 text, then cancels the rest. Never rejects. */
export async function readStart(response: Response, maxBytes: number): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let done = false;
  try {
    while (total < maxBytes) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        break;
      }
      chunks.push(next.value);
      total += next.value.byteLength;
    }
  } catch {
    // Keep what arrived.
  } finally {
    if (!done) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return decodeStart(chunks, total, maxBytes);
}

/**
 * An HTTP(S) endpoint URL as given to a transport constructor, without its fragment.
 * @throws InvalidArgumentError (-32602) for a URL that does not parse, is not `http:`/`https:`,
 *   or holds credentials (they would not be sent; headers or an auth provider carry them).
 */
export function parseEndpointUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidArgumentError('url', String(url), 'expected an absolute http: or https: URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InvalidArgumentError('url', parsed.protocol, 'expected an http: or https: URL');
  if (parsed.username !== '' || parsed.password !== '') {
    throw new InvalidArgumentError(
      'url',
      `${parsed.origin}${parsed.pathname}`,
      'credentials in the URL are not sent; use headers or authProvider',
    );
  }
  parsed.hash = '';
  return parsed;
}

/**
 * The first `maxBytes` of `chunks` (`total` bytes in all) as UTF-8 text; a character cut at the
 * limit becomes U+FFFD. For short excerpts of error bodies.
 */
export function decodeStart(chunks: readonly Uint8Array[], total: number, maxBytes: number): string {
  const bytes = new Uint8Array(Math.min(total, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const take = Math.min(chunk.byteLength, bytes.byteLength - offset);
    bytes.set(chunk.subarray(0, take), offset);
    offset += take;
    if (offset >= bytes.byteLength) break;
  }
  return new TextDecoder('utf-8').decode(bytes);
}
