import type { Transport } from '../transport/transport.js';
import type { ClientCapabilities, Implementation, LoggingMessage } from '../wire/protocol.js';
import { MODERN_PROTOCOL_VERSIONS } from '../wire/protocol.js';
import { checkAcceptLanguage } from '../wire/language.js';
import { systemClock, systemWallClock, type Clock, type Timers, type WallClock } from '../util/clock.js';
import { boundedTimers } from '../util/timerBounds.js';
import type { JsonRpcNotification } from '../wire/messages.js';
import { InvalidArgumentError } from '../errors/errors.js';
import { capabilitiesFor, checkInputHandlers, type InputHandlers } from '../inputRequired/handlers.js';
import { DEFAULT_MAX_ROUNDS } from '../inputRequired/limits.js';
import type { ResponseCacheOptions } from '../cache/options.js';
import type { SubscriptionClientOptions } from '../subscriptions/types.js';
import { resolveSubscriptionOptions, type ResolvedSubscriptionOptions } from '../subscriptions/options.js';
import { DEFAULT_PROBE_TIMEOUT_MS, LEGACY_PROTOCOL_VERSIONS, type EraMemory, type EraSetting } from '../era/era.js';
import type { ResolvedTelemetry } from '../observability/telemetry.js';
import { telemetryOf, type ClientTelemetry } from '../observability/clientTelemetry.js';
import { resolveDebug, type DebugOption, type DebugSink } from '../observability/debug.js';
import { resolveTasksOptions, type ResolvedTasksOptions, type TasksOptions } from '../tasks/options.js';
import { resolveReconnectOptions, type ReconnectOptions, type ResolvedReconnectPolicy } from '../reconnect/policy.js';
import type { InputRequiredMode } from '../wire/callOptions.js';
import { withAppsExtension } from '../apps/capability.js';
import { DEFAULT_MAX_APP_HTML_BYTES } from '../apps/constants.js';

/**
 * Response cache settings; `serverIdentity`, `clock`, `onError` and `credentials` (the
 * transport's `credentialFor`) come from the client.
 */
export type ClientCacheOptions = Omit<ResponseCacheOptions, 'serverIdentity' | 'clock' | 'onError' | 'credentials'>;

/** Settings of the MCP Apps extension ({@link ClientOptions.apps}). */
export interface AppsOptions {
  /** Largest UI resource `readAppResource` accepts, in bytes of HTML (UTF-8). @default 1048576 (1 MiB) */
  maxHtmlBytes?: number | undefined;
}

