/**
 * What the devtools show of a host: plain, JSON-safe data (no functions, no class instances, no
 * `Error` objects), redacted where the debug log redacts, so a snapshot can go to a page as it
 * is. Types only.
 */
import type { HostAvailability } from '../host/catalog/catalog.js';
import type { HostServerState } from '../host/servers/serverSlot.js';

/** An error as the devtools show it: class name, JSON-RPC code, message (redacted). */
export interface DevtoolsError {
  /** The class name, e.g. `ConnectionClosedError`. */
  readonly name: string;
  /** The JSON-RPC error code, when the error has one (every `McpError` does). */
  readonly code: number | undefined;
  /** The message, redacted and cut at 1024 characters. */
  readonly message: string;
}

/** The last reconnect attempt a server's client announced (`ClientEvent` `reconnecting`). */
export interface DevtoolsReconnect {
  /** Attempt number, from 1 in each reconnect. */
  readonly attempt: number;
  /** When that attempt starts, in ms since the epoch (in the past while it runs). */
  readonly retryAt: number;
  /** The wait before it, in ms. */
  readonly delayMs: number;
  /** True for the long wait once the quick retries are spent. */
  readonly coolDown: boolean;
  /** Why the connection dropped, or why the previous attempt failed: `process-exit`, `connect-failed`... */
  readonly cause: string;
}

/** One server of the host. */
export interface DevtoolsServer {
  /** Its name in the host. */
  readonly name: string;
  /** The host's state of it (`open`, `reconnecting`, `failed`...). */
  readonly state: HostServerState;
  /** The entry's transport type (`stdio`, `http`, `sse`, `ws`, `custom`). */
  readonly type: string | undefined;
  /** `modern` or `legacy`, once connected. */
  readonly era: string | undefined;
  /** The negotiated protocol version, once connected. */
  readonly protocolVersion: string | undefined;
  /** The server's self-reported `name version`, once connected. */
  readonly serverInfo: string | undefined;
  /** The capability names the server declared (`tools`, `prompts`, `resources`...), once connected. */
  readonly capabilities: readonly string[];
  /** Why it failed, or the last error of its lists (redacted). */
  readonly lastError: DevtoolsError | undefined;
  /** The last reconnect attempt announced since the server was last open; `undefined` once it reconnected. */
  readonly reconnect: DevtoolsReconnect | undefined;
  /** Reconnect attempts announced since the recorder attached, all reconnects together. */
  readonly reconnectAttempts: number;
  /** How its lists follow changes: `listen` (pushed) or `polling` (fetched every `pollIntervalMs`). */
  readonly updates: 'listen' | 'polling';
  /** With `updates: 'polling'`: why (`refused`, `unacknowledged`...). */
  readonly pollReason: string | undefined;
  /** With `updates: 'polling'`: how often its lists are fetched, in ms. */
  readonly pollIntervalMs: number | undefined;
  /** Its response cache's counters; `undefined` without a client or a cache. */
  readonly cache:
    | { readonly hits: number; readonly misses: number; readonly stores: number; readonly invalidations: number }
    | undefined;
}

/** One tool, prompt, resource or template of the catalog. */
export interface DevtoolsCatalogItem {
  /** Which list it is in. */
  readonly kind: 'tool' | 'prompt' | 'resource' | 'resourceTemplate';
  /** The server that lists it. */
  readonly server: string;
  /** The exposed name (tools, prompts), the URI (resources) or the URI template (templates). */
  readonly exposedName: string;
  /** The server's own name of it. */
  readonly name: string;
  /** `unavailable` while its server is away (reconnecting): still listed, not callable. */
  readonly availability: HostAvailability;
  /** The description or title, cut at 200 characters. */
  readonly description: string | undefined;
}

/** The host's catalog. */
export interface DevtoolsCatalog {
  /** Tools, prompts, resources, then templates, each in catalog order. */
  readonly items: readonly DevtoolsCatalogItem[];
  /** Items the catalog left out (filtered, unnamed), with why. */
  readonly leftOut: readonly {
    readonly kind: string;
    readonly server: string;
    readonly name: string;
    readonly reason: string;
  }[];
  /** Exposed names that collided (renamed, never dropped). */
  readonly collisions: readonly {
    readonly exposedName: string;
    readonly resolution: string;
    readonly servers: readonly string[];
  }[];
}

