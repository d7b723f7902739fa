/**
 * MCP Apps' UI resources read with a client (docs/apps.md), opted into by import: a program that
 * never imports `readAppResource` never bundles the checks (`apps/appResourceCheck.ts`).
 */
import type { AppResource } from '../apps/appResourceCheck.js';
import type { ReadAppResourceOptions } from '../apps/appResource.js';
import { checkedAppResource } from '../apps/appResourceCheck.js';
import { DEFAULT_MAX_APP_HTML_BYTES } from '../apps/constants.js';
import { checkAppUri } from '../apps/uiUri.js';
import type { McpClient } from './client.js';
import { partsOf } from './clientView.js';

/**
 * Reads a UI resource (MCP Apps) with `client`, through its cache, as `client.readResource`,
 * and checks it: a `ui://` URI, MIME type `text/html;profile=mcp-app`, at most
 * `options.maxBytes` (default: the client's `apps.maxHtmlBytes`, 1 MiB) of HTML. Resolves with
 * the HTML, its declared CSP and permissions (from the read item's `_meta.ui`, else from
 * `options.listed`, the `resources/list` entry) and a fingerprint that changes whenever any of
 * them does (spec: MCP Apps, UI Resource Format).
 *
 * ```ts
 * import { readAppResource } from 'mcp-live';
 * const app = await readAppResource(client, 'ui://weather/forecast');
 * ```
 * @throws AppResourceError (-33070): `not-ui-uri` (nothing sent), `mime-type`, `too-large`,
 *   `no-contents`, `not-utf8`; then whatever `McpClient.readResource` throws.
 */
export async function readAppResource(
  client: McpClient,
  uri: string,
  options: ReadAppResourceOptions = {},
): Promise<AppResource> {
  checkAppUri(uri);
  const { maxBytes, listed, ...call } = options;
  const result = await client.readResource(uri, call);
  return checkedAppResource(result, uri, {
    maxBytes: maxBytes ?? partsOf(client).options.apps?.maxHtmlBytes ?? DEFAULT_MAX_APP_HTML_BYTES,
    listed,
  });
}
