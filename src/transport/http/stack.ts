/**
 * The HTTP client under {@link StreamableHttpTransport}: one request out, one response back,
 * its body read as chunks or as text, abortable at any point. The transport speaks MCP over this
 * narrow interface so that the same protocol code runs on `fetch` (here, runtime-neutral) and on
 * `node:http`/`node:https` (`nodeHttpStack.ts`, behind `mcp-live/node`).
 */
import { isHeaderToken } from './headerValue.js';
import { decodeStart } from './body.js';
import type { CancelHandle } from '../transport.js';

/** The subset of `fetch` the transport calls. `init.headers` is a plain object with lower-case names. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** One HTTP request, as the transport hands it to an {@link HttpStack}. */
export interface HttpStackRequest {
  readonly method: 'POST' | 'GET' | 'DELETE';
  /** Absolute `http:` or `https:` URL. */
  readonly url: string;
  /** Header names in lower case, values already checked with {@link checkHeaderValue}. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body (JSON text), sent as UTF-8 with a `Content-Length`. */
  readonly body?: string | undefined;
  /**
   * Aborting it ends the exchange at once, before or during the response body. A handle, not an
   * `AbortSignal`: the `node:http` stack destroys the request from its listener and never makes
   * a signal.
   */
  readonly cancel?: CancelHandle | undefined;
}

/** One HTTP response whose status and headers arrived; the body is read at most once. */
export interface HttpStackResponse {
  readonly status: number;
  /** The value of header `name` (lower case), repeated fields joined with `", "`; `undefined` when absent. */
  header(name: string): string | undefined;
  /**
   * The body, chunk by chunk. Leaving the loop early drops the rest of the body. Throws what
   * broke the body (a connection failure, or the abort reason once the signal aborted).
   */
  chunks(): AsyncIterable<Uint8Array>;
  /**
   * The whole body as UTF-8 text. Rejects like {@link chunks}, and with {@link BodyTooLargeError}
   * (dropping the rest of the body) as soon as it is longer than `maxBytes`, or its
   * `Content-Length` says it will be.
   */
  text(maxBytes: number): Promise<string>;
  /** Drops the body unread and frees the connection. Never throws. */
  discard(): void;
}

/** A response body longer than the transport accepts (see {@link HttpStackResponse.text}). */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  /**
   * @param limit the cap, in bytes
   * @param received the bytes received (or declared by `Content-Length`) when reading stopped
   */
  constructor(
    readonly limit: number,
    readonly received: number,
  ) {
    super(`response body longer than ${limit} bytes (${received} seen)`);
  }
}

/** The `Content-Length` of a response when it is a valid number, else `undefined`. */
export function declaredLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

/** How the transport sends HTTP requests. */
export interface HttpStack {
  /** The HTTP version its requests use, when the stack knows it (`node:http`: `1.1`); `fetch` does not say. */
  readonly protocolVersion?: string | undefined;
  /**
   * Sends one request; resolves once the response status and headers arrived (redirects are
   * never followed). Rejects with the abort reason when `request.cancel` aborts, or with the
   * network failure, its system code (`ECONNREFUSED`, `ECONNRESET`...) at `code` or `cause.code`.
   */
  send(request: HttpStackRequest): Promise<HttpStackResponse>;
  /**
   * Aborts every exchange in flight (waiting for its response, or with a body not yet read to
   * the end) with `reason`, as if its `cancel` had aborted. Later requests are not affected.
   */
  abortAll(reason: unknown): void;
  /** Frees what the stack holds (idle keep-alive connections). Requests in flight are not touched. */
  close(): void;
}

