/**
 * Approval of a tool call: the request an `approve` hook receives, the verdicts it may give, and
 * {@link askApproval}, which asks the hook and reads anything but a timely, matching `allow` as
 * a denial. Loaded with the first call a hook applies to (toolApproval.ts, which turns a denial
 * into a `ToolApprovalDeniedError`).
 */
import type { AuthContext } from '../../cache/authContext.js';
import { abortedError } from '../../errors/errors.js';
import type { Timers } from '../../util/clock.js';
import type { MaybePromise } from '../../util/maybePromise.js';
import type { JsonObject } from '../../wire/messages.js';
import type { Tool, ToolAnnotations } from '../../wire/protocol.js';
import type { ToolApprovalDeniedBy, ToolApprovalDeniedReason } from './errors.js';

/**
 * What one approval is for: one call of one tool of one server with exactly these arguments.
 * An `allow` bound to anything else does not apply.
 */
export interface ApprovalBinding {
  readonly server: string;
  /** The tool's original (wire) name. */
  readonly name: string;
  /** SHA-256 of the canonical JSON of the arguments as they will be sent (`argumentsHash`). */
  readonly argumentsHash: string;
  /** The call, unique per `callTool`. */
  readonly callId: string;
  /** When the approval stops applying, on the host's clock (ms): no answer by then is a denial. */
  readonly expiresAt: number;
}

/**
 * The four behaviour hints a policy may act on, each decided: the configuration's `overrides`
 * first (the host wrote them), then the server's own annotations only when the server is
 * `trusted`, then the spec's defaults (`readOnlyHint: false`, `destructiveHint: true`,
 * `idempotentHint: false`, `openWorldHint: true`). From an untrusted server this is therefore
 * the most cautious reading, whatever the server claims.
 */
export interface TrustedHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** One tool call waiting for approval: what an `approve` hook is asked about. */
export interface ToolCallApproval {
  /** The server the call goes to. */
  readonly server: string;
  /** The tool's original name, sent on the wire. */
  readonly name: string;
  /** The name the model called (after overrides and prefixes). */
  readonly exposedName: string;
  /** The arguments exactly as they will be sent (defaults of overrides filled in). Frozen. */
  readonly arguments: Readonly<JsonObject>;
  /**
   * The tool's annotations as listed, with the configuration's override on top: hints, never
   * permissions; from an untrusted server they say only what the server claims.
   */
  readonly annotations: Readonly<ToolAnnotations>;
  /** The hints a policy may act on ({@link TrustedHints}). */
  readonly hints: TrustedHints;
  /** Whether the configuration marks the server `trusted`. */
  readonly trusted: boolean;
  /** The tool as the server listed it. */
  readonly tool: Tool;
  /**
   * The model's id of this call (the AI SDK's `toolCallId`, LangChain's `tool_call.id`), when the
   * caller of `callTool` gave one (`HostCallToolOptions.toolCallId`): the app's word, for matching
   * an approval given in a framework's own flow; no server ever sees it.
   */
  readonly toolCallId?: string | undefined;
  /**
   * Whose call this is: the auth context of the user scope (`host.forUser`) that made it (its
   * principal unless the scope gave an `authContext`); `undefined` for the host's own calls.
   * A hook that keeps approvals per user (`storedApproval`) keys them by it.
   */
  readonly user?: AuthContext | undefined;
  /** What an approval of this call is bound to; `{ allow: binding }` must return exactly this. */
  readonly binding: ApprovalBinding;
}

/**
 * An approval hook's answer: `'allow'` (this call may go), `'deny'` or `{ deny: reason, by? }`
 * (it may not; `reason` reaches the model; `by` says who refused, `'policy'` when not given: a
 * hook that asked a person says `'user'`), or `{ allow: binding }`: an approval given elsewhere
 * (a UI's prompt) for the call `binding` names, which applies only when it is this call's own.
 */
export type ApprovalVerdict =
  'allow' | 'deny' | { deny: string; by?: 'user' | 'policy' | 'preset' | undefined } | { allow: ApprovalBinding };

/** What an approval hook receives besides the call. */
export interface ApprovalContext {
  /** Aborts when the call is cancelled or the approval times out: stop asking then. */
  signal: AbortSignal;
}

/**
 * Decides whether a tool call may be sent. Called once per `host.callTool`, after the
 * arguments are final; the call waits for the answer (at most `approvalTimeoutMs`).
 */
export type ApproveHook = (call: ToolCallApproval, context: ApprovalContext) => MaybePromise<ApprovalVerdict>;