/**
 * One catalog event's difference: items as `kind name` (`tool github__create_issue`, `resource
 * file:///notes.txt`), with the state each server whose items moved was in just then. An item
 * `removed` while its server is `open` left through a list change of the server's own; items of
 * a server going away turn `unavailable` first.
 */
export interface DevtoolsCatalogChange {
  /** When the catalog changed, in ms since the epoch. */
  readonly at: number;
  /** Items that came into the catalog. */
  readonly added: readonly string[];
  /** Items that left it. */
  readonly removed: readonly string[];
  /** Items still listed whose server went away. */
  readonly unavailable: readonly string[];
  /** Items available again. */
  readonly available: readonly string[];
  /** Items past the 20 kept per list, all lists together. */
  readonly more: number;
  /** The servers whose items moved, with their state then. */
  readonly servers: readonly { readonly name: string; readonly state: HostServerState }[];
}

/**
 * How a request ended: `pending` while it runs; `refused` for a call the host refused before
 * any server was asked (a `refused` host event: no such tool, the server unavailable), which
 * has no server's request, no duration and its `HostRoutingError`.
 */
export type DevtoolsOutcome = 'pending' | 'ok' | 'error' | 'cancelled' | 'refused';

/**
 * One send of a request, as the client's caller made it: the first, an `input_required` round
 * (the answers to the server's input requests sent with the request again, under a new JSON-RPC
 * id), or the same send again after a reconnect. Retries below the caller (an HTTP retry of one
 * POST, the session's re-issue after a broken stream) are parts of one send.
 */
export interface DevtoolsAttempt {
  /** `first`, `round` (an `input_required` round) or `resend` (sent again after a reconnect). */
  readonly kind: 'first' | 'round' | 'resend';
  /** When it was sent, in ms after the request's `startedAt`. */
  readonly offsetMs: number;
  /** How long until its answer, in ms; `undefined` while it waits. */
  readonly durationMs: number | undefined;
  /**
   * What came back: `input_required` (the server asked for input; a round follows once it is
   * answered), `result` (any other result), `error`; `pending` while it waits.
   */
  readonly outcome: 'pending' | 'input_required' | 'result' | 'error';
}

/** One MCP request a server's client sent (through the host's middleware chain). */
export interface DevtoolsRequest {
  /** Unique per recorder, in the order requests started. */
  readonly id: number;
  /** The server's name in the host. */
  readonly server: string | undefined;
  /** The MCP method, e.g. `tools/call`. */
  readonly method: string;
  /** What it is about: the tool or prompt name, the resource URI; `undefined` for lists. */
  readonly target: string | undefined;
  /** When it started, in ms since the epoch. */
  readonly startedAt: number;
  /** How long it took, in ms; `undefined` while pending. */
  readonly durationMs: number | undefined;
  /** `pending` while it runs; `cancelled` when the caller's signal ended it. */
  readonly outcome: DevtoolsOutcome;
  /** Why it failed (`error`, `cancelled`); `undefined` otherwise. */
  readonly error: DevtoolsError | undefined;
  /** UTF-8 length of the result's JSON, measured only while a viewer listens; else `undefined`. */
  readonly bytes: number | undefined;
  /**
   * Its sends, in order: one for most requests, more for `input_required` rounds and sends
   * after a reconnect; none for a request the cache or a middleware answered, or one refused.
   */
  readonly attempts: readonly DevtoolsAttempt[];
}

/**
 * One entry of a server's response cache: what it answers, for whom, until when. A private
 * entry shows its metadata only (never its value), and its partition as a number the recorder
 * gave it (never the auth context, a token or a user id; the same user gives the same label
 * within one recorder).
 */
