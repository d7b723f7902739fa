/**
 * Declaring and detecting the MCP Apps extension (spec: Client<>Server Capability Negotiation):
 * the client lists `extensions["io.modelcontextprotocol/ui"]: { mimeTypes: [...] }` in its
 * capabilities; a server that serves apps may list the same key in its own.
 */
import type { JsonObject } from '../wire/messages.js';
import type { ClientCapabilities, ServerCapabilities, Tool } from '../wire/protocol.js';
import { APP_MIME_TYPE, UI_EXTENSION } from './constants.js';
import { toolUi } from './toolUi.js';

/**
 * A copy of `capabilities` that declares the MCP Apps extension with the MIME type
 * `text/html;profile=mcp-app` (MIME types already declared under the key are kept; other
 * extensions are kept).
 */
export function withAppsExtension(capabilities: ClientCapabilities): ClientCapabilities {
  const current = capabilities.extensions?.[UI_EXTENSION];
  const declared = Array.isArray(current?.['mimeTypes'])
    ? (current['mimeTypes'] as unknown[]).filter((m): m is string => typeof m === 'string')
    : [];
  const mimeTypes = declared.includes(APP_MIME_TYPE) ? declared : [...declared, APP_MIME_TYPE];
  const entry: JsonObject = { ...current, mimeTypes };
  return { ...capabilities, extensions: { ...capabilities.extensions, [UI_EXTENSION]: entry } };
}

/**
 * Whether a server serves MCP Apps: its capabilities list the extension, or one of its tools
 * links a UI resource (`_meta.ui.resourceUri`; servers built on the ext-apps SDK do the latter
 * without the former).
 */
export function serverOffersApps(capabilities: ServerCapabilities | undefined, tools: readonly Tool[] = []): boolean {
  const extensions = capabilities?.extensions;
  const listed = typeof extensions === 'object' && extensions !== null && Object.hasOwn(extensions, UI_EXTENSION);
  return listed || tools.some((tool) => toolUi(tool).resourceUri !== undefined);
}