/** What {@link askApproval} needs besides the call. */
export interface AskApprovalOptions {
  /** The longest wait for an answer, in ms. */
  timeoutMs: number;
  /** The call's signal: aborting it cancels the call (CancelledError), not a denial. */
  signal?: AbortSignal | undefined;
  /**
   * Aborts when the host or user scope that made the call closes: the wait ends at once (the
   * hook's signal aborts) and the reason, a `ConnectionClosedError`, is thrown as it is.
   */
  closed?: AbortSignal | undefined;
  timers: Timers;
}

/** Why an approval did not allow a call: what `ToolApprovalDeniedError` is made of. */
export interface ApprovalDenial {
  reason: ToolApprovalDeniedReason;
  /** Who refused. */
  deniedBy: ToolApprovalDeniedBy;
  /** `denied`: the reason the hook gave. */
  message?: string | undefined;
  /** `failed`: what the hook threw, or why its answer is no verdict. */
  cause?: unknown;
}

/**
 * Asks `hook` about `call`: `undefined` when it allows, else the denial. Anything but a timely,
 * matching `allow` is one: a `deny`, no answer within `options.timeoutMs` (the binding's
 * `expiresAt`; the hook's signal aborts then), an `allow` bound to another call, a throwing
 * hook or an answer that is no verdict (`reason` `denied`, `timeout`, `not-bound`, `failed`).
 * @throws CancelledError (-32800) when `options.signal` aborts first (TimeoutError -32001 for
 *   an `AbortSignal.timeout()`); `options.closed`'s reason (ConnectionClosedError -32000) when
 *   the host closes first.
 */
export async function askApproval(
  hook: ApproveHook,
  call: ToolCallApproval,
  options: AskApprovalOptions,
): Promise<ApprovalDenial | undefined> {
  const deny = (
    reason: ToolApprovalDeniedReason,
    extra: Omit<ApprovalDenial, 'reason' | 'deniedBy'> & { deniedBy?: ToolApprovalDeniedBy } = {},
  ): ApprovalDenial => ({
    reason,
    deniedBy: reason === 'timeout' ? 'timeout' : reason === 'denied' ? 'policy' : 'error',
    ...extra,
  });
  if (options.signal?.aborted === true) throw abortedError('tools/call', options.signal.reason);
  if (options.closed?.aborted === true) throw options.closed.reason;
  const controller = new AbortController();
  const settled = await new Promise<
    { verdict: unknown } | { error: unknown } | { timeout: true } | { abort: unknown } | { closed: unknown }
  >((resolve) => {
    const finish = (outcome: Parameters<typeof resolve>[0]): void => {
      options.timers.clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      options.closed?.removeEventListener('abort', onClosed);
      resolve(outcome);
    };
    const onAbort = (): void => finish({ abort: options.signal?.reason });
    const onClosed = (): void => finish({ closed: options.closed?.reason });
    const timer = options.timers.setTimeout(() => finish({ timeout: true }), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    options.closed?.addEventListener('abort', onClosed, { once: true });
    try {
      Promise.resolve(hook(call, { signal: controller.signal })).then(
        (verdict) => finish({ verdict }),
        (error: unknown) => finish({ error }),
      );
    } catch (error) {
      finish({ error });
    }
  });
  if (!('verdict' in settled)) controller.abort(new Error('the approval is no longer wanted'));
  if ('abort' in settled) throw abortedError('tools/call', settled.abort);
  if ('closed' in settled) throw settled.closed;
  if ('timeout' in settled) return deny('timeout');
  if ('error' in settled) return deny('failed', { cause: settled.error });
  const verdict = settled.verdict;
  if (verdict === 'allow') return undefined;
  if (verdict === 'deny') return deny('denied');
  if (typeof verdict === 'object' && verdict !== null) {
    if ('deny' in verdict && typeof verdict.deny === 'string')
      return deny('denied', {
        ...(verdict.deny !== '' && { message: verdict.deny }),
        deniedBy: deniedBy((verdict as { by?: unknown }).by),
      });
    if ('allow' in verdict && typeof verdict.allow === 'object' && verdict.allow !== null) {
      if (!sameCall(verdict.allow as ApprovalBinding, call.binding)) return deny('not-bound');
      return undefined;
    }
  }
  return deny('failed', { cause: new TypeError(`not an approval verdict: ${JSON.stringify(verdict)}`) });
}

/** The `by` of a `{ deny, by }` verdict: `policy` unless it names the user or a preset. */
function deniedBy(by: unknown): ToolApprovalDeniedBy {
  return by === 'user' || by === 'preset' ? by : 'policy';
}

function sameCall(given: ApprovalBinding, own: ApprovalBinding): boolean {
  return (
    given.server === own.server &&
    given.name === own.name &&
    given.argumentsHash === own.argumentsHash &&
    given.callId === own.callId &&
    given.expiresAt === own.expiresAt
  );
}
