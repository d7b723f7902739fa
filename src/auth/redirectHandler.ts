/**
 * A redirect handler with no browser, for tests, CI and authorization servers that approve
 * without user interaction. Runtime-neutral, but it needs a fetch that exposes manual redirects
 * (Node, Deno, Bun; not browsers, where a manual redirect is opaque).
 */
import type { FetchLike } from '../transport/http/stack.js';
import { discard } from '../transport/http/body.js';
import { OAuthError } from './errors.js';
import type { RedirectHandler } from './types.js';

/** Options of {@link createHeadlessRedirectHandler}. */
export interface HeadlessRedirectOptions {
  /** The fetch to use. @default globalThis.fetch, looked up at each call */
  fetch?: FetchLike | undefined;
}

/**
 * A {@link RedirectHandler} that GETs the authorization URL itself, without following the
 * redirect, and resolves with the `Location` of the 3xx answer (resolved against the
 * authorization URL), i.e. the redirect URL with `code`, `state` and `iss`. Nothing needs to
 * listen on the redirect URL. Cookies and user interaction are not supported: the server must
 * approve at once.
 * @throws OAuthError `authorization-denied` when the answer is not a redirect with a `Location`
 *   (`data.status` holds the status), `network-error` when the request fails.
 *
 * @example
 * const oauth = createOAuthProvider({
 *   serverUrl: 'http://127.0.0.1:3000/mcp',
 *   clientMetadata: { client_name: 'ci' },
 *   redirectUrl: 'http://localhost:3000/callback',
 *   redirectHandler: createHeadlessRedirectHandler(),
 * });
 */
export function createHeadlessRedirectHandler(options: HeadlessRedirectOptions = {}): RedirectHandler {
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return async ({ authorizationUrl, signal }) => {
    let response: Response;
    try {
      response = await fetchImpl(authorizationUrl.href, { method: 'GET', redirect: 'manual', signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new OAuthError(
        `cannot reach the authorization endpoint: ${error instanceof Error ? error.message : String(error)}`,
        { failure: 'network-error', url: `${authorizationUrl.origin}${authorizationUrl.pathname}` },
        error,
      );
    }
    await discard(response);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) {
      throw new OAuthError(`the authorization endpoint answered HTTP ${response.status} without a redirect`, {
        failure: 'authorization-denied',
        status: response.status,
        url: `${authorizationUrl.origin}${authorizationUrl.pathname}`,
      });
    }
    return new URL(location, authorizationUrl).href;
  };
}