/** An {@link HttpStack} on `fetch` (with `redirect: 'manual'`). */
export function fetchStack(fetchImpl: FetchLike): HttpStack {
  const inflight = new Set<AbortController>();
  return {
    async send(request) {
      // fetch takes one signal: one per request that follows the caller's and abortAll().
      const controller = new AbortController();
      const given = request.cancel;
      const onAbort = (): void => controller.abort(given?.reason);
      if (given?.aborted === true) onAbort();
      else given?.onAbort(onAbort);
      inflight.add(controller);
      const release = (): void => {
        inflight.delete(controller);
        given?.offAbort(onAbort);
      };
      const init: RequestInit = {
        method: request.method,
        headers: request.headers,
        signal: controller.signal,
        redirect: 'manual',
      };
      if (request.body !== undefined) init.body = request.body;
      try {
        return new FetchStackResponse(await fetchImpl(request.url, init), controller.signal, release);
      } catch (error) {
        release();
        throw controller.signal.aborted ? controller.signal.reason : error;
      }
    },
    abortAll(reason) {
      for (const controller of [...inflight]) controller.abort(reason);
    },
    close() {},
  };
}

class FetchStackResponse implements HttpStackResponse {
  readonly status: number;

  constructor(
    private readonly response: Response,
    private readonly signal: AbortSignal,
    private readonly release: () => void,
  ) {
    this.status = response.status;
    if (response.body === null) release();
  }

  header(name: string): string | undefined {
    return this.response.headers.get(name) ?? undefined;
  }

  async *chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    const body = this.response.body;
    if (body === null) return;
    const reader = body.getReader();
    let finished = false;
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) {
          finished = true;
          return;
        }
        yield next.value;
      }
    } catch (error) {
      finished = true;
      throw this.signal.aborted ? this.signal.reason : error;
    } finally {
      if (!finished) reader.cancel().catch(() => {});
      reader.releaseLock();
      this.release();
    }
  }

  async text(maxBytes: number): Promise<string> {
    const length = declaredLength(this.header('content-length'));
    if (length !== undefined && length > maxBytes) {
      this.discard();
      throw new BodyTooLargeError(maxBytes, length);
    }
    // With a Content-Length within the cap, fetch enforces it: the whole body at once.
    if (length !== undefined) {
      try {
        return await this.response.text();
      } catch (error) {
        throw this.signal.aborted ? this.signal.reason : error;
      } finally {
        this.release();
      }
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of this.chunks()) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new BodyTooLargeError(maxBytes, total); // leaving the loop drops the rest
      chunks.push(chunk);
    }
    return decodeStart(chunks, total, total);
  }

  discard(): void {
    this.release();
    const body = this.response.body;
    if (body === null || body.locked) return;
    body.cancel().catch(() => {});
  }
}

/**
 * A header value as it goes on the wire: leading and trailing spaces and tabs removed (as
 * `fetch` does), or `undefined` when it holds a character HTTP forbids in a field value
 * (controls other than tab, and anything above U+00FF), the rule `node:http` applies.
 */
export function checkHeaderValue(value: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.replace(/^[\t ]+|[\t ]+$/g, '');
  return /[^\t\x20-\x7e\x80-\xff]/.test(trimmed) ? undefined : trimmed;
}

/**
 * Checks and lower-cases a set of headers; a later name wins over an earlier one that differs only
 * in case. Returns the offending name when a name or value is not valid HTTP.
 */
export function normalizeHeaders(
  headers: Readonly<Record<string, string>>,
  into: Record<string, string> = {},
): { headers: Record<string, string>; invalid?: string } {
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    const value = checkHeaderValue(headers[name] as string);
    if (!isHeaderToken(name) || value === undefined) return { headers: into, invalid: name };
    into[name.toLowerCase()] = value;
  }
  return { headers: into };
}

/** Reads at most `maxBytes` of a body as UTF-8 text, then drops the rest. Never rejects. */
export async function readStart(response: HttpStackResponse, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of response.chunks()) {
      chunks.push(chunk);
      total += chunk.byteLength;
      if (total >= maxBytes) break;
    }
  } catch {
    // Keep what arrived.
  }
  return decodeStart(chunks, total, maxBytes);
}
