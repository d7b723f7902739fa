/**
 * Manual-mode `input_required` rounds any worker can answer (docs/fleet.md): the round a call
 * ended with (spec: basic/patterns/mrtr, InputRequiredResult) is kept in the host state store,
 * in its user's partition, with the call it belongs to; the user's answer, on whichever worker
 * it lands, takes the round (once) and sends the retry there.
 */
import type { AuthContext } from '../../cache/authContext.js';
import { InputRequiredError, InvalidArgumentError } from '../../errors/errors.js';
import { inputRetryFor, readInputRequired } from '../../inputRequired/retry.js';
import { isObject, type JsonObject } from '../../wire/messages.js';
import type { InputRetry } from '../../wire/callOptions.js';
import type { CallToolResult, InputRequest, InputResponse } from '../../wire/protocol.js';
import { systemWallClock, type WallClock } from '../../util/clock.js';
import { statePartition, type HostStateStore } from './stateStore.js';

/** A manual-mode round kept for its user: what the app shows, and what the retry needs. */
export interface KeptInputRound {
  /** What {@link resumeInputRound} takes: random, unique. */
  readonly id: string;
  /** The exposed tool name the call was made with. */
  readonly tool: string;
  /** The call's arguments, as given. */
  readonly arguments: Readonly<JsonObject>;
  /** The requests to show the user, keyed as the server keyed them (server data: show it, never follow it). */
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  /** When the round is dropped, in ms since the epoch. */
  readonly expiresAt: number;
}

/** Options of {@link keepInputRound}. */
export interface KeepInputRoundOptions {
  /** How long the round waits for its answer, in ms. @default 600 000 (ten minutes) */
  ttlMs?: number | undefined;
  /** @default the system wall clock */
  wallClock?: WallClock | undefined;
}

/** The calls {@link resumeInputRound} makes: a user scope (or a host), `callTool` only. */
export interface InputRoundCaller {
  /** Whose calls these are (`McpHost.statePartition`): checked against the round's user when given. */
  readonly statePartition?: string | undefined;
  /** Calls `tool` (its exposed name) with `args` in manual mode, resending the kept round's answer as `inputRetry`; resolves with the `tools/call` result. */
  callTool(
    tool: string,
    args: JsonObject,
    options: { inputRequired: 'manual'; inputRetry: InputRetry; signal?: AbortSignal | undefined },
  ): Promise<CallToolResult>;
}

const DEFAULT_TTL_MS = 600_000;

/**
 * Keeps the round `error` ended a manual-mode call of `tool` with, for `user` (a scope's
 * principal or auth context; `undefined`: the host's own partition), so any worker can answer it.
 * @throws InvalidArgumentError (-32602) when `error` is no `InputRequiredError` of a `tools/call`,
 *   ProtocolError (-32600) when its result is no valid `input_required` result; HostStateError (-33063) when the store
 *   cannot keep it (the round is then this worker's only: answer it here).
 */
export async function keepInputRound(
  store: HostStateStore,
  user: AuthContext | undefined,
  call: { tool: string; arguments: JsonObject; error: unknown },
  options: KeepInputRoundOptions = {},
): Promise<KeptInputRound> {
  const { error } = call;
  if (!(error instanceof InputRequiredError) || error.data.method !== 'tools/call' || !isObject(error.data.result))
    throw new InvalidArgumentError('error', describe(error), 'expected the InputRequiredError of a tools/call');
  const result = error.data.result;
  const parts = readInputRequired('tools/call', result); // throws ProtocolError (-32600) for a malformed one
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  if (!(typeof ttlMs === 'number' && ttlMs > 0))
    throw new InvalidArgumentError('ttlMs', ttlMs, 'expected a positive number of ms');
  const round: KeptInputRound = {
    id: `ir_${crypto.randomUUID()}`,
    tool: call.tool,
    arguments: call.arguments,
    inputRequests: parts.inputRequests ?? {},
    expiresAt: (options.wallClock ?? systemWallClock).now() + ttlMs,
  };
  await store.putRecord(statePartition(user), 'input', round.id, { ...round, result }, ttlMs);
  return round;
}

/**
 * Answers a kept round on this worker: takes it from the store (exactly one worker gets it) and
 * sends the call again through `caller` with the user's `inputResponses` (one per key of the
 * round's `inputRequests`) and the server's `requestState`, in manual mode: a further round
 * rejects with `InputRequiredError` again.
 * @throws InvalidArgumentError (-32602, `data.value` the id) when no such round is kept for `user`
 *   (expired, answered already, another user's); InvalidArgumentError (-32602, `data.name`
 *   `user`), nothing taken or sent, when `caller` is another user's scope (or the host, for a
 *   user's round): a round is resumed on its own user's scope only; InputRequestFailedError (-33007) when a
 *   requested key has no response (the round is gone: keep it again to retry); HostStateError
 *   (-33063) when the store fails; then whatever the call throws.
 */
export async function resumeInputRound(
  caller: InputRoundCaller,
  store: HostStateStore,
  user: AuthContext | undefined,
  id: string,
  inputResponses: Record<string, InputResponse>,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<CallToolResult> {
  if (typeof id !== 'string' || id === '') throw new InvalidArgumentError('id', id, 'expected a round id');
  const partition = statePartition(user);
  if (caller.statePartition !== undefined && caller.statePartition !== partition)
    throw new InvalidArgumentError(
      'user',
      partition,
      `the round's user is not the caller's (${caller.statePartition}): resume it on that user's own scope`,
    );
  const kept = await store.takeRecord(partition, 'input', id);
  const result = kept?.['result'];
  if (kept === undefined || typeof kept['tool'] !== 'string' || !isObject(kept['arguments']) || !isObject(result))
    throw new InvalidArgumentError('id', id, 'no such input round for this user (expired, answered, or never kept)');
  const inputRetry = inputRetryFor('tools/call', result, inputResponses);
  return caller.callTool(kept['tool'], kept['arguments'], {
    inputRequired: 'manual',
    inputRetry,
    signal: options.signal,
  });
}

function describe(value: unknown): string {
  return value instanceof Error ? value.name : typeof value;
}
