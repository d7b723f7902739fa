import {
  ConnectionClosedError,
  InputRequiredError,
  InvalidArgumentError,
  ProtocolError,
  ResourceNotFoundError,
  RpcError,
  UnsupportedProtocolVersionError,
  VersionNegotiationError,
} from '../errors/errors.js';
import { ErrorCode } from '../errors/codes.js';
import { isObject, type JsonObject, type JsonRpcNotification } from '../jsonrpc/messages.js';
import { JsonRpcSession, type SessionRequestOptions } from '../jsonrpc/session.js';
import {
  MetaKey,
  type CallToolResult,
  type CompleteResult,
  type DiscoverResult,
  type GetPromptResult,
  type Implementation,
  type InputRequiredResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  type LoggingMessage,
  type PromptReference,
  type ReadResourceResult,
  type ResourceTemplateReference,
  type ServerCapabilities,
} from '../types/protocol.js';
import type { CallOptions } from './callOptions.js';
import { resolveClientOptions, type ClientOptions, type ResolvedClientOptions } from './options.js';
import { checkListPage, requireArray, requireObject, resultKind } from './results.js';

/** Connection state of an {@link McpClient}. */
export type ClientState = 'new' | 'connecting' | 'connected' | 'closed';

/** `{ cursor }` for one page of a list. Omit `cursor` for the first page; `""` is a valid cursor. */
export interface PageParams {
  cursor?: string | undefined;
}

