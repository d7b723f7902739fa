/**
 * Which client identity to present to an authorization server (spec:
 * basic/authorization/client-registration, priority order and "Authorization Server Binding").
 * Runtime-neutral.
 */
import type * as oauth from 'oauth4webapi';
import type { CredentialStore } from './credentialStore.js';
import { OAuthError } from './errors.js';
import { chooseAuthMethod, identityOf, registerClient, type ClientIdentity } from './registration.js';
import { FlightGroup } from './sharedFlight.js';
import type { HttpContext, OAuthClientMetadata, PreRegisteredClient, StoredClient } from './types.js';

/** What {@link ClientIdentities} works from. */
export interface ClientIdentityConfig {
  readonly preRegistered: readonly PreRegisteredClient[];
  readonly clientIdMetadataUrl: string | undefined;
  /** For Dynamic Client Registration (the authorization code grant only). */
  readonly clientMetadata: OAuthClientMetadata | undefined;
  /** The redirect URL of the authorization code grant; without one no registration is used. */
  readonly redirectUrl: string | undefined;
  readonly store: CredentialStore;
  /** Wall-clock epoch ms. */
  readonly now: () => number;
}

/**
 * Resolves the client identity per authorization server. Credentials are bound to the issuer
 * that issued them: pre-registered ones to their `issuer` (or to the first issuer they are used
 * with), dynamic registrations to the issuer they are stored under. Concurrent registrations
 * with one server are merged into one.
 */
export class ClientIdentities {
  /** The issuer an unpinned pre-registered client was first used with. */
  private boundIssuer: string | undefined;
  private readonly registrations = new FlightGroup<StoredClient>();

  constructor(private readonly config: ClientIdentityConfig) {}

  /**
   * The identity for `as`, in the spec's priority order: pre-registered credentials for its
   * issuer; the Client ID Metadata Document URL when it advertises
   * `client_id_metadata_document_supported`; a stored dynamic registration for its issuer whose
   * redirect URIs include ours and whose secret has not expired; a new Dynamic Client
   * Registration (only when `register`, and when it has a registration endpoint).
   * Resolves `undefined` when none applies.
   * @throws OAuthError from the registration (`registration-failed`, `network-error`...).
   */
  async resolve(
    as: oauth.AuthorizationServer,
    http: HttpContext,
    register: boolean,
  ): Promise<ClientIdentity | undefined> {
    const issuer = as.issuer;
    const { config } = this;
    for (const client of config.preRegistered) {
      const matches =
        client.issuer !== undefined
          ? client.issuer === issuer
          : this.boundIssuer === undefined || this.boundIssuer === issuer;
      if (!matches) continue;
      if (client.issuer === undefined) this.boundIssuer = issuer;
      return {
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        privateKey: client.privateKey,
        method:
          client.tokenEndpointAuthMethod ??
          chooseAuthMethod(
            as.token_endpoint_auth_methods_supported,
            client.clientSecret !== undefined,
            client.privateKey !== undefined,
          ),
        source: 'pre-registered',
      };
    }
    if (config.clientIdMetadataUrl !== undefined && as['client_id_metadata_document_supported'] === true) {
      return { clientId: config.clientIdMetadataUrl, method: 'none', source: 'metadata-document' };
    }
    const { redirectUrl, clientMetadata } = config;
    if (redirectUrl === undefined || clientMetadata === undefined) return undefined;
    const stored = await config.store.getClient(issuer);
    if (
      stored !== undefined &&
      stored.issuer === issuer &&
      stored.redirectUris.includes(redirectUrl) &&
      (stored.clientSecretExpiresAt === undefined || stored.clientSecretExpiresAt > config.now())
    ) {
      return identityOf(stored);
    }
    if (!register || as.registration_endpoint === undefined) return undefined;
    const client = await this.registrations.join(issuer, http.signal, async (signal) => {
      const registered = await registerClient(as, clientMetadata, redirectUrl, { ...http, signal }, config.now());
      await config.store.setClient(issuer, registered);
      return registered;
    });
    return identityOf(client);
  }

  /** The first issuer of `servers` that a pre-registered client is pinned to. */
  pinnedIssuerIn(servers: readonly string[]): string | undefined {
    for (const client of this.config.preRegistered)
      if (client.issuer !== undefined && servers.includes(client.issuer)) return client.issuer;
    return undefined;
  }
}

/** The error when {@link ClientIdentities.resolve} found nothing for `as`. */
export function noClientIdentity(as: oauth.AuthorizationServer): OAuthError {
  return new OAuthError(
    `no client identity for ${as.issuer}: it supports neither Client ID Metadata Documents (with clientIdMetadataUrl set) nor Dynamic Client Registration; configure preRegistered credentials for this issuer`,
    { failure: 'no-client-identity', issuer: as.issuer },
  );
}
