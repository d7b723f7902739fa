/**
 * Finding the authorization server of an MCP server (spec:
 * basic/authorization/authorization-server-discovery): the protected resource metadata
 * (RFC 9728) at the URL the 401 names or at the well-known URLs, the resource check, then the
 * authorization server metadata (RFC 8414, OpenID Connect Discovery) with the MCP probing order,
 * validated by `oauth4webapi` plus an exact issuer comparison and the PKCE requirement.
 * Runtime-neutral.
 */
import * as oauth from 'oauth4webapi';
import { dropBody, getMetadata, readJsonObject, secureEndpoint } from './authHttp.js';
import { OAuthError } from './errors.js';
import type { HttpContext } from './types.js';

const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';
const OAUTH_WELL_KNOWN = '/.well-known/oauth-authorization-server';
const OIDC_WELL_KNOWN = '/.well-known/openid-configuration';

/** The protected resource metadata of an MCP server, as far as the client uses it. */
export interface ResourceMetadata {
  /** The URL the document was read from. */
  readonly metadataUrl: string;
  /**
   * The resource identifier, exactly as the document's `resource` gives it (never re-serialized:
   * `http://host:1` stays without a trailing slash). It is the `resource` parameter (RFC 8707)
   * of every authorization and token request. When the document has no `resource`, the server
   * URL's origin and path.
   */
  readonly resource: string;
  /** `authorization_servers`: issuer identifiers, at least one. */
  readonly authorizationServers: readonly string[];
  /** `scopes_supported`, when present. */
  readonly scopesSupported: readonly string[] | undefined;
}

/**
 * The URLs to try for the protected resource metadata of `serverUrl`, in the spec's order: the
 * `resource_metadata` URL of the `WWW-Authenticate` challenge when there is one, then the
 * path-based well-known URL (`/.well-known/oauth-protected-resource/<path>`, for servers not at
 * the root), then the root one (RFC 9728 §3.1).
 */
export function resourceMetadataUrls(serverUrl: URL, advertised: string | undefined): string[] {
  const urls: string[] = [];
  if (advertised !== undefined) {
    try {
      const url = new URL(advertised, serverUrl);
      if (url.protocol === 'https:' || url.protocol === 'http:') urls.push(url.href);
    } catch {
      // An unusable header value: fall back to the well-known URLs.
    }
  }
  if (serverUrl.pathname !== '/' && serverUrl.pathname !== '')
    urls.push(`${serverUrl.origin}${PRM_WELL_KNOWN}${serverUrl.pathname}`);
  urls.push(`${serverUrl.origin}${PRM_WELL_KNOWN}`);
  return [...new Set(urls)];
}

/**
 * True when the resource identifier `resource` covers `serverUrl`: same scheme, host and port,
 * no fragment, and a path equal to the server's path or a parent of it at a `/` boundary (a
 * server at `https://h/mcp` may be protected as `https://h` or `https://h/mcp`, not as
 * `https://h/other` or `https://h/mc`). Scheme and host compare case-insensitively.
 */
export function resourceCoversServer(resource: string, serverUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.hash !== '' || resource.includes('#')) return false;
  if (url.protocol !== serverUrl.protocol || url.host !== serverUrl.host) return false;
  const path = url.pathname.replace(/\/+$/, '');
  return path === '' || serverUrl.pathname === path || serverUrl.pathname.startsWith(`${path}/`);
}

/**
 * Reads the protected resource metadata of `serverUrl` (RFC 9728) from the first candidate of
 * {@link resourceMetadataUrls} that answers 200 with a JSON object, and checks it names this
 * server.
 * @throws OAuthError `metadata-not-found` (no candidate answered), `metadata-invalid` (no
 *   `authorization_servers`), `resource-mismatch` (see {@link resourceCoversServer}),
 *   `network-error`; the signal's reason when aborted.
 */
export async function discoverResourceMetadata(
  serverUrl: URL,
  advertised: string | undefined,
  http: HttpContext,
): Promise<ResourceMetadata> {
  const tried: Array<{ url: string; status: number | undefined }> = [];
  for (const url of resourceMetadataUrls(serverUrl, advertised)) {
    const response = await getMetadata(url, http);
    if (response.status !== 200) {
      await dropBody(response);
      tried.push({ url, status: response.status });
      continue;
    }
    const document = await readJsonObject(response);
    if (document === undefined) {
      tried.push({ url, status: response.status });
      continue;
    }
    return resourceMetadataFrom(document, url, serverUrl);
  }
  throw new OAuthError(`no protected resource metadata for ${serverUrl.origin}${serverUrl.pathname}`, {
    failure: 'metadata-not-found',
    tried,
  });
}

