/**
 * Which server a host call goes to, from the catalog alone. Pure: it throws
 * `HostRoutingError` when nothing, or more than one server, answers the name or URI.
 */
import type { Catalog, HostPrompt, HostResourceTemplate, HostTool } from './catalog.js';
import { isModelVisible } from '../../apps/toolUi.js';
import { HostRoutingError } from './errors.js';
import { didYouMean, nearestNames } from './nearestNames.js';

/** A tool or prompt by its server and its original (wire) name, instead of its exposed name. */
export interface ServerItemRef {
  server: string;
  name: string;
}

/**
 * The tool `ref` names: an exposed name, or `{ server, name }` with the original name. Only
 * tools in the catalog (open servers, allowed by the server's tool filter) are found.
 * @throws HostRoutingError (-33051, `unknown-tool`): `data.suggestions` (and the message's
 *   "Did you mean …?") holds up to three nearest exposed names (original names of that server
 *   for `{ server, name }`).
 */
export function routeTool(catalog: Catalog, ref: string | ServerItemRef): HostTool {
  const found =
    typeof ref === 'string'
      ? catalog.toolsByName.get(ref)
      : catalog.tools.find((t) => t.server === ref.server && t.tool.name === ref.name);
  if (found !== undefined) return found;
  const suggestions =
    typeof ref === 'string'
      ? nearestNames(
          ref,
          catalog.tools.filter((t) => isModelVisible(t.tool)).map((t) => t.exposedName),
        )
      : nearestNames(
          ref.name,
          catalog.tools.filter((t) => t.server === ref.server).map((t) => t.tool.name),
        );
  throw new HostRoutingError(
    `no tool ${describeRef(ref)} in the catalog (host.tools() lists the exposed names).${didYouMean(suggestions)}`,
    {
      reason: 'unknown-tool',
      name: typeof ref === 'string' ? ref : ref.name,
      server: serverOf(ref),
      ...(suggestions.length > 0 && { suggestions }),
    },
  );
}

/**
 * The prompt `ref` names (as {@link routeTool}).
 * @throws HostRoutingError (-33051, `unknown-prompt`)
 */
export function routePrompt(catalog: Catalog, ref: string | ServerItemRef): HostPrompt {
  const found =
    typeof ref === 'string'
      ? catalog.promptsByName.get(ref)
      : catalog.prompts.find((p) => p.server === ref.server && p.prompt.name === ref.name);
  if (found !== undefined) return found;
  throw new HostRoutingError(`no prompt ${describeRef(ref)} in the catalog (host.prompts() lists the exposed names)`, {
    reason: 'unknown-prompt',
    name: typeof ref === 'string' ? ref : ref.name,
    server: serverOf(ref),
  });
}

/**
 * Every template of `templates` that could have produced `uri` (RFC 6570), in their order.
 * Templates of one server that all match count as that one server.
 */
export type TemplateMatcher = (uri: string, templates: readonly HostResourceTemplate[]) => HostResourceTemplate[];

/**
 * The server for `resources/read` of `uri`: the one server that lists it; else the one server
 * with a template that matches it.
 * @throws HostRoutingError (-33051): `ambiguous-resource` (with `data.servers`) when more than
 *   one server lists it, or none does and templates of more than one server match;
 *   `unknown-resource` when none matches.
 */
export function routeResource(catalog: Catalog, uri: string, match: TemplateMatcher): string {
  const listed = catalog.resourcesByUri.get(uri) ?? [];
  if (listed.length === 1) return (listed[0] as { server: string }).server;
  if (listed.length > 1)
    throw ambiguous(
      uri,
      listed.map((r) => r.server),
    );
  const servers = unique(match(uri, catalog.resourceTemplates).map((t) => t.server));
  if (servers.length === 1) return servers[0] as string;
  if (servers.length > 1) throw ambiguous(uri, servers);
  throw new HostRoutingError(`no open server lists ${uri} or has a resource template that matches it`, {
    reason: 'unknown-resource',
    uri,
  });
}

/**
 * The server for `completion/complete` on a resource template: the one whose list holds
 * exactly that `uriTemplate`.
 * @throws HostRoutingError (-33051): `ambiguous-resource` when more than one server lists it,
 *   `unknown-resource` when none does.
 */
export function routeTemplate(catalog: Catalog, uriTemplate: string): string {
  const servers = unique(
    catalog.resourceTemplates.filter((t) => t.resourceTemplate.uriTemplate === uriTemplate).map((t) => t.server),
  );
  if (servers.length === 1) return servers[0] as string;
  if (servers.length > 1) throw ambiguous(uriTemplate, servers);
  throw new HostRoutingError(`no open server lists the resource template ${uriTemplate}`, {
    reason: 'unknown-resource',
    uri: uriTemplate,
  });
}

/** `ambiguous-resource`: more than one server could serve `uri`. */
export function ambiguous(uri: string, servers: string[]): HostRoutingError {
  return new HostRoutingError(
    `${uri} could be served by ${servers.map((s) => JSON.stringify(s)).join(' and ')}: pass { server } to choose`,
    { reason: 'ambiguous-resource', uri, servers },
  );
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function describeRef(ref: string | ServerItemRef): string {
  return typeof ref === 'string'
    ? JSON.stringify(ref)
    : `${JSON.stringify(ref.name)} of server ${JSON.stringify(ref.server)}`;
}

function serverOf(ref: string | ServerItemRef): string | undefined {
  return typeof ref === 'string' ? undefined : ref.server;
}
