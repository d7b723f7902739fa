/**
 * The machinery of `input_required` rounds (spec: basic/patterns/mrtr): the round loop and the
 * host's handlers answering input requests, and the 2025-11-25 URL elicitation rounds. Loaded
 * when the first `input_required` result (or -32042) arrives, or a task asks for input, so that
 * clients whose servers never ask load none of it.
 */
import { onDemand } from '../errors/moduleLoad.js';
import type { FulfilOptions } from '../inputRequired/inputHandlers.js';
import type { InputHandlers } from '../inputRequired/handlers.js';
import type { InputRequest, InputResponse } from '../wire/protocol.js';

/** The round loop and the handlers' answers (`inputRequired/inputRounds.lazy.ts`), loaded on first use. */
export const loadInputRounds = onDemand('input-required', () => import('../inputRequired/inputRounds.lazy.js'));

/**
 * Answers `inputRequests` with `handlers` (`fulfilInputRequests`), once the machinery is loaded.
 * @throws ModuleLoadError (-33042) when it cannot be loaded; then as `fulfilInputRequests`.
 */
export async function fulfilLater(
  handlers: InputHandlers | undefined,
  inputRequests: Record<string, InputRequest>,
  options: FulfilOptions,
): Promise<Record<string, InputResponse>> {
  const { fulfilInputRequests } = await loadInputRounds();
  return fulfilInputRequests(handlers, inputRequests, options);
}
