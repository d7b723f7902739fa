/**
 * JSON-RPC 2.0 message shapes (https://www.jsonrpc.org/specification) as MCP uses them,
 * plus cheap structural guards. The guards check only what routing needs; result bodies
 * are validated by the caller that reads them.
 */
import type { JsonRpcErrorObject } from '../errors/codes.js';

/** The `error` member of a JSON-RPC error response; defined beside the codes, below this floor. */
export type { JsonRpcErrorObject };

/** A JSON-RPC request id. MCP forbids `null` ids on requests. */
export type RequestId = string | number;

/** Any JSON object. */
export type JsonObject = { [key: string]: unknown };

/** A JSON-RPC 2.0 request: expects a response with the same `id` (JSON-RPC 2.0 §4). */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject | undefined;
}

/** A JSON-RPC 2.0 notification: no `id`, never answered (JSON-RPC 2.0 §4.1). */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject | undefined;
}

/** A successful JSON-RPC 2.0 response (JSON-RPC 2.0 §5). */
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

/** A failed JSON-RPC 2.0 response (JSON-RPC 2.0 §5.1). */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** `null` when the peer could not tell which request failed (for example a parse error). */
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

/** A JSON-RPC 2.0 response: a result or an error, never both. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
/** Any JSON-RPC 2.0 message a transport carries. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a value that may be used as a request id (string or finite number). */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** True when `value` has the shape of a JSON-RPC request (method + id). */
export function isJsonRpcRequest(value: unknown): value is JsonRpcRequest {
  return isObject(value) && typeof value['method'] === 'string' && isRequestId(value['id']);
}

/** True when `value` has the shape of a JSON-RPC notification (method, no id). */
export function isJsonRpcNotification(value: unknown): value is JsonRpcNotification {
  return isObject(value) && typeof value['method'] === 'string' && !('id' in value);
}

/** True when `value` carries a `result` or an `error` member (a response of either kind). */
export function isJsonRpcResponse(value: unknown): value is JsonRpcResponse {
  return isObject(value) && !('method' in value) && ('result' in value || 'error' in value);
}

export { isObject };
