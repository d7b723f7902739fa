/**
 * The client's identity at an authorization server (spec: basic/authorization/client-registration):
 * pre-registered credentials, a Client ID Metadata Document URL, or Dynamic Client Registration
 * (RFC 7591), and how the client authenticates at the token endpoint. Runtime-neutral.
 */
import * as oauth from 'oauth4webapi';
import { oauthRequestOptions, readJsonObject, secureEndpoint } from './authHttp.js';
import { clientMetadataFields } from './clientMetadata.js';
import { OAuthError } from './errors.js';
import { isLoopbackHost } from './loopback.js';
import type {
  HttpContext,
  OAuthClientMetadata,
  PrivateKeyInput,
  StoredClient,
  TokenEndpointAuthMethod,
} from './types.js';

/** The client id to present to one authorization server, and how to authenticate with it. */
export interface ClientIdentity {
  /** `client_id`. */
  readonly clientId: string;
  /** `client_secret`, for confidential clients. */
  readonly clientSecret?: string | undefined;
  /** The private key of `private_key_jwt`. */
  readonly privateKey?: PrivateKeyInput | undefined;
  /** Token endpoint authentication. */
  readonly method: TokenEndpointAuthMethod;
  /** Where the identity came from. */
  readonly source: 'pre-registered' | 'metadata-document' | 'dynamic';
}

const METHODS: ReadonlySet<string> = new Set<TokenEndpointAuthMethod>([
  'client_secret_basic',
  'client_secret_post',
  'none',
]);

/**
 * The token endpoint authentication for a client with or without a secret or a private key,
 * given the server's `token_endpoint_auth_methods_supported` (absent means
 * `client_secret_basic`, RFC 8414 §2): with a key, `private_key_jwt` unless the server lists
 * methods without it and there is a secret; with a secret, `client_secret_basic` unless only
 * `client_secret_post` is listed; with neither, `none`.
 */
