/**
 * The Streamable HTTP transport on `node:http`/`node:https`, for Node (exported from
 * `mcp-live/node` under the same name as the runtime-neutral class).
 */
import type { HttpStack } from './stack.js';
import { nodeHttpStack, type NodeHttpOptions } from './nodeStack.js';
import { StreamableHttpTransport as StreamableHttpTransportBase } from './streamableHttp.js';
import { type StreamableHttpTransportOptions } from './streamableHttpOptions.js';

/** Options of the `mcp-live/node` {@link StreamableHttpTransport}: the base options plus `agent`. */
export interface NodeStreamableHttpTransportOptions extends StreamableHttpTransportOptions, NodeHttpOptions {}

/**
 * {@link StreamableHttpTransportBase} that sends its requests with `node:http` (`http:` URLs)
 * or `node:https` (`https:` URLs) over a keep-alive `Agent`, instead of `fetch`: the same
 * protocol, options, behaviour and errors, for a fraction of the CPU per request (see
 * docs/performance.md, W5). Given `options.fetch`, it uses that instead, exactly like the base
 * class; that is the path to take behind an HTTP proxy (this one ignores `HTTP_PROXY`, but an
 * `agent` that tunnels, such as one from `https-proxy-agent`, works).
 *
 * Differences from the fetch path, none visible to the protocol: connections are the agent's
 * (the transport's own keep-alive agent unless `options.agent` is given; `close()` destroys
 * its own, never a given one); no idle timeout applies to a response body (undici's 300 s body
 * timeout does not exist here).
 *
 * @example
 * import { McpClient } from 'mcp-live';
 * import { StreamableHttpTransport } from 'mcp-live/node';
 * const client = new McpClient({ transport: new StreamableHttpTransport('http://127.0.0.1:3000/mcp'), clientInfo: { name: 'host', version: '1.0.0' } });
 */
export class StreamableHttpTransport extends StreamableHttpTransportBase {
  /**
   * @param url the MCP endpoint, `http:` or `https:`.
   * @throws InvalidArgumentError (code -32602) as the base class does.
   */
  constructor(url: string | URL, options: NodeStreamableHttpTransportOptions = {}) {
    super(url, options);
  }

  /** @internal */
  protected override createStack(options: NodeStreamableHttpTransportOptions): HttpStack {
    if (options.fetch !== undefined) return super.createStack(options);
    return nodeHttpStack({ agent: options.agent });
  }
}
