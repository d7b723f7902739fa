/**
 * The legacy side of a `StreamableHttpTransport` (spec 2025-11-25: basic/transports "Streamable
 * HTTP"): the envelope with `Mcp-Session-Id` and the negotiated `MCP-Protocol-Version`, the
 * messages held back while a session is set up, and the legacy session itself
 * (`legacyChannel.ts`).
 * The transport loads this module when its client enters the legacy wire
 * (`LegacyWireControl.enter`), before the first legacy message goes out, with the HTTP+SSE
 * fallback that may follow on that wire (`sseFallback.lazy.ts`, `LegacyWireControl.openSse`): one
 * part for the 2025-11-25 HTTP wire. Runtime-neutral.
 */
import { ProtocolError } from '../../../errors/errors.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, RequestId } from '../../../wire/messages.js';
import type { Timers } from '../../../util/clock.js';
import { cancelHandleOf, sendCancelOf } from '../../cancelHandle.js';
import type { TransportSendOptions } from '../../transport.js';
import { HttpError } from '../../transportErrors.js';
import { ERROR_BODY_BYTES, jsonRpcError, mediaType, parseJson } from '../body.js';
import type { HttpExchange } from '../exchange.js';
import type { MessagePoster, SessionDeps } from '../messagePost.js';
import type { MessageReader } from '../messageReader.js';
import type { PumpResult } from '../ssePump.js';
import { checkHeaderValue, readStart, type HttpStackResponse } from '../stack.js';
import { LegacyHttpChannel, type LegacyHttpDeps } from './legacyChannel.js';
import type { ResolvedLegacyHttpOptions } from './legacyHttp.js';
import { SessionSetup } from './sessionSetup.js';

export { openSseFallback } from './sseFallback.lazy.js';

/** What the legacy wire borrows from its transport. */
export interface LegacyWireDeps {
  readonly exchange: HttpExchange;
  readonly reader: MessageReader;
  readonly poster: MessagePoster;
  /** The static headers under those of every POST (`accept`, `content-type`), lower-case names. */
  readonly postHeaders: Readonly<Record<string, string>>;
  readonly options: ResolvedLegacyHttpOptions;
  readonly timers: Timers;
  /** Sends `message` as the transport's `send()` does: a held message, once its session is set up. */
  send(message: JsonRpcMessage, options: TransportSendOptions): Promise<void>;
}

/**
 * The transport on the legacy wire, from `LegacyWireControl.enter()` to `leave()`: what it
 * sends, and the session hooks of its exchanges (see the file's opening comment).
 */
export class LegacyHttpWire implements SessionDeps {
  /** The session of the last `enter()`. */
  private channel: LegacyHttpChannel;
  /** Holds messages back while a new session is set up. */
  private readonly setup = new SessionSetup();
  /** The sends held back by {@link setup}, until each is sent or fails. */
  private readonly heldSends = new Set<Promise<void>>();

  /** Enters the legacy wire (see {@link enter}). */
  constructor(private readonly host: LegacyWireDeps) {
    this.channel = this.newChannel();
    this.setup.begin();
  }

  /** The session's `Mcp-Session-Id`, once the server assigned one. */
  get sessionId(): string | undefined {
    return this.channel.sessionId;
  }

  /** A new handshake starts: forgets the session, and holds other messages back until it is negotiated. */
  enter(): void {
    this.channel.stopStandalone();
    this.channel = this.newChannel();
    this.setup.begin();
  }

  /** The InitializeResult arrived: `protocolVersion` from now on, and the held messages go. */
  negotiated(protocolVersion: string): void {
    this.channel.protocolVersion = protocolVersion;
    this.setup.settle();
  }

  /** No new session will come: held messages reject with `error`; resolves once their sends settled. */
  failed(error: unknown): Promise<void> {
    this.setup.settle(error);
    return Promise.allSettled([...this.heldSends]).then(() => undefined);
  }

  /** The handshake is complete: the standalone GET stream opens (see `LegacyHttpChannel.startStandalone`). */
  ready(): Promise<void> {
    return this.channel.startStandalone();
  }

  /** Back to the 2026-07-28 wire: the standalone stream stops, held messages go on. */
  leave(): void {
    this.channel.stopStandalone();
    this.setup.settle();
  }

  /** Ends the session with `DELETE`, when there is one (see `LegacyHttpChannel.terminate`). */
  terminate(): Promise<void> {
    return this.channel.terminate();
  }

