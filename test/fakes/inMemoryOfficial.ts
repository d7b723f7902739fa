/**
 * Any official-SDK server (`McpServerFactory`) in this process, reached over a linked in-memory
 * pair: each `connect()` gets a fresh pair served by `serveStdio`, and the test sees every
 * request the server received (method and params, in order).
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage, McpServerFactory, Transport as SdkTransport } from '@modelcontextprotocol/server';
import type { JsonRpcMessage } from '../../src/wire/messages.js';
import { InMemoryTransport } from '../../src/transport/memory.js';

export interface InMemoryOfficialServer {
  /** A new client end, served by a new connection of the factory. */
  transport(): InMemoryTransport;
  /** Every request the server received, in order. */
  readonly requests: Array<{ method: string; params: Record<string, unknown> }>;
  /** The requests of one method. */
  requestsOf(method: string): Array<Record<string, unknown>>;
}

/** Serves `factory` in memory; `identity` is the transports' serverIdentity (the cache key's). */
export function inMemoryOfficial(
  factory: McpServerFactory,
  identity = `memory:${crypto.randomUUID()}`,
): InMemoryOfficialServer {
  const requests: InMemoryOfficialServer['requests'] = [];
  return {
    requests,
    requestsOf: (method) => requests.filter((r) => r.method === method).map((r) => r.params),
    transport() {
      const [clientEnd, end] = InMemoryTransport.createLinkedPair(identity);
      const adapter: SdkTransport = {
        async start() {
          await end.start({
            onMessage: (message) => {
              const m = message as { method?: string; id?: unknown; params?: Record<string, unknown> };
              if (typeof m.method === 'string' && m.id !== undefined)
                requests.push({ method: m.method, params: structuredClone(m.params ?? {}) });
              adapter.onmessage?.(message as JSONRPCMessage);
            },
            onError: (error) => adapter.onerror?.(error),
            onClose: () => adapter.onclose?.(),
          });
        },
        send: (message) => end.send(message as JsonRpcMessage),
        close: () => end.close(),
      };
      serveStdio(factory, { transport: adapter });
      return clientEnd;
    },
  };
}