function resourceMetadataFrom(
  document: Record<string, unknown>,
  metadataUrl: string,
  serverUrl: URL,
): ResourceMetadata {
  const servers = document['authorization_servers'];
  if (
    !Array.isArray(servers) ||
    servers.length === 0 ||
    !servers.every((s): s is string => typeof s === 'string' && s !== '')
  ) {
    throw new OAuthError(`protected resource metadata at ${metadataUrl} lists no authorization_servers`, {
      failure: 'metadata-invalid',
      url: metadataUrl,
    });
  }
  const declared = document['resource'];
  if (declared !== undefined && typeof declared !== 'string') {
    throw new OAuthError(`protected resource metadata at ${metadataUrl} has a resource that is not a string`, {
      failure: 'metadata-invalid',
      url: metadataUrl,
    });
  }
  const serverIdentity = serverUrl.pathname === '/' ? serverUrl.origin : `${serverUrl.origin}${serverUrl.pathname}`;
  const resource = declared ?? serverIdentity;
  if (!resourceCoversServer(resource, serverUrl)) {
    throw new OAuthError(
      `protected resource metadata is for ${resource}, not for ${serverIdentity}: refusing to authorize`,
      {
        failure: 'resource-mismatch',
        url: metadataUrl,
        expected: serverIdentity,
        actual: resource,
      },
    );
  }
  const scopes = document['scopes_supported'];
  const scopesSupported = Array.isArray(scopes)
    ? scopes.filter((s): s is string => typeof s === 'string' && s !== '')
    : undefined;
  return { metadataUrl, resource, authorizationServers: servers, scopesSupported };
}

/**
 * The URLs to try for the metadata of the authorization server `issuer`, in the spec's order.
 * With a path (`https://a/tenant1`): OAuth with path insertion
 * (`/.well-known/oauth-authorization-server/tenant1`), OpenID Connect with path insertion
 * (`/.well-known/openid-configuration/tenant1`), OpenID Connect with path appending
 * (`/tenant1/.well-known/openid-configuration`). Without: the OAuth then the OpenID Connect
 * well-known URL.
 */
export function authorizationServerMetadataUrls(issuer: URL): string[] {
  const path = issuer.pathname.replace(/\/+$/, '');
  if (path === '') return [`${issuer.origin}${OAUTH_WELL_KNOWN}`, `${issuer.origin}${OIDC_WELL_KNOWN}`];
  return [
    `${issuer.origin}${OAUTH_WELL_KNOWN}${path}`,
    `${issuer.origin}${OIDC_WELL_KNOWN}${path}`,
    `${issuer.origin}${path}${OIDC_WELL_KNOWN}`,
  ];
}

/**
 * Reads and validates the metadata of the authorization server `issuer` from the first
 * candidate of {@link authorizationServerMetadataUrls} that answers 200. The document is
 * checked by `oauth4webapi` (`processDiscoveryResponse`), then its `issuer` must equal `issuer`
 * exactly, as a string (RFC 8414 §3.3; no normalization), and `code_challenge_methods_supported`
 * must list `S256` (spec: security-considerations, "Authorization Code Protection") unless
 * `options.requirePkce` is false (grants without an authorization code, and an enterprise IdP).
 * @throws OAuthError `metadata-not-found`, `metadata-invalid`, `issuer-mismatch`,
 *   `pkce-unsupported`, `insecure-endpoint`, `network-error`; the signal's reason when aborted.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  http: HttpContext,
  options: { requirePkce?: boolean | undefined } = {},
): Promise<oauth.AuthorizationServer> {
  const issuerUrl = secureEndpoint(issuer, 'authorization server issuer', http, issuer);
  if (issuerUrl.search !== '' || issuerUrl.hash !== '' || issuer.includes('#')) {
    throw new OAuthError(`authorization server issuer ${issuer} has a query or fragment`, {
      failure: 'metadata-invalid',
      issuer,
    });
  }
  const tried: Array<{ url: string; status: number | undefined }> = [];
  for (const url of authorizationServerMetadataUrls(issuerUrl)) {
    const response = await getMetadata(url, http);
    if (response.status !== 200) {
      await dropBody(response);
      tried.push({ url, status: response.status });
      continue;
    }
    let metadata: oauth.AuthorizationServer;
    try {
      metadata = await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (error) {
      if (http.signal.aborted) throw http.signal.reason;
      const mismatch =
        error instanceof oauth.OperationProcessingError && error.code === oauth.JSON_ATTRIBUTE_COMPARISON;
      throw new OAuthError(
        `authorization server metadata at ${url}: ${error instanceof Error ? error.message : String(error)}`,
        {
          failure: mismatch ? 'issuer-mismatch' : 'metadata-invalid',
          issuer,
          url,
          ...(mismatch && { expected: issuer }),
        },
        error,
      );
    }
    if (metadata.issuer !== issuer) {
      throw new OAuthError(
        `authorization server metadata at ${url} is for issuer ${metadata.issuer}, not ${issuer}: not used`,
        {
          failure: 'issuer-mismatch',
          issuer,
          url,
          expected: issuer,
          actual: metadata.issuer,
        },
      );
    }
    const methods = metadata.code_challenge_methods_supported;
    if ((options.requirePkce ?? true) && (!Array.isArray(methods) || !methods.includes('S256'))) {
      throw new OAuthError(
        `authorization server ${issuer} does not support PKCE with S256 (code_challenge_methods_supported): refusing to proceed`,
        {
          failure: 'pkce-unsupported',
          issuer,
          url,
        },
      );
    }
    return metadata;
  }
  throw new OAuthError(`no authorization server metadata for ${issuer}`, {
    failure: 'metadata-not-found',
    issuer,
    tried,
  });
}
