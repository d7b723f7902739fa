/**
 * The Node-only entry: the stdio transport (child processes), Streamable HTTP on `node:http`,
 * WebSocket on `ws` with heartbeat pings, the OAuth provider with DNS pinning, and OAuth
 * credentials in a file.
 *
 * @module mcp-live/node
 */
// Node-only entry (`mcp-live/node`): transports that need Node APIs (child processes, sockets).
// Adding an export here adds public API. Everything runtime-neutral lives in ./index.ts.
export { StdioTransport } from './transport/stdio/stdio.js';
export { type StdioTransportOptions } from './transport/stdio/stdioOptions.js';
export { STDERR_TAIL_BYTES } from './transport/stdio/stderr.js';
export {
  planSpawn,
  type SpawnConfig,
  type SpawnPlan,
  type SpawnPlanOptions,
  type PlannedSpawnOptions,
} from './transport/stdio/spawnPlan.js';
// Streamable HTTP on node:http/node:https with a keep-alive agent (the root export uses fetch).
export { StreamableHttpTransport, type NodeStreamableHttpTransportOptions } from './transport/http/node.js';
export type { NodeHttpOptions } from './transport/http/nodeStack.js';
// WebSocket on the `ws` package (heartbeat pings need it; browsers use the root export).
export { WebSocketTransport } from './transport/websocket/node.js';
export type { WebSocketTransportOptions } from './transport/websocket/webSocket.js';
// OAuth credentials in a JSON file (mode 0600), for CLIs.
export { FileCredentialStore } from './auth/fileCredentialStore.js';
// The OAuth provider with DNS pinning on node:http (the root export's requests use fetch).
export { createOAuthProvider } from './auth/nodeOAuthProvider.js';
// Triggers & Events extension (docs/events.md): the webhook receiver (fetch-style, Node http,
// Express-like) and the file cursor store.
export { WebhookReceiver, type WebhookReceiverOptions } from './events/webhookReceiver.js';
export { webhookNodeHandler, webhookExpressHandler, type ExpressLikeRequest } from './events/webhookReceiverNode.js';
export { FileCursorStore, type FileCursorStoreOptions } from './events/fileCursorStore.js';
