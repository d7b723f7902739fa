/**
 * Network helpers of the authorization modules: the HTTPS rule for authorization server
 * endpoints, plain GETs for metadata, the options `oauth4webapi` calls take, and the mapping of
 * its errors to {@link OAuthError}. Runtime-neutral.
 */
import * as oauth from 'oauth4webapi';
import { OAuthError, type OAuthFailure } from './errors.js';
import { isLoopbackHost } from './loopback.js';
import type { HttpContext } from './types.js';

/** Whether plain `http:` may be used for `url`: on a loopback host, or when the host allowed it. */
export function insecureAllowed(url: URL, http: HttpContext): boolean {
  return url.protocol === 'http:' && (http.allowInsecureHttp || isLoopbackHost(url.hostname));
}

/**
 * Parses an authorization server endpoint and applies the spec's rule that such endpoints are
 * served over HTTPS (spec: basic/authorization/security-considerations, "Communication
 * Security"); loopback hosts, for local development and tests, are the exception.
 * @throws OAuthError `metadata-invalid` (not a URL) or `insecure-endpoint`.
 */
export function secureEndpoint(value: unknown, what: string, http: HttpContext, issuer: string | undefined): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new OAuthError(`${what} is not a URL`, { failure: 'metadata-invalid', issuer, actual: String(value) });
  }
  if (url.protocol !== 'https:' && !insecureAllowed(url, http)) {
    throw new OAuthError(`${what} must use https: ${url.origin}${url.pathname}`, {
      failure: 'insecure-endpoint',
      issuer,
      url: `${url.origin}${url.pathname}`,
    });
  }
  return url;
}

/** The options object of an `oauth4webapi` request to `endpoint`. */
export function oauthRequestOptions(
  http: HttpContext,
  endpoint: URL,
): oauth.HttpRequestOptions<'GET' | 'POST', URLSearchParams | string | undefined> {
  return {
    signal: http.signal,
    [oauth.customFetch]: (url, init) => http.fetch(url, init as RequestInit),
    ...(insecureAllowed(endpoint, http) && { [oauth.allowInsecureRequests]: true }),
  };
}

/**
 * GETs a JSON metadata document. Resolves with the response whatever its status; throws the
 * signal's reason when aborted, {@link OAuthError} `network-error` when the request failed and
 * the address policy's `address-refused` as is.
 */
export async function getMetadata(url: string, http: HttpContext): Promise<Response> {
  try {
    return await http.fetch(url, { method: 'GET', headers: { Accept: 'application/json' }, signal: http.signal });
  } catch (error) {
    if (http.signal.aborted) throw http.signal.reason;
    if (error instanceof OAuthError) throw error;
    throw new OAuthError(
      `cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}`,
      { failure: 'network-error', url },
      error,
    );
  }
}

/** Reads a response body as a JSON object, or `undefined` when it is not one. Never throws. */
export async function readJsonObject(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = await response.json();
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    await dropBody(response);
    return undefined;
  }
}

/**
 * Cancels the body of a response that is not read, which frees its connection. Never throws.
 * (The OAuth code loads on demand and keeps its own copy of this step rather than share the
 * transports' file: a file both import would load with the transports.)
 */
export async function dropBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/**
 * Maps an error thrown by an `oauth4webapi` call (or the fetch under it) to {@link OAuthError}
 * with `failure`; an abort of `http.signal` is rethrown as its reason, an `OAuthError` as is.
 * The library's error is kept as `cause` without what it carries (a response body can hold the
 * tokens it could not accept): its name, message, `code` and `status` only.
 */
export function toOAuthError(
  error: unknown,
  failure: OAuthFailure,
  step: string,
  http: HttpContext,
  issuer: string | undefined,
): unknown {
  if (http.signal.aborted) return http.signal.reason;
  if (error instanceof OAuthError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    return new OAuthError(
      `${step}: the server answered ${error.error}${error.error_description === undefined ? '' : ` (${error.error_description})`}`,
      {
        failure,
        issuer,
        status: error.status,
        error: error.error,
        errorDescription: error.error_description,
      },
      bareError(error),
    );
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const first = error.cause[0];
    const code = first?.parameters.error;
    return new OAuthError(
      `${step}: the server refused the client authentication${code === undefined ? '' : ` (${code})`}`,
      {
        failure,
        issuer,
        status: error.status,
        error: code,
        errorDescription: first?.parameters.error_description,
      },
      bareError(error),
    );
  }
  if (error instanceof oauth.UnsupportedOperationError && failure === 'token-request-failed') {
    return new OAuthError(`${step}: ${error.message}`, { failure: 'unsupported-token-type', issuer }, bareError(error));
  }
  if (error instanceof oauth.OperationProcessingError) {
    const status = error.cause instanceof Response ? error.cause.status : undefined;
    return new OAuthError(
      `${step}: ${error.message}`,
      { failure, issuer, ...(status !== undefined && { status }) },
      bareError(error),
    );
  }
  const code = (error as { code?: unknown }).code;
  if (error instanceof TypeError && !(typeof code === 'string' && code.startsWith('ERR_INVALID_ARG'))) {
    // fetch rejects with a TypeError when the request could not be made.
    return new OAuthError(`${step}: ${error.message}`, { failure: 'network-error', issuer }, error);
  }
  return error;
}

/** An error with `error`'s name, message, `code` and `status`, and nothing it refers to. */
function bareError(error: Error): Error {
  const bare = new Error(error.message);
  bare.name = error.name;
  const { code, status } = error as { code?: unknown; status?: unknown };
  if (typeof code === 'string') Object.assign(bare, { code });
  if (typeof status === 'number') Object.assign(bare, { status });
  return bare;
}
