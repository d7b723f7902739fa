/**
 * The request middleware chain of one client: the user's middleware (`client.use()`), the
 * built-in ones and the transport's links (`Transport.links`) in their fixed order (see
 * `middleware.ts`), composed around the caller's send.
 * The order is built once per `use()` and disposal, never per request.
 */
import { McpError } from '../errors/errors.js';
import type { JsonObject, RequestId } from '../wire/messages.js';
import type { LoggingMessage } from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { Era } from '../era/era.js';
import type { CallScope } from '../observability/observer.lazy.js';
import type { LinkRequest, RequestCredential, TransportLink } from '../transport/transport.js';
import {
  middlewareFailure,
  middlewareResult,
  type Middleware,
  type NextMiddleware,
  type RequestContext,
  type UseOptions,
} from './middleware.js';

/** Session options of one call that only the client itself sets. */
export interface CallInternals {
  /** See `SessionRequestOptions.cancellable`. */
  cancellable?: boolean | undefined;
  /** The public call this request belongs to, when telemetry or the debug log is on. */
  scope?: CallScope | undefined;
  /**
   * Declare the Tasks extension on this request (`clientCapabilities.extensions`), and accept a
   * `resultType: "task"` answer: the outcome's result is then the `CreateTaskResult` as received.
   */
  declareTasks?: boolean | undefined;
  /** Declare the Skills extension on this request (`clientCapabilities.extensions`, SEP-2640). */
  declareSkills?: boolean | undefined;
  /** The credential to send every attempt with (the one the cache resolved its partition from). */
  credential?: RequestCredential | undefined;
  /** A request of the negotiation itself (`server/discover`): it never waits for a reconnect, being part of one. */
  handshake?: boolean | undefined;
}

/** One request the client asks its caller to send. */
export interface CallRequest extends CallInternals {
  method: string;
  /** Never mutated. */
  params: JsonObject;
  options: CallOptions;
}

/** @internal See {@link CallContext.onAttempt}. */
export type AttemptObserver = (
  round: boolean,
) => ((result: JsonObject | undefined, error?: unknown) => void) | undefined;

/** @internal The context of one request: the public {@link RequestContext}, and what the caller keeps on it. */
export class CallContext implements RequestContext, LinkRequest {
  readonly method: string;
  params: JsonObject;
  readonly headers: Record<string, string> = {};
  readonly meta: JsonObject;
  readonly options: CallOptions;
  /** `options.idempotent`, or what a transport's link set when that is unset (see `LinkRequest.idempotent`). */
  idempotent: boolean | undefined;
  serverName: string | undefined;
  readonly internals: CallInternals;
  private stateMap: Map<unknown, unknown> | undefined;
  /** The call's total deadline on the caller's clock, set when the request is first sent. */
  deadline: number | undefined;
  /** Set by `logging`: the listener of this call's `notifications/message`. */
  onLog: ((message: LoggingMessage) => void) | undefined;
  /** Set by `tracing`: told each JSON-RPC id the request goes out under. */
  onRequestId: ((id: RequestId) => void) | undefined;
  /**
   * Set by the devtools' recorder (through a host middleware): told of each send of this request
   * (the first, each `input_required` round with `round` true, a send again after a reconnect),
   * as it goes out; the function it returns, if any, hears that send's answer: its result, or
   * the error it failed with. Sends below the caller (an HTTP retry of one POST, the session's
   * re-issue after a broken stream) are parts of one send.
   */
  onAttempt: AttemptObserver | undefined = undefined;
  /** The result the send resolved with, and whether the cache may keep it. */
  sent: JsonObject | undefined;
  storable = false;

  constructor(
    request: CallRequest,
    readonly era: Era,
    readonly protocolVersion: string,
  ) {
    this.method = request.method;
    this.params = request.params;
    this.options = request.options;
    this.idempotent = request.options.idempotent;
    this.internals = request;
    const meta = request.options.meta;
    this.meta = meta === undefined ? {} : { ...meta };
  }

  get signal(): AbortSignal | undefined {
    return this.options.signal;
  }

  get state(): Map<unknown, unknown> {
    return (this.stateMap ??= new Map());
  }
}

/** A link of the chain as the caller runs it: user middleware are guarded, built-in ones trusted. */
type Link = (ctx: CallContext, next: NextMiddleware) => Promise<JsonObject>;

/**
 * A link and, for a built-in one, when it has work on a request: `applies(ctx)` false means the
 * link would only pass the request on (`next()`) and never act on its outcome, so the chain
 * steps over it without calling it. Asked when the link's turn comes, as the link would look.
 */
