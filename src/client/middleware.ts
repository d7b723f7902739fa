/**
 * The request middleware of an `McpClient` (`client.use()`): one context object per MCP request
 * the client sends, and a chain of `(ctx, next) => result` functions around the send. A
 * middleware can change the params, the extra headers and the extra `_meta` keys before
 * `next()`, answer without calling `next()` at all, and rewrite the result or the error after it.
 *
 * The chain's order is fixed, outermost first (docs/design.md, "Request middleware"):
 *
 * 1. user middleware added with `{ outsideTracing: true }`, in the order of `use()`;
 * 2. `tracing`: the call's trace context (when `telemetry` is on) goes into `ctx.meta`, and the
 *    request's JSON-RPC ids into its span;
 * 3. user middleware (the default place), in the order of `use()`;
 * 4. `logging`: the call's `onLog` hears the `notifications/message` of this request;
 * 5. the transport's links (`Transport.links`), in the transport's order. Streamable HTTP brings
 *    `session` (on the legacy wire, a request refused because the session expired is sent once
 *    more on a new session) and `toolHeaders` (a `tools/call` gets the `Mcp-Param-*` headers of
 *    its, possibly rewritten, arguments on the 2026-07-28 wire).
 *
 * Then the request itself: a fresh `_meta` per attempt, `input_required` rounds, the wait for a
 * reconnect. `next()` resolves with the complete result (after every `input_required` round).
 * A response served from the cache is not a request and does not pass through the chain.
 */
import { ErrorCode } from '../errors/codes.js';
import { LocalError, McpError } from '../errors/errors.js';
import { isObject, type JsonObject } from '../wire/messages.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../wire/protocol.js';
import type { CreateTaskResult } from '../wire/tasks.js';
import type { Era } from '../era/era.js';

/** One MCP request as the middleware chain sees it. Made by the client per request; never shared. */
export interface RequestContext {
  /** The MCP method, e.g. `tools/call`. */
  readonly method: string;
  /**
   * The request's params without the protocol's `_meta` (added per attempt). Assign a new object
   * to change them; the object given to the client is never mutated.
   */
  params: JsonObject;
  /**
   * Extra transport headers of every attempt (HTTP transports send them; others ignore them).
   * The transport's own (`Content-Type`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) win.
   */
  readonly headers: Record<string, string>;
  /**
   * Extra `_meta` keys of every attempt, starting as a copy of `CallOptions.meta`. The protocol's
   * own keys (version, capabilities, client info, log level) are added over them.
   */
  readonly meta: JsonObject;
  /** The call's signal: a middleware that waits (an approval prompt) should honour it. */
  readonly signal: AbortSignal | undefined;
  /** The wire the request is sent on: `modern` (2026-07-28) or `legacy` (2025-11-25 and before). */
  readonly era: Era;
  /** The protocol version put on the request. */
  readonly protocolVersion: string;
  /** The call's options as given (signal, timeouts, cache mode...). */
  readonly options: Readonly<CallOptions>;
  /** State the middleware of this one request share, keyed as they like (a symbol each, say). */
  readonly state: Map<unknown, unknown>;
  /** The server's name in an `McpHost` configuration, when the host set it; else undefined. */
  serverName?: string | undefined;
}

/** Runs the rest of the chain (and the request) with the context as it is now. May be called again to retry. */
export type NextMiddleware = () => Promise<JsonObject>;

/**
 * One link of the chain. Resolve with a result object (from `next()`, rewritten, or made up);
 * reject to fail this request. A value that is not an `McpError` is wrapped in a
 * {@link MiddlewareError} (its `cause`); an `McpError` is passed on as it is. Either way only
 * that request fails, never the connection.
 */
export type Middleware = (ctx: RequestContext, next: NextMiddleware) => Promise<JsonObject>;

/** Where `client.use()` puts a middleware. */
export interface UseOptions {
  /**
   * Before the built-in `tracing` middleware instead of after it: it sees the request before the
   * trace context is put into `ctx.meta`. @default false
   */
  outsideTracing?: boolean | undefined;
}

/** `data` of a {@link MiddlewareError}. */
export interface MiddlewareErrorData {
  /** The method of the request that failed. */
  method: string;
  /** What went wrong: `threw` (the middleware threw or rejected) or `bad-result` (it resolved with no object). */
  reason: 'threw' | 'bad-result';
  /** For `bad-result`: the value it resolved with. */
  value?: unknown;
}

/**
 * A request middleware (`client.use()`) failed this request (code -33041, local) by throwing a
 * value that is not an `McpError` (kept as `cause`), or by resolving with something that is
 * not a result object. `data` is {@link MiddlewareErrorData}.
 */
