/**
 * `host.use(middleware)`: the host's request middleware, run on every server's client (inside
 * its `client.use()` chain, at the place of one user middleware added when the host made the
 * client), with the server's name in `ctx.serverName`. Last in the host's link, before the
 * request goes on: the host's gate (toolGate.ts), where a `tools/call` is approved once, as it
 * will be sent.
 */
import type { McpClient } from '../../client/client.js';
import type { Middleware } from '../../client/middleware.js';
import type { JsonObject } from '../../wire/messages.js';

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

  /**
   * Puts the host's link on a server's client, `gate` at its end; returns the function that
   * takes it off.
   */
  install(client: McpClient, server: string, gate: Middleware): () => void {
    return client.use((ctx, next) => {
      ctx.serverName = server;
      const links = this.links;
      const run = (i: number): Promise<JsonObject> => {
        const link = links[i];
        return link === undefined ? gate(ctx, next) : link(ctx, () => run(i + 1));
      };
      return run(0);
    });
  }
}
