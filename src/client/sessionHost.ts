import type { JsonRpcSession } from '../jsonrpc/session.js';
import type { JsonObject } from '../wire/messages.js';
import { MetaKey, type ClientCapabilities, type ServerCapabilities } from '../wire/protocol.js';
import { withTasksExtension } from '../wire/taskCapability.js';
import type { ResolvedClientOptions } from './options.js';
import type { SubscriptionWireDeps } from '../subscriptions/subscription.js';

/** What {@link sessionListenHost} reads from the client. */
export interface ListenHostSource {
  session: JsonRpcSession;
  /** The protocol `_meta` of a request (version, client capabilities, client info), a fresh object each call. */
  requestMeta(): JsonObject;
  capabilities(): ServerCapabilities | undefined;
  connected(): boolean;
  /** Whether the client is reconnecting (a listen then waits for {@link whenOpen}). */
  reconnecting(): boolean;
  /** Resolves once the connection is open again; rejects when `signal` aborts, `timeoutMs` passes, or the client gives up or closes. */
  whenOpen(signal: AbortSignal | undefined, timeoutMs?: number): Promise<void>;
}

/**
 * The {@link SubscriptionWireDeps} of a client: `subscriptions/listen` goes straight to the session
 * (it never returns `input_required`, and needs its id), carrying the same protocol `_meta` as
 * every other request; one that asks for `taskIds` also declares the Tasks extension (spec:
 * ext-tasks, Task Status Notifications). Its timeout (`timeoutMs`, idle and total alike,
 * progress ignored) covers the wait for the acknowledgment only: the subscription disarms it on
 * the ack.
 */
export function sessionListenHost(source: ListenHostSource): SubscriptionWireDeps {
  const { session } = source;
  return {
    listen: (filter, { signal, timeoutMs, onRequestId }) => {
      const meta = source.requestMeta();
      if ((filter.taskIds?.length ?? 0) > 0) {
        const declared = (meta[MetaKey.clientCapabilities] ?? {}) as ClientCapabilities;
        meta[MetaKey.clientCapabilities] = withTasksExtension(declared);
      }
      return session.request(
        'subscriptions/listen',
        { notifications: { ...filter }, _meta: meta },
        { signal, timeoutMs, maxTotalTimeoutMs: timeoutMs, resetTimeoutOnProgress: false, onRequestId },
      );
    },
    disarmTimeouts: (id) => void session.disarmTimeouts(id),
    abandon: (id, error) => void session.abandon(id, error),
    capabilities: () => source.capabilities(),
    connected: () => source.connected(),
    reconnecting: () => source.reconnecting(),
    whenOpen: (signal, timeoutMs) => source.whenOpen(signal, timeoutMs),
  };
}

/**
 * The protocol `_meta` of a request, as the client's caller builds it for every other request:
 * `io.modelcontextprotocol/protocolVersion`, `…/clientCapabilities`, and `…/clientInfo` unless
 * `sendClientInfo` is off. A fresh object each call.
 */
export function protocolMeta(
  version: string,
  options: Pick<ResolvedClientOptions, 'capabilities' | 'clientInfo' | 'sendClientInfo'>,
): JsonObject {
  const meta: JsonObject = {
    [MetaKey.protocolVersion]: version,
    [MetaKey.clientCapabilities]: options.capabilities,
  };
  if (options.sendClientInfo) meta[MetaKey.clientInfo] = options.clientInfo;
  return meta;
}