export class MiddlewareError extends LocalError {
  override name = 'MiddlewareError';
  declare readonly data: MiddlewareErrorData;

  constructor(data: MiddlewareErrorData, message: string, cause?: unknown) {
    super(ErrorCode.MiddlewareFailed, `${data.method}: ${message}`, { data, cause });
  }
}

/** What a middleware's failure becomes: an `McpError` as it is, anything else wrapped. */
export function middlewareFailure(error: unknown, method: string): McpError {
  if (McpError.is(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MiddlewareError({ method, reason: 'threw' }, `a request middleware failed: ${message}`, error);
}

/** Checks what a middleware resolved with. */
export function middlewareResult(value: unknown, method: string): JsonObject {
  if (isObject(value)) return value;
  throw new MiddlewareError(
    { method, reason: 'bad-result', value },
    'a request middleware resolved with no result object',
  );
}

/** A `tools/call` as its middleware sees it: `name` and `arguments` read and replace `params`' own. */
export interface ToolCallContext extends RequestContext {
  name: string;
  arguments: JsonObject;
}

/** A `prompts/get`: `name` and `arguments` read and replace `params`' own. */
export interface PromptGetContext extends RequestContext {
  name: string;
  arguments: Record<string, string>;
}

/** A `resources/read`: `uri` reads and replaces `params.uri`. */
export interface ResourceReadContext extends RequestContext {
  uri: string;
}

/**
 * A middleware for `tools/call` only (other requests pass by). `next()` resolves with the
 * `CallToolResult`, or the `CreateTaskResult` when the call declared the Tasks extension and the
 * server answered with a task (`resultType: "task"`).
 *
 * ```ts
 * client.use(onToolCall(async (call, next) => {
 *   if (call.name === 'delete_repo' && !(await confirm(call.arguments))) throw new Error('denied by the user');
 *   return next();
 * }));
 * ```
 */
export function onToolCall(
  handler: (
    call: ToolCallContext,
    next: () => Promise<CallToolResult | CreateTaskResult>,
  ) => Promise<CallToolResult | CreateTaskResult>,
): Middleware {
  return (ctx, next) =>
    ctx.method !== 'tools/call'
      ? next()
      : (handler(
          view(ctx, { name: '', arguments: {} }) as ToolCallContext,
          next as () => Promise<CallToolResult>,
        ) as unknown as Promise<JsonObject>);
}

/** A middleware for `prompts/get` only; `next()` resolves with the `GetPromptResult`. */
export function onPromptGet(
  handler: (get: PromptGetContext, next: () => Promise<GetPromptResult>) => Promise<GetPromptResult>,
): Middleware {
  return (ctx, next) =>
    ctx.method !== 'prompts/get'
      ? next()
      : handler(view(ctx, { name: '', arguments: {} }) as PromptGetContext, next as () => Promise<GetPromptResult>);
}

/**
 * A middleware for `resources/read` only; `next()` resolves with the `ReadResourceResult`. A read
 * the cache answers sends no request and does not reach it; a result it rewrites or makes up is
 * not stored in the cache.
 */
export function onResourceRead(
  handler: (read: ResourceReadContext, next: () => Promise<ReadResourceResult>) => Promise<ReadResourceResult>,
): Middleware {
  return (ctx, next) =>
    ctx.method !== 'resources/read'
      ? next()
      : handler(view(ctx, { uri: '' }) as ResourceReadContext, next as () => Promise<ReadResourceResult>);
}

/** `ctx` with accessors for the `params` fields in `fields` (their defaults when absent). */
function view(ctx: RequestContext, fields: Record<string, unknown>): RequestContext {
  const out = Object.create(ctx) as RequestContext;
  // `params` and `serverName` are the writable fields: writes go to the context itself.
  Object.defineProperty(out, 'params', {
    get: () => ctx.params,
    set: (params: JsonObject) => (ctx.params = params),
  });
  Object.defineProperty(out, 'serverName', {
    get: () => ctx.serverName,
    set: (name: string | undefined) => (ctx.serverName = name),
  });
  // Accessors of the context itself read it, not the view.
  Object.defineProperty(out, 'state', { get: () => ctx.state });
  Object.defineProperty(out, 'signal', { get: () => ctx.signal });
  for (const [key, fallback] of Object.entries(fields)) {
    Object.defineProperty(out, key, {
      enumerable: true,
      get: () => ctx.params[key] ?? fallback,
      set: (value: JsonObject) => (ctx.params = { ...ctx.params, [key]: value }),
    });
  }
  return out;
}
