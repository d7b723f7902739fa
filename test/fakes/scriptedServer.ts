import { InMemoryTransport } from '../../src/transport/memory.js';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';

/** A JSON-RPC message as the fake sees it: plain parsed JSON. */
export type Wire = Record<string, any>;

/** What a scripted handler returns: a result, an error, or nothing (the test replies later). */
export type Reply =
  { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } } | undefined;

export const DISCOVER_RESULT = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {}, prompts: {}, resources: {} },
  instructions: 'scripted',
  ttlMs: 0,
  cacheScope: 'public',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '0.0.0' } },
};

/**
 * A scripted wire fake: the server end of an in-memory pair. It records every message the
 * client sends (as JSON round-tripped copies, so later mutation cannot hide what was sent)
 * and answers requests through per-method handlers.
 */
export class ScriptedServer {
  readonly received: Wire[] = [];
  private readonly handlers = new Map<string, (request: Wire) => Reply | Promise<Reply>>();
  private readonly waiters: Array<{ predicate: (m: Wire) => boolean; resolve: (m: Wire) => void }> = [];

  constructor(readonly transport: InMemoryTransport) {
    this.on('server/discover', () => ({ result: DISCOVER_RESULT }));
  }

  start(): Promise<void> {
    return this.transport.start({
      onMessage: (message) => this.receive(message as Wire),
      onError: () => {},
      onClose: () => {},
    });
  }

  /** Answers every request for `method` with what `handler` returns. */
  on(method: string, handler: (request: Wire) => Reply | Promise<Reply>): this {
    this.handlers.set(method, handler);
    return this;
  }

  /** Sends any raw message to the client. */
  send(message: unknown): Promise<void> {
    return this.transport.send(message as never);
  }

  /** The requests received for `method`, in order. */
  requests(method: string): Wire[] {
    return this.received.filter((m) => m['method'] === method && 'id' in m);
  }

  /** Resolves with the first received message (past or future) matching `predicate`. */
  waitFor(predicate: (message: Wire) => boolean): Promise<Wire> {
    const found = this.received.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }

  private receive(message: Wire): void {
    const copy = JSON.parse(JSON.stringify(message)) as Wire;
    this.received.push(copy);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (waiter.predicate(copy)) {
        this.waiters.splice(i, 1);
        waiter.resolve(copy);
      }
    }
    if (typeof copy['method'] !== 'string' || !('id' in copy)) return;
    const handler = this.handlers.get(copy['method']);
    if (handler === undefined) {
      void this.send({ jsonrpc: '2.0', id: copy['id'], error: { code: -32601, message: 'Method not found' } });
      return;
    }
    void Promise.resolve(handler(copy)).then((reply) => {
      if (reply === undefined) return;
      return this.send({ jsonrpc: '2.0', id: copy['id'], ...reply });
    });
  }
}

/** A client wired to a scripted server over an in-memory pair; neither is connected yet. */
export function scriptedPair(options: Partial<ClientOptions> = {}): { client: McpClient; server: ScriptedServer } {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair('memory:scripted');
  const server = new ScriptedServer(serverEnd);
  const client = new McpClient({
    transport: clientEnd,
    clientInfo: { name: 'test-host', version: '1.0.0' },
    ...options,
  });
  return { client, server };
}

/** {@link scriptedPair}, started and connected. */
export async function connectedPair(
  options: Partial<ClientOptions> = {},
): Promise<{ client: McpClient; server: ScriptedServer }> {
  const pair = scriptedPair(options);
  await pair.server.start();
  await pair.client.connect();
  return pair;
}
