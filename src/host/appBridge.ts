/**
 * `createAppBridge`: one app frame wired to its server through an `McpHost` or an `McpClient`
 * (an `AppSession` over a frame port), ended with the frame. Reached from
 * `mcp-live/apps-bridge` only, with the frame ports.
 */
import type { McpClient } from '../client/client.js';
import { AppSession, type AppSessionOptions, type FramePort } from '../apps/appSession.js';
import { InvalidArgumentError } from '../errors/errors.js';
import type { Implementation } from '../wire/protocol.js';
import {
  watchFrameRemoval,
  windowFramePort,
  type FrameElementLike,
  type FrameWindowLike,
  type WindowFramePortOptions,
} from '../apps/browser/framePorts.js';
import { clientAppLink, hostAppLink } from './appLink.js';
import type { McpHost } from './host.js';

/** Options of {@link createAppBridge}. */
export type AppBridgeOptions = Omit<AppSessionOptions, 'port' | 'link' | 'hostInfo'> & {
  /**
   * The app's frame: an `<iframe>` element (the bridge also ends when it leaves the document),
   * its window, or a ready {@link FramePort} (`messagePortFramePort(port)`...).
   */
  frame: FrameElementLike | FrameWindowLike | FramePort;
  /** `postMessage` settings for an element or window frame. */
  framePort?: WindowFramePortOptions | undefined;
  /** The host's name and version in `ui/initialize`. @default { name: "mcp-live", version: "0" } */
  hostInfo?: Implementation | undefined;
  /** Ends the bridge (as `close()`) when it aborts. */
  signal?: AbortSignal | undefined;
} & ({ host: McpHost; server: string; client?: undefined } | { client: McpClient; server?: string; host?: undefined });

/**
 * Starts the host side of one app frame: listens at once (create it before the frame loads),
 * relays the app's tool calls and reads to its own server with `approve` asked first, and ends
 * when the frame element leaves the document, `signal` aborts, or `teardown()` / `close()` is
 * called on the returned session.
 * @throws InvalidArgumentError (-32602) without `host` and `server`, or `client`.
 */
export function createAppBridge(options: AppBridgeOptions): AppSession {
  const { frame, framePort, host, client, server, signal, hostInfo, ...session } = options;
  let link;
  if (host !== undefined) {
    if (typeof server !== 'string' || server === '')
      throw new InvalidArgumentError('server', server, "expected the name of the app's server in the host");
    link = hostAppLink(host, server);
  } else if (client !== undefined) link = clientAppLink(client, server);
  else throw new InvalidArgumentError('host', host, 'expected { host, server } or { client }');
  const port = isFramePort(frame) ? frame : windowFramePort(frame, framePort);
  const app = new AppSession({
    ...session,
    port,
    link,
    hostInfo: hostInfo ?? { name: 'mcp-live', version: '0' },
  });
  const stops: Array<() => void> = [];
  if (!isFramePort(frame) && 'contentWindow' in frame)
    stops.push(watchFrameRemoval(frame, () => app.close('frame removed')));
  if (signal !== undefined) {
    const onAbort = (): void => app.close('aborted');
    if (signal.aborted) onAbort();
    else {
      signal.addEventListener('abort', onAbort, { once: true });
      stops.push(() => signal.removeEventListener('abort', onAbort));
    }
  }
  void app.closed.then(() => {
    for (const stop of stops) stop();
  });
  return app;
}

function isFramePort(frame: AppBridgeOptions['frame']): frame is FramePort {
  return typeof (frame as FramePort).onMessage === 'function' && typeof (frame as FramePort).send === 'function';
}
