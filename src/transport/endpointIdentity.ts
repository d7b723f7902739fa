/**
 * The `serverIdentity` of a transport that reaches its server by URL (Streamable HTTP, HTTP+SSE,
 * WebSocket): what the cache, the era memory, task records and event cursors key the server by.
 * Two endpoints are one server only when scheme, host, port, path and query all agree: servers
 * that differ only in the query (`/mcp?tenant=acme`, `/mcp?tenant=globex`) are two servers. The
 * query is kept as a digest, never as text, because it may hold a credential (`?api_key=…`) and
 * the identity reaches Redis keys, stored records and error messages. The fragment never counts.
 */
import { sha256Hex } from '../util/sha256.js';

/** `scheme://host[:port]/path`, then `?sha256:<16 hex digits of the query's digest>` when the URL has a query. */
export function endpointIdentity(url: URL): string {
  const base = `${url.protocol}//${url.host}${url.pathname}`;
  return url.search === ''
    ? base
    : `${base}?sha256:${sha256Hex(`mcp-live/endpoint-query\u0000${url.search}`).slice(0, 16)}`;
}
