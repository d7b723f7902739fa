/**
 * The client metadata this client presents as itself (spec: basic/authorization/client-registration),
 * in a Client ID Metadata Document and in a Dynamic Client Registration request. Pure.
 */
import type { OAuthClientMetadata } from './types.js';

/**
 * The host's metadata (fields set to `undefined` left out) with the fields the provider relies
 * on: `redirect_uris` including `redirectUrl` (first), `grant_types` (`authorization_code`,
 * `refresh_token`) and `response_types` (`code`) unless the host gave its own.
 */
export function clientMetadataFields(metadata: OAuthClientMetadata, redirectUrl: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) if (value !== undefined) fields[key] = value;
  fields['redirect_uris'] = [...new Set([redirectUrl, ...(metadata.redirect_uris ?? [])])];
  fields['grant_types'] = metadata.grant_types ?? ['authorization_code', 'refresh_token'];
  fields['response_types'] = metadata.response_types ?? ['code'];
  return fields;
}
