/**
 * What every token endpoint request shares, whatever its grant: the HTTPS rule, a DPoP proof
 * with one retry when the authorization server asks for its nonce (RFC 9449 §8), the error
 * mapping, and the token types this client can present. Runtime-neutral.
 */
import * as oauth from 'oauth4webapi';
import { oauthRequestOptions, secureEndpoint, toOAuthError } from './authHttp.js';
import type { DPoPProver } from './dpop.js';
import { OAuthError } from './errors.js';
import type { HttpContext } from './types.js';

/** Where a token request goes and how. */
export interface TokenRequestContext {
  /** The authorization server (its `token_endpoint` is used). */
  readonly as: oauth.AuthorizationServer;
  readonly http: HttpContext;
  /** Proves possession of the provider's DPoP key, when DPoP is on. */
  readonly dpop: DPoPProver | undefined;
  /** Names the request in errors, e.g. `"token request to https://as.example"`. */
  readonly step: string;
  /** Accept any `token_type` (a token exchange, whose result is not presented to a server). @default false */
  readonly anyTokenType?: boolean | undefined;
}

/**
 * Sends a token request with `send` (an `oauth4webapi` grant request, given the request
 * options) and reads the answer with `process`. With DPoP on, the request carries a proof and
 * is sent once more when the server answers `use_dpop_nonce` (the handle keeps the nonce).
 * The token must be `Bearer`, or `DPoP` when a proof was sent.
 * @throws OAuthError `token-request-failed` (`data.error` is the server's code when it refused),
 *   `unsupported-token-type`, `network-error`, `insecure-endpoint`; the signal's reason when
 *   aborted. Errors never hold the response body.
 */
export async function requestToken(
  context: TokenRequestContext,
  send: (options: oauth.TokenEndpointRequestOptions) => Promise<Response>,
  process: (response: Response) => Promise<oauth.TokenEndpointResponse>,
): Promise<oauth.TokenEndpointResponse> {
  const { as, http } = context;
  const endpoint = secureEndpoint(as.token_endpoint, 'token_endpoint', http, as.issuer);
  const handle = context.dpop === undefined ? undefined : await context.dpop.handle();
  const options: oauth.TokenEndpointRequestOptions = {
    ...(oauthRequestOptions(http, endpoint) as oauth.TokenEndpointRequestOptions),
    ...(handle !== undefined && { DPoP: handle }),
  };
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await process(await send(options));
        return context.anyTokenType === true ? response : presentable(response, as.issuer, handle !== undefined);
      } catch (error) {
        if (attempt === 1 && handle !== undefined && oauth.isDPoPNonceError(error) && !http.signal.aborted) continue;
        throw error;
      }
    }
  } catch (error) {
    throw toOAuthError(error, 'token-request-failed', context.step, http, as.issuer);
  }
}

/** `response` when its token type is one this client presents: `bearer`, or `dpop` after a proof. */
function presentable(
  response: oauth.TokenEndpointResponse,
  issuer: string,
  proved: boolean,
): oauth.TokenEndpointResponse {
  const type = response.token_type;
  if (type === 'bearer' || (type === 'dpop' && proved)) return response;
  throw new OAuthError(
    type === 'dpop'
      ? `the token endpoint of ${issuer} issued a DPoP-bound token; turn on the provider's dpop option to use it`
      : `the token endpoint of ${issuer} issued a ${type} token; only Bearer${proved ? ' and DPoP' : ''} tokens are supported`,
    { failure: 'unsupported-token-type', issuer, actual: type },
  );
}
