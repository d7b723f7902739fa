/**
 * What the tasks of one client are given and borrow: the client's side of its `TaskManager`,
 * the options of `resumeTask`, and what the task machinery (loaded once a task exists) takes
 * from the manager that loaded it.
 */
import type { MaybePromise } from '../util/maybePromise.js';
import type { Clock, Timers } from '../util/clock.js';
import type { JsonObject } from '../wire/messages.js';
import type { CallOptions } from '../wire/callOptions.js';
import type {
  CallToolResult,
  InputRequest,
  InputResponse,
  ServerCapabilities,
  SubscriptionFilter,
} from '../wire/protocol.js';
import type { Subscription, SubscribeOptions } from '../subscriptions/types.js';
import type { ResolvedTasksOptions } from './options.js';

/** What the manager needs from its client. */
export interface TaskManagerDeps {
  /** `transport.serverIdentity`: the one server this client's tasks live on. */
  serverIdentity: string;
  /**
   * Whom the client acts for now, outside any call's start (its private cache partition), if it
   * declares it: a user scope's own client, the user; a host's shared client, the entry.
   */
  principal(): string | undefined;
  /** `ClientOptions.tasks`, resolved; `undefined` when the client did not turn tasks on. */
  options: ResolvedTasksOptions | undefined;
  /** Sends a request declaring the extension, never cancelled on the wire; resolves with its complete result. */
  send(method: string, params: JsonObject, options: CallOptions): Promise<JsonObject>;
  /** Answers input requests with the client's handlers. */
  fulfil(inputRequests: Record<string, InputRequest>, signal: AbortSignal): Promise<Record<string, InputResponse>>;
  /** The client's `subscribe`. */
  subscribe(filter: SubscriptionFilter, options: SubscribeOptions): Promise<Subscription>;
  /** Whether the extension may be declared now: the 2026-07-28 wire, and the server listed it. */
  offered(): boolean;
  /** The server's capabilities when the client speaks the 2025-11-25 wire to it, else `undefined`. */
  legacyCapabilities(): ServerCapabilities | undefined;
  /** The checks a `tools/call` result passes. */
  checkResult(toolName: string | undefined, result: JsonObject): MaybePromise<CallToolResult>;
  clock: Clock;
  timers: Timers;
  onError(error: unknown): void;
}

/** Options of `McpClient.resumeTask`. */
export interface ResumeTaskOptions extends CallOptions {
  /** `auto` answers the task's input with the client's handlers; `manual` leaves it to the host. @default "auto" */
  task?: 'auto' | 'manual' | undefined;
}

/** What the task machinery borrows from the `TaskManager` that loaded it. */
export interface TaskMachineryDeps {
  readonly deps: TaskManagerDeps;
  /** The options in force, read at each use: the defaults when a call asked for a task the client did not turn on. */
  readonly settings: ResolvedTasksOptions;
  /** Aborts (with a `ConnectionClosedError`) when the client closes: loops stop, tasks stay. */
  readonly lifetime: AbortSignal;
}
