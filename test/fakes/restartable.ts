/**
 * A restartable transport over in-memory pairs, for reconnect tests: each `start()` makes a new
 * linked pair and hands its server end to a fresh {@link ScriptedServer} that `setUp` scripts
 * (as a server process started again would be). The test drops the connection as a crashed
 * process or a closed socket would, and can make the next starts fail.
 */
import { ConnectionClosedError } from '../../src/errors/errors.js';
import type { JsonRpcMessage } from '../../src/wire/messages.js';
import { InMemoryTransport } from '../../src/transport/memory.js';
import type {
  Transport,
  TransportCapabilities,
  TransportCloseInfo,
  TransportHandlers,
} from '../../src/transport/transport.js';
import { ScriptedServer } from './scriptedServer.js';

export class RestartableFake implements Transport {
  readonly capabilities: TransportCapabilities = { cancelsByAbortingSend: false, restartable: true };
  /** Every server, one per connection, in order. */
  readonly servers: ScriptedServer[] = [];
  /** How many times `start()` was called. */
  starts = 0;
  private end: InMemoryTransport | undefined;
  private handlers: TransportHandlers | undefined;
  private failures: Error[] = [];
  /** Set by {@link breakWrites}: what every send rejects with until the connection is dropped. */
  private broken: ConnectionClosedError | undefined;

  constructor(
    /** Scripts the server of connection number `n` (from 1). */
    private readonly setUp: (server: ScriptedServer, n: number) => void = () => {},
    readonly serverIdentity = `memory:restartable:${crypto.randomUUID()}`,
  ) {}

  /** The server of the current connection. */
  get server(): ScriptedServer {
    return this.servers.at(-1) as ScriptedServer;
  }

  /** The next `count` starts fail (as a command that cannot be spawned, a refused socket). */
  failNextStarts(
    count: number,
    error = new ConnectionClosedError('connect ECONNREFUSED', { reason: 'refused' }),
  ): void {
    for (let i = 0; i < count; i++) this.failures.push(error);
  }

  async start(handlers: TransportHandlers): Promise<void> {
    this.starts++;
    if (this.end !== undefined) throw new Error('RestartableFake: start() while open');
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair(this.serverIdentity);
    const server = new ScriptedServer(serverEnd);
    this.setUp(server, this.servers.length + 1);
    this.servers.push(server);
    this.handlers = handlers;
    this.end = clientEnd;
    await server.start();
    await clientEnd.start({
      onMessage: (message, context) => handlers.onMessage(message, context),
      onError: (error) => handlers.onError(error),
      onClose: (info) => {
        if (this.end === clientEnd) this.closed(info);
      },
    });
  }

  /**
   * From now on, until {@link drop}, every send of this connection rejects as a stdio write to a
   * dead server does (EPIPE), or as a socket that is closing refuses one (`outcome`), while the
   * close itself has not been reported yet: the test reports it with `drop()`.
   */
  breakWrites(outcome: 'unknown' | 'not-sent' = 'unknown'): void {
    this.broken = new ConnectionClosedError('cannot send: transport closing: write EPIPE', {
      reason: 'transport closing',
      outcome,
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    if (this.end === undefined)
      return Promise.reject(new ConnectionClosedError('cannot send: transport closed', { reason: 'transport closed' }));
    return this.end.send(message);
  }

  /** Ends the connection as the peer would (a crash); `info` is what the client hears. */
  drop(info: Partial<TransportCloseInfo> = {}): void {
    const end = this.end;
    if (end === undefined) return;
    this.end = undefined;
    this.closed({ reason: 'process exited with code 1', initiatedByClient: false, exitCode: 1, signal: null, ...info });
    void end.close();
  }

  async close(): Promise<void> {
    const end = this.end;
    if (end === undefined) return;
    this.end = undefined;
    this.closed({ reason: 'closed by client', initiatedByClient: true });
    await end.close();
  }

  private closed(info: TransportCloseInfo): void {
    this.end = undefined;
    this.broken = undefined;
    const handlers = this.handlers;
    this.handlers = undefined;
    handlers?.onClose(info);
  }
}
