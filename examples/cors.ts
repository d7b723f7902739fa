/**
 * CORS for the example server's HTTP mode (`--cors <origin>`): what a browser page on that
 * origin needs to talk MCP to the server (Fetch standard, CORS protocol). The preflight
 * (`OPTIONS`) allows the methods MCP uses and every header the page asks for; each response
 * allows the origin and exposes the response headers the client reads. Requests from any other
 * origin get no CORS headers, so the browser keeps the response from them.
 */

/** Response headers a browser client must be able to read (beyond the CORS-safelisted ones). */
export const EXPOSED_HEADERS = [
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'WWW-Authenticate',
  'Retry-After',
  'Location',
];

/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_S = 600;

/** Checks `value` as a web origin (`scheme://host[:port]`, nothing more); returns it normalised. */
export function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--cors wants an origin such as http://localhost:5173, not ${JSON.stringify(value)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/$/, ''))
    throw new Error(`--cors wants an origin (scheme://host[:port]), not ${JSON.stringify(value)}`);
  return url.origin;
}

/** The CORS headers of a response to a request from `requestOrigin`: none unless it is `allowed`. */
export function corsHeaders(allowed: string, requestOrigin: string | undefined): Record<string, string> {
  if (requestOrigin !== allowed) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': allowed,
    'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
    vary: 'Origin',
  };
}

/** The answer to a preflight `OPTIONS` from `requestOrigin`, asking for `requestHeaders`. */
export function preflightHeaders(
  allowed: string,
  requestOrigin: string | undefined,
  requestHeaders: string | undefined,
): Record<string, string> {
  if (requestOrigin !== allowed) return { vary: 'Origin' };
  return {
    ...corsHeaders(allowed, requestOrigin),
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    // Every header the page asks for: MCP's (Mcp-Protocol-Version, Mcp-Method, Mcp-Param-*,
    // Mcp-Session-Id, Last-Event-ID) and the host's own (Authorization).
    ...(requestHeaders !== undefined && { 'access-control-allow-headers': requestHeaders }),
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
    vary: 'Origin, Access-Control-Request-Headers',
  };
}
