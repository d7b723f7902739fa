/**
 * What the host observes of one client's connection: its state, and the reconnect events of
 * issue 18's contract (docs/host.md, "Servers that fail"). This file is the one place that
 * knows whether the client reconnects by itself: a client with `on()` reports every change;
 * one without it goes from open to closed for good, and the host learns of that from its
 * live lists and calls.
 */
import type { McpClient } from '../client/client.js';
import type { ClientOptions } from '../client/options.js';
import type { Era } from '../legacy/era.js';

/** A client's connection state, as the host reads it (`connected` of older clients is `open`). */
export type ObservedClientState = 'new' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Why a connection dropped, or why a start failed: what the transport knows. */
export interface ReconnectCause {
  /** e.g. `process-exit`, `websocket-close`, `http-session-lost`, `connect-failed`. */
  reason: string;
  exitCode?: number | null | undefined;
  signal?: string | null | undefined;
  stderrTail?: string | undefined;
  /** WebSocket close code. */
  closeCode?: number | undefined;
  httpStatus?: number | undefined;
  /** The error that ended the attempt, when there is one. */
  error?: unknown;
}

/** One event of a client that reconnects by itself. */
export type ObservedClientEvent =
  | { type: 'state'; state: ObservedClientState; previous: ObservedClientState }
  | { type: 'reconnecting'; attempt: number; delayMs: number; cause: ReconnectCause }
  | { type: 'reconnected'; attempt: number; protocolVersion: string; era: Era }
  | { type: 'gaveUp'; attempts: number; cause: ReconnectCause };

/** The part of a client the host watches, whichever version of it this is. */
interface WatchableClient {
  readonly state: string;
  on?: ((listener: (event: ObservedClientEvent) => void) => () => void) | undefined;
}

/** The client's state, with `connected` read as `open`. */
export function observedState(client: McpClient): ObservedClientState {
  const state = (client as unknown as WatchableClient).state;
  return state === 'connected' ? 'open' : (state as ObservedClientState);
}

/** Whether this client reconnects by itself and reports it through `on()`. */
export function reconnects(client: McpClient): boolean {
  return typeof (client as unknown as WatchableClient).on === 'function';
}

/**
 * Listens to the client's events, when it has them; returns the function that stops listening
 * (a no-op for a client without events).
 */
export function watchClient(client: McpClient, listener: (event: ObservedClientEvent) => void): () => void {
  const watchable = client as unknown as WatchableClient;
  if (typeof watchable.on !== 'function') return () => {};
  return watchable.on((event) => listener(normalize(event)));
}

function normalize(event: ObservedClientEvent): ObservedClientEvent {
  if (event.type !== 'state') return event;
  const fix = (state: string): ObservedClientState => (state === 'connected' ? 'open' : (state as ObservedClientState));
  return { type: 'state', state: fix(event.state), previous: fix(event.previous) };
}

/**
 * The client options with the first connection retried too (`reconnect.retryFirstConnect`), so
 * that a server that fails to start keeps being tried under the client's reconnect policy.
 * Left as they are when reconnecting is turned off (`reconnect: false`).
 */
export function retryingFirstConnect(options: ClientOptions): ClientOptions {
  const reconnect = (options as { reconnect?: unknown }).reconnect;
  if (reconnect === false) return options;
  const policy = typeof reconnect === 'object' && reconnect !== null ? reconnect : {};
  return { ...options, reconnect: { retryFirstConnect: true, ...policy } } as ClientOptions;
}
