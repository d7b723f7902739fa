/**
 * The OAuth provider of `mcp-live/node`: the runtime-neutral provider whose requests connect to
 * the addresses the discovery address policy checked (DNS pinning). Node-only.
 */
import type { ResolvedAddressPolicy } from './addressPolicy.js';
import { resolveOAuthOptions, type OAuthProviderOptions } from './oauthOptions.js';
import { loadOAuthSession, oauthProviderOn, type OAuthProvider } from './oauthProvider.js';
import { pinnedSend, type Connector } from './pinnedSend.js';

/**
 * `createOAuthProvider` of the root entry, with DNS pinning: every request of the provider
 * (metadata, registration, token, client metadata documents) resolves its host name once,
 * checks every address with the address policy and connects to one of those addresses, over
 * `node:http` / `node:tls` (the `Host` header, TLS server name and certificate check stay the
 * URL's host name); redirects of metadata GETs are followed by hand, each hop checked the same
 * way. Options, behaviour and errors are otherwise the root one's (see docs/auth.md,
 * "Discovery addresses"). Given `options.fetch`, or with `addressPolicy: false`, requests go to
 * that fetch (or `globalThis.fetch`) as in the root entry: pinning is then the fetch's job.
 * @throws InvalidArgumentError (-32602) as the root `createOAuthProvider` does; the provider
 *   rejects with OAuthError (-33017) `address-refused` (`data.url`, `data.reason` the kind,
 *   `data.actual` the address) before any connection to a refused address.
 * @example
 * import { createOAuthProvider, StreamableHttpTransport } from 'mcp-live/node';
 * const oauth = createOAuthProvider({
 *   serverUrl: 'https://mcp.example.com/mcp',
 *   clientMetadata: { client_name: 'My CLI' },
 *   redirectUrl: 'http://127.0.0.1:8765/callback',
 * });
 * const transport = new StreamableHttpTransport('https://mcp.example.com/mcp', { authProvider: oauth });
 */
export function createOAuthProvider(options: OAuthProviderOptions): OAuthProvider {
  return pinnedOAuthProvider(options);
}

/** {@link createOAuthProvider} whose connections `connect` opens (tests: a connector that refuses anything off the loopback). */
export function pinnedOAuthProvider(options: OAuthProviderOptions, connect?: Connector): OAuthProvider {
  const pinned = (policy: ResolvedAddressPolicy) =>
    policy.lookup === undefined ? undefined : pinnedSend(policy.lookup, connect);
  return oauthProviderOn(resolveOAuthOptions(options, pinned), loadOAuthSession);
}
