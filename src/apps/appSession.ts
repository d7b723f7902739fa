/**
 * The host side of one MCP App's frame (ext-apps specification 2026-01-26, Communication
 * Protocol): JSON-RPC over a {@link FramePort}. It answers `ui/initialize`, relays the app's
 * `tools/call` and `resources/read` to the app's own server (visibility and the host's
 * `approve` hook applied to every tool call), hands `ui/message`, `ui/open-link`,
 * `ui/update-model-context`, logs and size changes to the host's handlers, sends the tool's
 * input and result once the app is initialized, and tears down with `ui/resource-teardown`.
 * Runtime-neutral: the port is the only tie to a frame (`mcp-live/apps-bridge` makes one).
 */
import { downloadFiles, type AppDownloadFile } from './downloadFile.js';
import { ErrorCode } from '../errors/codes.js';
import { McpError } from '../errors/errors.js';
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonObject,
  type JsonRpcMessage,
  type RequestId,
} from '../wire/messages.js';
import type { CallToolResult, ContentBlock, Implementation, ReadResourceResult, Tool } from '../wire/protocol.js';
import { systemTimers, type Timers } from '../util/clock.js';
import type { AppResource } from './appResourceCheck.js';
import { APPS_PROTOCOL_VERSION } from './constants.js';
import { AppToolCallDeniedError, type AppToolCallDenial } from './errors.js';
import { isAppCallable } from './toolUi.js';

/** A two-way message channel to one app frame. */
export interface FramePort {
  /** Sends one message to the frame. */
  send(message: JsonRpcMessage): void;
  /** Adds the receiver of the frame's messages (untrusted values); returns the function that removes it. */
  onMessage(listener: (message: unknown) => void): () => void;
  /** Releases the channel (listeners, ports); called once when the session ends. */
  close?(): void;
}

/** The app's server, as the session reaches it (the bridge makes one from an `McpHost` or `McpClient`). */
export interface AppServerLink {
  /** The server's name (the host's), for the approval hook and errors. */
  readonly server: string;
  /** The server's tool by its original name, from the current list; `undefined` when it lists none. */
  findTool(name: string, options: { signal: AbortSignal }): Tool | undefined | Promise<Tool | undefined>;
  /** `tools/call` of the tool by its original name; `signal` aborts when the session ends. */
  callTool(name: string, args: JsonObject, options: { signal: AbortSignal }): Promise<CallToolResult>;
  /** `resources/read` on the server; `signal` aborts when the session ends. */
  readResource(uri: string, options: { signal: AbortSignal }): Promise<ReadResourceResult>;
}

/** An app-initiated tool call, as the `approve` hook sees it. */
export interface AppToolCall {
  /** The app's server (the only server an app can reach). */
  readonly server: string;
  /** The tool's name on that server. */
  readonly name: string;
  /** The arguments the app sent. */
  readonly arguments: JsonObject;
  /** The tool as the server lists it. */
  readonly tool: Tool;
  /** The `ui://` resource of the app that asked, when the session was given one. */
  readonly resourceUri: string | undefined;
}

/**
 * The hook's answer: `true` sends the call, `false` refuses it; an object can say why
 * (`reason`, passed to the app) or send other arguments (`arguments`).
 */
export type AppToolCallDecision = boolean | { allow: boolean; reason?: string | undefined; arguments?: JsonObject };

/**
 * The host's policy for app-initiated tool calls, asked before each one is sent. A hook that
 * throws refuses the call (and the error goes to `onError`).
 */
export type ApproveAppToolCall = (
  call: AppToolCall,
  context: { signal: AbortSignal },
) => AppToolCallDecision | Promise<AppToolCallDecision>;

/** An answer of a UI request handler: `false` (or `{ isError: true }`) tells the app it was refused. */
export type AppRequestOutcome = void | boolean | { isError?: boolean };

