/**
 * `mcp-live events list` and `mcp-live events watch <name> [args] [--cursor <cursor>]`: the
 * Triggers & Events extension on one server. `watch` subscribes (push when the type offers it,
 * else poll; never webhook, which needs a public receiver), prints each occurrence and gap until
 * Ctrl-C, and writes the last cursor to stderr so that a later run can go on from it.
 */
import type { EventMessage, McpClient } from '../index.js';
import type { GlobalOptions } from './args.js';
import { EXIT_OK } from './errors.js';
import type { CliIo } from './io.js';
import type { Style } from './render.js';

/** What the events commands need (a `CommandContext` is one). */
export interface EventsCommandContext {
  client: McpClient;
  io: CliIo;
  options: GlobalOptions;
  style: Style;
}

const out = (ctx: EventsCommandContext, text: string): void => void ctx.io.stdout.write(`${text}\n`);

/** `events list`: every event type with its delivery modes and description. */
export async function listEvents(ctx: EventsCommandContext): Promise<number> {
  const listing = await ctx.client.events.list({ signal: ctx.io.signal });
  if (ctx.options.json) {
    out(ctx, JSON.stringify(listing, null, 2));
    return EXIT_OK;
  }
  if (listing.events.length === 0) out(ctx, ctx.style.dim('(no event types)'));
  for (const type of listing.events)
    out(
      ctx,
      `${type.name}  ${ctx.style.dim(`[${type.delivery.join(', ')}]`)}${type.description ? `  ${type.description}` : ''}`,
    );
  for (const skipped of listing.skipped) ctx.io.stderr.write(`left out: ${skipped}\n`);
  return EXIT_OK;
}

/** `events watch`: occurrences and gaps until Ctrl-C (exit 0) or the server ends it (exit 1, thrown). */
export async function watchEvents(
  ctx: EventsCommandContext,
  name: string,
  args: Record<string, unknown>,
  cursor: string | undefined,
): Promise<number> {
  const subscription = await ctx.client.events.subscribe(name, args, {
    forbid: ['webhook'],
    ...(cursor !== undefined && { cursor }),
    signal: ctx.io.signal,
  });
  ctx.io.stderr.write(`watching ${name} (${subscription.mode}); Ctrl-C stops\n`);
  const print = (message: EventMessage): void => {
    if (ctx.options.json) out(ctx, JSON.stringify(message));
    else if (message.type === 'truncated')
      out(ctx, ctx.style.dim(`-- gap (${message.via}): events may have been skipped; cursor ${message.cursor}`));
    else {
      const { eventId, timestamp, data } = message.occurrence;
      out(ctx, `${timestamp}  ${eventId}  ${JSON.stringify(data)}`);
    }
  };
  subscription.on((event) => {
    if (event.type === 'occurrence' || event.type === 'truncated') print(event);
    else if (event.type === 'error') ctx.io.stderr.write(`retrying: ${event.error.message}\n`);
  });
  const stop = (): void => void subscription.close();
  ctx.io.signal?.addEventListener('abort', stop, { once: true });
  const closed = await subscription.closed;
  ctx.io.signal?.removeEventListener('abort', stop);
  ctx.io.stderr.write(`last cursor: ${subscription.cursor ?? 'null'}\n`);
  if (closed.error !== undefined) throw closed.error;
  return EXIT_OK;
}
