/**
 * The host's input handlers (spec: basic/patterns/mrtr): their types, the checks of a handler
 * registry, and the client capabilities it implies. Every request declares those capabilities,
 * so this is loaded with the client; answering input requests (`inputHandlers.ts`) loads on the
 * first `input_required` result.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
} from '../wire/protocol.js';
import type { MaybePromise } from '../util/maybePromise.js';

/** Form-mode `elicitation/create` params (`mode` is `"form"` or absent). */
export type FormElicitParams = Extract<ElicitRequestParams, { requestedSchema: unknown }>;
/** URL-mode `elicitation/create` params (`mode: "url"`). */
export type UrlElicitParams = Extract<ElicitRequestParams, { mode: 'url' }>;

/** What every input handler receives besides the request params. */
export interface InputHandlerContext {
  /**
   * Aborts when the call is cancelled, its total budget runs out, or another input request of
   * the same round failed. A handler should stop prompting and settle soon after; whatever it
   * returns then is ignored.
   */
  signal: AbortSignal;
  /** The server-assigned key of this entry in `inputRequests`. */
  key: string;
  /** The request the server is answering, e.g. `"tools/call"`. */
  requestMethod: string;
}

/**
 * Answers a form-mode `elicitation/create` (spec: client/elicitation, Form Mode). Return
 * `{ action: "accept", content }` with values matching `params.requestedSchema`, or
 * `{ action: "decline" }` (the user said no) or `{ action: "cancel" }` (the user dismissed it).
 */
export type FormElicitationHandler = (
  params: FormElicitParams,
  context: InputHandlerContext,
) => MaybePromise<ElicitResult>;

/**
 * Answers a URL-mode `elicitation/create` (spec: client/elicitation, URL Mode). Show the full
 * URL, ask consent, open it outside the client, then return `{ action: "accept" }` (consent
 * given, not "done"), `"decline"` or `"cancel"`. `content` is never sent in URL mode.
 */
export type UrlElicitationHandler = (
  params: UrlElicitParams,
  context: InputHandlerContext,
) => MaybePromise<ElicitResult>;

/** Answers `sampling/createMessage` with a CreateMessageResult (spec: client/sampling). */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  context: InputHandlerContext,
) => MaybePromise<CreateMessageResult>;

/** Answers `roots/list` with a ListRootsResult of `file://` roots (spec: client/roots). */
export type RootsHandler = (params: JsonObject, context: InputHandlerContext) => MaybePromise<ListRootsResult>;

/**
 * The host's answers to server input requests (spec: basic/patterns/mrtr). The capabilities a
 * client declares are derived from exactly what is registered here,
 * so a server is never told the client can do something it cannot.
 *
 * ```ts
 * const handlers: InputHandlers = {
 *   elicitation: { form: async (params) => ({ action: 'accept', content: await askUser(params) }) },
 *   roots: { list: () => ({ roots: [{ uri: 'file:///home/me/project' }] }) },
 * };
 * ```
 */
export interface InputHandlers {
  /** `elicitation/create`, per mode. Each registered mode is declared; none declared means no `elicitation` key. */
  elicitation?:
    | {
        /** Form mode (also requests without `mode`). Declares `elicitation.form`. */
        form?: FormElicitationHandler | undefined;
        /** URL mode. Declares `elicitation.url`. */
        url?: UrlElicitationHandler | undefined;
      }
    | undefined;
  /** `sampling/createMessage` (deprecated feature in 2026-07-28, still supported). Declares `sampling`. */
  sampling?:
    | {
        createMessage: SamplingHandler;
        /** The handler accepts `tools` / `toolChoice`: declares `sampling.tools`. @default false */
        tools?: boolean | undefined;
        /** The handler honours `includeContext` other than `"none"`: declares `sampling.context`. @default false */
        context?: boolean | undefined;
      }
    | undefined;
  /** `roots/list` (deprecated feature in 2026-07-28, still supported). Declares `roots`. */
  roots?: { list: RootsHandler } | undefined;
}

/**
 * The client capabilities that match `handlers` exactly (spec: basic/index per-request
 * `clientCapabilities`; client/elicitation, client/sampling, client/roots, Capabilities):
 * - `elicitation`: `{ form: {} }`, `{ url: {} }` or both, one key per registered mode; the key
 *   is absent when no mode is handled (an empty `elicitation: {}` would mean form mode).
 * - `sampling`: `{}` plus `tools: {}` / `context: {}` when so flagged; absent without a handler.
 * - `roots`: `{}` when a handler is registered; absent otherwise.
 *
 * Returns a fresh object each call; `{}` for `undefined`.
 * @throws InvalidArgumentError (-32602) when a registered handler is not a function.
 */
export function capabilitiesFor(handlers: InputHandlers | undefined): ClientCapabilities {
  checkInputHandlers(handlers);
  const capabilities: ClientCapabilities = {};
  const elicitation = handlers?.elicitation;
  if (elicitation?.form !== undefined || elicitation?.url !== undefined) {
    capabilities.elicitation = {};
    if (elicitation.form !== undefined) capabilities.elicitation.form = {};
    if (elicitation.url !== undefined) capabilities.elicitation.url = {};
  }
  const sampling = handlers?.sampling;
  if (sampling !== undefined) {
    capabilities.sampling = {};
    if (sampling.tools === true) capabilities.sampling.tools = {};
    if (sampling.context === true) capabilities.sampling.context = {};
  }
  if (handlers?.roots !== undefined) capabilities.roots = {};
  return capabilities;
}

/**
 * Checks the shape of a handler registry.
 * @throws InvalidArgumentError (-32602) naming the first field that is not a function (or object).
 */
export function checkInputHandlers(handlers: InputHandlers | undefined): void {
  if (handlers === undefined) return;
  if (!isObject(handlers)) throw new InvalidArgumentError('handlers', handlers, 'expected an object');
  const fn = (name: string, value: unknown, optional: boolean) => {
    if (value === undefined && optional) return;
    if (typeof value !== 'function') throw new InvalidArgumentError(name, value, 'expected a function');
  };
  const group = (name: string, value: unknown, expected: string): value is JsonObject => {
    if (value === undefined) return false;
    if (!isObject(value)) throw new InvalidArgumentError(name, value, `expected ${expected}`);
    return true;
  };
  if (group('handlers.elicitation', handlers.elicitation, '{ form?, url? }')) {
    fn('handlers.elicitation.form', handlers.elicitation.form, true);
    fn('handlers.elicitation.url', handlers.elicitation.url, true);
  }
  if (group('handlers.sampling', handlers.sampling, '{ createMessage, tools?, context? }'))
    fn('handlers.sampling.createMessage', handlers.sampling.createMessage, false);
  if (group('handlers.roots', handlers.roots, '{ list }')) fn('handlers.roots.list', handlers.roots.list, false);
}

/**
 * Defines `key` as an own enumerable property (safe for keys such as `"__proto__"`).
 * @internal shared by the inputRequired modules.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
