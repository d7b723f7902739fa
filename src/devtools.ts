/**
 * The devtools entry: what a host is doing, live. {@link DevtoolsRecorder} keeps a picture of an
 * `McpHost` (servers, catalog, cache entries, subscriptions, the last requests, tasks, approvals waiting) as plain data with a change
 * listener; {@link serveDevtools} serves it as a page on 127.0.0.1 behind a random token.
 * Node-only (the page server uses node:http and node:crypto); the recorder itself is
 * runtime-neutral. A program that does not import this entry carries none of it. See
 * docs/devtools.md.
 *
 * @module mcp-live/devtools
 */
// Public API of the devtools entry. Adding an export here adds public API: keep it explicit.
export {
  DevtoolsRecorder,
  DEFAULT_MAX_REQUESTS,
  MAX_CACHE_ENTRIES,
  type DevtoolsRecorderOptions,
  type DevtoolsActionOptions,
} from './devtools/recorder.js';
export type { DevtoolsApproveOptions, PageVerdict } from './devtools/approvalWaits.js';
export { serveDevtools, type ServeDevtoolsOptions, type ServedDevtools } from './devtools/serveDevtools.js';
export type {
  DevtoolsSnapshot,
  DevtoolsChange,
  DevtoolsServer,
  DevtoolsReconnect,
  DevtoolsCatalog,
  DevtoolsCatalogItem,
  DevtoolsCatalogChange,
  DevtoolsRequest,
  DevtoolsAttempt,
  DevtoolsOutcome,
  DevtoolsApproval,
  DevtoolsError,
  DevtoolsCacheEntry,
  DevtoolsTask,
  DevtoolsSubscription,
  DevtoolsHeard,
  DevtoolsToolSearch,
} from './devtools/snapshot.js';
