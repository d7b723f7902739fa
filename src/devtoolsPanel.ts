/**
 * The devtools panel entry, for a host running in a browser: {@link mountDevtoolsPanel} and
 * {@link defineDevtoolsPanel} put a `<mcp-live-devtools>` element (framework-free, in a shadow
 * root of its own) in the page, fed directly by a {@link DevtoolsRecorder} of the same page (no
 * server, no stream). Browser-safe: no Node API (the page server of Node hosts is
 * `mcp-live/devtools`). Nothing is defined on import; a program that does not import this entry
 * carries none of it. See docs/devtools.md.
 *
 * @module mcp-live/devtools/panel
 */
// Public API of the devtools panel entry. Adding an export here adds public API: keep it explicit.
export {
  mountDevtoolsPanel,
  defineDevtoolsPanel,
  DEVTOOLS_PANEL_TAG,
  type DevtoolsPanelElement,
  type DevtoolsPanelOptions,
  type DevtoolsPanelConstructor,
} from './devtools/panel/panel.js';
export {
  DevtoolsRecorder,
  DEFAULT_MAX_REQUESTS,
  MAX_CACHE_ENTRIES,
  type DevtoolsRecorderOptions,
  type DevtoolsActionOptions,
} from './devtools/recorder.js';
export type { DevtoolsApproveOptions, PageVerdict } from './devtools/approvalWaits.js';
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