/** What the app may ask of the host beyond the server; a missing handler answers `-32601` (method not found). */
export interface AppHandlers {
  /** `ui/message`: content for the conversation (role `user`). */
  onMessage?:
    | ((message: { role: 'user'; content: ContentBlock[] }) => AppRequestOutcome | Promise<AppRequestOutcome>)
    | undefined;
  /** `ui/open-link`: a URL to open outside the frame. */
  onOpenLink?: ((url: string) => AppRequestOutcome | Promise<AppRequestOutcome>) | undefined;
  /**
   * `ui/download-file` (ext-apps 2.0.4): files the app asks the host to save, checked and
   * sanitised first (embedded contents decoded, strict base64; safe file names; at most 16
   * files and 16 MiB). The host decides: ask the user, save, or refuse (`false`). A linked
   * file's `uri` is the server's to fetch (`resources/read`), never fetched here. Declares the
   * host capability `downloadFile` when set; without it the app hears method not found.
   */
  onDownloadFile?: ((files: AppDownloadFile[]) => AppRequestOutcome | Promise<AppRequestOutcome>) | undefined;
  /** `ui/update-model-context`: context for the model's next turns (each update replaces the last). */
  onUpdateModelContext?:
    | ((context: {
        content?: ContentBlock[];
        structuredContent?: JsonObject;
      }) => AppRequestOutcome | Promise<AppRequestOutcome>)
    | undefined;
  /** `ui/request-display-mode`: returns the mode now in effect. @default answers the current `displayMode` */
  onRequestDisplayMode?: ((mode: string) => string | Promise<string>) | undefined;
  /** `notifications/message` from the app (a log entry). */
  onLog?: ((params: JsonObject) => void) | undefined;
  /** `ui/notifications/size-changed`, in CSS pixels. */
  onSizeChanged?: ((size: { width?: number; height?: number }) => void) | undefined;
  /** `ui/notifications/request-teardown`: the app asks to be closed (the host decides). */
  onRequestTeardown?: (() => void) | undefined;
}

/** Options of `new AppSession(options)`. */
export interface AppSessionOptions extends AppHandlers {
  port: FramePort;
  link: AppServerLink;
  /** The host's name and version, in the `ui/initialize` result. */
  hostInfo: Implementation;
  /**
   * The UI resource the frame shows: its URI goes to the `approve` hook, its CSP and permissions
   * into `hostCapabilities.sandbox`, and its HTML to a sandbox proxy that asks for it
   * (`ui/notifications/sandbox-proxy-ready`).
   */
  resource?: AppResource | undefined;
  /** `hostContext` of the `ui/initialize` result (theme, displayMode, toolInfo...). @default {} */
  hostContext?: JsonObject | undefined;
  /** The host's policy, asked before every app-initiated tool call. @default every call the visibility allows is sent */
  approve?: ApproveAppToolCall | undefined;
  /** Arguments of the tool call the frame renders: sent as `ui/notifications/tool-input` once the app is initialized. */
  toolInput?: JsonObject | undefined;
  /** The result of that call: sent as `ui/notifications/tool-result` after the input. */
  toolResult?: CallToolResult | undefined;
  /** App-initiated calls (tools and reads) in flight at once; more are refused. @default 8 */
  maxConcurrentCalls?: number | undefined;
  /** How long `teardown()` waits for the app's answer to `ui/resource-teardown`, in ms. @default 3000 */
  teardownTimeoutMs?: number | undefined;
  timers?: Timers | undefined;
  /** Receives malformed frame messages and throwing handlers; never thrown. @default ignore */
  onError?: ((error: Error) => void) | undefined;
}

/** The session's state: `connecting` until the app sends `ui/notifications/initialized`. */
export type AppSessionState = 'connecting' | 'open' | 'closed';

const METHOD_NOT_FOUND = ErrorCode.MethodNotFound;

/**
 * The host side of one app frame. Starts listening at once; ends with `teardown()` (graceful)
 * or `close()` (at once), which abort the app's calls in flight and release the port.
 */
export class AppSession {
  private readonly options: AppSessionOptions;
  private readonly timers: Timers;
  private readonly abort = new AbortController();
  private readonly unlisten: () => void;
  private readonly pending = new Map<RequestId, (message: JsonRpcMessage | undefined) => void>();
  private readonly queue: JsonRpcMessage[] = [];
  private hostContext: JsonObject;
  private stateValue: AppSessionState = 'connecting';
  private inFlight = 0;
  private nextId = 1;
  private resolveInitialized!: () => void;
  private resolveClosed!: (reason: string) => void;

  /** Resolves when the app has sent `ui/notifications/initialized`; never rejects. */
  readonly initialized: Promise<void>;
  /** Resolves with the reason when the session ends; never rejects. */
  readonly closed: Promise<string>;

