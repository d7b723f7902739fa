/**
 * Completion state across workers: what a server answered to `completion/complete` for a user's
 * slash command or mention, kept in the host state store in the user's partition for a short
 * while, so the next keystroke that lands on another worker is answered as this worker's
 * completer cache would answer it, without asking the server again. A store that fails is a miss
 * (the server is asked); a write that fails is dropped (completion state is only a head start).
 */
import { sha256Hex } from '../../util/sha256.js';
import type { JsonObject } from '../../wire/messages.js';
import type { CompleteResult, PromptReference, ResourceTemplateReference } from '../../wire/protocol.js';
import type { HostStateStore } from './stateStore.js';

/** How long a completion answer is kept in the store, in ms. */
export const COMPLETION_STATE_TTL_MS = 60_000;

/** `complete` as the host's completer pool calls it. */
export type CompleteFunction = (
  server: string,
  ref: PromptReference | ResourceTemplateReference,
  argument: { name: string; value: string },
  context: { arguments: Record<string, string> } | undefined,
  options: { signal: AbortSignal; timeoutMs?: number | undefined },
) => Promise<CompleteResult>;

/** @internal `complete` read through and written to `store`'s `completion` records of the caller's partition. */
export function storedCompletion(
  store: HostStateStore,
  partition: () => string,
  complete: CompleteFunction,
): CompleteFunction {
  return async (server, ref, argument, context, options) => {
    const id = sha256Hex(JSON.stringify([server, ref.type, ref, argument, context ?? null])).slice(0, 32);
    const kept = await Promise.resolve()
      .then(() => store.getRecord(partition(), 'completion', id))
      .catch(() => undefined);
    const completion = kept?.['completion'];
    if (
      typeof completion === 'object' &&
      completion !== null &&
      Array.isArray((completion as { values?: unknown }).values)
    )
      return kept as unknown as CompleteResult;
    const result = await complete(server, ref, argument, context, options);
    void Promise.resolve()
      .then(() =>
        store.putRecord(partition(), 'completion', id, result as unknown as JsonObject, COMPLETION_STATE_TTL_MS),
      )
      .catch(() => {});
    return result;
  };
}
