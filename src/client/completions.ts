/**
 * `completion/complete` as the client sends it (spec: server/utilities/completion): for a
 * prompt's or a template's argument (one variable of a resource template: `templates.ts`).
 */
import type { JsonObject } from '../wire/messages.js';
import type { CompleteResult, PromptReference, ResourceTemplateReference } from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import { checkCompleteResult } from '../completion/completeResult.js';
import type { ClientParts } from './assembly.js';

/** `McpClient.complete` (see its doc comment for what it resolves with and throws). */
export function complete(
  parts: ClientParts,
  ref: PromptReference | ResourceTemplateReference,
  argument: { name: string; value: string },
  context: { arguments?: Record<string, string> } | undefined,
  options: CallOptions,
): Promise<CompleteResult> {
  const params: JsonObject = { ref, argument };
  if (context !== undefined) params['context'] = context;
  return parts.traced('completion/complete', {}, async (internals) => {
    const { result } = await parts.caller.call({ ...internals, method: 'completion/complete', params, options });
    return checkCompleteResult(result, parts.options.onError).result;
  });
}