  constructor(options: AppSessionOptions) {
    this.options = options;
    this.timers = options.timers ?? systemTimers;
    this.hostContext = { ...options.hostContext };
    this.initialized = new Promise((resolve) => (this.resolveInitialized = resolve));
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.unlisten = options.port.onMessage((message) => this.receive(message));
    if (options.toolInput !== undefined) this.sendToolInput(options.toolInput);
    if (options.toolResult !== undefined) this.sendToolResult(options.toolResult);
  }

  /** `connecting`, `open` once the app has sent `initialized`, then `closed`. */
  get state(): AppSessionState {
    return this.stateValue;
  }

  /** `ui/notifications/tool-input`: the complete arguments of the rendered tool call. */
  sendToolInput(args: JsonObject): void {
    this.notify('ui/notifications/tool-input', { arguments: args });
  }

  /** `ui/notifications/tool-input-partial`: arguments still streaming from the model. */
  sendToolInputPartial(args: JsonObject): void {
    this.notify('ui/notifications/tool-input-partial', { arguments: args });
  }

  /** `ui/notifications/tool-result`: the result of the rendered tool call. */
  sendToolResult(result: CallToolResult): void {
    this.notify('ui/notifications/tool-result', result);
  }

  /** `ui/notifications/tool-cancelled`: the rendered tool call will not complete. */
  sendToolCancelled(reason?: string): void {
    this.notify('ui/notifications/tool-cancelled', reason === undefined ? {} : { reason });
  }

  /** Merges `changes` into the host context and sends `ui/notifications/host-context-changed`. */
  setHostContext(changes: JsonObject): void {
    this.hostContext = { ...this.hostContext, ...changes };
    this.notify('ui/notifications/host-context-changed', changes);
  }

  /**
   * Asks the app to wind down (`ui/resource-teardown`), waits for its answer (at most
   * `teardownTimeoutMs`), then closes. Before the app is initialized it closes at once.
   * Idempotent; never rejects.
   */
  async teardown(reason = 'host teardown'): Promise<void> {
    if (this.stateValue === 'closed') return;
    if (this.stateValue === 'open') {
      const id = `teardown-${this.nextId++}`;
      await new Promise<void>((resolve) => {
        const timer = this.timers.setTimeout(() => finish(), this.options.teardownTimeoutMs ?? 3000);
        const finish = (): void => {
          this.timers.clearTimeout(timer);
          this.pending.delete(id);
          resolve();
        };
        this.pending.set(id, finish);
        this.write({ jsonrpc: '2.0', id, method: 'ui/resource-teardown', params: { reason } });
      });
    }
    this.close(reason);
  }

  /** Ends the session at once: stops listening, aborts the app's calls in flight, releases the port. Idempotent. */
  close(reason = 'closed'): void {
    if (this.stateValue === 'closed') return;
    this.stateValue = 'closed';
    this.abort.abort(new Error(`app session closed: ${reason}`));
    this.unlisten();
    for (const settle of [...this.pending.values()]) settle(undefined);
    this.pending.clear();
    this.queue.length = 0;
    try {
      this.options.port.close?.();
    } catch (error) {
      this.report(error);
    }
    this.resolveInitialized();
    this.resolveClosed(reason);
  }

  // -------------------------------------------------------------------------------------------

  private receive(message: unknown): void {
    if (this.stateValue === 'closed') return;
    if (isJsonRpcRequest(message)) void this.answer(message.id, message.method, message.params);
    else if (isJsonRpcNotification(message)) this.hear(message.method, message.params);
    else if (isJsonRpcResponse(message)) {
      if (message.id !== null) this.pending.get(message.id)?.(message);
    } else this.report(new TypeError('a frame message that is not JSON-RPC 2.0 was ignored'));
  }

