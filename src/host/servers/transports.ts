/**
 * How the host turns an entry's location into a transport. The default here is runtime-neutral
 * (fetch and the global `WebSocket`); `nodeTransport` from `mcp-live/node` adds stdio, HTTP on
 * `node:http` and WebSocket on `ws`.
 */
import type { Transport } from '../../transport/transport.js';
import type { AuthProvider } from '../../transport/http/auth.js';
import { StreamableHttpTransport } from '../../transport/http/streamableHttp.js';
import { LegacySseTransport } from '../../transport/http/legacy/legacySse.js';
import { WebSocketTransport } from '../../transport/websocket/webSocket.js';
import type { RemoteServerLocation, StdioServerLocation } from './config.js';
import { HostConfigError } from '../catalog/errors.js';

/** What a transport factory is told about the server besides its location. */
export interface TransportContext {
  /** The server's name in the host. */
  server: string;
  /** The entry's `authProvider` (`http` and `sse` only). */
  authProvider?: AuthProvider | undefined;
}

/**
 * Makes the transport of one connection to a stdio or remote server. Called again for each new
 * client of that server (after `add`, after a restart).
 * @throws HostConfigError (-33050) for a location it cannot serve; the server is then `failed`.
 */
export type CreateTransport = (
  location: StdioServerLocation | RemoteServerLocation,
  context: TransportContext,
) => Transport;

/**
 * The runtime-neutral factory: `http` on fetch, `sse` on fetch, `ws` on the global `WebSocket`.
 * @throws HostConfigError (-33050) for a stdio server (use the `McpHost` of `mcp-live/node`),
 *   and for an `authProvider` on a `ws` server.
 */
export const fetchTransport: CreateTransport = (location, context) => {
  if (location.type === 'stdio')
    throw new HostConfigError({
      server: context.server,
      field: 'command',
      reason: 'stdio servers need Node: import McpHost from "mcp-live/node" (or pass createTransport: nodeTransport)',
    });
  return remoteTransport(location, context, StreamableHttpTransport, WebSocketTransport);
};

/**
 * The transport of a remote entry: `http` on `Http`, `sse` the HTTP+SSE transport, `ws` on `Ws`
 * (each factory passes the classes of its runtime).
 * @throws HostConfigError (-33050) for an `authProvider` on a `ws` server.
 */
export function remoteTransport(
  location: RemoteServerLocation,
  context: TransportContext,
  Http: new (url: string, options: RemoteOptions) => Transport,
  Ws: new (url: string, options: { headers?: Readonly<Record<string, string>> }) => Transport,
): Transport {
  switch (location.type) {
    case 'http':
      return new Http(location.url, remoteOptions(location, context));
    case 'sse':
      return new LegacySseTransport(location.url, remoteOptions(location, context));
    case 'ws':
      return new Ws(location.url, wsOptions(location, context));
  }
}

/** `headers` and `authProvider` of an HTTP transport. */
interface RemoteOptions {
  headers?: Readonly<Record<string, string>>;
  authProvider?: AuthProvider;
}

function remoteOptions(location: RemoteServerLocation, context: TransportContext): RemoteOptions {
  return {
    ...(location.headers !== undefined && { headers: location.headers }),
    ...(context.authProvider !== undefined && { authProvider: context.authProvider }),
  };
}

/**
 * `headers` for a WebSocket transport.
 * @throws HostConfigError (-33050) when the entry has an `authProvider` (WebSocket has none).
 */
function wsOptions(
  location: RemoteServerLocation,
  context: TransportContext,
): { headers?: Readonly<Record<string, string>> } {
  if (context.authProvider !== undefined)
    throw new HostConfigError({
      server: context.server,
      field: 'authProvider',
      reason: 'is for http and sse servers; give a ws server its credentials in headers',
    });
  return location.headers === undefined ? {} : { headers: location.headers };
}
