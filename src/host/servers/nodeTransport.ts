/**
 * The host's transport factory for Node (exported by `mcp-live/node`): stdio servers as child
 * processes, Streamable HTTP on `node:http`, WebSocket on `ws`.
 */
import { StdioTransport } from '../../transport/stdio/stdio.js';
import { StreamableHttpTransport } from '../../transport/http/node.js';
import { WebSocketTransport } from '../../transport/websocket/node.js';
import { remoteTransport, type CreateTransport } from './transports.js';
import { HostConfigError } from '../catalog/errors.js';

/**
 * Makes the transport of a host entry in Node: `stdio` spawns the command (its stderr kept for
 * `lastError`), `http` is Streamable HTTP on `node:http`/`node:https`, `sse` the HTTP+SSE
 * transport, `ws` WebSocket on `ws`. Pass it as `createTransport` to `McpHost`.
 * @throws HostConfigError (-33050) for an `authProvider` on a stdio or ws entry.
 */
export const nodeTransport: CreateTransport = (location, context) => {
  if (location.type !== 'stdio') return remoteTransport(location, context, StreamableHttpTransport, WebSocketTransport);
  if (context.authProvider !== undefined)
    throw new HostConfigError({
      server: context.server,
      field: 'authProvider',
      reason: 'is for http and sse servers; give a stdio server its credentials in env',
    });
  return new StdioTransport({
    command: location.command,
    args: [...(location.args ?? [])],
    ...(location.env !== undefined && { env: { ...location.env } }),
    ...(location.cwd !== undefined && { cwd: location.cwd }),
    stderr: 'pipe',
  });
};
