/**
 * The host entry for Node: `McpHost` with the Node transports as its default (stdio child
 * processes, Streamable HTTP on node:http, WebSocket on ws), the transport factory behind it and
 * configuration files. Everything else of the host is in `mcp-live/host`.
 *
 * @module mcp-live/host/node
 */
// McpHost in Node (the McpHost of mcp-live/host stays runtime-neutral), the transport factory
// (stdio, node:http, ws) and configuration files.
export { McpHost } from './host/nodeHost.js';
export { nodeTransport } from './host/servers/nodeTransport.js';
export { loadHostConfig } from './host/servers/loadConfig.js';