/** Options for `new McpClient(options)`. */
export interface ClientOptions {
  /** The connection to the server. One client owns one transport. */
  transport: Transport;
  /** This client's name and version, sent as `_meta["io.modelcontextprotocol/clientInfo"]`. */
  clientInfo: Implementation;
  /**
   * Capabilities declared on every request (`_meta["io.modelcontextprotocol/clientCapabilities"]`).
   * With `handlers`, the `elicitation`, `sampling` and `roots` keys are derived from the handlers
   * and must not be given here. @default {} (plus what `handlers` implies)
   */
  capabilities?: ClientCapabilities | undefined;
  /**
   * The host's answers to a server's input requests inside `input_required` results:
   * elicitation (form and/or URL mode), sampling, roots (spec: basic/patterns/mrtr,
   * client/elicitation, client/sampling, client/roots). The declared capabilities follow them
   * exactly. @default none
   */
  handlers?: InputHandlers | undefined;
  /**
   * `auto`: answer `input_required` with `handlers` and resend the request until it completes.
   * `manual`: throw `InputRequiredError` (-33003) carrying the result, for the host to drive.
   * @default "auto"
   */
  inputRequired?: InputRequiredMode | undefined;
  /** Most `input_required` retries per call. @default 10 */
  maxInputRounds?: number | undefined;
  /**
   * Response cache for `server/discover`, the four lists and `resources/read`, driven by the
   * server's `ttlMs` / `cacheScope` (spec: server/utilities/caching). `false` turns it off.
   * @default {} (on: in-memory, 5000 entries / 50 MiB, TTL capped at 24 h)
   */
  cache?: false | ClientCacheOptions | undefined;
  /**
   * Subscriptions and live lists (spec: basic/patterns/subscriptions): how a stream that ended
   * unexpectedly is reopened, the live-list debounce and retry backoff, the jitter source.
   * @default see {@link SubscriptionClientOptions}
   */
  subscriptions?: SubscriptionClientOptions | undefined;
  /**
   * The Tasks extension (`io.modelcontextprotocol/tasks`; docs/tasks.md): with it, `callTool`
   * declares the extension whenever the server lists it in `server/discover`, and a tool call
   * the server turns into a task is followed to its end (or handed over with `task: 'manual'`).
   * `true` takes the defaults; the store holds what `resumeTask` needs after a reconnect.
   * @default off (a single call can still ask with its `task` option)
   */
  tasks?: TasksOptions | boolean | undefined;
  /**
   * The MCP Apps extension (`io.modelcontextprotocol/ui`; docs/apps.md): with it, the client
   * declares `extensions["io.modelcontextprotocol/ui"]: { mimeTypes: ["text/html;profile=mcp-app"] }`
   * on every request (and in `initialize`), so servers offer their UI tools, and
   * `readAppResource` caps UI HTML at `maxHtmlBytes`. `true` takes the defaults.
   * @default off (nothing declared; `readAppResource` still works, with the default cap)
   */
  apps?: AppsOptions | boolean | undefined;
  /**
   * Reconnecting after the connection drops (a stdio server that exits, a WebSocket that
   * closes), over transports that can start again (`capabilities.restartable`: stdio,
   * WebSocket). The client then negotiates again, reopens its subscriptions (each hears
   * `resync`), drops the server's cache entries, sends again the requests the drop cut short
   * (never a `tools/call`), and holds new ones until it is back. Backoff with jitter, and a
   * budget against crash loops; `close()` stops it at once. `false` never reconnects: a drop
   * closes the client. Details: docs/transports.md, "Reconnecting".
   * @default {} (on: see {@link ReconnectOptions} for each default)
   */
  reconnect?: false | ReconnectOptions | undefined;
  /** Send `clientInfo` on every request, as the spec recommends. @default true */
  sendClientInfo?: boolean | undefined;
  /**
   * The user's language preference, sent on every request as
   * `_meta["io.modelcontextprotocol/acceptLanguage"]` and, over HTTP (Streamable HTTP of both
   * eras, HTTP+SSE), as the `Accept-Language` header: an `Accept-Language` value (RFC 9110 §12.5.4) such as
   * `"fr-CA,fr;q=0.9,en;q=0.5"`. A call's `acceptLanguage` replaces it for that call. It is part
   * of every cache key, so a list cached in one language is never served to a request in another.
   * A server may ignore it; one that answers by language says so in
   * `_meta["io.modelcontextprotocol/contentLanguage"]` (read it with `contentLanguage(result)`).
   * Follows SEP-2792, a draft: the key and its rules may change before a revision adopts them.
   * See docs/caching.md.
   * @throws InvalidArgumentError (-32602) from the constructor for a value that is not an
   *   `Accept-Language` value.
   * @default none (no language is sent)
   */
  acceptLanguage?: string | undefined;
  /** Protocol versions this client accepts, most preferred first. @default ["2026-07-28"] */
  protocolVersions?: readonly string[] | undefined;
  /**
   * Which era to speak (spec 2026-07-28: basic/versioning, Backward Compatibility). `auto`
   * probes with `server/discover` and falls back to the `initialize` handshake of 2025-11-25
   * and earlier when the answer is not a recognised modern one; `modern` never falls back;
   * `legacy` sends `initialize` at once. Details: docs/legacy.md. @default "auto"
   */
  era?: EraSetting | undefined;
  /**
   * How long the `server/discover` probe waits, in ms, before `auto` calls the server legacy
   * (a legacy stdio server may never answer it). Transports that answer every request
   * (`capabilities.answersEveryRequest`: Streamable HTTP) use the normal timeouts instead: an
   * HTTP server always answers, and an authorization flow may run inside the request.
   * @default 5000
   */
  probeTimeoutMs?: number | undefined;
  /**
   * Where era verdicts are remembered, per `transport.serverIdentity`; share one (a
   * `Map<string, EraVerdict>` will do) between clients so a reconnect to a known server skips
   * the probe (and, for `legacy-sse`, goes straight to the HTTP+SSE transport). A remembered verdict that fails is forgotten and the server probed again.
   * @default a new empty memory per client (nothing is remembered across clients)
   */
  eraMemory?: EraMemory | undefined;
  /**
   * Legacy versions offered in `initialize`, most preferred first; the server's answer must be
   * one of them. @default ["2025-11-25", "2025-06-18", "2025-03-26"]
   */
  legacyProtocolVersions?: readonly string[] | undefined;
  /**
   * Freshness given to cacheable legacy results, in ms: legacy servers send no `ttlMs`, so by
   * default nothing from them is served from the cache (ttl 0). A positive value stamps
   * `ttlMs` on the results that lack one (scope stays private). Not used for a list that an open
   * subscription hears change: that list is kept until its `list_changed` (docs/caching.md).
   * @default 0
   */
  legacyTtlMs?: number | undefined;
  /** Default idle timeout per request in ms. @default 60000 */
  timeoutMs?: number | undefined;
  /** Default hard limit per request in ms, whatever progress arrives. @default 600000 */
  maxTotalTimeoutMs?: number | undefined;
  /** Whether progress notifications restart the idle timeout by default. @default true */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Receives every `notifications/message` not claimed by a call's own `onLog`. */
  onLog?: ((message: LoggingMessage) => void) | undefined;
  /**
   * Receives notifications the client does not handle itself (vendor notifications included).
   * Subscription traffic (`notifications/subscriptions/acknowledged`, the four change
   * notifications, and `notifications/cancelled` for a listen request) goes to subscriptions.
   */
  onNotification?: ((notification: JsonRpcNotification) => void) | undefined;
  /**
   * Receives non-fatal problems: lines that are not JSON, responses for unknown ids, messages
   * that break the schema. They never reject a call of their own. @default ignore
   */
  onError?: ((error: Error) => void) | undefined;
  /** Monotonic clock for timeouts and cache freshness. @default performance.now */
  clock?: Clock | undefined;
  /** Wall clock, for `retryAt` (when a reconnect attempt starts). @default Date.now */
  wallClock?: WallClock | undefined;
  /**
   * Timer functions for the client's timeouts (per request, total budgets, a wait for a
   * reconnect), the intervals of task polls and live lists, and the live-list debounce and
   * retry. The waits between retries (HTTP retries of transient failures, task poll retries,
   * reconnect attempts, listen reopens) do not use them: they run on the global `setTimeout`,
   * so `vi.useFakeTimers()` drives them. @default the globals, looked up per call (fake-timer
   * friendly)
   */
  timers?: Timers | undefined;
  /**
   * OpenTelemetry tracing: pass `openTelemetry({ api })` (imported from `mcp-live/telemetry`; the import
   * is what brings the telemetry code in) with the `@opentelemetry/api` module (an optional
   * peer dependency; the client never loads it itself). Each public call gets a CLIENT span
   * named as the OpenTelemetry conventions for MCP say (`tools/call add`, `resources/read`),
   * with the method, the server, the cache outcome, `input_required` rounds and pages; its
   * trace context goes into the `_meta` of every request the call sends, under `traceparent`,
   * `tracestate` and `baggage` (spec 2026-07-28: basic, `_meta`). With a meter (by default
   * `api.metrics.getMeter("mcp-live")`), the histograms `mcp.client.operation.duration` and
   * `mcp.client.session.duration`, in seconds. Details: docs/observability.md.
   * @default off (no span, no `_meta` keys, no per-call work)
   */
  telemetry?: ClientTelemetry | undefined;
  /**
   * The debug log: wire messages and the client's decisions (cache outcome, `input_required`
   * rounds, reconnects, era detection), with credentials redacted. `true` writes to
   * `console.debug`; a function receives each {@link DebugEntry}; `false` turns it off even
   * when the environment asks for it.
   * @default off, unless the environment variable `MCP_LIVE_DEBUG` is `1` or `true` (read
   *   through `globalThis.process?.env`), which means `true`
   */
  debug?: DebugOption | undefined;
}

