import type { JsonObject } from '../wire/messages.js';
import { InvalidArgumentError } from '../errors/errors.js';
import {
  type Tool,
  type CallToolResult,
  type CompleteResult,
  type DiscoverResult,
  type GetPromptResult,
  type PromptReference,
  type ReadResourceResult,
  type ResourceTemplateReference,
  type SubscriptionFilter,
} from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import { requireArray } from '../wire/results.js';
import type { CloseOptions } from './closeOptions.js';
import { resolveClientOptions, type ClientOptions } from './options.js';
import type { Middleware, UseOptions } from './middleware.js';
import type { Closeable } from '../util/disposable.js';
import type {
  LiveList,
  LiveListItems,
  LiveListKind,
  LiveListOptions,
  SubscribeOptions,
  Subscription,
} from '../subscriptions/types.js';
import { createCompleter, type CompleterOptions } from '../completion/completer.js';
import { type Completer } from '../completion/types.js';
import type { ReadResourceLinksOptions, ResourceLinkRead, ResourceLinkSource } from '../resources/links.js';
import type { ResumeTaskOptions } from '../tasks/types.js';
import type { TaskRecord } from '../tasks/taskStore.js';
import type { CallToolOptions } from '../tasks/options.js';
import type { ToolTask } from '../tasks/toolTask.js';
import { clientSkills, type ClientSkills } from './skills.js';
import { clientEvents, type ClientEvents } from './events.js';
import { serverOffersApps } from '../apps/capability.js';
import { readResourceLinks } from '../resources/linkReads.js';
import { assembleClient, targetOf } from './assembly.js';
import { ClientLists } from './clientLists.js';
import { callTool } from './toolCalls.js';
import { close, connect } from './lifecycle.js';
import { complete } from './completions.js';

/**
 * An MCP client for one server. It speaks the 2026-07-28 wire (stateless: every request
 * carries `_meta` with the protocol version, client capabilities and client info), and falls
 * back to the `initialize` handshake of 2025-11-25 and earlier when the server is legacy
 * (`ClientOptions.era`; docs/legacy.md). The same methods work in both eras.
 *
 * ```ts
 * const client = new McpClient({ transport, clientInfo: { name: 'my-host', version: '1.0.0' } });
 * await client.connect();
 * const { tools } = await client.listTools();
 * const result = await client.callTool('echo', { text: 'hi' });
 * await client.close();
 * ```
 *
 * Every method takes {@link CallOptions} last (signal, timeouts, progress, per-call logging) and
 * rejects with a subclass of `McpError`: `RpcError` for errors the server sent (code, message
 * and data untouched), `TimeoutError` (-32001), `CancelledError` (-32800),
 * `ConnectionClosedError` (-32000), `ProtocolError` (-32600) for results that break the schema.
 */
export class McpClient extends ClientLists implements Closeable {
  /** `skills`, made on first access. */
  private skillsValue: ClientSkills | undefined;
  /** `events`, made on first access. */
  private eventsValue: ClientEvents | undefined;

  /** @throws InvalidArgumentError (-32602) when an option is invalid. */
  constructor(options: ClientOptions) {
    super(assembleClient(resolveClientOptions(options)));
  }

  /**
   * Adds a request middleware: `(ctx, next) => result`, around every request this client sends
   * (not around responses served from the cache). It may change `ctx.params`, `ctx.headers` and
   * `ctx.meta` before `next()`, answer without calling it, and rewrite the result or the error;
   * a result it rewrites or makes up is not cached. Middleware run in a fixed order (see
   * {@link Middleware}; docs/middleware.md): `outsideTracing` ones in `use()` order, the
   * built-in `tracing`, the others in `use()` order, then the built-in `logging` and the
   * transport's links (`Transport.links`: on Streamable HTTP, `session` and `toolHeaders`). A middleware that throws fails that request only: an `McpError` as thrown,
   * anything else as `MiddlewareError` (-33041, the value as `cause`). Returns the function that
   * removes it (idempotent); requests already under way keep the chain they started with.
   * @throws TypeError when `middleware` is not a function.
   */
  use(middleware: Middleware, options?: UseOptions): () => void {
    return this.parts.caller.use(middleware, options);
  }

