/**
 * The middleware Streamable HTTP brings to its client (`Transport.links`, at their fixed place
 * in the client's chain: after the user's middleware and `logging`): `session`, the legacy
 * session's renewal (spec 2025-11-25: basic/transports, Session Management), then
 * `toolHeaders`, the `Mcp-Param-*` headers of each `tools/call` (spec 2026-07-28:
 * basic/transports/streamable-http, "Custom Headers from Tool Parameters"). Runtime-neutral.
 */
import { ProtocolError } from '../../errors/errors.js';
import { isObject, type JsonObject } from '../../wire/messages.js';
import type { LinkRequest, TransportLink, TransportLinkDeps } from '../transport.js';
import { isSessionExpiredError } from './legacy/legacyHttp.js';
import { ToolHeaderRegistry } from './toolHeaderRegistry.js';

/**
 * The links of one client of a Streamable HTTP transport. `mirrorsHeaders()` is true while the
 * transport speaks the 2026-07-28 wire (the legacy wire and HTTP+SSE have no `Mcp-Param-*`).
 */
export function httpLinks(deps: TransportLinkDeps, mirrorsHeaders: () => boolean): readonly TransportLink[] {
  return [sessionLink(deps), toolHeaderLink(deps, mirrorsHeaders)];
}

/**
 * `session`: after `SessionExpiredError`, one new session and one more try. When that session
 * cannot be set up and the client retries it (reconnecting), the request waits for it (in the
 * client's send) and is sent again. Always has work here: a request sent on the modern wire may
 * be sent again on a legacy session after a reconnect, before the client set its renewal.
 */
function sessionLink(deps: TransportLinkDeps): TransportLink {
  return {
    applies: () => true,
    run: (request, next) =>
      next().catch(async (error: unknown) => {
        const renew = deps.renewSession;
        if (!isSessionExpiredError(error) || renew === undefined) throw error;
        deps.debug?.(`${request.method}: the HTTP session expired; starting a new one and sending again`);
        try {
          await renew(error);
        } catch (failure) {
          if (!deps.reconnecting()) throw failure;
        }
        return next();
      }),
  };
}

/**
 * `toolHeaders`: a `tools/call` gets the `Mcp-Param-*` headers of its (possibly rewritten)
 * arguments and, unless the caller said, the tool's idempotency hint; each `tools/list` page is
 * screened first (tools whose `x-mcp-header` annotations break the rules are left out, with a
 * warning naming the tool and the reason). `notifications/tools/list_changed` forgets every tool.
 */
function toolHeaderLink(deps: TransportLinkDeps, mirrorsHeaders: () => boolean): TransportLink {
  const registry = new ToolHeaderRegistry();
  return {
    applies: (request) => (request.method === 'tools/call' || request.method === 'tools/list') && mirrorsHeaders(),
    run: (request, next) => {
      if (request.method === 'tools/list') return next().then((page) => screened(registry, page, deps));
      addToolHeaders(registry, request);
      return next();
    },
    notified: (method) => {
      if (method === 'notifications/tools/list_changed') registry.clear();
    },
  };
}

function addToolHeaders(registry: ToolHeaderRegistry, request: LinkRequest): void {
  const name = request.params['name'];
  if (typeof name !== 'string') return;
  const headers = registry.headersFor(name, request.params['arguments']);
  if (headers !== undefined) Object.assign(request.headers, headers);
  request.idempotent ??= registry.isIdempotent(name);
}

/**
 * Screens one `tools/list` page into `registry` and drops the rejected tools from it, in place
 * (the page stays the one the wire answered, so the client may still cache it). Items that are
 * not named objects are left for the client's own checks of the page.
 */
function screened(registry: ToolHeaderRegistry, page: JsonObject, deps: TransportLinkDeps): JsonObject {
  const tools = page['tools'];
  if (!Array.isArray(tools)) return page;
  const listed = tools.filter((tool): tool is JsonObject => isObject(tool) && typeof tool['name'] === 'string');
  const { tools: kept, rejected } = registry.screen(listed);
  if (rejected.length === 0) return page;
  for (const { tool, reason } of rejected) {
    deps.warn(
      new ProtocolError(`tool ${JSON.stringify(tool)} left out: ${reason}`, {
        method: 'tools/list',
        value: { tool, reason },
      }),
    );
  }
  const keep = new Set<unknown>(kept);
  const screenedOut = new Set<unknown>(listed);
  const out = tools.filter((tool) => keep.has(tool) || !screenedOut.has(tool));
  if (Object.isFrozen(page)) return { ...page, tools: out };
  page['tools'] = out;
  return page;
}