/** {@link ClientOptions} with every default filled in. */
export interface ResolvedClientOptions {
  transport: Transport;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  handlers: InputHandlers | undefined;
  inputRequired: InputRequiredMode;
  maxInputRounds: number;
  cache: false | ClientCacheOptions;
  subscriptions: ResolvedSubscriptionOptions;
  tasks: ResolvedTasksOptions | undefined;
  /** The MCP Apps settings when the extension is declared; `undefined` when it is not. */
  apps: { maxHtmlBytes: number } | undefined;
  reconnect: ResolvedReconnectPolicy | false;
  sendClientInfo: boolean;
  acceptLanguage: string | undefined;
  protocolVersions: readonly string[];
  era: EraSetting;
  probeTimeoutMs: number;
  eraMemory: EraMemory;
  legacyProtocolVersions: readonly string[];
  legacyTtlMs: number;
  timeoutMs: number;
  maxTotalTimeoutMs: number;
  resetTimeoutOnProgress: boolean;
  onLog: ((message: LoggingMessage) => void) | undefined;
  onNotification: ((notification: JsonRpcNotification) => void) | undefined;
  onError: (error: Error) => void;
  clock: Clock;
  wallClock: WallClock;
  timers: Timers;
  telemetry: ResolvedTelemetry | undefined;
  /** The debug sink (it never throws), or `undefined` when the log is off. */
  debug: DebugSink | undefined;
}

