/**
 * Answering input requests with the host's handlers (spec: basic/patterns/mrtr): every entry
 * checked, then all handlers run at once. Loaded on the first `input_required` result (and, on
 * the 2025-11-25 wire, with the era's server requests); the handler types are in `handlers.ts`.
 */
import { ProtocolError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitResult,
  InputRequest,
  InputResponse,
  ListRootsResult,
} from '../wire/protocol.js';
import type { MaybePromise } from '../util/maybePromise.js';
import { abortError, InputRequestFailedError, type InputRequestFailureReason } from './errors.js';
import {
  setOwn,
  type FormElicitParams,
  type InputHandlerContext,
  type InputHandlers,
  type UrlElicitParams,
} from './handlers.js';
import { headOf } from '../util/text.js';

/** Options of {@link fulfilInputRequests}. */
export interface FulfilOptions {
  /** The request being retried, e.g. `"tools/call"`; used in errors and handler context. */
  requestMethod: string;
  /** Cancels the round: every running handler's signal aborts. */
  signal?: AbortSignal | undefined;
}

/**
 * Answers every entry of an `inputRequests` map with the registered handlers, all at once,
 * and resolves with an `inputResponses` map under the same keys (spec: basic/patterns/mrtr,
 * InputResponses). Every entry is checked before any handler runs, so the user is never
 * prompted for a round that cannot complete.
 *
 * Outcomes, per entry:
 * - Malformed (not an object, unknown `method`, `params` not an object, fields the schema
 *   requires missing): `ProtocolError` (-32600), nothing called.
 * - Well formed but not handled (no handler; an elicitation mode without a handler, e.g. a form
 *   request when only URL mode is registered; sampling `tools`/`toolChoice` without
 *   `sampling.tools`): `InputRequestFailedError` (-33007, `reason: "unsupported"`), nothing called.
 * - The handler throws: `InputRequestFailedError` (`reason: "handler_error"`, `cause` = the error).
 * - The handler returns something that is not a valid result (`undefined`, an unknown `action`,
 *   form content that misses a required field or has the wrong type, a root that is not a
 *   `file://` URI): `InputRequestFailedError` (`reason: "invalid_result"`).
 *
 * The first failure aborts the other handlers' signals and rejects at once (no waiting for them).
 * Elicitation results are normalized: `content` is sent only for a form-mode `accept`, completed
 * with the requested schema's `default` values for the fields the handler left out (SEP-1034).
 *
 * @throws CancelledError (-32800) when `signal` aborts (or the abort reason itself when it is an
 *   mcp-live error, e.g. a `TimeoutError`).
 */
