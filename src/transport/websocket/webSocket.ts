/**
 * A WebSocket transport for MCP. The spec defines none; this is a custom transport (spec
 * 2026-07-28, basic/transports "Custom Transports"), documented in docs/transports.md:
 * subprotocol `mcp`, one JSON-RPC message per text frame, cancellation by
 * `notifications/cancelled`. Runtime-neutral: it runs on any WHATWG-shaped `WebSocket`
 * constructor (the global one in browsers, Deno, Bun, Node 22+; `ws` through `mcp-live/node`).
 */
import { ErrorCode } from '../../errors/codes.js';
import { ConnectionClosedError, InvalidArgumentError, LocalError, ProtocolError } from '../../errors/errors.js';
import type { JsonRpcMessage } from '../../wire/messages.js';
import { type TimerHandle, type Timers } from '../../util/clock.js';
import { boundedTimers } from '../../util/timerBounds.js';
import type { Transport, TransportCapabilities, TransportCloseInfo, TransportHandlers } from '../transport.js';
import { WebSocketCloseError, webSocketCloseKind } from '../transportErrors.js';
import { shorten } from '../../util/text.js';
import { endpointIdentity } from '../endpointIdentity.js';

/**
 * The part of a WebSocket the transport uses: the WHATWG API (`readyState`, `send`, `close`,
 * `on*` handlers), plus, when present, the `ws` extras `ping()`, `on('pong')`, `terminate()`
 * and the `send(data, callback)` completion callback.
 */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed (the WHATWG values). */
  readonly readyState: number;
  /** The subprotocol the server picked in the handshake (`""` before it opens). */
  readonly protocol: string;
  /** Called once the handshake completes. */
  onopen: ((event: unknown) => void) | null;
  /** Called per message; `data` is a string for text frames. */
  onmessage: ((event: { data: unknown }) => void) | null;
  /** Called on a socket error; a close event follows. */
  onerror: ((event: { error?: unknown; message?: unknown }) => void) | null;
  /** Called once with the close code (RFC 6455 §7.4) and reason. */
  onclose: ((event: { code: number; reason: string }) => void) | null;
  /** Sends one text frame; `ws` calls `callback` once it is written or failed. */
  send(data: string, callback?: (error?: Error) => void): void;
  /** Starts the closing handshake with an optional code (1000 or 3000-4999) and reason. */
  close(code?: number, reason?: string): void;
  /** `ws` only: sends a ping frame (heartbeat). */
  ping?(): void;
  /** `ws` only: drops the connection without a closing handshake. */
  terminate?(): void;
  /** `ws` only: listens for pong frames (heartbeat). */
  on?(event: 'pong', listener: () => void): unknown;
}

/** A WebSocket constructor: `new (url, protocols, options?)`. The third argument is for `ws`. */
export type WebSocketConstructor = new (
  url: string,
  protocols: string[],
  options?: Record<string, unknown>,
) => WebSocketLike;

/** Options for {@link WebSocketTransport}. Every field is optional. */
export interface WebSocketTransportOptions {
  /** The WebSocket implementation. @default globalThis.WebSocket (`ws` in `mcp-live/node`) */
  WebSocket?: WebSocketConstructor | undefined;
  /** Subprotocols offered in the handshake. The server must pick one. @default ["mcp"] */
  protocols?: readonly string[] | undefined;
  /** Handshake headers (e.g. `Authorization`). `ws` only: browsers cannot set them. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Extra options for a `ws` constructor (`maxPayload`, `agent`...). Ignored elsewhere. */
  socketOptions?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Time between heartbeat pings, in ms, when the socket can ping (`ws`). 0 disables the
   * heartbeat. Browser WebSockets expose no ping, so there is none there. @default 30000
   */
  pingIntervalMs?: number | undefined;
  /**
   * Time allowed for the pong (or any frame) after a ping, in ms. When it passes, the socket is
   * terminated and `onClose` reports code 1006. @default 10000
   */
  pongTimeoutMs?: number | undefined;
  /** Time allowed for the opening handshake, in ms. @default 30000 */
  connectTimeoutMs?: number | undefined;
  /** Time `close()` waits for the closing handshake before dropping the socket, in ms. @default 2000 */
  closeTimeoutMs?: number | undefined;
  /** Timers for the heartbeat and timeouts. @default the globals (fake-timer friendly) */
  timers?: Timers | undefined;
}

