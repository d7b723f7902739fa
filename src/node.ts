// Node-only entry (`mcp-live/node`): transports that need Node APIs (child processes, sockets).
// Adding an export here adds public API. Everything runtime-neutral lives in ./index.ts.
export { StdioTransport, STDERR_TAIL_BYTES, type StdioTransportOptions } from './transport/stdio.js';
export { planSpawn, type SpawnConfig, type SpawnPlan, type SpawnPlanOptions } from './transport/spawnPlan.js';
// WebSocket on the `ws` package (heartbeat pings need it; browsers use the root export).
export { WebSocketTransport } from './transport/webSocketNode.js';
export type { WebSocketTransportOptions } from './transport/webSocket.js';
// OAuth credentials in a JSON file (mode 0600), for CLIs.
export { FileCredentialStore } from './auth/fileCredentialStore.js';
