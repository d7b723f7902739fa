/**
 * Resource templates (RFC 6570) with a client, opted into by import: a program that never
 * imports `readTemplate` or `completeTemplateArgument` never bundles the expansion code
 * (`resources/rfc6570.ts`, 3.9 KB gzip).
 */
import type { CallOptions } from '../wire/callOptions.js';
import type { CompleteResult, ReadResourceResult } from '../wire/protocol.js';
import { expandUriTemplate, templateArgumentRef } from '../resources/rfc6570.js';
import type { UriTemplateSource, UriTemplateValues } from '../resources/rfc6570.js';
import type { McpClient } from './client.js';

/**
 * Expands an RFC 6570 resource template with `variables` and reads the URI it gives with
 * `client`, through its cache, as `client.readResource` (spec: server/resources, Resource
 * Templates). `template` is a `ResourceTemplate` from `resources/templates/list`, its
 * `uriTemplate` string, or a parsed `UriTemplate`.
 *
 * ```ts
 * import { readTemplate } from 'mcp-live';
 * const dish = await readTemplate(client, 'menu://{cuisine}/{dish}', { cuisine: 'japanese', dish: 'ramen' });
 * ```
 * @throws UriTemplateError (an InvalidArgumentError, -32602) for a malformed template or a
 *   value it cannot expand, naming the template and the variable (nothing is sent); then as
 *   `McpClient.readResource`.
 */
export function readTemplate(
  client: McpClient,
  template: UriTemplateSource,
  variables: UriTemplateValues,
  options?: CallOptions,
): Promise<ReadResourceResult> {
  let uri: string;
  try {
    uri = expandUriTemplate(template, variables);
  } catch (error) {
    return Promise.reject(error);
  }
  return client.readResource(uri, options);
}

/**
 * Suggestions for one variable of a resource template, asked of `client`: `completion/complete`
 * with `ref: { type: "ref/resource", uri: <the template> }` (spec: server/utilities/completion).
 * `context` holds the variables already chosen. One request per call; for completion as a user
 * types, use `client.completer`.
 * @throws UriTemplateError (-32602) when `name` is not a variable of the template or the
 *   template is malformed (nothing is sent); then as `McpClient.complete`.
 */
export function completeTemplateArgument(
  client: McpClient,
  template: UriTemplateSource,
  name: string,
  value: string,
  context?: Readonly<Record<string, string>>,
  options: CallOptions = {},
): Promise<CompleteResult> {
  let ref: { type: 'ref/resource'; uri: string };
  try {
    ref = templateArgumentRef(template, name);
  } catch (error) {
    return Promise.reject(error);
  }
  return client.complete(
    ref,
    { name, value },
    context === undefined ? undefined : { arguments: { ...context } },
    options,
  );
}