/** `readyState` of an open WebSocket. */
const OPEN = 1;

type State = 'new' | 'connecting' | 'open' | 'closing' | 'closed';

/**
 * A {@link Transport} over one WebSocket: subprotocol `mcp`, one JSON-RPC message per text
 * frame (UTF-8 JSON, no batching, no newline framing), in both directions.
 *
 * - `start()` opens the socket and resolves on `open`. It rejects with `ConnectionClosedError`
 *   (code -32000, `cause` the socket error) when the handshake fails, the server picks no
 *   offered subprotocol, or `connectTimeoutMs` passes; `onClose` is then never called.
 * - `send()` writes one text frame; frames keep call order. With `ws` it resolves once the frame
 *   is written, elsewhere once it is queued. It rejects at once with `ConnectionClosedError`
 *   when the socket is not open.
 * - Text frames that are not JSON, and binary frames, go to `onError` as `ProtocolError`; the
 *   socket stays open.
 * - Heartbeat (with `ws`): a ping every `pingIntervalMs`; if neither a pong nor any frame comes
 *   back within `pongTimeoutMs`, the socket is terminated (no Close frame is sent) and `onClose`
 *   reports `exitCode: 1006` with a {@link WebSocketCloseError} (`kind: "abnormal"`,
 *   `local: true`) as `cause`.
 * - When the server closes, `onClose` gets `exitCode` = the close code and a
 *   {@link WebSocketCloseError} (-33013) as `cause`. Nothing reconnects here, but once closed
 *   the transport may be started again (`capabilities.restartable`): `start()` opens a new
 *   socket to the same URL; `McpClient` reconnects this way.
 * - `close()` sends a Close frame with 1000, waits up to `closeTimeoutMs`, then drops the socket;
 *   it resolves after `onClose`.
 *
 * Cancellation is `notifications/cancelled` (capabilities.cancelsByAbortingSend is false).
 */
export class WebSocketTransport implements Transport {
  /** Requests are cancelled with `notifications/cancelled`; `start()` again after a close opens a new socket. */
  readonly capabilities: TransportCapabilities = { cancelsByAbortingSend: false, restartable: true };
  /** The socket URL's origin and path: no credentials, query or fragment. */
  readonly serverIdentity: string;

  private readonly url: string;
  private readonly options: WebSocketTransportOptions;
  private readonly protocols: string[];
  private readonly pingIntervalMs: number;
  private readonly pongTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly closeTimeoutMs: number;
  private readonly timers: Timers;
  private state: State = 'new';
  private socket: WebSocketLike | undefined;
  private handlers: TransportHandlers | undefined;
  private closeRequested = false;
  private lastSocketError: unknown;
  private pingTimer: TimerHandle;
  private pongTimer: TimerHandle;
  private connectTimer: TimerHandle;
  private closeTimer: TimerHandle;
  private rejectStart: ((error: Error) => void) | undefined;
  private closePromise: Promise<void> | undefined;
  private resolveClose: (() => void) | undefined;
  /** How many times `start()` ran: a closed transport that started before may start again. */
  private runs = 0;

