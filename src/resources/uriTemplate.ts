/**
 * RFC 6570 URI templates, as MCP resource templates use them (spec: server/resources, Resource
 * Templates): the parse (which variables, with which operator and modifiers) is ours, strict to
 * the RFC's grammar (§2); the expansion is `@std-uritemplate/std-uritemplate`'s (all four levels).
 * The code is in `rfc6570.ts`, which this file only imports: the client and the host load that
 * file on first use, so a program that uses neither these functions nor templates loads none
 * of it.
 */
import * as rfc6570 from './rfc6570.js';
import type { UriTemplate, UriTemplateSource, UriTemplateValues } from './rfc6570.js';

/**
 * Parses an RFC 6570 template (levels 1 to 4); given a `ResourceTemplate`, its `uriTemplate`; given
 * a {@link UriTemplate}, returns it as is. The parse is strict to the RFC's grammar (§2): literals limited to
 * the characters the RFC allows (a `%` only as a pct-encoded triplet), operators, varnames
 * (`ALPHA / DIGIT / "_" / pct-encoded`, dots between), prefix `:1`..`:9999` and explode `*`.
 *
 * @example
 * parseUriTemplate('travel://activities/{city}/{category}{?limit}').variableNames // ['city', 'category', 'limit']
 * @throws UriTemplateError (an InvalidArgumentError, -32602) naming the template and the position
 *   where it stops being RFC 6570; `data.variable` too when a varspec is at fault.
 */
export function parseUriTemplate(uriTemplate: string | UriTemplateSource): UriTemplate {
  return rfc6570.parseUriTemplate(uriTemplate);
}

/** True for a value {@link parseUriTemplate} returned. */
export function isUriTemplate(value: unknown): value is UriTemplate {
  return rfc6570.isUriTemplate(value);
}

/**
 * Expands an RFC 6570 template with `variables` (RFC 6570 §3): all four levels, every operator,
 * prefix and explode modifiers, lists and maps. An undefined variable (missing, `null`,
 * `undefined`, an empty list, a map with no defined member) contributes nothing (§2.3).
 * Numbers and booleans expand as their string form.
 *
 * @example
 * expandUriTemplate('travel://activities/{city}/{category}', { city: 'Paris', category: 'museums' })
 * // 'travel://activities/Paris/museums'
 * @throws UriTemplateError (an InvalidArgumentError, -32602) for a malformed template (see
 *   {@link parseUriTemplate}) or a value it cannot expand, naming the template and the variable.
 */
export function expandUriTemplate(template: UriTemplateSource, variables: UriTemplateValues): string {
  return rfc6570.expandUriTemplate(template, variables);
}
