/**
 * `completion/complete` as the client sends it (spec: server/utilities/completion): for a
 * prompt's or a template's argument, and for one variable of a resource template, whose ref
 * the RFC 6570 code (loaded on first use) makes from the template.
 */
import type { JsonObject } from '../wire/messages.js';
import type { CompleteResult, PromptReference, ResourceTemplateReference } from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { UriTemplateSource } from '../resources/uriTemplate.js';
import { checkCompleteResult } from '../completion/completeResult.js';
import { onDemand } from '../errors/moduleLoad.js';
import type { ClientParts } from './assembly.js';

/** The RFC 6570 expansion and parsing, loaded on the first template read or template completion. */
export const loadTemplates = onDemand('uri-templates', () => import('../resources/rfc6570.js'));

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

/** `McpClient.completeTemplateArgument` (see its doc comment). */
export async function completeTemplateArgument(
  parts: ClientParts,
  template: UriTemplateSource,
  name: string,
  value: string,
  context: Readonly<Record<string, string>> | undefined,
  options: CallOptions,
): Promise<CompleteResult> {
  const { templateArgumentRef } = await loadTemplates();
  const ref = templateArgumentRef(template, name);
  return complete(
    parts,
    ref,
    { name, value },
    context === undefined ? undefined : { arguments: { ...context } },
    options,
  );
}
