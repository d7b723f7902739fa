/**
 * Which server a UI resource (MCP Apps) comes from. Servers may leave UI resources out of
 * `resources/list` (spec: Resource Discovery), so a `ui://` URI no server lists goes to the
 * server whose tools link it. Pure, over the catalog.
 */
import { toolUi } from '../../apps/toolUi.js';
import type { Catalog } from './catalog.js';
import { HostRoutingError } from './errors.js';
import { ambiguous } from './routing.js';

/**
 * The server of `uri`: the one that lists it, else the one whose tools link it.
 * @throws HostRoutingError (-33051): `ambiguous-resource` (`data.servers`) when more than one
 *   server lists or links it, `unknown-resource` when none does.
 */
export function routeAppResource(catalog: Catalog, uri: string): string {
  const listing = [...new Set((catalog.resourcesByUri.get(uri) ?? []).map((r) => r.server))];
  const linking = [...new Set(catalog.tools.filter((t) => toolUi(t.tool).resourceUri === uri).map((t) => t.server))];
  const servers = listing.length > 0 ? listing : linking;
  if (servers.length === 1) return servers[0] as string;
  if (servers.length > 1) throw ambiguous(uri, servers);
  throw new HostRoutingError(`no open server lists ${uri} or has a tool that links it`, {
    reason: 'unknown-resource',
    uri,
  });
}
