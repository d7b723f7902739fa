/**
 * Routing `resources/read` by resource template: which of the catalog's templates could have
 * produced a URI. The RFC 6570 matching itself belongs to issue 17 (`matchUriTemplates`); this
 * is the one place the host binds to it.
 */
import type { TemplateMatcher } from './routing.js';

/**
 * The matcher `McpHost.readResource` uses for URIs no server lists, or `undefined` while none
 * is bound (such URIs are then `unknown-resource`).
 * @param onError receives each template that is not RFC 6570 (it is skipped).
 */
export function templateMatcher(onError: (error: Error) => void): TemplateMatcher | undefined {
  void onError;
  return undefined;
}
