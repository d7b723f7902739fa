/**
 * `host.use(middleware)`: the host's request middleware, run on every server's client (inside
 * its `client.use()` chain, at the place of one user middleware added when the host made the
 * client), with the server's name in `ctx.serverName`. Last in the host's link, before the
 * request goes on: a `tools/call` the host approved is checked against its approval, and asked
 * again when a middleware changed the tool or its arguments.
 */
import type { McpClient } from '../../client/client.js';
import type { Middleware, RequestContext } from '../../client/middleware.js';
import type { JsonObject } from '../../wire/messages.js';
import { isObject } from '../../wire/messages.js';
import { argumentsHash } from './argumentsHash.js';

/** What `host.callTool` hands to its own request: the approval it got, to be checked at the end of the chain. */
export interface ApprovedCall {
  /** The tool name and argument hash approved (or sent without asking). */
  name: string;
  argumentsHash: string;
  /** Asks for the approval of `name` with `args` (a middleware changed the call); resolves when it may go. */
  reapprove(name: string, args: JsonObject): Promise<void>;
}

/** The key of {@link ApprovedCall} on a call's options (private to the host). */
export const APPROVED_CALL: unique symbol = Symbol('mcp-live.host.approvedCall');

/** The host's middleware list and the link that runs it on each client. */
export class HostMiddleware {
  private links: readonly Middleware[] = [];

  /**
   * Adds `middleware` after the ones already added; returns the function that removes it
   * (idempotent). Requests under way keep the list they started with.
   * @throws TypeError when `middleware` is not a function.
   */
  use(middleware: Middleware): () => void {
    if (typeof middleware !== 'function') throw new TypeError('middleware must be a function');
    const link: Middleware = (ctx, next) => middleware(ctx, next);
    this.links = [...this.links, link];
    return () => {
      this.links = this.links.filter((l) => l !== link);
    };
  }

  /** Puts the host's link on a server's client; returns the function that takes it off. */
  install(client: McpClient, server: string): () => void {
    return client.use((ctx, next) => {
      ctx.serverName = server;
      const links = this.links;
      const run = (i: number): Promise<JsonObject> => {
        const link = links[i];
        return link === undefined ? checked(ctx, next) : link(ctx, () => run(i + 1));
      };
      return run(0);
    });
  }
}

/** The end of the host's link: a `tools/call` changed since its approval is approved again first. */
async function checked(ctx: RequestContext, next: () => Promise<JsonObject>): Promise<JsonObject> {
  const approved = (ctx.options as { [APPROVED_CALL]?: ApprovedCall })[APPROVED_CALL];
  if (ctx.method !== 'tools/call' || approved === undefined) return next();
  const name = typeof ctx.params['name'] === 'string' ? ctx.params['name'] : '';
  const args = isObject(ctx.params['arguments']) ? ctx.params['arguments'] : {};
  const hash = argumentsHash(args);
  if (name !== approved.name || hash !== approved.argumentsHash) {
    await approved.reapprove(name, args);
    approved.name = name;
    approved.argumentsHash = hash;
  }
  return next();
}