export function chooseAuthMethod(
  supported: readonly string[] | undefined,
  hasSecret: boolean,
  hasKey = false,
): TokenEndpointAuthMethod {
  if (hasKey && (supported === undefined || supported.includes('private_key_jwt') || !hasSecret))
    return 'private_key_jwt';
  if (!hasSecret) return 'none';
  if (supported === undefined || supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

/**
 * The method to ask for in Dynamic Client Registration: `none` (a public client, as native
 * apps are) when the server allows it, else a secret-based one it lists.
 */
export function registrationAuthMethod(supported: readonly string[] | undefined): TokenEndpointAuthMethod {
  if (supported === undefined) return 'client_secret_basic';
  if (supported.includes('none')) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'none';
}

/**
 * `application_type` for a redirect URL (spec: client-registration, "Application Type"):
 * `native` for loopback and private-use-scheme redirects, `web` otherwise.
 */
export function applicationTypeFor(redirectUrl: string): 'native' | 'web' {
  const url = new URL(redirectUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'native';
  return isLoopbackHost(url.hostname) ? 'native' : 'web';
}

/**
 * The `oauth4webapi` client authentication of an identity.
 *
 * `client_secret_basic` encodes the id and secret with `application/x-www-form-urlencoded`
 * before Base64 (RFC 6749 §2.3.1), as the WHATWG URL standard serializes it: letters, digits and
 * `*-._` stay as they are, so `pre-registered-client` is sent unchanged (the library's own
 * `ClientSecretBasic` also escapes `-`, which servers that skip the decoding step reject).
 */
export function clientAuthentication(identity: ClientIdentity): oauth.ClientAuth {
  switch (identity.method) {
    case 'client_secret_basic': {
      const secret = identity.clientSecret ?? '';
      return (_as, client, _body, headers) => {
        headers.set('authorization', `Basic ${btoa(`${formEncode(client.client_id)}:${formEncode(secret)}`)}`);
      };
    }
    case 'client_secret_post':
      return oauth.ClientSecretPost(identity.clientSecret ?? '');
    case 'private_key_jwt':
      if (identity.privateKey === undefined)
        throw new OAuthError(`client ${identity.clientId} uses private_key_jwt but has no privateKey`, {
          failure: 'no-client-identity',
        });
      return oauth.PrivateKeyJwt(signingKey(identity.privateKey));
    default:
      return oauth.None();
  }
}

/** A {@link PrivateKeyInput} as `oauth4webapi` takes it. */
export function signingKey(input: PrivateKeyInput): oauth.CryptoKey | oauth.PrivateKey {
  if (!('key' in input)) return input;
  return input.kid === undefined ? { key: input.key } : { key: input.key, kid: input.kid };
}

/** Client authentication that sends nothing: for grants whose assertion identifies the client (RFC 7523 §3). */
export const noClientAuthentication: oauth.ClientAuth = () => {};

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** The identity of a stored registration. */
export function identityOf(client: StoredClient): ClientIdentity {
  return {
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    method: client.tokenEndpointAuthMethod,
    source: 'dynamic',
  };
}

/**
 * Registers this client with `as` by Dynamic Client Registration (RFC 7591): the host's
 * metadata plus `redirect_uris` (with `redirectUrl`), `grant_types` (`authorization_code`,
 * `refresh_token`), `response_types` (`code`), `token_endpoint_auth_method` and
 * `application_type`. The request goes through `oauth4webapi`; the answer is read leniently:
 * 200 or 201 with a `client_id` (a secret without `client_secret_expires_at` is taken as never
 * expiring, as deployed servers omit it).
 * @param now wall-clock epoch ms, stamped as `registeredAt`.
 * @throws OAuthError `registration-failed` (with the server's `error` / `error_description`),
 *   `insecure-endpoint`, `network-error`.
 */
export async function registerClient(
  as: oauth.AuthorizationServer,
  metadata: OAuthClientMetadata,
  redirectUrl: string,
  http: HttpContext,
  now: number,
): Promise<StoredClient> {
  const endpoint = secureEndpoint(as.registration_endpoint, 'registration_endpoint', http, as.issuer);
  const supported = as.token_endpoint_auth_methods_supported;
  const requestedMethod = metadata.token_endpoint_auth_method ?? registrationAuthMethod(supported);
  const body = clientMetadataFields(metadata, redirectUrl) as Record<string, oauth.JsonValue>;
  body['token_endpoint_auth_method'] = requestedMethod;
  body['application_type'] = metadata.application_type ?? applicationTypeFor(redirectUrl);
  let response: Response;
  try {
    response = await oauth.dynamicClientRegistrationRequest(as, body, oauthRequestOptions(http, endpoint));
  } catch (error) {
    if (http.signal.aborted) throw http.signal.reason;
    throw new OAuthError(
      `client registration at ${as.issuer} failed: ${error instanceof Error ? error.message : String(error)}`,
      { failure: 'network-error', issuer: as.issuer },
      error,
    );
  }
  const document = await readJsonObject(response);
  if (response.status !== 200 && response.status !== 201) {
    const error = typeof document?.['error'] === 'string' ? document['error'] : undefined;
    const description = typeof document?.['error_description'] === 'string' ? document['error_description'] : undefined;
    throw new OAuthError(
      `client registration at ${as.issuer} was refused: HTTP ${response.status}${error === undefined ? '' : ` ${error}`}${description === undefined ? '' : ` (${description})`}`,
      {
        failure: 'registration-failed',
        issuer: as.issuer,
        status: response.status,
        error,
        errorDescription: description,
      },
    );
  }
  const clientId = document?.['client_id'];
  if (typeof clientId !== 'string' || clientId === '') {
    throw new OAuthError(`client registration at ${as.issuer} returned no client_id`, {
      failure: 'registration-failed',
      issuer: as.issuer,
      status: response.status,
    });
  }
  const secret =
    typeof document?.['client_secret'] === 'string' && document['client_secret'] !== ''
      ? document['client_secret']
      : undefined;
  const expires = document?.['client_secret_expires_at'];
  const granted = document?.['token_endpoint_auth_method'];
  let method: TokenEndpointAuthMethod =
    typeof granted === 'string' && METHODS.has(granted) ? (granted as TokenEndpointAuthMethod) : requestedMethod;
  if (method !== 'none' && secret === undefined) method = 'none';
  if (typeof granted === 'string' && !METHODS.has(granted)) {
    throw new OAuthError(
      `client registration at ${as.issuer} chose token_endpoint_auth_method ${granted}, which this client does not support`,
      {
        failure: 'registration-failed',
        issuer: as.issuer,
        actual: granted,
      },
    );
  }
  const redirectUris = Array.isArray(document?.['redirect_uris'])
    ? (document['redirect_uris'] as unknown[]).filter((u): u is string => typeof u === 'string')
    : (body['redirect_uris'] as string[]);
  return {
    issuer: as.issuer,
    clientId,
    ...(secret !== undefined && { clientSecret: secret }),
    ...(typeof expires === 'number' && expires > 0 && { clientSecretExpiresAt: expires * 1000 }),
    tokenEndpointAuthMethod: method,
    redirectUris,
    registeredAt: now,
  };
}
