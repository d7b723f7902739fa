/**
 * The app's server as an `AppSession` reaches it: through an `McpHost` (routed to the named
 * server, its catalog and tool filter applied) or through one `McpClient`.
 */
import type { McpClient } from '../client/client.js';
import type { AppServerLink } from '../apps/appSession.js';
import type { McpHost } from './host.js';

/**
 * The link to server `server` of `host`: tools are looked up in the host's catalog (so the
 * entry's `tools` allow/deny filter applies), calls and reads go to that server only.
 */
export function hostAppLink(host: McpHost, server: string): AppServerLink {
  return {
    server,
    findTool: (name) => host.tools().find((t) => t.server === server && t.tool.name === name)?.tool,
    callTool: (name, args, { signal }) => host.callTool({ server, name }, args, { signal }),
    readResource: (uri, { signal }) => host.readResource(uri, { server, signal }),
  };
}

/**
 * The link to the server of `client`; tools are looked up in its tool list (through the
 * cache). `server` names it for the approval hook. @default server "server"
 */
export function clientAppLink(client: McpClient, server = 'server'): AppServerLink {
  return {
    server,
    findTool: async (name, { signal }) => (await client.listAllTools({ signal })).items.find((t) => t.name === name),
    callTool: (name, args, { signal }) => client.callTool(name, args, { signal }),
    readResource: (uri, { signal }) => client.readResource(uri, { signal }),
  };
}