export async function fulfilInputRequests(
  handlers: InputHandlers | undefined,
  inputRequests: Record<string, InputRequest>,
  options: FulfilOptions,
): Promise<Record<string, InputResponse>> {
  const { requestMethod, signal } = options;
  if (signal?.aborted) throw abortError(requestMethod, signal);
  const keys = Object.keys(inputRequests);
  const plans = keys.map((key) => planInputRequest(handlers, requestMethod, key, inputRequests[key]));

  const round = new AbortController();
  const onAbort = () => round.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const answers = await new Promise<InputResponse[]>((resolve, reject) => {
      // The caller's abort wins over whatever the handlers do afterwards; a failed handler
      // aborts its siblings (reason: that failure) and rejects at once.
      round.signal.addEventListener(
        'abort',
        () => reject(signal?.aborted ? abortError(requestMethod, signal) : round.signal.reason),
        { once: true },
      );
      Promise.all(
        plans.map((plan, index) => plan({ signal: round.signal, key: keys[index] as string, requestMethod })),
      ).then(resolve, (error: unknown) => {
        reject(error);
        round.abort(error);
      });
    });
    const responses: Record<string, InputResponse> = {};
    keys.forEach((key, index) => setOwn(responses, key, answers[index] as InputResponse));
    return responses;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Options of {@link answerInputRequest}. */
export interface AnswerOptions {
  /** Passed to the handler; aborting it asks the handler to stop. */
  signal: AbortSignal;
  /** The handler's `context.key`: on the legacy wire, the JSON-RPC id of the server's request. */
  key: string;
  /** The handler's `context.requestMethod`: on the legacy wire, the server's method itself. */
  requestMethod: string;
}

/**
 * Answers one input request outside an `input_required` round: a server-to-client request of
 * the legacy wire (`elicitation/create`, `sampling/createMessage`, `roots/list`; spec
 * 2025-11-25 client/*). The same checks and normalization as {@link fulfilInputRequests}
 * apply, and the same errors are thrown: `ProtocolError` (-32600) for malformed params (the
 * handler is not called), `InputRequestFailedError` (-33007) with `reason` `unsupported` (not
 * called), `handler_error` or `invalid_result`.
 */
export async function answerInputRequest(
  handlers: InputHandlers | undefined,
  method: string,
  params: JsonObject | undefined,
  options: AnswerOptions,
): Promise<InputResponse> {
  const plan = planInputRequest(
    handlers,
    options.requestMethod,
    options.key,
    params === undefined ? { method } : { method, params },
  );
  return plan({ signal: options.signal, key: options.key, requestMethod: options.requestMethod });
}

/** A checked input request, ready to run. */
type Plan = (context: InputHandlerContext) => Promise<InputResponse>;

const INPUT_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'];

/** Validates one entry and binds it to its handler; throws instead of returning a plan it cannot run. */
function planInputRequest(
  handlers: InputHandlers | undefined,
  requestMethod: string,
  key: string,
  entry: unknown,
): Plan {
  const malformed = (reason: string): ProtocolError =>
    new ProtocolError(`inputRequests[${JSON.stringify(key)}]: ${reason}`, { method: requestMethod, value: entry });
  if (!isObject(entry)) throw malformed('expected an input request object');
  const method = entry['method'];
  if (typeof method !== 'string' || !INPUT_METHODS.includes(method)) {
    throw malformed(
      `unknown input request method ${JSON.stringify(method)}; expected one of ${INPUT_METHODS.join(', ')}`,
    );
  }
  const params = entry['params'];
  if (params !== undefined && !isObject(params)) throw malformed('params must be an object');
  const fail = (reason: InputRequestFailureReason, detail: string, cause?: unknown) =>
    new InputRequestFailedError({ requestMethod, key, method, reason }, detail, cause);
  const call =
    <P, R>(
      handler: (params: P, context: InputHandlerContext) => MaybePromise<R>,
      handlerParams: P,
      check: (value: unknown) => InputResponse,
    ): Plan =>
    async (context) => {
      let value: unknown;
      try {
        value = await handler(handlerParams, context);
      } catch (error) {
        throw fail(
          'handler_error',
          `the handler failed: ${error instanceof Error ? error.message : String(error)}`,
          error,
        );
      }
      return check(value);
    };

  switch (method) {
    case 'elicitation/create': {
      if (params === undefined) throw malformed('elicitation/create needs params');
      const mode = params['mode'] === undefined ? 'form' : params['mode'];
      if (typeof params['message'] !== 'string') throw malformed('params.message must be a string');
      if (mode === 'form') {
        const schema = params['requestedSchema'];
        if (!isObject(schema) || schema['type'] !== 'object' || !isObject(schema['properties'])) {
          throw malformed('params.requestedSchema must be an object schema with properties');
        }
        const handler = handlers?.elicitation?.form;
        if (handler === undefined)
          throw fail('unsupported', 'form-mode elicitation is not handled (elicitation.form not declared)');
        return call(handler, params as FormElicitParams, (value) => checkElicitResult(value, schema, fail));
      }
      if (mode === 'url') {
        if (typeof params['url'] !== 'string') throw malformed('params.url must be a string');
        const handler = handlers?.elicitation?.url;
        if (handler === undefined)
          throw fail('unsupported', 'URL-mode elicitation is not handled (elicitation.url not declared)');
        return call(handler, params as UrlElicitParams, (value) => checkElicitResult(value, undefined, fail));
      }
      throw fail('unsupported', `elicitation mode ${JSON.stringify(mode)} is not supported`);
    }
    case 'sampling/createMessage': {
      if (params === undefined) throw malformed('sampling/createMessage needs params');
      if (!Array.isArray(params['messages'])) throw malformed('params.messages must be an array');
      if (typeof params['maxTokens'] !== 'number') throw malformed('params.maxTokens must be a number');
      const sampling = handlers?.sampling;
      if (sampling === undefined) throw fail('unsupported', 'sampling is not handled (sampling not declared)');
      if ((params['tools'] !== undefined || params['toolChoice'] !== undefined) && sampling.tools !== true) {
        throw fail('unsupported', 'tools/toolChoice sent but sampling.tools is not declared');
      }
      return call(sampling.createMessage, params as unknown as CreateMessageRequestParams, (value) =>
        checkCreateMessageResult(value, fail),
      );
    }
    default: {
      const roots = handlers?.roots;
      if (roots === undefined) throw fail('unsupported', 'roots are not handled (roots not declared)');
      return call(roots.list, params ?? {}, (value) => checkListRootsResult(value, fail));
    }
  }
}

type Fail = (reason: InputRequestFailureReason, detail: string) => InputRequestFailedError;

const ACTIONS = ['accept', 'decline', 'cancel'];

/**
 * ElicitResult check; `schema` is the form's requestedSchema (undefined in URL mode). An
 * accepted form is completed with the schema's `default` values for the fields the handler
 * left out (SEP-1034; spec 2025-11-25 and 2026-07-28 client/elicitation, "Requested Schema":
 * primitives may carry a `default`), before it is checked: the user saw those values
 * pre-filled and left them. A default whose type does not match its field is not used.
 */
function checkElicitResult(value: unknown, schema: JsonObject | undefined, fail: Fail): ElicitResult {
  if (!isObject(value)) return invalid(fail, value, 'expected an ElicitResult object');
  const action = value['action'];
  if (typeof action !== 'string' || !ACTIONS.includes(action))
    return invalid(fail, value, `action must be one of ${ACTIONS.join(', ')}`);
  const result: JsonObject = { action };
  if (schema !== undefined && action === 'accept') {
    const given = value['content'] ?? {};
    if (!isObject(given)) return invalid(fail, value, 'content must be an object');
    const content = withDefaults(schema, given);
    const problem = formContentProblem(schema, content);
    if (problem !== undefined) return invalid(fail, value, problem);
    result['content'] = content;
  }
  if (isObject(value['_meta'])) result['_meta'] = value['_meta'];
  return result as unknown as ElicitResult;
}

/** `content` plus the schema's valid `default` for each property it lacks; `content` itself when nothing is added. */
function withDefaults(schema: JsonObject, content: JsonObject): JsonObject {
  const properties = schema['properties'] as JsonObject;
  let completed: JsonObject | undefined;
  for (const name of Object.keys(properties)) {
    const property = properties[name];
    if (!isObject(property) || !Object.hasOwn(property, 'default') || Object.hasOwn(content, name)) continue;
    const fallback = property['default'];
    if (fieldProblem(name, property, fallback) !== undefined) continue;
    completed ??= { ...content };
    setOwn(completed, name, fallback);
  }
  return completed ?? content;
}

/** Checks form content against the requested (flat, primitive) schema: required keys and value types. */
function formContentProblem(schema: JsonObject, content: JsonObject): string | undefined {
  const properties = schema['properties'] as JsonObject;
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  for (const name of required) {
    if (typeof name === 'string' && !Object.hasOwn(content, name))
      return `content is missing required field ${JSON.stringify(name)}`;
  }
  for (const [name, fieldValue] of Object.entries(content)) {
    const problem = fieldProblem(name, Object.hasOwn(properties, name) ? properties[name] : undefined, fieldValue);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Why one form value does not fit its property schema, or `undefined` when it does. */
function fieldProblem(name: string, property: unknown, fieldValue: unknown): string | undefined {
  const isStringArray = Array.isArray(fieldValue) && fieldValue.every((item) => typeof item === 'string');
  if (!['string', 'number', 'boolean'].includes(typeof fieldValue) && !isStringArray) {
    return `content.${name} must be a string, number, boolean or string array`;
  }
  const type = isObject(property) ? property['type'] : undefined;
  const ok =
    type === undefined ||
    (type === 'string' && typeof fieldValue === 'string') ||
    (type === 'number' && typeof fieldValue === 'number') ||
    (type === 'integer' && Number.isInteger(fieldValue)) ||
    (type === 'boolean' && typeof fieldValue === 'boolean') ||
    (type === 'array' && isStringArray);
  return ok ? undefined : `content.${name} does not match its schema type ${JSON.stringify(type)}`;
}

function checkCreateMessageResult(value: unknown, fail: Fail): CreateMessageResult {
  if (!isObject(value)) return invalid(fail, value, 'expected a CreateMessageResult object');
  if (value['role'] !== 'user' && value['role'] !== 'assistant')
    return invalid(fail, value, 'role must be "user" or "assistant"');
  if (typeof value['model'] !== 'string') return invalid(fail, value, 'model must be a string');
  if (!isObject(value['content']) && !Array.isArray(value['content']))
    return invalid(fail, value, 'content must be a content block or an array of them');
  return value as unknown as CreateMessageResult;
}

function checkListRootsResult(value: unknown, fail: Fail): ListRootsResult {
  if (!isObject(value) || !Array.isArray(value['roots'])) return invalid(fail, value, 'expected { roots: Root[] }');
  for (const root of value['roots']) {
    if (!isObject(root) || typeof root['uri'] !== 'string' || !root['uri'].startsWith('file://')) {
      return invalid(fail, value, 'every root needs a file:// uri');
    }
    if (root['name'] !== undefined && typeof root['name'] !== 'string')
      return invalid(fail, value, 'root.name must be a string');
  }
  return value as unknown as ListRootsResult;
}

function invalid(fail: Fail, value: unknown, detail: string): never {
  const shown = value === undefined ? 'undefined' : safeJson(value);
  throw fail('invalid_result', `the handler returned an invalid result (${detail}): ${shown}`);
}

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 200 ? `${headOf(text, 200)}…` : text;
  } catch {
    return String(value);
  }
}