  /**
   * @param url a `ws:` or `wss:` URL (`http:`/`https:` are accepted and mapped).
   * @throws InvalidArgumentError (code -32602) for a URL that does not parse or a bad duration.
   */
  constructor(url: string | URL, options: WebSocketTransportOptions = {}) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidArgumentError('url', String(url), 'expected an absolute ws: or wss: URL');
    }
    if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
    else if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
    if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:')
      throw new InvalidArgumentError('url', parsed.protocol, 'expected a ws: or wss: URL');
    parsed.hash = '';
    this.url = parsed.href;
    this.serverIdentity = endpointIdentity(parsed);
    this.options = options;
    this.protocols = [...(options.protocols ?? ['mcp'])];
    this.pingIntervalMs = duration('pingIntervalMs', options.pingIntervalMs, 30_000, true);
    this.pongTimeoutMs = duration('pongTimeoutMs', options.pongTimeoutMs, 10_000, false);
    this.connectTimeoutMs = duration('connectTimeoutMs', options.connectTimeoutMs, 30_000, false);
    this.closeTimeoutMs = duration('closeTimeoutMs', options.closeTimeoutMs, 2000, true);
    this.timers = boundedTimers(options.timers);
  }

  /**
   * Opens the socket; resolves when it is open. Once the transport has closed (whoever closed
   * it), `start()` opens a new socket, with the new `handlers`.
   * @throws ConnectionClosedError (code -32000) when it cannot be opened (see the class docs).
   * @throws LocalError (code -32603) when called while connecting or open.
   */
  start(handlers: TransportHandlers): Promise<void> {
    if (this.state === 'closed' && this.runs > 0) this.reset();
    if (this.state !== 'new') {
      return Promise.reject(
        this.state === 'closed'
          ? new ConnectionClosedError('WebSocket transport was closed before it started', {
              reason: 'closed by client',
            })
          : new LocalError(ErrorCode.InternalError, 'WebSocketTransport.start() called twice'),
      );
    }
    const Ctor = this.options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (Ctor === undefined) {
      this.state = 'closed';
      return Promise.reject(
        new ConnectionClosedError('no WebSocket implementation: pass options.WebSocket (or use mcp-live/node)', {
          reason: 'no WebSocket',
        }),
      );
    }
    this.handlers = handlers;
    this.state = 'connecting';
    this.runs++;
    return new Promise<void>((resolve, reject) => {
      this.rejectStart = reject;
      let socket: WebSocketLike;
      try {
        const extra = {
          ...this.options.socketOptions,
          ...(this.options.headers !== undefined && { headers: { ...this.options.headers } }),
        };
        socket = new Ctor(this.url, this.protocols, extra);
      } catch (error) {
        this.failStart(error);
        return;
      }
      this.socket = socket;
      this.connectTimer = this.timers.setTimeout(() => {
        this.lastSocketError = new Error(`no WebSocket handshake within ${this.connectTimeoutMs} ms`);
        this.drop(socket);
        this.failStart(this.lastSocketError);
      }, this.connectTimeoutMs);
      socket.onopen = () => {
        if (this.state !== 'connecting') return;
        this.clearTimer('connectTimer');
        if (!this.protocols.includes(socket.protocol)) {
          this.lastSocketError = new Error(
            `server chose subprotocol ${JSON.stringify(socket.protocol)}, expected one of ${this.protocols.join(', ')}`,
          );
          this.drop(socket);
          this.failStart(this.lastSocketError);
          return;
        }
        this.rejectStart = undefined;
        this.state = 'open';
        socket.on?.('pong', () => this.alive());
        this.schedulePing();
        resolve();
      };
      socket.onmessage = (event) => this.onFrame(event.data);
      socket.onerror = (event) => {
        this.lastSocketError =
          event.error instanceof Error
            ? event.error
            : new Error(typeof event.message === 'string' && event.message !== '' ? event.message : 'WebSocket error');
      };
      socket.onclose = (event) => this.onSocketClose(event.code, event.reason);
    });
  }

  /**
   * Sends one message as one text frame.
   * @throws ConnectionClosedError (code -32000) at once when the socket is not open
   *   (`data.outcome: "not-sent"`), or when `ws` reports the write failed (`"unknown"`); a
   *   socket that is closing or failed reports its close (`onClose`) after that.
   */
  send(message: JsonRpcMessage): Promise<void> {
    const socket = this.socket;
    if (this.state !== 'open' || socket === undefined || socket.readyState !== OPEN) {
      return Promise.reject(
        new ConnectionClosedError(
          `cannot send: ${this.state === 'new' || this.state === 'connecting' ? 'transport not started' : 'transport closed'}`,
          { reason: 'transport closed', outcome: 'not-sent' },
        ),
      );
    }
    const data = JSON.stringify(message);
    if (typeof socket.ping !== 'function') {
      try {
        socket.send(data);
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(writeFailed('WebSocket write failed', error));
      }
    }
    return new Promise<void>((resolve, reject) => {
      try {
        socket.send(data, (error) => {
          if (error) reject(writeFailed(error.message, error));
          else resolve();
        });
      } catch (error) {
        reject(writeFailed('WebSocket write failed', error));
      }
    });
  }

  /** Closes with code 1000 (see the class docs). Idempotent; resolves after `onClose`. */
  close(): Promise<void> {
    if (this.closePromise !== undefined) return this.closePromise;
    if (this.state === 'closed') {
      this.closePromise = Promise.resolve();
      return this.closePromise;
    }
    this.closeRequested = true;
    this.closePromise = new Promise<void>((resolve) => {
      this.resolveClose = resolve;
    });
    const socket = this.socket;
    if (this.state === 'new' || socket === undefined) {
      this.state = 'closed';
      this.handlers = undefined;
      this.resolveClose?.();
      return this.closePromise;
    }
    if (this.state === 'connecting') {
      this.drop(socket);
      this.failStart(new Error('closed by client while connecting'));
      return this.closePromise;
    }
    if (this.state === 'open') {
      this.state = 'closing';
      this.stopHeartbeat();
      try {
        socket.close(1000, 'client closing');
      } catch {
        this.drop(socket);
      }
      this.closeTimer = this.timers.setTimeout(() => {
        this.drop(socket);
        this.finish({ code: 1006, reason: `no closing handshake within ${this.closeTimeoutMs} ms`, local: true });
      }, this.closeTimeoutMs);
    }
    return this.closePromise;
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Forgets the socket that closed, so that `start()` opens a new one. */
  private reset(): void {
    this.state = 'new';
    this.socket = undefined;
    this.closeRequested = false;
    this.lastSocketError = undefined;
    this.rejectStart = undefined;
    this.closePromise = undefined;
    this.resolveClose = undefined;
  }

  private onFrame(data: unknown): void {
    if (this.state !== 'open' && this.state !== 'closing') return;
    this.alive();
    if (typeof data !== 'string') {
      const size =
        (data as { byteLength?: unknown; size?: unknown } | null)?.byteLength ??
        (data as { size?: unknown } | null)?.size;
      this.emitError(
        new ProtocolError('binary WebSocket frame ignored (MCP messages are text frames)', { value: { bytes: size } }),
      );
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.emitError(
        new ProtocolError(
          `WebSocket text frame is not JSON (${detail})`,
          { value: shorten(data, 200) },
          ErrorCode.ParseError,
        ),
      );
      return;
    }
    try {
      this.handlers?.onMessage(value);
    } catch (error) {
      this.emitError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private onSocketClose(code: number, reason: string): void {
    if (this.state === 'connecting') {
      this.failStart(this.lastSocketError ?? new Error(`WebSocket closed during the handshake (${code})`));
      return;
    }
    this.finish({ code, reason, local: false });
  }

  private schedulePing(): void {
    if (this.pingIntervalMs === 0 || typeof this.socket?.ping !== 'function') return;
    this.pingTimer = this.timers.setTimeout(() => {
      this.pingTimer = undefined;
      if (this.state !== 'open') return;
      try {
        this.socket?.ping?.();
      } catch {
        // Not open any more: the close event follows.
        return;
      }
      this.pongTimer = this.timers.setTimeout(() => this.onPongTimeout(), this.pongTimeoutMs);
    }, this.pingIntervalMs);
  }

  /** Any sign of life: a pong or a frame. */
  private alive(): void {
    if (this.pongTimer === undefined) return;
    this.clearTimer('pongTimer');
    this.schedulePing();
  }

  private onPongTimeout(): void {
    this.pongTimer = undefined;
    if (this.state !== 'open') return;
    const socket = this.socket;
    if (socket !== undefined) this.drop(socket);
    // 1006 is reported locally and never sent: drop() terminates without a Close frame.
    this.finish({ code: 1006, reason: `no pong within ${this.pongTimeoutMs} ms`, local: true });
  }

  /** Ends the socket without a Close frame where possible (`ws` terminate), else closes it with 1000. */
  private drop(socket: WebSocketLike): void {
    try {
      if (typeof socket.terminate === 'function') socket.terminate();
      else socket.close(1000, 'closing');
    } catch {
      // Already closed.
    }
  }

  private stopHeartbeat(): void {
    this.clearTimer('pingTimer');
    this.clearTimer('pongTimer');
  }

  private clearTimer(name: 'pingTimer' | 'pongTimer' | 'connectTimer' | 'closeTimer'): void {
    const handle = this[name];
    if (handle !== undefined) this.timers.clearTimeout(handle);
    this[name] = undefined;
  }

  private failStart(cause: unknown): void {
    const reject = this.rejectStart;
    this.rejectStart = undefined;
    this.state = 'closed';
    this.stopHeartbeat();
    this.clearTimer('connectTimer');
    this.detach();
    this.handlers = undefined;
    const detail = cause instanceof Error ? cause.message : String(cause);
    reject?.(
      new ConnectionClosedError(
        `cannot open WebSocket to ${this.serverIdentity}: ${detail}`,
        { reason: `WebSocket handshake failed: ${detail}` },
        cause,
      ),
    );
    this.resolveClose?.();
  }

  private finish(close: { code: number; reason: string; local: boolean }): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.stopHeartbeat();
    this.clearTimer('closeTimer');
    this.detach();
    const initiatedByClient = this.closeRequested;
    const kind = webSocketCloseKind(close.code);
    const info: TransportCloseInfo = initiatedByClient
      ? { reason: 'closed by client', initiatedByClient, exitCode: close.code }
      : {
          reason: close.local
            ? `WebSocket connection lost (${close.code} ${kind}: ${close.reason})`
            : `server closed the WebSocket (${close.code} ${kind}${close.reason === '' ? '' : `: ${close.reason}`})`,
          initiatedByClient,
          exitCode: close.code,
          cause: new WebSocketCloseError(close.code, close.reason, close.local),
        };
    const handlers = this.handlers;
    this.handlers = undefined;
    try {
      handlers?.onClose(info);
    } finally {
      this.resolveClose?.();
    }
  }

  /** Stops listening to the socket: events after the close are not ours. */
  private detach(): void {
    const socket = this.socket;
    if (socket === undefined) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    // Keep an error listener: `ws` would otherwise throw an unhandled 'error'.
    socket.onerror = () => {};
  }

  private emitError(error: Error): void {
    try {
      this.handlers?.onError(error);
    } catch {
      // A throwing onError has nowhere left to report to.
    }
  }
}

function duration(name: string, value: number | undefined, fallback: number, zeroAllowed: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!zeroAllowed && value === 0)) {
    throw new InvalidArgumentError(
      name,
      value,
      zeroAllowed ? 'expected a finite number of ms >= 0' : 'expected a positive finite number of ms',
    );
  }
  return value;
}

/** A send the socket took and failed: the frame may have left in part, so its outcome is unknown. */
function writeFailed(detail: string, cause: unknown): ConnectionClosedError {
  return new ConnectionClosedError(`cannot send: ${detail}`, { reason: 'write failed', outcome: 'unknown' }, cause);
}
