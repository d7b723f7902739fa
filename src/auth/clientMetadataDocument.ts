/**
 * The Client ID Metadata Document a host publishes for its OAuth client (spec:
 * basic/authorization/client-registration). Pure.
 */
import { clientMetadataFields } from './clientMetadata.js';
import type { OAuthClientMetadata } from './types.js';

/**
 * The Client ID Metadata Document to publish at `clientIdMetadataUrl` (spec:
 * client-registration, "Client ID Metadata Documents"): the host's metadata with `client_id`
 * set to that URL (it must match exactly), `redirect_uris` including `redirectUrl`,
 * `grant_types` (`authorization_code`, `refresh_token`), `response_types` (`code`) and
 * `token_endpoint_auth_method: "none"`, as the provider presents such a client. Serve it as
 * `application/json` over HTTPS.
 * @example
 * clientIdMetadataDocument('https://app.example.com/oauth/client.json', { client_name: 'My App' }, 'http://127.0.0.1:8765/callback');
 */
export function clientIdMetadataDocument(
  clientIdMetadataUrl: string,
  metadata: OAuthClientMetadata,
  redirectUrl: string,
): Record<string, unknown> {
  return {
    ...clientMetadataFields(metadata, redirectUrl),
    client_id: clientIdMetadataUrl,
    token_endpoint_auth_method: 'none',
  };
}
