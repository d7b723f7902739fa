/**
 * Answers to the requests a legacy server sends the client (spec 2025-11-25: basic/utilities/ping,
 * client/roots, client/sampling, client/elicitation), through the same host handlers and the
 * same checks as the `input_required` loop of 2026-07-28 (`inputRequired/inputHandlers.ts`).
 *
 * | request | answer |
 * |---|---|
 * | `ping` | `{}` |
 * | `elicitation/create`, `sampling/createMessage`, `roots/list` with a handler | the handler's checked result (an accepted form completed with the schema's defaults) |
 * | one of those whose capability was not declared (no handler at all) | -32601 Method not found |
 * | malformed params; a mode or feature the handlers do not cover (a form request with only a URL handler; sampling `tools` without `sampling.tools`) | -32602 Invalid params, the handler not called |
 * | the handler throws, rejects, or returns no valid result (`undefined` included) | -32603 Internal error |
 * | any other method | -32601 (from the session) |
 *
 * Every request gets exactly one response (the session guarantees it); one the server
 * cancels gets none.
 */
import { ErrorCode } from '../errors/codes.js';
import { LocalError, McpError, ProtocolError } from '../errors/errors.js';
import type { JsonObject, RequestId } from '../wire/messages.js';
import type { InboundRequestHandler } from '../jsonrpc/inbound.js';
import { InputRequestFailedError } from '../inputRequired/errors.js';
import { answerInputRequest } from '../inputRequired/inputHandlers.js';
import type { InputHandlers } from '../inputRequired/handlers.js';

/** The server-to-client methods a legacy server may send, and whether `handlers` declares each. */
const DECLARED: Readonly<Record<string, (handlers: InputHandlers | undefined) => boolean>> = {
  'elicitation/create': (handlers) =>
    handlers?.elicitation?.form !== undefined || handlers?.elicitation?.url !== undefined,
  'sampling/createMessage': (handlers) => handlers?.sampling !== undefined,
  'roots/list': (handlers) => handlers?.roots !== undefined,
};

/** The handlers the session answers a legacy server's requests with (see the module comment). */
export function legacyInboundHandlers(handlers: InputHandlers | undefined): Map<string, InboundRequestHandler> {
  const map = new Map<string, InboundRequestHandler>();
  map.set('ping', () => ({}));
  for (const [method, declared] of Object.entries(DECLARED)) {
    if (!declared(handlers)) continue;
    map.set(method, (params, signal, id) => answer(handlers, method, params, signal, id));
  }
  return map;
}

async function answer(
  handlers: InputHandlers | undefined,
  method: string,
  params: JsonObject | undefined,
  signal: AbortSignal,
  id: RequestId | undefined,
): Promise<JsonObject> {
  try {
    const key = id === undefined ? method : String(id);
    return (await answerInputRequest(handlers, method, params, {
      signal,
      key,
      requestMethod: method,
    })) as unknown as JsonObject;
  } catch (error) {
    throw wireError(error);
  }
}

/** The JSON-RPC error a failed answer becomes: -32602 for what the client cannot take, -32603 for handler failures. */
function wireError(error: unknown): McpError {
  if (error instanceof ProtocolError)
    return new LocalError(ErrorCode.InvalidParams, `Invalid params: ${(error.data as { reason: string }).reason}`);
  if (error instanceof InputRequestFailedError) {
    const detail = error.message.replace(/^.*?\(\S+\): /, '');
    if (error.data.reason === 'unsupported')
      return new LocalError(ErrorCode.InvalidParams, `Invalid params: ${detail}`);
    return new LocalError(ErrorCode.InternalError, `Internal error: ${detail}`, { cause: error.cause });
  }
  return new LocalError(
    ErrorCode.InternalError,
    `Internal error: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
