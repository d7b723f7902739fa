/**
 * Routing `resources/read` by resource template: which of the catalog's templates could have
 * produced a URI, by the RFC 6570 matcher of `src/resources/` (`matchUriTemplates`). Which
 * server that makes, and what is ambiguous, is `routing.ts`'s call.
 */
import { matchUriTemplates } from '../../resources/uriTemplateMatch.js';
import type { HostResourceTemplate } from './catalog.js';
import type { TemplateMatcher } from './routing.js';

/**
 * The matcher `McpHost.readResource` uses for URIs no server lists: every catalog template
 * that could have produced the URI, in catalog order.
 * @param onError receives a `UriTemplateError` for each template that is not RFC 6570 (it is
 *   skipped; the others are still matched).
 */
export function templateMatcher(onError: (error: Error) => void): TemplateMatcher {
  return (uri, templates) =>
    matchUriTemplates(
      uri,
      templates.map((entry: HostResourceTemplate) => ({ uriTemplate: entry.resourceTemplate.uriTemplate, entry })),
      { onError },
    ).map((match) => match.template.entry);
}