export interface DevtoolsCacheEntry {
  /** What the page names it by in an action: `e<n>`, a number the recorder gave its store key (never the key). */
  readonly id: string;
  /** The server's name in the host. */
  readonly server: string;
  /** The cached method, e.g. `resources/read`, `tools/list`. */
  readonly method: string;
  /**
   * What it is about: the uri (redacted, cut at 200 characters); for a list page, `first page`
   * or `page #<n>` (a cursor is opaque and may carry data: a number the recorder gave it, never
   * its value); `undefined` for `server/discover`.
   */
  readonly about: string | undefined;
  /** `public` (shared by every auth context) or `private`. */
  readonly scope: 'public' | 'private';
  /**
   * `public`; `host` (the host's own requests: its auth context, or none declared); `user <n>`
   * (another auth context, such as a `host.forUser` scope's, numbered in the order the recorder
   * first saw it).
   */
  readonly partition: string;
  /** The protocol version it was fetched with (and its language preference, if any). */
  readonly protocolVersion: string;
  /** When it was stored, in ms since the epoch. */
  readonly storedAt: number;
  /** When it stops being fresh, in ms since the epoch (`storedAt + ttlMs`): count down to it. */
  readonly expiresAt: number;
  /** Its TTL, in ms. */
  readonly ttlMs: number;
  /** Whether it was fresh when read (compare `expiresAt` with the clock for now). */
  readonly fresh: boolean;
  /** What it counts toward the store's byte bound, in bytes. */
  readonly bytes: number;
  /** A public entry's value as JSON, redacted and cut at 300 characters; `undefined` for a private one. */
  readonly preview: string | undefined;
}

/** One listen subscription of a server's client open now (spec: basic/patterns/subscriptions). */
export interface DevtoolsSubscription {
  /** The server's name in the host. */
  readonly server: string;
  /** Its listen request's id, once sent. */
  readonly id: string | undefined;
  /** `opening`, `open`, `reopening`, `closed`... */
  readonly state: string;
  /** What it asked for: `toolsListChanged`, `resource <uri>` (redacted, cut), `N task ids`. */
  readonly requested: readonly string[];
  /** What the server acknowledged, in the same names. */
  readonly honoured: readonly string[];
  /** What it asked for and the server left out. */
  readonly notHonoured: readonly string[];
  /** How many times its stream was reopened. */
  readonly reopens: number;
}

/** One notification a server's subscriptions heard. */
export interface DevtoolsHeard {
  /** The server's name in the host. */
  readonly server: string;
  /** `notifications/tools/list_changed`, `notifications/resources/updated`, `notifications/subscriptions/acknowledged`... */
  readonly method: string;
  /** The listen subscription it names, if any. */
  readonly subscription: string | undefined;
  /** The uri of a `resources/updated` (redacted, cut). */
  readonly uri: string | undefined;
  /** When it was heard, in ms since the epoch. */
  readonly at: number;
}

/** One task a server runs for a call (spec: ext-tasks), as its answers told it. */
export interface DevtoolsTask {
  /** The server's name in the host. */
  readonly server: string | undefined;
  /** The server's id of the task (cut at 64 characters). */
  readonly taskId: string;
  /** The tool whose call made it, when the recorder saw that call. */
  readonly tool: string | undefined;
  /** Its last status heard: `working`, `input_required`, `completed`, `failed`, `cancelled`. */
  readonly status: string;
  /** Its last `statusMessage`, redacted and cut at 200 characters. */
  readonly statusMessage: string | undefined;
  /** Each status heard, with when (ms since the epoch), oldest first: the first and the last 19. */
  readonly history: readonly { readonly status: string; readonly at: number }[];
}

/** One tool call waiting for its approval (through `DevtoolsRecorder.approve`). */
export interface DevtoolsApproval {
  /** Unique per recorder. */
  readonly id: number;
  /** The server the call goes to. */
  readonly server: string;
  /** The name the model called. */
  readonly exposedName: string;
  /** The tool's original name. */
  readonly name: string;
  /** The arguments, redacted as the debug log redacts them (credential-like keys read `[redacted]`). */
  readonly arguments: unknown;
  /** When the hook was asked, in ms since the epoch. */
  readonly since: number;
  /**
   * SHA-256 of the canonical JSON of the arguments exactly as they will be sent (the approval's
   * binding): an answer from the page names it, and applies only to these arguments.
   */
  readonly argumentsHash: string;
  /** Whether the page may answer it (`recorder.approve(hook, { fromPage: true })`). */
  readonly answerable: boolean;
}

