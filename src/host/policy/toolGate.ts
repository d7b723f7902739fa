/**
 * The host's gate for `tools/call`: the one place a call to a server's tool is approved. It is
 * the innermost part of the host's link on every server's client, so every way a host reaches a
 * tool passes it (`host.callTool`, views, tool sessions, app frames, `host.client(name)`), after
 * every link that may rewrite the call (the host's middleware, `onToolCall`, the overrides
 * `host.callTool` applied). There it takes one deep, frozen snapshot of the request, asks the
 * approver once with exactly that, and sends exactly that: later links cannot replace or change
 * it (a link that tries fails the call; nothing is sent).
 */
import type { AuthContext } from '../../cache/authContext.js';
import type { RequestContext } from '../../client/middleware.js';
import type { JsonObject } from '../../wire/messages.js';
import { isObject } from '../../wire/messages.js';
import type { HostTool } from '../catalog/catalog.js';
import type { ToolOverrides } from '../catalog/overrides.js';
import type { ApproveHook } from './approval.js';
import type { Clock, Timers } from '../../util/clock.js';
import { argumentsHash } from './argumentsHash.js';
import { overrideOf } from '../catalog/overrides.js';
import { approveToolCall } from './toolApproval.js';

/** What one host call remembers across its attempts: the call it approved, not asked again when sent again. */
export interface GateMemo {
  approved?: { name: string; argumentsHash: string } | undefined;
}

/** The key of {@link GateMemo} on a call's options (private to the host). */
export const GATE_MEMO: unique symbol = Symbol('mcp-live.host.gateMemo');

/**
 * The key of a user scope's approval on a call's options (private to the host): a scope's call
 * on a client the host shares with other scopes is approved by the scope's `approve`, not the
 * host's (`host.forUser`).
 */
export const GATE_SCOPE: unique symbol = Symbol('mcp-live.host.gateScope');

/** A user scope's approval, carried by each of its calls under {@link GATE_SCOPE}. */
export interface GateScope {
  /** The scope's hook; `undefined`: the entry's, else the host's. */
  readonly approve?: ApproveHook | undefined;
  readonly approvalTimeoutMs?: number | undefined;
  /** The scope's auth context (its principal unless it gave one): the approval's `user`. */
  readonly user?: AuthContext | undefined;
  /** Aborts when the scope closes: a call of the scope waiting for approval ends then. */
  readonly closed?: AbortSignal | undefined;
}

/** What the gate reads of the host's options (`McpHostOptions`). */
export interface GateHostOptions {
  readonly approve?: ApproveHook | undefined;
  readonly approvalTimeoutMs?: number | undefined;
}

/** What the gate reads of a server's entry (`HostServerEntry`). */
export interface GateEntry {
  readonly approve?: ApproveHook | undefined;
  readonly trusted?: boolean | undefined;
  readonly overrides?: ToolOverrides | undefined;
}

/** What the gate of one server reads, each time a call reaches it (the entry and catalog as they are then). */
export interface GateSource {
  readonly options: GateHostOptions;
  entry(): GateEntry | undefined;
  /** The server's tool by original name, as the catalog lists it. */
  listed(name: string): HostTool | undefined;
  time(): { clock: Clock; timers: Timers };
  /** Aborts when the host (or scope) that owns the server closes: a call waiting for approval ends then. */
  readonly closed?: AbortSignal | undefined;
}

/** The gate of one server's client: see the module comment. */
export function toolGate(
  server: string,
  source: GateSource,
): (ctx: RequestContext, next: () => Promise<JsonObject>) => Promise<JsonObject> {
  return async (ctx, next) => {
    if (ctx.method !== 'tools/call') return next();
    const entry = source.entry();
    const scope = (ctx.options as { [GATE_SCOPE]?: GateScope })[GATE_SCOPE];
    const approve = scope?.approve ?? entry?.approve ?? source.options.approve;
    if (approve === undefined) return next();
    const params = snapshot(ctx.params);
    const name = typeof params['name'] === 'string' ? params['name'] : '';
    const args = isObject(params['arguments']) ? params['arguments'] : Object.freeze({});
    const hash = argumentsHash(args);
    const given = ctx.options as { [GATE_MEMO]?: GateMemo; toolCallId?: unknown };
    const memo = given[GATE_MEMO];
    if (memo?.approved?.name !== name || memo.approved.argumentsHash !== hash) {
      await approveToolCall(source.listed(name) ?? unlisted(server, name), args, {
        approve,
        trusted: entry?.trusted === true,
        override: overrideOf(entry?.overrides, name),
        timeoutMs: scope?.approvalTimeoutMs ?? source.options.approvalTimeoutMs,
        signal: ctx.signal,
        closed: scope?.closed ?? source.closed,
        toolCallId: typeof given.toolCallId === 'string' ? given.toolCallId : undefined,
        user: scope?.user,
        ...source.time(),
      });
      if (memo !== undefined) memo.approved = { name, argumentsHash: hash };
    }
    // What was approved is what is sent: the request's params from here on are the snapshot.
    Object.defineProperty(ctx, 'params', { value: params, writable: false, enumerable: true, configurable: false });
    return next();
  };
}

/** A tool the catalog does not list (a call by original name through the server's client): no annotations. */
function unlisted(server: string, name: string): HostTool {
  return { server, availability: 'available', exposedName: name, tool: { name, inputSchema: { type: 'object' } } };
}

/** A deep, frozen copy of `value`: later changes to `value` (or to anything it holds) do not reach it. */
export function snapshot<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