  /**
   * Starts the transport and settles the era and version (spec: basic/versioning; details in
   * docs/legacy.md). Once open, the client reconnects by itself after a drop
   * (`ClientOptions.reconnect`). With `era: "auto"`: `server/discover` as a probe (`probeTimeoutMs`); a
   * DiscoverResult or a recognised modern error means 2026-07-28 (-32022 leads to one retry
   * with a version from `data.supported`); anything else means legacy: `initialize`, then
   * `notifications/initialized`. The verdict is remembered in `eraMemory`.
   *
   * @returns the DiscoverResult (also kept: see {@link serverDiscovery}); on the legacy wire,
   *   the one built from the InitializeResult.
   * @throws VersionNegotiationError (-32022) when no version is shared, naming both lists;
   *   EraDetectionError (-33015) when neither era works; HttpAuthError (-33011) on 401/403
   *   (never a fallback); ConnectionClosedError (-32000) when the transport cannot start or
   *   closes; any error of `server/discover` (modern) or `initialize` (legacy) itself. A failed
   *   connect closes the client, unless `reconnect.retryFirstConnect` is on and the failure is
   *   one a new attempt may mend: it still rejects, and the client goes on `reconnecting`.
   * @throws ClientStateError (-33040), nothing sent, when connect() was called before on this
   *   client (connecting, open, reconnecting, or closed since): a client connects once.
   * @throws TimeoutError (-32001, `data: { method: 'connect', timeoutMs, kind: 'total' }`) when
   *   `options.timeoutMs` (or a shorter `maxTotalTimeoutMs`) ran out: the options bound the
   *   whole negotiation, every era included (each step, the probe, `initialize`, HTTP+SSE,
   *   waits at most what is left);
   *   CancelledError (-32800) when `options.signal` aborts, at once (already aborted: before
   *   anything starts). These two reject without waiting for the transport to finish closing;
   *   `close()` waits for it.
   */
  connect(options: CallOptions = {}): Promise<DiscoverResult> {
    return connect(this.parts, options);
  }

