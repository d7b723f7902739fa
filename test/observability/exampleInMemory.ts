/**
 * The example server (examples/serverFactory.ts, on the official @modelcontextprotocol/server)
 * served in this process over mcp-live's in-memory transport: `serveStdio` with a transport
 * adapter around the server end of a linked pair. `seen` records every message the server
 * side received, as it received it.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage, Transport as SdkTransport } from '@modelcontextprotocol/server';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { JsonRpcMessage } from '../../src/wire/messages.js';
import { InMemoryTransport } from '../../src/transport/memory.js';
import { createExampleServerFactory, createExampleState } from '../../examples/serverFactory.js';

/** A message the server received (requests and notifications). */
export type Seen = {
  id?: number | string;
  method?: string;
  params?: { _meta?: Record<string, unknown>; [key: string]: unknown };
};

export interface ExamplePeer {
  client: McpClient;
  /** Everything the server side received, in order. */
  seen: Seen[];
  /** The requests of `method` the server received. */
  requests(method: string): Seen[];
  close(): Promise<void>;
}

/** A client (not yet connected) on a fresh example server in this process. */
export function exampleInMemory(options: Partial<ClientOptions> = {}): ExamplePeer {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair('memory:example');
  const seen: Seen[] = [];
  const adapter: SdkTransport = {
    async start() {
      await serverEnd.start({
        onMessage: (message) => {
          seen.push(structuredClone(message) as Seen);
          adapter.onmessage?.(message as JSONRPCMessage);
        },
        onError: (error) => adapter.onerror?.(error),
        onClose: () => adapter.onclose?.(),
      });
    },
    send: (message) => serverEnd.send(message as JsonRpcMessage),
    close: () => serverEnd.close(),
  };
  const handle = serveStdio(createExampleServerFactory(createExampleState()), { transport: adapter });
  const client = new McpClient({
    transport: clientEnd,
    clientInfo: { name: 'observability-tests', version: '0.0.0' },
    ...options,
  });
  return {
    client,
    seen,
    requests: (method) => seen.filter((message) => message.method === method && message.id !== undefined),
    async close() {
      await client.close();
      await handle.close();
    },
  };
}
