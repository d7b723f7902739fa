/**
 * The WebSocket transport on the `ws` package, for Node (exported from `mcp-live/node`).
 */
import WebSocket from 'ws';
import { WebSocketTransport as WebSocketTransportBase, type WebSocketConstructor, type WebSocketTransportOptions } from './webSocket.js';

/**
 * {@link WebSocketTransportBase} with `ws` as the default WebSocket implementation, so the
 * heartbeat (ping/pong, `terminate()` on a dead peer), handshake `headers` and `socketOptions`
 * (`maxPayload`, `agent`...) work. Same options, behaviour and errors as the base class.
 */
export class WebSocketTransport extends WebSocketTransportBase {
  constructor(url: string | URL, options: WebSocketTransportOptions = {}) {
    super(url, { ...options, WebSocket: options.WebSocket ?? (WebSocket as unknown as WebSocketConstructor) });
  }
}
