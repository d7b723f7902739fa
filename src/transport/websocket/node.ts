/**
 * The WebSocket transport on the `ws` package, for Node (exported from `mcp-live/node`).
 *
 * `ws` is loaded on the first `start()` that needs it, not when `mcp-live/node` is imported:
 * it pulls in `http`, `https`, `tls`, `zlib` and `crypto`, which cost a stdio-only host
 * 100+ ms of CPU at startup for nothing.
 */
import { ConnectionClosedError } from '../../errors/errors.js';
import type { TransportHandlers } from '../transport.js';
import {
  WebSocketTransport as WebSocketTransportBase,
  type WebSocketConstructor,
  type WebSocketLike,
  type WebSocketTransportOptions,
} from './webSocket.js';

let wsConstructor: WebSocketConstructor | undefined;
let wsLoading: Promise<WebSocketConstructor> | undefined;

/** `ws`'s WebSocket class, imported once. */
function loadWs(): Promise<WebSocketConstructor> {
  wsLoading ??= import('ws').then(
    (module) => {
      const ctor = ((module as { default?: unknown }).default ??
        (module as { WebSocket?: unknown }).WebSocket) as WebSocketConstructor;
      wsConstructor = ctor;
      return ctor;
    },
    (error: unknown) => {
      wsLoading = undefined; // let a later start() try again
      throw error;
    },
  );
  return wsLoading;
}

/**
 * Stands for `ws` in the base class's options until it is loaded: `start()` loads `ws` before
 * the base class constructs a socket, so by then this just builds a real `ws` WebSocket.
 */
const LazyWs = function LazyWs(url: string, protocols: string[], options?: Record<string, unknown>): WebSocketLike {
  if (wsConstructor === undefined) throw new Error('ws is not loaded');
  return new wsConstructor(url, protocols, options);
} as unknown as WebSocketConstructor;

/**
 * {@link WebSocketTransportBase} with `ws` as the default WebSocket implementation, so the
 * heartbeat (ping/pong, `terminate()` on a dead peer), handshake `headers` and `socketOptions`
 * (`maxPayload`, `agent`...) work. Same options, behaviour and errors as the base class.
 */
export class WebSocketTransport extends WebSocketTransportBase {
  private readonly needsWs: boolean;

  constructor(url: string | URL, options: WebSocketTransportOptions = {}) {
    super(url, { ...options, WebSocket: options.WebSocket ?? LazyWs });
    this.needsWs = options.WebSocket === undefined;
  }

  override start(handlers: TransportHandlers): Promise<void> {
    if (!this.needsWs || wsConstructor !== undefined) return super.start(handlers);
    return loadWs().then(
      () => super.start(handlers),
      (error: unknown) => {
        const detail = error instanceof Error ? error.message : String(error);
        throw new ConnectionClosedError(`cannot load the "ws" package: ${detail}`, { reason: 'no WebSocket' }, error);
      },
    );
  }
}
