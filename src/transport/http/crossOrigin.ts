/**
 * Why a `fetch` failed without a response in a browser, when the likely reason is CORS: the page
 * (or worker) runs on one origin and the MCP endpoint is on another. Browsers hide the reason
 * from scripts (a bare `TypeError`), so the transport says what it most likely is.
 * Runtime-neutral: outside a page (no `location`), it says nothing.
 */

/** The origin of the page or worker the code runs in; `undefined` outside a browser. */
function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && origin !== 'null' && origin !== '' ? origin : undefined;
}

/**
 * The explanation for a request to `url` that failed without a response and without a system
 * error code, when the code runs on a page of another origin; otherwise `undefined`.
 */
export function crossOriginFailure(url: string): string | undefined {
  const page = pageOrigin();
  if (page === undefined) return undefined;
  let target: string;
  try {
    target = new URL(url).origin;
  } catch {
    return undefined;
  }
  if (target === page) return undefined;
  return (
    `the browser blocked the cross-origin request from ${page} to ${target} (CORS), or the server is unreachable: ` +
    `the server must answer the OPTIONS preflight and send Access-Control-Allow-Origin: ${page}, and ` +
    'Access-Control-Expose-Headers: Mcp-Session-Id (and the other MCP headers it sends)'
  );
}