  /**
   * Sends one message in the legacy envelope: a response to a server request is POSTed and
   * acknowledged like a notification; while a session is set up, messages other than
   * `initialize` wait for it (see {@link sendAfterSetup}).
   */
  send(message: JsonRpcMessage, options: TransportSendOptions): Promise<void> {
    const { poster } = this.host;
    if (!('method' in message))
      return poster.notification('(response)', JSON.stringify(message), this.headers(), true, sendCancelOf(options));
    if (this.setup.active && message.method !== 'initialize') {
      const held = this.sendAfterSetup(message, options);
      this.heldSends.add(held);
      const release = (): void => void this.heldSends.delete(held);
      held.then(release, release);
      return held;
    }
    // No Mcp-Method, Mcp-Name or Mcp-Param-* headers on this wire (spec 2025-11-25).
    return poster.send(message, this.headers(), options);
  }

  captureSession(method: string, response: HttpStackResponse): void {
    this.channel.captureSession(method, response);
  }

  sessionExpired(
    method: string,
    status: number,
    sentSessionId: string | undefined,
    holdBack: boolean,
  ): Error | undefined {
    const channel = this.channel;
    const expired = channel.sessionExpired(method, status, sentSessionId);
    // The session is gone: hold other messages back until the owner negotiated a new one.
    if (expired !== undefined && holdBack && channel.sessionId === undefined) this.setup.begin();
    return expired;
  }

  resume(method: string, id: RequestId, broken: PumpResult, signal: AbortSignal): Promise<void> {
    return this.channel.resume(method, id, broken, signal);
  }

  /**
   * Sends `message` once the session being set up is negotiated, with its id. A failed set-up
   * rejects a request with the set-up's error, and reports it for a notification.
   */
  private async sendAfterSetup(
    message: JsonRpcRequest | JsonRpcNotification,
    options: TransportSendOptions,
  ): Promise<void> {
    const { exchange, reader } = this.host;
    const id = 'id' in message ? message.id : undefined;
    const cancel = sendCancelOf(options);
    const link = exchange.link(cancel);
    try {
      await this.setup.wait([link.signal]);
    } catch (error) {
      // The set-up's own failure is the request's answer, even when the transport closes right after it.
      if (id !== undefined && this.setup.failedWith(error)) throw error;
      const final = exchange.finalError(error, message.method, id, cancel);
      if (id !== undefined || exchange.closeSignal.aborted || cancel?.aborted === true) throw final;
      reader.emitError(final);
      return;
    } finally {
      link.dispose();
    }
    return this.host.send(message, options);
  }

  /** Accept, Content-Type, the static headers, and the session headers. */
  private headers(): Record<string, string> {
    const headers = { ...this.host.postHeaders };
    this.channel.applyHeaders(headers);
    return headers;
  }

  private newChannel(): LegacyHttpChannel {
    const { options, timers, exchange } = this.host;
    return new LegacyHttpChannel(this.port(), options, timers, exchange.closeSignal);
  }

  /** What the legacy channel borrows: GET/DELETE with auth, the SSE reader, error reporting. */
  private port(): LegacyHttpDeps {
    const { exchange, reader } = this.host;
    return {
      get: (lastEventId, signal) => {
        const headers = this.headers();
        headers['accept'] = 'text/event-stream';
        delete headers['content-type'];
        if (lastEventId !== undefined) {
          const value = checkHeaderValue(lastEventId);
          if (value === undefined)
            return Promise.reject(
              new ProtocolError('the SSE event id cannot be sent as Last-Event-ID', {
                method: 'GET',
                value: lastEventId,
              }),
            );
          headers['last-event-id'] = value;
        }
        // `signal` already follows the transport's close (standalone stream, or a request's exchange).
        const cancel = cancelHandleOf(signal);
        return exchange.send('GET', 'GET', undefined, headers, cancel).catch((error: unknown) => {
          throw exchange.finalError(error, 'GET', undefined, cancel);
        });
      },
      delete: (signal) => {
        const headers = this.headers();
        delete headers['content-type'];
        return exchange.send('DELETE', 'DELETE', undefined, headers, cancelHandleOf(signal));
      },
      pump: (response, method, relatedId, signal) => reader.pump(response, method, relatedId, cancelHandleOf(signal)),
      httpError: async (response, method) => {
        const text = await readStart(response, ERROR_BODY_BYTES);
        const type = mediaType(response.header('content-type'));
        const ok = response.status >= 200 && response.status < 300;
        return new HttpError(
          exchange.errorData(
            response,
            method,
            text,
            ok ? (text === '' ? 'empty-body' : 'content-type') : 'status',
            type === 'application/json' ? jsonRpcError(parseJson(text)) : undefined,
          ),
        );
      },
      emitError: (error) => reader.emitError(error),
    };
  }
}
