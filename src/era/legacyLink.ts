/**
 * The legacy connection of one client (spec 2025-11-25: basic/lifecycle): the `initialize`
 * handshake, the server-to-client requests it allows, and a new session when an HTTP session
 * expired.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { JsonRpcSession } from '../jsonrpc/session.js';
import type { Transport } from '../transport/transport.js';
import type { ClientCapabilities, Implementation } from '../wire/protocol.js';
import type { InputHandlers } from '../inputRequired/handlers.js';
import { initializeParams, readInitializeResult, type LegacyHandshake } from './handshake.js';
import { legacyInboundHandlers } from './inboundRequests.js';

/** What the link needs from its client. */
export interface LegacyLinkOptions {
  session: JsonRpcSession;
  transport: Transport;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  handlers: InputHandlers | undefined;
  /** Legacy versions, most preferred first: the first is asked for. */
  versions: readonly string[];
  /** Idle and total timeout of `initialize`, in ms. */
  timeoutMs: number;
  /** Called after a renewed session is ready (the client re-subscribes what it had). */
  onRenewed?: ((handshake: LegacyHandshake) => void) | undefined;
}

/** @internal Owned by `McpClient` once it falls back to the legacy wire. */
export class LegacyLink {
  private current: LegacyHandshake | undefined;
  private renewal: Promise<LegacyHandshake> | undefined;

  constructor(private readonly options: LegacyLinkOptions) {}

  /** The last completed handshake. */
  get handshakeResult(): LegacyHandshake | undefined {
    return this.current;
  }

  /**
   * The first handshake: switches the transport to the legacy envelope (with `overSse`, to the
   * deprecated HTTP+SSE transport at the same URL: `LegacyWireControl.openSse`), starts
   * answering server requests, sends `initialize` (never cancelled: a timeout just stops
   * waiting) and `notifications/initialized`. On failure, the transport and session go back to
   * the modern wire, so the client may still probe. `timeouts` bound `initialize` (else the
   * link's `timeoutMs`).
   * @throws what `initialize` throws: `RpcError`, `TimeoutError` (-32001), `ProtocolError`
   *   (-32600) for a malformed result, `VersionNegotiationError` (-32022) for a version the
   *   client does not speak, transport errors; with `overSse`, what `openSse` throws
   *   (`SseEndpointError`, `HttpError`...), or `InvalidArgumentError` (-32602) when the
   *   transport has no HTTP+SSE fallback.
   */
  async connect(
    signal: AbortSignal | undefined,
    overSse = false,
    timeouts?: { timeoutMs: number; maxTotalTimeoutMs: number },
  ): Promise<LegacyHandshake> {
    const { session, transport } = this.options;
    if (overSse && transport.legacyWire?.openSse === undefined)
      throw new InvalidArgumentError(
        'transport',
        transport.serverIdentity,
        'has no HTTP+SSE fallback (LegacyWireControl.openSse)',
      );
    transport.legacyWire?.enter();
    session.setInboundRequestHandlers(legacyInboundHandlers(this.options.handlers));
    try {
      if (overSse) await transport.legacyWire?.openSse?.(signal);
      return await this.handshake(signal, timeouts);
    } catch (error) {
      transport.legacyWire?.leave();
      session.setInboundRequestHandlers(undefined);
      throw error;
    }
  }

  /**
   * A new session after the old one expired (HTTP 404 on a request that carried its id): one
   * handshake, shared by every request that saw the expiry at the same time (`signal` ends the
   * wait for it). On failure, messages the transport holds back for the new session stay held:
   * another attempt may follow; {@link abandon} fails them once none will.
   * @throws what {@link connect} throws.
   */
  renew(signal?: AbortSignal): Promise<LegacyHandshake> {
    if (this.renewal !== undefined) return this.renewal;
    this.options.transport.legacyWire?.enter();
    const renewal = this.handshake(signal).then((handshake) => {
      this.options.onRenewed?.(handshake);
      return handshake;
    });
    this.renewal = renewal;
    const clear = (): void => {
      if (this.renewal === renewal) this.renewal = undefined;
    };
    renewal.then(clear, clear);
    return renewal;
  }

  /**
   * No new session will be set up: messages the transport held back for one reject with
   * `error`. Resolves once their sends have settled (never rejects).
   */
  abandon(error: unknown): Promise<void> {
    return Promise.resolve(this.options.transport.legacyWire?.failed?.(error));
  }

  private async handshake(
    signal: AbortSignal | undefined,
    timeouts?: { timeoutMs: number; maxTotalTimeoutMs: number },
  ): Promise<LegacyHandshake> {
    const { session, transport, versions } = this.options;
    const timeoutMs = timeouts?.timeoutMs ?? this.options.timeoutMs;
    const result = await session.request(
      'initialize',
      initializeParams(versions[0] as string, this.options.capabilities, this.options.clientInfo),
      {
        signal,
        timeoutMs,
        maxTotalTimeoutMs: timeouts?.maxTotalTimeoutMs ?? timeoutMs,
        resetTimeoutOnProgress: false,
        cancellable: false,
      },
    );
    const handshake = readInitializeResult(result, versions);
    transport.legacyWire?.negotiated(handshake.protocolVersion);
    await session.notify('notifications/initialized');
    await transport.legacyWire?.ready();
    this.current = handshake;
    return handshake;
  }
}