/**
 * An MCP client for one server, speaking the 2026-07-28 wire (stateless: every request
 * carries `_meta` with the protocol version, client capabilities and client info).
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
export class McpClient {
  private readonly options: ResolvedClientOptions;
  private readonly session: JsonRpcSession;
  private stateValue: ClientState = 'new';
  private negotiatedVersion: string | undefined;
  private discovered: DiscoverResult | undefined;
  /** `_meta` fields shared by every request; copied per request, never mutated. */
  private baseMeta: JsonObject;
  /** Per-call log listeners of calls in flight that asked for a log level. */
  private readonly callLogListeners = new Set<(message: LoggingMessage) => void>();

  /** @throws InvalidArgumentError (-32602) when an option is invalid. */
  constructor(options: ClientOptions) {
    this.options = resolveClientOptions(options);
    this.baseMeta = this.makeBaseMeta(this.options.protocolVersions[0] as string);
    this.session = new JsonRpcSession({
      transport: this.options.transport,
      timers: this.options.timers,
      onNotification: (notification) => this.handleNotification(notification),
      onError: this.options.onError,
      onClose: () => {
        this.stateValue = 'closed';
      },
    });
  }

  /** `new` → `connecting` → `connected` → `closed`. */
  get state(): ClientState {
    return this.stateValue;
  }

  /** The protocol version in use, once connected. */
  get protocolVersion(): string | undefined {
    return this.negotiatedVersion;
  }

  /** The `server/discover` result kept from `connect()` (or the last `discover()`). */
  get serverDiscovery(): DiscoverResult | undefined {
    return this.discovered;
  }

  /** The server's capabilities from discovery. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.discovered?.capabilities;
  }

  /** The server's self-reported identity (`_meta["io.modelcontextprotocol/serverInfo"]`); display only. */
  get serverInfo(): Implementation | undefined {
    return this.discovered?._meta?.[MetaKey.serverInfo];
  }

  /** The server's `instructions` for models, if it sent any. */
  get instructions(): string | undefined {
    return this.discovered?.instructions;
  }

  /** Who the server is as this client knows it (the transport's command line or URL). */
  get serverIdentity(): string {
    return this.options.transport.serverIdentity;
  }

  /**
   * Starts the transport and sends `server/discover` (spec: server/discover and
   * basic/versioning). On -32022 it retries once with a version from `data.supported` that
   * this client also speaks.
   *
   * @returns the DiscoverResult (also kept: see {@link serverDiscovery}).
   * @throws VersionNegotiationError (-32022) when no version is shared, naming both lists;
   *   ConnectionClosedError (-32000) when the transport cannot start or closes; any error of
   *   `server/discover` itself. A failed connect closes the transport.
   */
  async connect(options: CallOptions = {}): Promise<DiscoverResult> {
    if (this.stateValue !== 'new') throw new ConnectionClosedError(`connect: client is ${this.stateValue}`, { reason: `client is ${this.stateValue}` });
    this.stateValue = 'connecting';
    try {
      await this.session.start();
      const result = await this.negotiate(options);
      if (this.stateValue === 'connecting') this.stateValue = 'connected';
      return result;
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  private async negotiate(options: CallOptions): Promise<DiscoverResult> {
    const ours = this.options.protocolVersions;
    let version = ours[0] as string;
    for (let attempt = 0; ; attempt++) {
      this.baseMeta = this.makeBaseMeta(version);
      let result: DiscoverResult;
      try {
        result = await this.discover(options);
      } catch (error) {
        if (!(error instanceof UnsupportedProtocolVersionError) || attempt > 0) throw error;
        const data = error.data as { supported?: unknown } | undefined;
        const theirs = Array.isArray(data?.supported) ? data.supported.filter((v): v is string => typeof v === 'string') : [];
        const pick = ours.find((v) => theirs.includes(v));
        if (pick === undefined) throw new VersionNegotiationError({ clientSupported: [...ours], serverSupported: theirs }, error);
        version = pick;
        continue;
      }
      if (!result.supportedVersions.includes(version)) {
        const pick = ours.find((v) => result.supportedVersions.includes(v));
        if (pick === undefined) throw new VersionNegotiationError({ clientSupported: [...ours], serverSupported: result.supportedVersions });
        version = pick;
        this.baseMeta = this.makeBaseMeta(version);
      }
      this.negotiatedVersion = version;
      return result;
    }
  }

  /**
   * Sends `server/discover` and keeps the result (spec: server/discover).
   * @throws ProtocolError (-32600) if `supportedVersions` or `capabilities` is missing.
   */
  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    const result = await this.call('server/discover', {}, options);
    const versions = requireArray('server/discover', result, 'supportedVersions');
    if (!versions.every((v) => typeof v === 'string')) {
      throw new ProtocolError('result.supportedVersions must hold strings', { method: 'server/discover', value: result });
    }
    requireObject('server/discover', result, 'capabilities');
    this.discovered = result as DiscoverResult;
    return this.discovered;
  }

  /** One page of `tools/list` (spec: server/tools). Malformed tools are reported and left out. */
  async listTools(params: PageParams = {}, options: CallOptions = {}): Promise<ListToolsResult> {
    return (await this.listPage('tools/list', params, options)) as ListToolsResult;
  }

  /** One page of `prompts/list` (spec: server/prompts). */
  async listPrompts(params: PageParams = {}, options: CallOptions = {}): Promise<ListPromptsResult> {
    return (await this.listPage('prompts/list', params, options)) as ListPromptsResult;
  }

  /** One page of `resources/list` (spec: server/resources). */
  async listResources(params: PageParams = {}, options: CallOptions = {}): Promise<ListResourcesResult> {
    return (await this.listPage('resources/list', params, options)) as ListResourcesResult;
  }

  /** One page of `resources/templates/list` (spec: server/resources, Resource Templates). */
  async listResourceTemplates(params: PageParams = {}, options: CallOptions = {}): Promise<ListResourceTemplatesResult> {
    return (await this.listPage('resources/templates/list', params, options)) as ListResourceTemplatesResult;
  }

  /**
   * `resources/read` (spec: server/resources). An empty `contents` array is a successful read
   * of an empty resource. Use `viewContents()` to tell text from bytes without guessing.
   * @throws ResourceNotFoundError for -32602 with `data.uri` (2026-07-28) or -32002 (legacy);
   *   `code` and `data` stay as the server sent them.
   */
  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    if (typeof uri !== 'string' || uri === '') throw new InvalidArgumentError('uri', uri, 'expected a non-empty URI string (RFC 3986)');
    try {
      const result = await this.call('resources/read', { uri }, options);
      requireArray('resources/read', result, 'contents');
      return result as ReadResourceResult;
    } catch (error) {
      throw asNotFound(error, uri);
    }
  }

  /**
   * `prompts/get` with string arguments (spec: server/prompts).
   * @throws ProtocolError (-32600) if the result has no `messages` array.
   */
  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('name', name, 'expected a prompt name');
    const result = await this.call('prompts/get', { name, arguments: args }, options);
    requireArray('prompts/get', result, 'messages');
    return result as GetPromptResult;
  }

  /**
   * `tools/call` (spec: server/tools). A tool that failed reports `isError: true` in a
   * successful result; only protocol failures reject.
   * @throws ProtocolError (-32600) if the result has no `content` array.
   */
  async callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<CallToolResult> {
    if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('name', name, 'expected a tool name');
    if (!isObject(args)) throw new InvalidArgumentError('arguments', args, 'expected an object');
    const result = await this.call('tools/call', { name, arguments: args }, options);
    requireArray('tools/call', result, 'content');
    return result as CallToolResult;
  }

  /**
   * `completion/complete`: suggestions for one argument of a prompt or resource template
   * (spec: server/utilities/completion). `context.arguments` gives already-chosen values.
   */
  async complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options: CallOptions = {},
  ): Promise<CompleteResult> {
    const params: JsonObject = { ref, argument };
    if (context !== undefined) params['context'] = context;
    const result = await this.call('completion/complete', params, options);
    const completion = requireObject('completion/complete', result, 'completion');
    requireArray('completion/complete', completion, 'values');
    return result as CompleteResult;
  }

  /**
   * Sends any request and returns its complete result, with the protocol `_meta` added. For
   * methods this class has no verb for yet; prefer the verbs, which check their results.
   */
  async request(method: string, params: JsonObject = {}, options: CallOptions = {}): Promise<JsonObject> {
    return this.call(method, params, options);
  }

  /** Closes the transport (and the server process on stdio). Pending calls reject. Idempotent. */
  async close(): Promise<void> {
    this.stateValue = 'closed';
    await this.session.close();
  }

  private async listPage(method: string, params: PageParams, options: CallOptions): Promise<JsonObject> {
    const wire: JsonObject = {};
    if (params.cursor !== undefined) {
      if (typeof params.cursor !== 'string') throw new InvalidArgumentError('cursor', params.cursor, 'expected a string');
      wire['cursor'] = params.cursor;
    }
    const result = await this.call(method, wire, options);
    return checkListPage(method, result, this.options.onError);
  }

  /** One request with the protocol `_meta`, and its `resultType` checked. */
  private async call(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject> {
    const meta: JsonObject = { ...this.baseMeta };
    if (options.meta !== undefined) Object.assign(meta, options.meta);
    if (options.logLevel !== undefined) meta[MetaKey.logLevel] = options.logLevel;
    params['_meta'] = meta;

    const onLog = options.logLevel !== undefined ? options.onLog : undefined;
    if (onLog !== undefined) this.callLogListeners.add(onLog);
    const sessionOptions: SessionRequestOptions = {
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? this.options.resetTimeoutOnProgress,
      onProgress: options.onProgress,
      onRelatedNotification: onLog === undefined ? undefined : (notification) => this.deliverLog(notification, onLog),
    };
    try {
      const result = await this.session.request(method, params, sessionOptions);
      if (resultKind(method, result) === 'input_required') throw new InputRequiredError(method, result as InputRequiredResult);
      return result;
    } catch (error) {
      if (error instanceof RpcError && error.code === ErrorCode.UnsupportedProtocolVersion && !(error instanceof UnsupportedProtocolVersionError)) {
        throw new UnsupportedProtocolVersionError({ code: error.code, message: error.message, data: error.data }, method);
      }
      throw error;
    } finally {
      if (onLog !== undefined) this.callLogListeners.delete(onLog);
    }
  }

  private makeBaseMeta(version: string): JsonObject {
    const meta: JsonObject = {
      [MetaKey.protocolVersion]: version,
      [MetaKey.clientCapabilities]: this.options.capabilities,
    };
    if (this.options.sendClientInfo) meta[MetaKey.clientInfo] = this.options.clientInfo;
    return meta;
  }

  private handleNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/message') {
      const listeners = this.callLogListeners;
      if (listeners.size === 0) {
        this.deliverLog(notification, this.options.onLog);
        return;
      }
      for (const listener of listeners) this.deliverLog(notification, listener);
      return;
    }
    this.options.onNotification?.(notification);
  }

  private deliverLog(notification: JsonRpcNotification, listener: ((message: LoggingMessage) => void) | undefined): void {
    if (listener === undefined) return;
    const params = notification.params;
    if (!isObject(params) || typeof params['level'] !== 'string' || !('data' in params)) {
      this.options.onError(new ProtocolError('malformed notifications/message; ignored', { method: notification.method, value: notification }));
      return;
    }
    try {
      listener(params as unknown as LoggingMessage);
    } catch (error) {
      this.options.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** Classifies a resources/read failure as not-found when the server said so (B10). */
function asNotFound(error: unknown, uri: string): unknown {
  if (!(error instanceof RpcError) || error instanceof ResourceNotFoundError) return error;
  const data = error.data as { uri?: unknown } | undefined;
  const notFound =
    error.code === ErrorCode.ResourceNotFoundLegacy ||
    (error.code === ErrorCode.InvalidParams && (typeof data?.uri === 'string' || /not found/i.test(error.message)));
  return notFound ? new ResourceNotFoundError({ code: error.code, message: error.message, data: error.data }, uri) : error;
}
