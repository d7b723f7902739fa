/**
 * The MCP Apps extension's names (`io.modelcontextprotocol/ui`, ext-apps specification
 * 2026-01-26): the extension key, the one MIME type of a UI resource, the protocol version of
 * the frame's `ui/initialize`, and the size cap a UI resource read applies by default.
 */

/** The extension's key in `capabilities.extensions` (spec: Client<>Server Capability Negotiation). */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type a UI resource must have (spec: UI Resource Format, Content Requirements). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The scheme every UI resource URI starts with. */
export const UI_SCHEME = 'ui://';

/** The version of the frame protocol this host side speaks in `ui/initialize` (spec 2026-01-26). */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** Largest UI resource accepted by default, in bytes of HTML (UTF-8): 1 MiB. */
export const DEFAULT_MAX_APP_HTML_BYTES = 1024 * 1024;