  private hear(method: string, params: JsonObject | undefined): void {
    const handlers = this.options;
    switch (method) {
      case 'ui/notifications/initialized':
        if (this.stateValue !== 'connecting') return;
        this.stateValue = 'open';
        for (const message of this.queue.splice(0)) this.write(message);
        this.resolveInitialized();
        return;
      case 'ui/notifications/sandbox-proxy-ready': {
        const resource = this.options.resource;
        if (resource === undefined) return;
        this.write({
          jsonrpc: '2.0',
          method: 'ui/notifications/sandbox-resource-ready',
          params: {
            html: resource.html,
            ...(resource.csp !== undefined && { csp: resource.csp }),
            ...(resource.permissions !== undefined && { permissions: resource.permissions }),
          },
        });
        return;
      }
      case 'notifications/message':
        this.run(() => handlers.onLog?.(params ?? {}));
        return;
      case 'ui/notifications/size-changed': {
        const size: { width?: number; height?: number } = {};
        if (typeof params?.['width'] === 'number' && Number.isFinite(params['width'])) size.width = params['width'];
        if (typeof params?.['height'] === 'number' && Number.isFinite(params['height'])) size.height = params['height'];
        this.run(() => handlers.onSizeChanged?.(size));
        return;
      }
      case 'ui/notifications/request-teardown':
        this.run(() => handlers.onRequestTeardown?.());
        return;
      default:
        return;
    }
  }

  private async answer(id: RequestId, method: string, params: JsonObject | undefined): Promise<void> {
    try {
      const result = await this.handle(method, params ?? {});
      this.write({ jsonrpc: '2.0', id, result });
    } catch (error) {
      const code = McpError.is(error) ? error.code : ErrorCode.InternalError;
      const message = McpError.is(error) ? error.message : 'the host could not complete the request';
      if (!McpError.is(error)) this.report(error);
      this.write({ jsonrpc: '2.0', id, error: { code, message } });
    }
  }

  private async handle(method: string, params: JsonObject): Promise<JsonObject> {
    const handlers = this.options;
    switch (method) {
      case 'ui/initialize':
        return {
          protocolVersion: APPS_PROTOCOL_VERSION,
          hostInfo: { name: this.options.hostInfo.name, version: this.options.hostInfo.version },
          hostCapabilities: this.hostCapabilities(),
          hostContext: this.hostContext,
        };
      case 'ping':
        return {};
      case 'tools/call':
        return this.bounded(() => this.callTool(params));
      case 'resources/read': {
        const uri = params['uri'];
        if (typeof uri !== 'string' || uri === '')
          throw rpcError(ErrorCode.InvalidParams, 'resources/read needs a uri');
        return this.bounded(() => this.options.link.readResource(uri, { signal: this.abort.signal }));
      }
      case 'ui/message': {
        const content = params['content'];
        const blocks = Array.isArray(content)
          ? content
          : typeof content === 'object' && content !== null
            ? [content]
            : [];
        if (handlers.onMessage === undefined) throw rpcError(METHOD_NOT_FOUND, 'this host takes no messages from apps');
        return outcome(await handlers.onMessage({ role: 'user', content: blocks as ContentBlock[] }));
      }
      case 'ui/open-link': {
        const url = params['url'];
        if (typeof url !== 'string') throw rpcError(ErrorCode.InvalidParams, 'ui/open-link needs a url');
        if (handlers.onOpenLink === undefined) throw rpcError(METHOD_NOT_FOUND, 'this host opens no links for apps');
        return outcome(await handlers.onOpenLink(url));
      }
      case 'ui/download-file': {
        if (handlers.onDownloadFile === undefined)
          throw rpcError(METHOD_NOT_FOUND, 'this host downloads no files for apps');
        return outcome(await handlers.onDownloadFile(downloadFiles(params)));
      }
      case 'ui/update-model-context': {
        if (handlers.onUpdateModelContext === undefined)
          throw rpcError(METHOD_NOT_FOUND, 'this host takes no model context from apps');
        const context: { content?: ContentBlock[]; structuredContent?: JsonObject } = {};
        if (Array.isArray(params['content'])) context.content = params['content'] as ContentBlock[];
        if (typeof params['structuredContent'] === 'object' && params['structuredContent'] !== null)
          context.structuredContent = params['structuredContent'] as JsonObject;
        return outcome(await handlers.onUpdateModelContext(context));
      }
      case 'ui/request-display-mode': {
        const current =
          typeof this.hostContext['displayMode'] === 'string' ? this.hostContext['displayMode'] : 'inline';
        const mode = typeof params['mode'] === 'string' ? params['mode'] : current;
        return {
          mode: handlers.onRequestDisplayMode === undefined ? current : await handlers.onRequestDisplayMode(mode),
        };
      }
      default:
        throw rpcError(METHOD_NOT_FOUND, `method not found: ${method}`);
    }
  }