/**
 * What `host.searchTools` ranks for a query, as the catalog view shows it (the model's tool
 * search: a name the query spells first scores over 1,000, then BM25 over the tool as the model
 * is given it; docs/host.md, "The context budget").
 */
export interface DevtoolsToolSearch {
  /** The query as asked (cut at 200 characters). */
  readonly query: string;
  /** Best first. */
  readonly matches: readonly {
    readonly exposedName: string;
    readonly server: string;
    /** The server's own name of the tool. */
    readonly name: string;
    /** The search's score: over 1,000 for a name the query spells, else BM25; 1 for each `select:` name. */
    readonly score: number;
  }[];
  /** Why nothing was found, when the search can tell (a server not open, a query without words). */
  readonly reason: string | undefined;
  /** `select:` names that named no tool. */
  readonly missing: readonly string[];
}

/** Everything the devtools show at one moment. */
export interface DevtoolsSnapshot {
  /** When it was taken, in ms since the epoch. */
  readonly at: number;
  /** Every server, in host order. */
  readonly servers: readonly DevtoolsServer[];
  /** The catalog as it is now. */
  readonly catalog: DevtoolsCatalog;
  /** What came into the catalog and what left it, one entry per change, oldest first (at most 100). */
  readonly catalogChanges: readonly DevtoolsCatalogChange[];
  /**
   * The kept requests, oldest first: the last `maxRequests`, and before them the last 100 that
   * ended in an error, which newer requests do not push out.
   */
  readonly requests: readonly DevtoolsRequest[];
  /** The tool calls waiting for their approval, oldest first. */
  readonly approvals: readonly DevtoolsApproval[];
  /**
   * Every server's cache entries, server by server, oldest stored first (at most 200 per server),
   * as last read: read by `readSnapshot()`, and for listeners at most once a second (empty in a
   * `snapshot()` of a recorder nobody listens to).
   */
  readonly cache: readonly DevtoolsCacheEntry[];
  /** The last 100 tasks seen, oldest first, with their status history. */
  readonly tasks: readonly DevtoolsTask[];
  /** Every server's listen subscriptions open now, in host order. */
  readonly subscriptions: readonly DevtoolsSubscription[];
  /** The last 200 notifications the subscriptions heard, all servers together, oldest first. */
  readonly heard: readonly DevtoolsHeard[];
}

/**
 * One change, with the new value of what changed: `servers` (a state, a reconnect attempt, a
 * switch to polling), `catalog` (a list changed, items came or went, availability; with the
 * history of such changes), `request`
 * (one started or ended: the same `id` twice), `approvals` (one came or was answered), `cache`
 * (the entries read again differ from the last reading), `tasks` (one came or changed status),
 * `subscriptions` (a notification was heard: with the subscriptions open then).
 */
export type DevtoolsChange =
  | { readonly type: 'servers'; readonly servers: readonly DevtoolsServer[] }
  | {
      readonly type: 'catalog';
      readonly catalog: DevtoolsCatalog;
      /** Every kept catalog change, the newest last (the one this change made, when items moved). */
      readonly catalogChanges: readonly DevtoolsCatalogChange[];
    }
  | { readonly type: 'request'; readonly request: DevtoolsRequest }
  | { readonly type: 'approvals'; readonly approvals: readonly DevtoolsApproval[] }
  | { readonly type: 'cache'; readonly cache: readonly DevtoolsCacheEntry[] }
  | { readonly type: 'tasks'; readonly tasks: readonly DevtoolsTask[] }
  | {
      readonly type: 'subscriptions';
      readonly subscriptions: readonly DevtoolsSubscription[];
      readonly heard: readonly DevtoolsHeard[];
    };