  /**
   * Sends `server/discover` and keeps the result (spec: server/discover). On the legacy wire,
   * which has no such method, it sends nothing and resolves with {@link serverDiscovery}.
   * @throws ProtocolError (-32600) if `supportedVersions` or `capabilities` is missing.
   */
  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    if (this.parts.binding.era === 'legacy' && this.parts.binding.discovery !== undefined)
      return this.parts.binding.discovery;
    return this.parts.loadDiscovery(options, undefined);
  }

  /**
   * `resources/read` (spec: server/resources). An empty `contents` array is a successful read
   * of an empty resource. Use `viewContents()` to tell text from bytes without guessing.
   * @throws ResourceNotFoundError for -32602 with `data.uri` (2026-07-28) or -32002 (legacy);
   *   `code` and `data` stay as the server sent them.
   * @throws InvalidArgumentError (-32602) for an empty or non-string `uri`.
   */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.parts.reads.readResource(uri, options);
  }

  /**
   * The Skills extension (SEP-2640) on this server: list, get, verified reads of a skill's files,
   * directory reads. Its code is loaded on the first call. See {@link ClientSkills} and
   * docs/skills.md.
   */
  get skills(): ClientSkills {
    return (this.skillsValue ??= clientSkills({
      capabilities: () => this.serverCapabilities,
      cached: (method, params, key, options, check) =>
        this.parts.reads.cachedOutcome(method, params, key, options, check, { declareSkills: true }),
      read: (uri, options) => this.parts.reads.readWithSource(uri, options),
      invalidateList: (method) => this.parts.responseCache?.invalidateList(method) ?? Promise.resolve(0),
    }));
  }

  /**
   * The Triggers & Events extension on this server: `events/list`, and subscriptions delivered
   * by poll, push or webhook with cursors that survive. Its code is loaded on the first call.
   * See {@link ClientEvents} and docs/events.md.
   */
  get events(): ClientEvents {
    return (this.eventsValue ??= clientEvents(this.parts, this.parts.eventsRouter));
  }

  /**
   * `prompts/get` with string arguments (spec: server/prompts).
   * @throws ProtocolError (-32600) if the result has no `messages` array.
   */
  getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    if (typeof name !== 'string' || name === '')
      return Promise.reject(new InvalidArgumentError('name', name, 'expected a prompt name'));
    return this.parts.traced('prompts/get', { name }, async (internals) => {
      const { result } = await this.parts.caller.call({
        ...internals,
        method: 'prompts/get',
        params: { name, arguments: args },
        options,
      });
      requireArray('prompts/get', result, 'messages');
      return result as GetPromptResult;
    });
  }

  /**
   * `tools/call` (spec: server/tools). A tool that failed reports `isError: true` in a
   * successful result; only protocol failures reject.
   *
   * With the Tasks extension on (`ClientOptions.tasks`, or `options.task`) and listed by the
   * server, the call declares it and the server may answer with a task (docs/tasks.md): in
   * `auto` mode it is followed to its end and its result returned as if the call had waited
   * (`signal` then cancels it with `tasks/cancel`); with `task: 'manual'` its {@link ToolTask}
   * handle is returned instead.
   *
   * @throws InvalidArgumentError (-32602), nothing sent, when `name` is not a non-empty string
   *   (given `{ name, arguments }`, the official client's call style, it says to use
   *   `callTool(name, args)`) or `args` is not an object.
   * @throws ProtocolError (-32600) if the result has no `content` array.
   * @throws ToolOutputValidationError (-33016) when the tool was listed with an `outputSchema`
   *   and the result's `structuredContent` is missing or breaks it (`data.result` keeps the
   *   result as received; spec: server/tools, Output Schema).
   * @throws MissingClientCapabilityError (-32021) when the server needs a capability the call
   *   did not declare (such as the Tasks extension).
   * @throws on a task, as `ToolTask.result()`: TaskFailedError, TaskCancelledError,
   *   TaskExpiredError (-33031), TaskNotFoundError, ConnectionClosedError (the task can be
   *   resumed with {@link resumeTask}); ModuleLoadError (-33042) when the code that follows
   *   tasks, loaded on the first one, cannot load (the task is kept in the store).
   */
  callTool(
    name: string,
    args: JsonObject | undefined,
    options: CallToolOptions & { task: 'manual' },
  ): Promise<CallToolResult | ToolTask>;
  callTool(
    name: string,
    args?: JsonObject,
    options?: CallToolOptions & { task?: 'auto' | 'off' | undefined },
  ): Promise<CallToolResult>;
  callTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<CallToolResult | ToolTask> {
    return callTool(this.parts, name, args, options, (relist) => this.listAllTools(relist));
  }

  /**
   * Completion as a user types, for one prompt or resource template (spec:
   * server/utilities/completion: debounce, cache). Call `complete(argument, value, context)` on
   * every keystroke: calls within `debounceMs` replace each other, a newer call cancels the
   * request in flight (`notifications/cancelled`), answers are reused for `cacheTtlMs`, and
   * only the latest call resolves with its own answer (earlier ones resolve `superseded`).
   * Without the server's `completions` capability nothing is sent (`unsupported`).
   * See {@link Completer}, {@link CompleterOptions} and docs/resources.md.
   * @throws InvalidArgumentError (-32602) for a malformed ref or option.
   */
  completer(ref: PromptReference | ResourceTemplateReference, options: CompleterOptions = {}): Completer {
    return createCompleter(
      {
        capabilities: () => this.serverCapabilities,
        send: (params, signal, timeoutMs) =>
          this.request('completion/complete', params, { signal, ...(timeoutMs !== undefined && { timeoutMs }) }),
        onError: this.parts.options.onError,
        clock: this.parts.options.clock,
        timers: this.parts.options.timers,
      },
      ref,
      options,
    );
  }

  /**
   * Whether this server serves MCP Apps: its capabilities list `io.modelcontextprotocol/ui`, or
   * one of `tools` (its tool list, e.g. from `listAllTools`) links a `ui://` resource.
   */
  offersApps(tools: readonly Tool[] = []): boolean {
    return serverOffersApps(this.serverCapabilities, tools);
  }

  /**
   * Reads the `resource_link` items of a tool result or prompt result (or of content blocks),
   * those `options.filter` keeps, through the cache, at most `options.concurrency` at a time
   * (spec: server/tools, Resource Links). Resolves in link order; a link that fails has its own
   * `error` (`ResourceNotFoundError` when the server has no such resource), the others their
   * `result`. Malformed links are left out and reported to `onError`.
   * @throws CancelledError (-32800) when `options.signal` aborts.
   */
  readResourceLinks(source: ResourceLinkSource, options: ReadResourceLinksOptions = {}): Promise<ResourceLinkRead[]> {
    return readResourceLinks(
      (uri, callOptions) => this.readResource(uri, callOptions),
      source,
      options,
      this.parts.options.onError,
    );
  }

  /**
   * Picks up a task (Tasks extension) on this connection: after a dropped connection, on a new
   * client, after a restart. The stored record (`ClientOptions.tasks.store`) brings back which
   * input keys were answered; `tasks/get` brings the task as it is now. Then call
   * `result()` on the handle to follow it to its end.
   *
   * ```ts
   * for (const record of await client.storedTasks()) {
   *   const task = await client.resumeTask(record.taskId);
   *   console.log(await task.result());
   * }
   * ```
   *
   * @throws InvalidArgumentError (-32602), nothing sent, for an empty id or a record of another
   *   server; TaskExpiredError (-33031), nothing sent, once the stored `createdAt + ttlMs` has
   *   passed; TaskNotFoundError (-32602 as sent) when the server does not know the id; any
   *   error of `tasks/get`; ModuleLoadError (-33042), nothing sent, when the code that follows
   *   tasks (loaded on first use) cannot load.
   */
  resumeTask(taskId: string, options: ResumeTaskOptions = {}): Promise<ToolTask> {
    return this.parts.tasks.resume(taskId, options);
  }

  /** The task records kept for this server (`ClientOptions.tasks.store`), for a host resuming after a restart. */
  storedTasks(): Promise<TaskRecord[]> {
    return this.parts.tasks.stored();
  }

  /**
   * `completion/complete`: suggestions for one argument of a prompt or resource template
   * (spec: server/utilities/completion). `context.arguments` gives already-chosen values.
   * More than 100 `values` are cut to 100 and reported to `onError`; `total` and `hasMore`
   * stay as sent.
   * @throws ProtocolError (-32600) when `completion.values` is not an array of strings.
   */
  complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options: CallOptions = {},
  ): Promise<CompleteResult> {
    return complete(this.parts, ref, argument, context, options);
  }

  /**
   * Sends any request and returns its complete result, with the protocol `_meta` added. For
   * methods this class has no verb for yet; prefer the verbs, which check their results.
   */
  request(method: string, params: JsonObject = {}, options: CallOptions = {}): Promise<JsonObject> {
    return this.parts.traced(
      method,
      targetOf(params),
      async (internals) => (await this.parts.caller.call({ ...internals, method, params, options })).result,
    );
  }

  /**
   * Opens a `subscriptions/listen` stream of its own for `filter` and resolves at the server's
   * acknowledgment (spec: basic/patterns/subscriptions); see {@link Subscription}. What the
   * capabilities or the ack leave out is in `notHonoured`, not thrown. The cache drops what a
   * change makes stale before any listener hears of it. A stream that ends unexpectedly is
   * reopened (`ClientOptions.subscriptions.reopen`), then `resync`; a dropped connection closes
   * it. `options.timeoutMs` covers only the wait for the ack. Details: docs/subscriptions.md.
   *
   * @throws InvalidArgumentError (-32602) for a malformed filter or one that asks for nothing;
   *   ConnectionClosedError (-32000) when not connected or the connection drops first;
   *   TimeoutError (-32001) without an acknowledgment in time; CancelledError (-32800) when
   *   `options.signal` aborts first; RpcError as the server sent it (e.g. -32602);
   *   SubscriptionClosedError (-33008) when the server ends the stream before acknowledging it;
   *   ModuleLoadError (-33042), nothing sent, when the subscription code (loaded on first use)
   *   cannot load.
   */
  subscribe(filter: SubscriptionFilter, options: SubscribeOptions = {}): Promise<Subscription> {
    return this.parts.subscriptions.subscribe(filter, options);
  }

  /**
   * The whole list of `kind`, kept current: subscribes to its `list_changed`, loads every page,
   * and fetches it again (debounced) after each change. A failed refresh keeps the last good
   * list, flagged stale. See {@link LiveList}.
   * @throws as {@link subscribe}, and as {@link pages} for the first load; nothing stays open then.
   */
  live<K extends LiveListKind>(
    kind: K,
    options: LiveListOptions<LiveListItems[K]> = {},
  ): Promise<LiveList<LiveListItems[K]>> {
    return this.parts.subscriptions.live(kind, options);
  }

  /**
   * Closes the transport (and the server process on stdio). A reconnect under way stops at once
   * (no backoff timer is left). Pending calls, and calls waiting for a reconnect, reject with
   * `ConnectionClosedError`; background cache refreshes stop; subscriptions and live lists
   * close with reason `client-closed`; tasks being followed stop following (they keep running
   * on the server, their calls reject with `TaskAbandonedError` and their records stay for
   * {@link resumeTask}); a `tasks/cancel` already sent gets up to 2 s for its answer first.
   * Idempotent.
   *
   * `options.signal` and `options.timeoutMs` (ms) bound the wait for the transport to finish
   * (a stdio server to exit, a WebSocket close handshake, an HTTP session `DELETE`): past the
   * bound, close() rejects with `TimeoutError` (-32001, method `close`) or, for the signal,
   * as a call does (`CancelledError` -32800, or `TimeoutError` for `AbortSignal.timeout()`).
   * The client is closed either way and the clean-up goes on in the background.
   */
  close(options: CloseOptions = {}): Promise<void> {
    return close(this.parts, options);
  }

  /** Closes it, as `close()` does: `await using x = …` closes `x` when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
