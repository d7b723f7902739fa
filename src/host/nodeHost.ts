/**
 * `McpHost` for Node (exported by `mcp-live/node`): the host of the root entry with the Node
 * transports as its default, so a Claude Desktop or VS Code configuration of stdio servers works
 * with no transport option. The root entry's `McpHost` stays runtime-neutral.
 */
import { McpHost as RuntimeNeutralHost } from './host.js';
import { type McpHostOptions } from './servers/hostOptions.js';
import { nodeTransport } from './servers/nodeTransport.js';

/**
 * Many MCP servers behind one object, in Node: the `McpHost` of `mcp-live` (a subclass, so
 * `instanceof` holds for both) whose `createTransport` defaults to `nodeTransport`: stdio
 * servers as child processes, Streamable HTTP on `node:http`, WebSocket on `ws`. Every option,
 * method and error is the base class's (docs/host.md).
 *
 * @example
 * ```ts
 * import { McpHost, loadHostConfig } from 'mcp-live/node';
 * await using host = McpHost.fromConfig(await loadHostConfig('.mcp.json'), { clientInfo: { name: 'app', version: '1.0.0' } });
 * await host.connect(); // stdio servers start as child processes
 * ```
 * @throws InvalidArgumentError (-32602) as the base constructor.
 */
export class McpHost extends RuntimeNeutralHost {
  constructor(options: McpHostOptions) {
    super({ ...options, createTransport: options?.createTransport ?? nodeTransport });
  }
}
