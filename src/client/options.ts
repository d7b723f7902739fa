import type { Transport } from '../transport/transport.js';
import type { ClientCapabilities, Implementation, LoggingMessage } from '../types/protocol.js';
import { MODERN_PROTOCOL_VERSIONS } from '../types/protocol.js';
import { systemClock, systemTimers, type Clock, type Timers } from '../util/clock.js';
import type { JsonRpcNotification } from '../jsonrpc/messages.js';
import { InvalidArgumentError } from '../errors/errors.js';

/** Options for `new McpClient(options)`. */
export interface ClientOptions {
  /** The connection to the server. One client owns one transport. */
  transport: Transport;
  /** This client's name and version, sent as `_meta["io.modelcontextprotocol/clientInfo"]`. */
  clientInfo: Implementation;
  /**
   * Capabilities declared on every request (`_meta["io.modelcontextprotocol/clientCapabilities"]`).
   * Declare only what the host really handles. @default {}
   */
  capabilities?: ClientCapabilities | undefined;
  /** Send `clientInfo` on every request, as the spec recommends. @default true */
  sendClientInfo?: boolean | undefined;
  /** Protocol versions this client accepts, most preferred first. @default ["2026-07-28"] */
  protocolVersions?: readonly string[] | undefined;
  /** Default idle timeout per request in ms. @default 60000 */
  timeoutMs?: number | undefined;
  /** Default hard limit per request in ms, whatever progress arrives. @default 600000 */
  maxTotalTimeoutMs?: number | undefined;
  /** Whether progress notifications restart the idle timeout by default. @default true */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Receives every `notifications/message` not claimed by a call's own `onLog`. */
  onLog?: ((message: LoggingMessage) => void) | undefined;
  /** Receives notifications the client does not handle itself (vendor notifications included). */
  onNotification?: ((notification: JsonRpcNotification) => void) | undefined;
  /**
   * Receives non-fatal problems: lines that are not JSON, responses for unknown ids, messages
   * that break the schema. They never reject a call of their own. @default ignore
   */
  onError?: ((error: Error) => void) | undefined;
  /** Monotonic clock for timeouts and cache freshness. @default performance.now */
  clock?: Clock | undefined;
  /** Timer functions. @default the globals, looked up per call (fake-timer friendly) */
  timers?: Timers | undefined;
}

/** {@link ClientOptions} with every default filled in. */
export interface ResolvedClientOptions {
  transport: Transport;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  sendClientInfo: boolean;
  protocolVersions: readonly string[];
  timeoutMs: number;
  maxTotalTimeoutMs: number;
  resetTimeoutOnProgress: boolean;
  onLog: ((message: LoggingMessage) => void) | undefined;
  onNotification: ((notification: JsonRpcNotification) => void) | undefined;
  onError: (error: Error) => void;
  clock: Clock;
  timers: Timers;
}

/** Fills defaults and checks values. Throws `InvalidArgumentError` (code -32602) on a bad option. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('options', options, 'expected an object');
  const { transport, clientInfo } = options;
  if (typeof transport !== 'object' || transport === null || typeof transport.send !== 'function') {
    throw new InvalidArgumentError('transport', transport, 'expected a Transport');
  }
  if (typeof clientInfo?.name !== 'string' || typeof clientInfo.version !== 'string') {
    throw new InvalidArgumentError('clientInfo', clientInfo, 'expected { name: string, version: string }');
  }
  const protocolVersions = options.protocolVersions ?? MODERN_PROTOCOL_VERSIONS;
  if (protocolVersions.length === 0) throw new InvalidArgumentError('protocolVersions', protocolVersions, 'must name at least one version');
  const timeoutMs = positive('timeoutMs', options.timeoutMs, 60_000);
  return {
    transport,
    clientInfo,
    capabilities: options.capabilities ?? {},
    sendClientInfo: options.sendClientInfo ?? true,
    protocolVersions,
    timeoutMs,
    maxTotalTimeoutMs: positive('maxTotalTimeoutMs', options.maxTotalTimeoutMs, 600_000),
    resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? true,
    onLog: options.onLog,
    onNotification: options.onNotification,
    onError: options.onError ?? (() => {}),
    clock: options.clock ?? systemClock,
    timers: options.timers ?? systemTimers,
  };
}

/** Checks a duration option in ms. Throws `InvalidArgumentError` unless it is a positive number. */
export function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) throw new InvalidArgumentError(name, value, 'expected a positive number of milliseconds');
  return value;
}
