/**
 * Frame ports for browser hosts: the channel of an `AppSession` to an `<iframe>` (through
 * `window.postMessage`, as the ext-apps `App` talks to `window.parent`) or to a `MessagePort`,
 * and a watch that ends a session when its frame leaves the document. The only DOM code of
 * mcp-live; reached from `mcp-live/apps-bridge`, never from the root entry. The DOM is typed
 * structurally, so nothing here needs the DOM library at type level.
 */
import type { JsonRpcMessage } from '../../wire/messages.js';
import type { FramePort } from '../appSession.js';

/** A `message` event as the ports read it. */
export interface MessageEventLike {
  readonly data: unknown;
  readonly source?: unknown;
}

/** What receives `message` events: `window`, or a `MessagePort`. */
export interface MessageEventTargetLike {
  /** Adds a `message` listener. */
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  /** Removes a `message` listener. */
  removeEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
}

/** A frame's window (`iframe.contentWindow`). */
export interface FrameWindowLike {
  /** `window.postMessage`: sends a structured clone of `message` to the frame. */
  postMessage(message: unknown, targetOrigin: string): void;
}

/** An `<iframe>` element. */
export interface FrameElementLike {
  readonly contentWindow: FrameWindowLike | null;
  readonly isConnected?: boolean;
  readonly ownerDocument?: unknown;
}

/** A `MessagePort` (one end of a `MessageChannel`). */
export interface MessagePortLike {
  /** Sends a structured clone of `message` to the other end. */
  postMessage(message: unknown): void;
  /** Adds a `message` listener. */
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  /** Removes a `message` listener. */
  removeEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  /** Starts delivery (needed with `addEventListener`). */
  start?(): void;
  /** Closes the port. */
  close?(): void;
}

/** Options of {@link windowFramePort}. */
export interface WindowFramePortOptions {
  /** Where the frame's messages arrive. @default globalThis (the host page's `window`) */
  listenOn?: MessageEventTargetLike | undefined;
  /**
   * `targetOrigin` of every `postMessage`. A `sandbox` frame without `allow-same-origin` has an
   * opaque origin, which only `"*"` reaches; give the frame's origin when it has a real one.
   * @default "*"
   */
  targetOrigin?: string | undefined;
}

/**
 * The port of an `<iframe>` (or its window): sends with `postMessage`, and hears only the
 * messages whose `source` is that frame's window, so other frames cannot speak for it.
 */
export function windowFramePort(
  frame: FrameElementLike | FrameWindowLike,
  options: WindowFramePortOptions = {},
): FramePort {
  const page: unknown = globalThis;
  const target = options.listenOn ?? (page as MessageEventTargetLike);
  if (typeof target?.addEventListener !== 'function')
    throw new TypeError('windowFramePort: no window to listen on (pass listenOn)');
  const frameWindow = (): FrameWindowLike | null => ('postMessage' in frame ? frame : frame.contentWindow);
  const targetOrigin = options.targetOrigin ?? '*';
  const listeners = new Set<(event: MessageEventLike) => void>();
  return {
    send(message: JsonRpcMessage) {
      frameWindow()?.postMessage(message, targetOrigin);
    },
    onMessage(listener) {
      const onEvent = (event: MessageEventLike): void => {
        const source = frameWindow();
        if (source !== null && event.source === source) listener(event.data);
      };
      target.addEventListener('message', onEvent);
      listeners.add(onEvent);
      return () => {
        target.removeEventListener('message', onEvent);
        listeners.delete(onEvent);
      };
    },
    close() {
      for (const onEvent of listeners) target.removeEventListener('message', onEvent);
      listeners.clear();
    },
  };
}

/** The port of a `MessagePort` (a sandbox proxy that hands one over, a worker); `close()` closes it. */
export function messagePortFramePort(port: MessagePortLike): FramePort {
  return {
    send(message: JsonRpcMessage) {
      port.postMessage(message);
    },
    onMessage(listener) {
      const onEvent = (event: MessageEventLike): void => listener(event.data);
      port.addEventListener('message', onEvent);
      port.start?.();
      return () => port.removeEventListener('message', onEvent);
    },
    close() {
      port.close?.();
    },
  };
}

/**
 * Calls `onRemoved` once when `frame` leaves its document (a `MutationObserver` on the
 * document); returns the function that stops watching. Does nothing where there is no
 * `MutationObserver` or the frame has no document.
 */
export function watchFrameRemoval(frame: FrameElementLike, onRemoved: () => void): () => void {
  const Observer = (globalThis as { MutationObserver?: new (callback: () => void) => MutationObserverLike })
    .MutationObserver;
  const root = (frame.ownerDocument as { documentElement?: unknown } | undefined)?.documentElement;
  if (Observer === undefined || root === undefined || root === null) return () => {};
  let seen = frame.isConnected === true;
  const observer = new Observer(() => {
    if (frame.isConnected === true) seen = true;
    else if (seen) {
      observer.disconnect();
      onRemoved();
    }
  });
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}

interface MutationObserverLike {
  observe(target: unknown, options: { childList: boolean; subtree: boolean }): void;
  disconnect(): void;
}
