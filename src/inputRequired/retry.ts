import { InvalidArgumentError, ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import type { InputRequest, InputResponse } from '../wire/protocol.js';
import { InputRequestFailedError } from './errors.js';
import { setOwn } from './handlers.js';
import type { InputRetry } from '../wire/callOptions.js';

/** An `input_required` result, checked. */
export interface InputRequiredParts {
  /** The requests to answer; absent when the server sent none (or an empty map). */
  inputRequests?: Record<string, InputRequest>;
  /** Opaque server state to echo back unchanged; absent when the server sent none. */
  requestState?: string;
}

/**
 * Reads an `input_required` result (spec: basic/patterns/mrtr, InputRequiredResult): checks
 * that `inputRequests` is an object map and `requestState` a string, and that at least one of
 * them is there (Server Requirements 6). The entries themselves are checked when they are
 * answered. `requestState` is returned as the very string received, never re-encoded.
 *
 * @param method the request the result answers, e.g. `"tools/call"` (for errors).
 * @throws ProtocolError (-32600) when the result breaks those rules.
 */
export function readInputRequired(method: string, result: JsonObject): InputRequiredParts {
  const parts: InputRequiredParts = {};
  const requests = result['inputRequests'];
  if (requests !== undefined) {
    if (!isObject(requests))
      throw new ProtocolError('result.inputRequests must be an object', { method, value: result });
    if (Object.keys(requests).length > 0) parts.inputRequests = requests as Record<string, InputRequest>;
  }
  const state = result['requestState'];
  if (state !== undefined) {
    if (typeof state !== 'string')
      throw new ProtocolError('result.requestState must be a string', { method, value: result });
    parts.requestState = state;
  }
  if (parts.inputRequests === undefined && parts.requestState === undefined) {
    throw new ProtocolError('an input_required result needs inputRequests or requestState', { method, value: result });
  }
  return parts;
}

/**
 * Builds the retry fields for an `input_required` result: `requestState` copied from *this*
 * result only (absent here means absent in the retry), and `inputResponses` holding exactly the
 * keys of its `inputRequests`, in the server's order (extra keys in `inputResponses` are left
 * out). For manual mode: answer the requests yourself, then pass the returned value to the
 * call's `inputRetry` option.
 *
 * ```ts
 * const retry = inputRetryFor('tools/call', result, { login: { action: 'accept', content: { name: 'me' } } });
 * ```
 *
 * @param method the request being retried (for errors).
 * @param result the `input_required` result received.
 * @param inputResponses one response per key of `result.inputRequests`.
 * @throws ProtocolError (-32600) when `result` is not a valid `input_required` result;
 *   InvalidArgumentError (-32602) when `inputResponses` is not an object;
 *   InputRequestFailedError (-33007, `reason: "invalid_result"`) when a requested key has no response.
 */
export function inputRetryFor(
  method: string,
  result: JsonObject,
  inputResponses?: Record<string, InputResponse>,
): InputRetry {
  if (inputResponses !== undefined && !isObject(inputResponses))
    throw new InvalidArgumentError('inputResponses', inputResponses, 'expected an object keyed like inputRequests');
  const parts = readInputRequired(method, result);
  const retry: InputRetry = {};
  if (parts.inputRequests !== undefined) {
    const responses: Record<string, InputResponse> = {};
    for (const [key, request] of Object.entries(parts.inputRequests)) {
      if (inputResponses === undefined || !Object.hasOwn(inputResponses, key) || inputResponses[key] === undefined) {
        const inputMethod = isObject(request) && typeof request['method'] === 'string' ? request['method'] : 'unknown';
        throw new InputRequestFailedError(
          { requestMethod: method, key, method: inputMethod, reason: 'invalid_result' },
          'no response was given for this key',
        );
      }
      setOwn(responses, key, inputResponses[key]);
    }
    retry.inputResponses = responses;
  }
  if (parts.requestState !== undefined) retry.requestState = parts.requestState;
  return retry;
}

/**
 * The params of a retry: a shallow copy of the original `params` with any `inputResponses` /
 * `requestState` removed and those of `retry` set. Never mutates `params`, so the original
 * request (and any request sent in parallel) never carries another round's fields
 * (spec: basic/patterns/mrtr, Client Requirements 2 and 4). `_meta` is kept as is; the caller
 * sends the result under a new JSON-RPC id (Client Requirement 3).
 */
export function withInputRetry(params: JsonObject, retry: InputRetry): JsonObject {
  const next: JsonObject = { ...params };
  delete next['inputResponses'];
  delete next['requestState'];
  if (retry.inputResponses !== undefined) next['inputResponses'] = retry.inputResponses;
  if (retry.requestState !== undefined) next['requestState'] = retry.requestState;
  return next;
}