interface Step {
  readonly link: Link;
  readonly applies: ((ctx: CallContext) => boolean) | undefined;
}

/** What the built-in middleware reach of the caller. */
export interface ChainDeps {
  /** Per-call log listeners of calls in flight. */
  readonly logListeners: Set<(message: LoggingMessage) => void>;
  /** The links the transport brings (`Transport.links`), innermost: right before the send. */
  readonly transportLinks: readonly TransportLink[];
}

/** `tracing`: the call's trace context into `ctx.meta`, the request's ids into its span. */
const tracing: Step = {
  applies: (ctx) => ctx.internals.scope !== undefined,
  link: (ctx, next) => {
    const scope = ctx.internals.scope;
    if (scope !== undefined) {
      scope.inject(ctx.meta);
      ctx.onRequestId = (id) => scope.requestId(id);
    }
    return next();
  },
};

/** `logging`: the call's `onLog` (with a `logLevel`) hears this request's `notifications/message`. */
function logging(host: ChainDeps): Step {
  return {
    applies: (ctx) => ctx.options.logLevel !== undefined && ctx.options.onLog !== undefined,
    link: (ctx, next) => {
      const onLog = ctx.options.logLevel !== undefined ? ctx.options.onLog : undefined;
      if (onLog === undefined) return next();
      ctx.onLog = onLog;
      host.logListeners.add(onLog);
      return next().finally(() => host.logListeners.delete(onLog));
    },
  };
}

/** A transport's link as a step: its `applies` and `run`, bound to it. */
function transportStep(link: TransportLink): Step {
  return { applies: (ctx) => link.applies(ctx), link: (ctx, next) => link.run(ctx, next) };
}

/** A user middleware made safe: a throw or a bad result fails the request with a typed error, `next()`'s own errors pass as they are. */
function guarded(middleware: Middleware): Link {
  return (ctx, next) => {
    let passed: unknown = guarded;
    const tracked: NextMiddleware = () =>
      next().catch((error: unknown) => {
        passed = error;
        throw error;
      });
    let out: Promise<JsonObject>;
    try {
      out = Promise.resolve(middleware(ctx, tracked));
    } catch (error) {
      return Promise.reject(middlewareFailure(error, ctx.method));
    }
    return out.then(
      (value) => middlewareResult(value, ctx.method),
      (error: unknown) => {
        throw error === passed && McpError.is(error) ? error : middlewareFailure(error, ctx.method);
      },
    );
  };
}

/** The chain of one client (see the file's opening comment). */
export class RequestChain {
  private readonly outer: Step[] = [];
  private readonly inner: Step[] = [];
  private readonly builtIn: { logging: Step; transport: readonly Step[] };
  private steps: Step[] = [];

  constructor(host: ChainDeps) {
    this.builtIn = { logging: logging(host), transport: host.transportLinks.map(transportStep) };
    this.build();
  }

  /** Adds `middleware` at its place; returns the function that removes it (idempotent). */
  use(middleware: Middleware, options: UseOptions = {}): () => void {
    if (typeof middleware !== 'function') throw new TypeError('client.use() takes a middleware function');
    const list = options.outsideTracing === true ? this.outer : this.inner;
    const link: Step = { link: guarded(middleware), applies: undefined };
    list.push(link);
    this.build();
    return () => {
      const at = list.indexOf(link);
      if (at === -1) return;
      list.splice(at, 1);
      this.build();
    };
  }

  /**
   * Runs `ctx` through the chain as it is now, then `send`. A built-in link with nothing to do
   * on this request is stepped over (see {@link Step}): with no user middleware and none of
   * their work, the request goes straight to `send`.
   */
  run(ctx: CallContext, send: (ctx: CallContext) => Promise<JsonObject>): Promise<JsonObject> {
    const steps = this.steps;
    // Most requests have no link with work on them: straight to `send`, no closure made.
    let first = 0;
    for (; first < steps.length; first++) {
      const { applies } = steps[first] as Step;
      if (applies === undefined || applies(ctx)) break;
    }
    if (first === steps.length) return send(ctx);
    const from = (index: number): Promise<JsonObject> => {
      for (let at = index; at < steps.length; at++) {
        const { link, applies } = steps[at] as Step;
        if (applies !== undefined && !applies(ctx)) continue;
        try {
          return link(ctx, () => from(at + 1));
        } catch (error) {
          return Promise.reject(error);
        }
      }
      return send(ctx);
    };
    try {
      return (steps[first] as Step).link(ctx, () => from(first + 1));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private build(): void {
    const { logging, transport } = this.builtIn;
    this.steps = [...this.outer, tracing, ...this.inner, logging, ...transport];
  }
}
