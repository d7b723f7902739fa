// Public API of the runtime-neutral root entry. Adding an export here adds public API:
// keep it explicit, and keep Node-only code out (it belongs in ./node.ts).
export { McpClient, type ClientState, type PageParams } from './client/client.js';
export type { ClientOptions } from './client/options.js';
export type { CallOptions } from './client/callOptions.js';
export { InMemoryTransport } from './transport/inMemory.js';
export type {
  Transport,
  TransportCapabilities,
  TransportCloseInfo,
  TransportHandlers,
  TransportSendOptions,
  MessageContext,
} from './transport/transport.js';
export {
  McpError,
  RpcError,
  ResourceNotFoundError,
  UnsupportedProtocolVersionError,
  LocalError,
  TimeoutError,
  CancelledError,
  ConnectionClosedError,
  ProtocolError,
  VersionNegotiationError,
  InvalidArgumentError,
  InputRequiredError,
  isRpcError,
  isCancelledError,
  isTimeoutError,
} from './errors/errors.js';
export { ErrorCode, type ErrorCodeName } from './errors/codes.js';
export { viewContents, decodeBase64, type ContentsView } from './client/resourceContents.js';
export type { Progress } from './jsonrpc/session.js';
export type { Clock, Timers, TimerHandle } from './util/clock.js';
export type {
  RequestId,
  JsonObject,
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcResponse,
  JsonRpcErrorObject,
} from './jsonrpc/messages.js';
export * from './types/protocol.js';
