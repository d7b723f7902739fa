/**
 * The MCP Apps bridge for browser hosts (docs/apps.md): an app's `<iframe>` (or a
 * `MessagePort`) wired to its server through an `McpHost` or `McpClient`, with the host's
 * `approve` hook on every app-initiated tool call. The only entry with DOM code; the root
 * entry has the runtime-neutral parts (`AppSession`, `readAppResource`, the frame policy).
 *
 * @module mcp-live/apps-bridge
 */
// Adding an export here adds public API. Never reached from ./index.ts.
export { createAppBridge, type AppBridgeOptions } from './host/appBridge.js';
export {
  windowFramePort,
  messagePortFramePort,
  watchFrameRemoval,
  type WindowFramePortOptions,
  type FrameElementLike,
  type FrameWindowLike,
  type MessagePortLike,
  type MessageEventLike,
  type MessageEventTargetLike,
} from './apps/browser/framePorts.js';
export {
  AppSession,
  type AppSessionOptions,
  type AppSessionState,
  type AppHandlers,
  type ApproveAppToolCall,
  type AppToolCall,
  type AppToolCallDecision,
  type FramePort,
} from './apps/appSession.js';
export { type AppDownloadFile, MAX_DOWNLOAD_FILES, MAX_DOWNLOAD_BYTES } from './apps/downloadFile.js';
export { appFrameDocument, appContentSecurityPolicy, appPermissionsPolicy } from './apps/framePolicy.js';
