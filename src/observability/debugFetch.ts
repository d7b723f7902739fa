/**
 * A `fetch` for `StreamableHttpTransport` that writes each HTTP exchange to the debug log:
 * method, URL, request headers and the response status, with credentials redacted. Bodies are
 * not logged here: the client's own debug log shows the JSON-RPC messages.
 */
import type { FetchLike } from '../transport/http/stack.js';
import { consoleDebugSink, isSecretKey, redactText, type DebugSink } from './debug.js';

/** Response headers worth a debug line; all others are left out. */
const RESPONSE_HEADERS = ['content-type', 'mcp-session-id', 'www-authenticate', 'retry-after', 'location'] as const;

/**
 * Wraps `fetch` so every HTTP exchange goes to `sink` as `http` entries, e.g.
 * `POST http://127.0.0.1:3000/mcp {"authorization":"[redacted]",…} → 200 application/json`.
 * `Authorization`, `Cookie`, API-key and other credential headers read `[redacted]`; so do URL
 * user info and credential query parameters. A failed fetch is logged and rethrown unchanged.
 *
 * ```ts
 * const transport = new StreamableHttpTransport('http://127.0.0.1:3000/mcp', {
 *   headers: { Authorization: 'Bearer secret' },
 *   fetch: debugFetch((entry) => console.error(entry.message)),
 * });
 * ```
 *
 * @param sink where entries go. @default `console.debug`
 * @param fetch the fetch to wrap. @default `globalThis.fetch`, looked up at each call
 */
export function debugFetch(sink: DebugSink = consoleDebugSink, fetch?: FetchLike): FetchLike {
  return async (url, init) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const target = redactText(url);
    const headers = headerRecord(init.headers);
    const request = `${method} ${target} ${JSON.stringify(headers)}`;
    let response: Response;
    try {
      response = await (fetch ?? globalThis.fetch)(url, init);
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      safely(sink, {
        type: 'http',
        message: `${request} failed: ${redactText(reason)}`,
        data: { method, url: target, headers, error: redactText(reason) },
      });
      throw error;
    }
    const kept: Record<string, string> = {};
    for (const name of RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) kept[name] = redactText(value);
    }
    const type = kept['content-type'] === undefined ? '' : ` ${kept['content-type']}`;
    safely(sink, {
      type: 'http',
      message: `${request} → ${response.status}${type}`,
      data: { method, url: target, headers, status: response.status, responseHeaders: kept },
    });
    return response;
  };
}

/** Request headers as a plain record, names lower-cased, credentials redacted. */
function headerRecord(init: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (init === undefined) return out;
  let headers: Headers;
  try {
    headers = new Headers(init);
  } catch {
    return out; // fetch itself reports malformed headers
  }
  headers.forEach((value, name) => {
    out[name] = isSecretKey(name) ? '[redacted]' : redactText(value);
  });
  return out;
}

function safely(sink: DebugSink, entry: Parameters<DebugSink>[0]): void {
  try {
    sink(entry);
  } catch {
    // A debug sink must not break the exchange it reports.
  }
}
