/** `ui://` URIs and the MIME type of an MCP App's HTML (spec: UI Resource Format). */
import { UI_SCHEME } from './constants.js';
import { AppResourceError } from './errors.js';

/** Checks a URI before any read. @throws AppResourceError (-33070, `not-ui-uri`) */
export function checkAppUri(uri: string): void {
  if (typeof uri !== 'string' || !uri.startsWith(UI_SCHEME) || uri.length === UI_SCHEME.length)
    throw new AppResourceError('not a ui:// resource URI', { uri: String(uri), reason: 'not-ui-uri', value: uri });
}

/** Whether a MIME type is `text/html;profile=mcp-app` (case and spaces around `;` and `=` aside). */
export function isAppMimeType(mimeType: unknown): boolean {
  if (typeof mimeType !== 'string') return false;
  const [type, ...params] = mimeType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'text/html') return false;
  return params.some((param) => param.replace(/\s*=\s*/, '=').replace(/"/g, '') === 'profile=mcp-app');
}
