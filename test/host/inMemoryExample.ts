/**
 * Example servers (examples/serverFactory.ts) in this process, as host entries: each
 * connection gets a fresh linked in-memory pair served by the official server SDK, and the
 * test can see what the server received and make the server end go away (a crash).
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage, Transport as SdkTransport } from '@modelcontextprotocol/server';
import type { JsonRpcMessage } from '../../src/wire/messages.js';
import { InMemoryTransport } from '../../src/transport/memory.js';
import { createExampleServerFactory, createExampleState } from '../../examples/serverFactory.js';
import type { CustomServerLocation } from '../../src/host/servers/config.js';

/** An example server reachable as a host entry. */
export interface InMemoryExample {
  /** The entry's location: `{ type: 'custom', transport }`. */
  location: CustomServerLocation;
  /** Every request the server received: method and params, in order. */
  requests: Array<{ method: string; params: Record<string, unknown> }>;
  /** Closes the server end of the current connection, as a crash would. */
  crash(): Promise<void>;
  /** How many connections were made. */
  readonly connections: number;
}

/** A fresh example server; `identity` is the transport's serverIdentity (cache key identity). */
export function inMemoryExample(identity = `memory:${crypto.randomUUID()}`): InMemoryExample {
  const state = createExampleState();
  const requests: InMemoryExample['requests'] = [];
  let serverEnd: InMemoryTransport | undefined;
  let connections = 0;
  const transport = (): InMemoryTransport => {
    const [clientEnd, end] = InMemoryTransport.createLinkedPair(identity);
    serverEnd = end;
    connections++;
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
    serveStdio(createExampleServerFactory(state), { transport: adapter });
    return clientEnd;
  };
  return {
    location: { type: 'custom', transport },
    requests,
    crash: async () => {
      await serverEnd?.close();
    },
    get connections() {
      return connections;
    },
  };
}
