/**
 * The two request paths of the Streamable HTTP transport, for tests that run on both: the
 * runtime-neutral class on `fetch` (root entry) and the `mcp-live/node` class on `node:http`.
 */
import { StreamableHttpTransport as FetchPathTransport } from '../../src/transport/http/streamableHttp.js';
import { StreamableHttpTransport as NodePathTransport } from '../../src/transport/http/node.js';

/** One request path: its name (for test titles) and the transport class that takes it. */
export interface HttpPath {
  readonly path: 'fetch' | 'node:http';
  readonly Transport: typeof FetchPathTransport;
}

export const HTTP_PATHS: readonly HttpPath[] = [
  { path: 'fetch', Transport: FetchPathTransport },
  { path: 'node:http', Transport: NodePathTransport },
];
