import { ConnectionClosedError } from '../errors/errors.js';
import type { JsonRpcMessage } from '../wire/messages.js';
import type { Transport, TransportCapabilities, TransportCloseInfo, TransportHandlers } from './transport.js';

/**
 * An in-process transport: two linked ends that hand messages to each other on a microtask,
 * in order. For tests and for embedding a server in the same process.
 *
 * Messages are delivered as the same object that was sent (no copy): do not mutate a message
 * after sending it.
 */
export class InMemoryTransport implements Transport {
  readonly capabilities: TransportCapabilities = { cancelsByAbortingSend: false };
  readonly serverIdentity: string;
  private peer: InMemoryTransport | undefined;
  private handlers: TransportHandlers | undefined;
  private queue: unknown[] = [];
  private closed = false;

  private constructor(serverIdentity: string) {
    this.serverIdentity = serverIdentity;
  }

  /**
   * Creates two linked ends. Give one to `McpClient` and the other to the server (or to a test).
   * @param serverIdentity identifies the server end for cache partitioning. @default "memory:"+n
   */
  static createLinkedPair(
    serverIdentity = `memory:${crypto.randomUUID()}`,
  ): [client: InMemoryTransport, server: InMemoryTransport] {
    const a = new InMemoryTransport(serverIdentity);
    const b = new InMemoryTransport(serverIdentity);
    a.peer = b;
    b.peer = a;
    return [a, b];
  }

  /** Starts receiving. Messages sent before `start` are queued and delivered now. */
  start(handlers: TransportHandlers): Promise<void> {
    if (this.handlers !== undefined) return Promise.reject(new Error('InMemoryTransport already started'));
    this.handlers = handlers;
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) handlers.onMessage(message);
    return Promise.resolve();
  }

  /**
   * Delivers `message` to the peer on a microtask. Rejects with `ConnectionClosedError`
   * (code -32000) when either end is closed.
   */
  send(message: JsonRpcMessage): Promise<void> {
    const peer = this.peer;
    if (this.closed || peer === undefined || peer.closed) {
      return Promise.reject(new ConnectionClosedError('in-memory transport is closed', { reason: 'closed' }));
    }
    return Promise.resolve().then(() => peer.receive(message));
  }

  /** Closes both ends; each end's `onClose` is called once. */
  close(): Promise<void> {
    this.shutdown({ reason: 'closed by client', initiatedByClient: true });
    this.peer?.shutdown({ reason: 'peer closed', initiatedByClient: false });
    return Promise.resolve();
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private receive(message: unknown): void {
    if (this.closed) return;
    if (this.handlers === undefined) this.queue.push(message);
    else this.handlers.onMessage(message);
  }

  private shutdown(info: TransportCloseInfo): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.handlers?.onClose(info);
  }
}
