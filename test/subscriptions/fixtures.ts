/**
 * Fixtures for subscription tests: a scripted server that advertises every change capability
 * and answers `subscriptions/listen` with an acknowledgment (never a response), plus builders
 * for the notifications a listen stream carries.
 */
import { vi } from 'vitest';
import { DISCOVER_RESULT, scriptedPair, type ScriptedServer, type Wire } from '../fakes/scriptedServer.js';
import type { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { SubscriptionEvent } from '../../src/subscriptions/types.js';

export const SUB_ID = 'io.modelcontextprotocol/subscriptionId';

/** Capabilities with every change notification on. */
export const ALL_CHANGES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { listChanged: true, subscribe: true },
};

export interface ListenScript {
  /** What to put in the ack for a requested filter. @default the filter itself */
  honour?: (requested: Record<string, unknown>, request: Wire) => Record<string, unknown> | 'no-ack';
}

/** Answers `subscriptions/listen` with an ack carrying the request's id (and no response). */
export function scriptListen(server: ScriptedServer, script: ListenScript = {}): void {
  server.on('subscriptions/listen', (request) => {
    const requested = request['params']['notifications'] as Record<string, unknown>;
    const honoured = script.honour === undefined ? requested : script.honour(requested, request);
    if (honoured !== 'no-ack') void server.send(ackFor(request['id'], honoured));
    return undefined;
  });
}

export function ackFor(id: unknown, notifications: Record<string, unknown>): Wire {
  return {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications, _meta: { [SUB_ID]: id } },
  };
}

/** A change notification on subscription `id` (omit `id` for none). */
export function change(method: string, id?: unknown, params: Record<string, unknown> = {}): Wire {
  return { jsonrpc: '2.0', method, params: { ...params, ...(id !== undefined && { _meta: { [SUB_ID]: id } }) } };
}

/** A client on a scripted server that advertises `capabilities`; connected and listening. */
export async function subscriptionPair(
  options: Partial<ClientOptions> = {},
  capabilities: Record<string, unknown> = ALL_CHANGES,
  script: ListenScript = {},
): Promise<{ client: McpClient; server: ScriptedServer; errors: Error[] }> {
  const errors: Error[] = [];
  const pair = scriptedPair({ onError: (error) => errors.push(error), ...options });
  pair.server.on('server/discover', () => ({ result: { ...DISCOVER_RESULT, capabilities } }));
  scriptListen(pair.server, script);
  await pair.server.start();
  await pair.client.connect();
  return { ...pair, errors };
}

/** The listen requests the server received, in order. */
export function listens(server: ScriptedServer): Wire[] {
  return server.requests('subscriptions/listen');
}

/** `notifications/cancelled` the client sent, in order. */
export function cancels(server: ScriptedServer): Wire[] {
  return server.received.filter((m) => m['method'] === 'notifications/cancelled');
}

/** Lets every pending microtask run (the in-memory transport delivers on microtasks). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 30; i++) await Promise.resolve();
}

/**
 * Lets the modules that load on first use (subscriptions, live lists: real I/O, whatever the
 * timers) finish loading, then {@link flush}: a `subscribe()` started before has sent its
 * listen request by then. Works under fake timers.
 */
export async function settle(): Promise<void> {
  await vi.dynamicImportSettled();
  await flush();
}

/** Records events of a subscription or live list. */
export function record<E>(target: { on(listener: (event: E) => void): () => void }): E[] {
  const seen: E[] = [];
  target.on((event) => seen.push(event));
  return seen;
}

/** The `type`s of recorded events. */
export function types(events: ReadonlyArray<{ type: string }>): string[] {
  return events.map((e) => e.type);
}

export type { SubscriptionEvent };

/** A promise with its resolve function, for replies the test sends later. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A fake monotonic clock that follows vitest's fake `Date`. */
export const fakeClock = { now: () => Date.now() };
