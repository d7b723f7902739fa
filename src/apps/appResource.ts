/**
 * A UI resource read for rendering (spec: UI Resource Format): the HTML of a `ui://` resource,
 * checked (MIME type `text/html;profile=mcp-app`, size cap), with the CSP domains and
 * permissions it declares and a fingerprint of all three. Pure: the read itself is the
 * caller's (`McpClient.readAppResource`, `McpHost.readAppResource`). The checks are in
 * `appResourceCheck.ts`, which this file only imports: the client loads it on its first
 * `readAppResource`.
 */
import type { ReadResourceResult } from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import { checkedAppResource, type AppResource, type AppResourceOptions } from './appResourceCheck.js';

/** Options of `readAppResource` (client and host): the call's options and the checks'. */
export interface ReadAppResourceOptions extends CallOptions, AppResourceOptions {}

/**
 * The UI resource in a `resources/read` result for `uri`: the contents item for that URI (or
 * the only item), checked and decoded.
 * @throws AppResourceError (-33070): `not-ui-uri`, `no-contents`, `mime-type` (`data.value`:
 *   the type sent), `too-large` (`data.value`: bytes, `data.limit`), `not-utf8`.
 */
export function appResourceFrom(
  result: ReadResourceResult,
  uri: string,
  options: AppResourceOptions = {},
): AppResource {
  return checkedAppResource(result, uri, options);
}