  /**
   * `tools/call` from the app: only a tool of the app's own server whose visibility includes
   * `app`, and only when the host's `approve` hook agrees (spec: Visibility).
   */
  private async callTool(params: JsonObject): Promise<CallToolResult> {
    const { link } = this.options;
    const name = params['name'];
    if (typeof name !== 'string' || name === '')
      throw rpcError(ErrorCode.InvalidParams, 'tools/call needs a tool name');
    const given = params['arguments'];
    if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given)))
      throw rpcError(ErrorCode.InvalidParams, 'tools/call arguments must be an object');
    let args = (given ?? {}) as JsonObject;
    const signal = this.abort.signal;
    const tool = await link.findTool(name, { signal });
    if (tool === undefined)
      throw denied(link.server, name, 'unknown-tool', `no tool ${JSON.stringify(name)} on this app's server`);
    if (!isAppCallable(tool))
      throw denied(link.server, name, 'not-app-callable', `tool ${JSON.stringify(name)} is not callable by apps`);
    if (this.options.approve !== undefined) {
      let decision: AppToolCallDecision;
      try {
        decision = await this.options.approve(
          Object.freeze({ server: link.server, name, arguments: args, tool, resourceUri: this.options.resource?.uri }),
          { signal },
        );
      } catch (error) {
        this.report(error);
        decision = false;
      }
      const allow = typeof decision === 'boolean' ? decision : decision?.allow === true;
      if (!allow) {
        const reason =
          typeof decision === 'object' && typeof decision.reason === 'string' ? `: ${decision.reason}` : '';
        throw denied(link.server, name, 'denied', `the host refused the call to ${JSON.stringify(name)}${reason}`);
      }
      if (typeof decision === 'object' && decision.arguments !== undefined) args = decision.arguments;
    }
    return link.callTool(name, args, { signal });
  }

  private async bounded<T>(call: () => Promise<T>): Promise<T> {
    const limit = this.options.maxConcurrentCalls ?? 8;
    if (this.inFlight >= limit)
      throw rpcError(ErrorCode.InternalError, `too many calls in flight (at most ${limit}); try again`);
    this.inFlight++;
    try {
      return await call();
    } finally {
      this.inFlight--;
    }
  }

  private hostCapabilities(): JsonObject {
    const { resource } = this.options;
    const handlers = this.options;
    const modalities = { text: {}, image: {}, resource: {}, resourceLink: {}, structuredContent: {} };
    return {
      serverTools: {},
      serverResources: {},
      logging: {},
      ...(handlers.onOpenLink !== undefined && { openLinks: {} }),
      ...(handlers.onDownloadFile !== undefined && { downloadFile: {} }),
      ...(handlers.onMessage !== undefined && { message: modalities }),
      ...(handlers.onUpdateModelContext !== undefined && { updateModelContext: modalities }),
      ...(resource !== undefined && {
        sandbox: {
          ...(resource.csp !== undefined && { csp: resource.csp }),
          ...(resource.permissions !== undefined && { permissions: resource.permissions }),
        },
      }),
    };
  }

  /** Sends a notification now, or once the app is initialized (nothing reaches it before). */
  private notify(method: string, params: JsonObject): void {
    if (this.stateValue === 'closed') return;
    const message: JsonRpcMessage = { jsonrpc: '2.0', method, params };
    if (this.stateValue === 'connecting') this.queue.push(message);
    else this.write(message);
  }

  private write(message: JsonRpcMessage): void {
    if (this.stateValue === 'closed') return;
    try {
      this.options.port.send(message);
    } catch (error) {
      this.report(error);
    }
  }

  private run(handler: () => void): void {
    try {
      handler();
    } catch (error) {
      this.report(error);
    }
  }

  private report(error: unknown): void {
    try {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A throwing onError must not break the session.
    }
  }
}

function outcome(value: AppRequestOutcome): JsonObject {
  if (value === false) return { isError: true };
  if (typeof value === 'object' && value !== null && value.isError === true) return { isError: true };
  return {};
}

function rpcError(code: number, message: string): McpError {
  return new McpError(code, message, { local: true });
}

function denied(server: string, name: string, reason: AppToolCallDenial, message: string): AppToolCallDeniedError {
  return new AppToolCallDeniedError(message, { server, name, reason });
}