/** Fills defaults and checks values. Throws `InvalidArgumentError` (code -32602) on a bad option. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', options, 'expected an object');
  const { transport, clientInfo } = options;
  if (typeof transport !== 'object' || transport === null || typeof transport.send !== 'function') {
    throw new InvalidArgumentError('transport', transport, 'expected a Transport');
  }
  if (typeof clientInfo?.name !== 'string' || typeof clientInfo.version !== 'string') {
    throw new InvalidArgumentError('clientInfo', clientInfo, 'expected { name: string, version: string }');
  }
  const protocolVersions = options.protocolVersions ?? MODERN_PROTOCOL_VERSIONS;
  if (protocolVersions.length === 0)
    throw new InvalidArgumentError('protocolVersions', protocolVersions, 'must name at least one version');
  const timeoutMs = positive('timeoutMs', options.timeoutMs, 60_000);
  checkInputHandlers(options.handlers);
  const declared = options.capabilities ?? {};
  if (options.handlers !== undefined) {
    for (const key of ['elicitation', 'sampling', 'roots'] as const) {
      if (declared[key] !== undefined)
        throw new InvalidArgumentError(
          `capabilities.${key}`,
          declared[key],
          'is derived from handlers; do not declare it too',
        );
    }
  }
  const inputRequired = options.inputRequired ?? 'auto';
  if (inputRequired !== 'auto' && inputRequired !== 'manual')
    throw new InvalidArgumentError('inputRequired', inputRequired, 'expected "auto" or "manual"');
  const era = options.era ?? 'auto';
  if (era !== 'auto' && era !== 'modern' && era !== 'legacy')
    throw new InvalidArgumentError('era', era, 'expected "auto", "modern" or "legacy"');
  const legacyProtocolVersions = options.legacyProtocolVersions ?? LEGACY_PROTOCOL_VERSIONS;
  if (
    !Array.isArray(legacyProtocolVersions) ||
    legacyProtocolVersions.length === 0 ||
    !legacyProtocolVersions.every((v) => typeof v === 'string' && v !== '')
  ) {
    throw new InvalidArgumentError(
      'legacyProtocolVersions',
      legacyProtocolVersions,
      'expected a non-empty array of version strings',
    );
  }
  const eraMemory = options.eraMemory ?? new Map();
  if (
    typeof eraMemory !== 'object' ||
    eraMemory === null ||
    typeof eraMemory.get !== 'function' ||
    typeof eraMemory.set !== 'function' ||
    typeof eraMemory.delete !== 'function'
  ) {
    throw new InvalidArgumentError('eraMemory', eraMemory, 'expected { get, set, delete } (a Map will do)');
  }
  const legacyTtlMs = options.legacyTtlMs ?? 0;
  if (typeof legacyTtlMs !== 'number' || !Number.isFinite(legacyTtlMs) || legacyTtlMs < 0)
    throw new InvalidArgumentError('legacyTtlMs', legacyTtlMs, 'expected a finite number of ms >= 0');
  const onError = options.onError ?? (() => {});
  const maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_ROUNDS;
  if (!Number.isInteger(maxInputRounds) || maxInputRounds < 0)
    throw new InvalidArgumentError('maxInputRounds', maxInputRounds, 'expected an integer >= 0');
  const apps = resolveApps(options.apps);
  const capabilities =
    options.handlers === undefined ? declared : { ...declared, ...capabilitiesFor(options.handlers) };
  return {
    transport,
    clientInfo,
    capabilities: apps === undefined ? capabilities : withAppsExtension(capabilities),
    handlers: options.handlers,
    inputRequired,
    maxInputRounds,
    cache: options.cache ?? {},
    subscriptions: resolveSubscriptionOptions(options.subscriptions),
    tasks: resolveTasksOptions(options.tasks),
    apps,
    reconnect: resolveReconnectOptions(options.reconnect),
    sendClientInfo: options.sendClientInfo ?? true,
    acceptLanguage:
      options.acceptLanguage === undefined ? undefined : checkAcceptLanguage(options.acceptLanguage, 'acceptLanguage'),
    protocolVersions,
    era,
    probeTimeoutMs: positive('probeTimeoutMs', options.probeTimeoutMs, DEFAULT_PROBE_TIMEOUT_MS),
    eraMemory,
    legacyProtocolVersions,
    legacyTtlMs,
    timeoutMs,
    maxTotalTimeoutMs: positive('maxTotalTimeoutMs', options.maxTotalTimeoutMs, 600_000),
    resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? true,
    onLog: options.onLog,
    onNotification: options.onNotification,
    onError,
    clock: options.clock ?? systemClock,
    wallClock: options.wallClock ?? systemWallClock,
    timers: boundedTimers(options.timers),
    telemetry: telemetryOf(options.telemetry),
    debug: resolveDebug(options.debug, onError),
  };
}

/** `apps`: `undefined` when off. Throws `InvalidArgumentError` for a bad `maxHtmlBytes`. */
function resolveApps(apps: AppsOptions | boolean | undefined): { maxHtmlBytes: number } | undefined {
  if (apps === undefined || apps === false) return undefined;
  if (apps !== true && (typeof apps !== 'object' || apps === null))
    throw new InvalidArgumentError('apps', apps, 'expected a boolean or { maxHtmlBytes }');
  const maxHtmlBytes = apps === true ? undefined : apps.maxHtmlBytes;
  if (maxHtmlBytes !== undefined && !(Number.isInteger(maxHtmlBytes) && maxHtmlBytes > 0))
    throw new InvalidArgumentError('apps.maxHtmlBytes', maxHtmlBytes, 'expected a positive integer number of bytes');
  return { maxHtmlBytes: maxHtmlBytes ?? DEFAULT_MAX_APP_HTML_BYTES };
}

/** Checks a duration option in ms. Throws `InvalidArgumentError` unless it is a positive number. */
export function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0))
    throw new InvalidArgumentError(name, value, 'expected a positive number of milliseconds');
  return value;
}
