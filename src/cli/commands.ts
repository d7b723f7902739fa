/**
 * What each `mcp-live` command does with a connected client, in human form or as JSON.
 */
import { listEvents, watchEvents } from './eventsCommands.js';
import {
  ErrorCode,
  isRpcError,
  viewContents,
  type McpClient,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type SubscriptionEvent,
  type Tool,
} from '../index.js';
import type { Command, GlobalOptions, ListKind } from './args.js';
import { CliError, EXIT_ERROR, EXIT_OK, describeError, errorJson } from './errors.js';
import { ProgressLine, type CliIo } from './io.js';
import { completeAsTyped, completionNote } from './completeAsTyped.js';
import { runTaskCommand } from './taskCommands.js';
import {
  contentsText,
  describeClientEvent,
  describeContent,
  describeEvent,
  describeFilter,
  describePrompt,
  describeTool,
  foldText,
  serverIdentityLines,
  styleFor,
  type Style,
} from './render.js';

export interface CommandContext {
  client: McpClient;
  io: CliIo;
  options: GlobalOptions;
  style: Style;
}

/** Runs one command on a connected client; resolves with the exit code. */
export async function runCommand(ctx: CommandContext, command: Command): Promise<number> {
  switch (command.name) {
    case 'inspect':
      return inspect(ctx);
    case 'list':
      return list(ctx, command.kind);
    case 'read':
      return read(ctx, command.uri);
    case 'get-prompt':
      return getPrompt(ctx, command.prompt, command.args);
    case 'call':
      return call(ctx, command.tool, command.args, command.task);
    case 'complete':
      return complete(ctx, command);
    case 'watch':
      return watch(ctx, command.uris);
    case 'task':
      return runTaskCommand(ctx, command.action, command.taskId);
    case 'events':
      return command.action === 'list'
        ? listEvents(ctx)
        : watchEvents(ctx, command.event as string, command.args, command.cursor);
    case 'run':
    case 'skills':
    case 'complete-line':
    case 'devtools':
      // args.ts refuses these without --config.
      throw new Error(`${command.name} works on the servers of a --config file`);
  }
}

const line = (ctx: CommandContext, text = ''): void => void ctx.io.stdout.write(`${text}\n`);
const printJson = (ctx: CommandContext, value: unknown): void =>
  void ctx.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

// ---------------------------------------------------------------------------------------------
// Lists

interface KindInfo {
  method: 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';
  /** The result's array key, also the key of `--json` output. */
  key: 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
  /** What makes an item unique within the list. */
  id: (item: unknown) => string;
}

const KINDS: Record<ListKind, KindInfo> = {
  tools: { method: 'tools/list', key: 'tools', id: (item) => (item as Tool).name },
  prompts: { method: 'prompts/list', key: 'prompts', id: (item) => (item as Prompt).name },
  resources: { method: 'resources/list', key: 'resources', id: (item) => (item as Resource).uri },
  templates: {
    method: 'resources/templates/list',
    key: 'resourceTemplates',
    id: (item) => (item as ResourceTemplate).uriTemplate,
  },
};

/**
 * Every page of one list, with a progress line on stderr (a terminal only) while it walks.
 * The walk restarts from page one when the server rejects a cursor; page one then comes again,
 * so an item seen twice keeps its first place and its latest value.
 */
async function walk(ctx: CommandContext, kind: ListKind): Promise<{ items: unknown[]; pages: number }> {
  const { method, id } = KINDS[kind];
  const progress = new ProgressLine(ctx.io.stderr);
  const byId = new Map<string, unknown>();
  let pages = 0;
  try {
    progress.update(`${method}: first page`);
    for await (const page of ctx.client.pages(method, { signal: ctx.io.signal })) {
      pages++;
      for (const item of page.items as unknown[]) byId.set(id(item), item);
      progress.update(
        `${method}: ${byId.size} ${kind} in ${pages} page${pages === 1 ? '' : 's'}${page.nextCursor === undefined ? '' : ', more to come'}`,
      );
    }
  } finally {
    progress.clear();
  }
  return { items: [...byId.values()], pages };
}

/** The capability that offers each list. */
const CAPABILITY: Record<ListKind, 'tools' | 'prompts' | 'resources'> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  templates: 'resources',
};

/** Whether `error` says the server has no such list: -32601, its "Method not found". */
const isNotOffered = (error: unknown): boolean => isRpcError(error) && error.code === ErrorCode.MethodNotFound;

function notOffered(kind: ListKind, error?: unknown): CliError {
  const capability = CAPABILITY[kind];
  return new CliError(
    'NotOfferedError',
    ErrorCode.MethodNotFound,
    error === undefined
      ? `the server does not offer ${kind} (its capabilities have no "${capability}")`
      : `the server does not offer ${kind} (${KINDS[kind].method}: Method not found)`,
    { method: KINDS[kind].method, capability },
  );
}

async function list(ctx: CommandContext, kind: ListKind): Promise<number> {
  if (ctx.client.serverCapabilities?.[CAPABILITY[kind]] === undefined) throw notOffered(kind);
  let walked;
  try {
    walked = await walk(ctx, kind);
  } catch (error) {
    throw isNotOffered(error) ? notOffered(kind, error) : error;
  }
  const { items, pages } = walked;
  if (ctx.options.json) {
    printJson(ctx, { [KINDS[kind].key]: items, pages });
    return EXIT_OK;
  }
  const { style } = ctx;
  switch (kind) {
    case 'tools':
      for (const tool of items as Tool[]) line(ctx, describeTool(tool, style));
      break;
    case 'prompts':
      for (const prompt of items as Prompt[]) line(ctx, describePrompt(prompt, style));
      break;
    case 'resources': {
      const resources = items as Resource[];
      const width = Math.min(60, Math.max(0, ...resources.map((r) => r.uri.length)));
      const nameWidth = Math.min(40, Math.max(0, ...resources.map((r) => r.name.length)));
      for (const r of resources)
        line(ctx, `${r.uri.padEnd(width)}  ${r.name.padEnd(nameWidth)}  ${style.dim(r.mimeType ?? '')}`.trimEnd());
      break;
    }
    case 'templates':
      for (const t of items as ResourceTemplate[])
        line(ctx, `${t.uriTemplate}  ${t.name}${t.description ? style.dim(` — ${t.description}`) : ''}`);
      break;
  }
  if (ctx.io.stderr.isTTY)
    ctx.io.stderr.write(
      `${styleFor(ctx.io.stderr, ctx.io.env).dim(`${items.length} ${kind} in ${pages} page${pages === 1 ? '' : 's'}`)}\n`,
    );
  return EXIT_OK;
}

// ---------------------------------------------------------------------------------------------
// inspect

/** How much of the server's instructions `inspect` shows: lines, and characters per line. */
const INSTRUCTION_LINES = 6;
const INSTRUCTION_WIDTH = 120;

async function inspect(ctx: CommandContext): Promise<number> {
  const { client, style } = ctx;
  const capabilities = client.serverCapabilities ?? {};
  const count = async (kind: ListKind, offered: boolean): Promise<{ items: number; pages: number } | null> => {
    if (!offered) return null;
    try {
      const { items, pages } = await walk(ctx, kind);
      return { items: items.length, pages };
    } catch (error) {
      // A server may offer resources but not templates: -32601 means "no such list", not failure.
      if (kind === 'templates' && isNotOffered(error)) return null;
      throw error;
    }
  };
  const counts = {
    tools: await count('tools', capabilities.tools !== undefined),
    prompts: await count('prompts', capabilities.prompts !== undefined),
    resources: await count('resources', capabilities.resources !== undefined),
    resourceTemplates: await count('templates', capabilities.resources !== undefined),
  };
  if (ctx.options.json) {
    printJson(ctx, {
      serverInfo: client.serverInfo ?? null,
      serverIdentity: client.serverIdentity,
      era: client.era,
      protocolVersion: client.protocolVersion,
      supportedVersions: client.serverDiscovery?.supportedVersions ?? [],
      capabilities,
      instructions: client.instructions ?? null,
      counts: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v === null ? null : v.items])),
    });
    return EXIT_OK;
  }
  // Counts first: the part a glance is for. Long instructions come last, folded.
  line(ctx, style.bold('Counts'));
  const show = (label: string, value: { items: number; pages: number } | null): void =>
    line(
      ctx,
      `  ${label.padEnd(11)} ${value === null ? style.dim('not offered') : `${value.items}${value.pages > 1 ? style.dim(` (${value.pages} pages)`) : ''}`}`,
    );
  show('tools:', counts.tools);
  show('prompts:', counts.prompts);
  show('resources:', counts.resources);
  show('templates:', counts.resourceTemplates);
  line(ctx, style.bold('Server'));
  for (const text of serverIdentityLines(client, style, { instructions: false })) line(ctx, text);
  line(ctx, `  era:        ${client.era ?? '(unknown)'}`);
  line(ctx, `  capabilities: ${style.dim(JSON.stringify(capabilities))}`);
  if (client.instructions !== undefined && client.instructions.trim() !== '') {
    line(ctx, style.bold('Instructions'));
    for (const text of foldText(client.instructions, INSTRUCTION_LINES, INSTRUCTION_WIDTH)) line(ctx, style.dim(text));
  }
  return EXIT_OK;
}

// ---------------------------------------------------------------------------------------------
// read, get-prompt, call, complete

async function read(ctx: CommandContext, uri: string): Promise<number> {
  const result = await ctx.client.readResource(uri, { signal: ctx.io.signal });
  if (ctx.options.json) {
    printJson(ctx, result);
    return EXIT_OK;
  }
  const several = result.contents.length > 1;
  if (result.contents.length === 0)
    ctx.io.stderr.write(`${styleFor(ctx.io.stderr, ctx.io.env).dim('(the resource is empty)')}\n`);
  for (const item of result.contents) {
    const view = viewContents(item);
    if (several) line(ctx, ctx.style.dim(`── ${item.uri}${item.mimeType ? ` (${item.mimeType})` : ''}`));
    const text = contentsText(view);
    if (text !== undefined) ctx.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    else if (view.kind === 'blob')
      line(
        ctx,
        `${view.bytes().length} bytes of ${view.mimeType ?? 'binary data'} ${ctx.style.dim('(--json shows the base64)')}`,
      );
    else if (view.kind === 'invalid') line(ctx, `invalid contents: ${view.reason}`);
  }
  return EXIT_OK;
}

async function getPrompt(ctx: CommandContext, name: string, args: Record<string, string>): Promise<number> {
  const result = await ctx.client.getPrompt(name, args, { signal: ctx.io.signal });
  if (ctx.options.json) {
    printJson(ctx, result);
    return EXIT_OK;
  }
  if (result.description) line(ctx, ctx.style.dim(result.description));
  for (const message of result.messages) line(ctx, `${message.role}: ${describeContent(message.content)}`);
  return EXIT_OK;
}

async function call(ctx: CommandContext, tool: string, args: Record<string, unknown>, task: boolean): Promise<number> {
  const progress = new ProgressLine(ctx.io.stderr);
  let taskId: string | undefined;
  let result;
  try {
    result = await ctx.client.callTool(tool, args, {
      signal: ctx.io.signal,
      task: task ? 'auto' : 'off',
      // A task's states (Tasks extension): the id once, on its own line; then the status on the progress line.
      onTask: (state) => {
        if (taskId === undefined) {
          taskId = state.taskId;
          progress.clear();
          ctx.io.stderr.write(`${styleFor(ctx.io.stderr).dim(`mcp-live: ${tool} runs as task ${taskId}`)}\n`);
        }
        // While the task waits for input, the terminal is the question's (elicit.ts).
        if (state.status === 'input_required') progress.clear();
        else progress.update(`${tool}: ${state.status}${state.statusMessage ? ` (${state.statusMessage})` : ''}`);
      },
      onProgress: (p) => {
        if (taskId !== undefined) return;
        progress.update(
          `${tool}: ${p.progress}${p.total === undefined ? '' : `/${p.total}`}${p.message ? ` ${p.message}` : ''}`,
        );
      },
    });
  } finally {
    progress.clear();
  }
  if (ctx.options.json) printJson(ctx, result);
  else {
    for (const block of result.content) line(ctx, describeContent(block));
    if (result.structuredContent !== undefined)
      line(ctx, `${ctx.style.dim('structured:')} ${JSON.stringify(result.structuredContent)}`);
  }
  if (result.isError === true) {
    ctx.io.stderr.write(`mcp-live: the tool ${JSON.stringify(tool)} reported an error (isError: true)\n`);
    return EXIT_ERROR;
  }
  return EXIT_OK;
}

async function complete(ctx: CommandContext, command: Extract<Command, { name: 'complete' }>): Promise<number> {
  if (command.interactive) return completeAsTyped(ctx.client, ctx.io, command);
  // One value: the completer without a debounce, for its checks (capability, 100 values at most).
  const completer = ctx.client.completer(command.ref, { debounceMs: 0, cacheTtlMs: 0 });
  const outcome = await completer.complete(command.argument, command.value, command.context, {
    signal: ctx.io.signal,
  });
  if (outcome.status === 'superseded') throw new Error('the completion was superseded');
  if (outcome.status === 'unsupported') {
    if (ctx.options.json) printJson(ctx, { completion: { values: [] }, unsupported: outcome.reason });
    ctx.io.stderr.write(`mcp-live: nothing asked: ${outcome.reason}\n`);
    return EXIT_ERROR;
  }
  const { values, total, hasMore } = outcome;
  if (ctx.options.json) {
    printJson(ctx, {
      completion: { values, ...(total !== undefined && { total }), ...(hasMore !== undefined && { hasMore }) },
    });
    return EXIT_OK;
  }
  for (const value of values) line(ctx, value);
  const note = completionNote(outcome);
  if (note !== undefined) ctx.io.stderr.write(`${styleFor(ctx.io.stderr, ctx.io.env).dim(note)}\n`);
  return EXIT_OK;
}

// ---------------------------------------------------------------------------------------------
// watch

/** An event as one JSON line: the event's fields, an error as {name, code, message, data}, and the time. */
function eventJson(event: SubscriptionEvent | { type: 'subscribed' | 'closed'; [key: string]: unknown }): string {
  const out: Record<string, unknown> = { ...event };
  if (out['error'] !== undefined) out['error'] = errorJson(out['error']);
  out['time'] = new Date().toISOString();
  return JSON.stringify(out);
}

async function watch(ctx: CommandContext, uris: string[]): Promise<number> {
  const { client, io, style } = ctx;
  const timestamp = (): string => style.dim(new Date().toTimeString().slice(0, 8));
  const onEvent = (event: SubscriptionEvent): void => {
    if (ctx.options.json) io.stdout.write(`${eventJson(event)}\n`);
    else line(ctx, `${timestamp()} ${describeEvent(event)}`);
  };
  // A server that restarts does not end the watch: the client reconnects (and says so on stderr).
  client.on((event) => {
    if (event.type === 'state') return;
    if (ctx.options.json) {
      const cause =
        'cause' in event && event.cause.error !== undefined
          ? { cause: { ...event.cause, error: errorJson(event.cause.error) } }
          : {};
      io.stdout.write(`${JSON.stringify({ ...event, ...cause, time: new Date().toISOString() })}\n`);
      return;
    }
    const text = describeClientEvent(event);
    if (text !== undefined) io.stderr.write(`${styleFor(io.stderr, io.env).dim(`mcp-live: ${text}`)}\n`);
  });
  const subscription = await client.subscribe(
    {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      ...(uris.length > 0 && { resourceSubscriptions: uris }),
    },
    { signal: io.signal, onEvent },
  );
  // Judged by what is honoured, not by a subscription id: the 2025-11-25 wire has none.
  if (Object.keys(subscription.honoured).length === 0) {
    await subscription.close();
    throw new CliError(
      'NothingToWatchError',
      ErrorCode.SubscriptionClosed,
      `the server can deliver none of the changes asked for (not honoured: ${describeFilter(subscription.notHonoured)})`,
      { notHonoured: subscription.notHonoured },
    );
  }
  if (ctx.options.json) {
    io.stdout.write(
      `${eventJson({ type: 'subscribed', subscriptionId: subscription.subscriptionId ?? null, era: client.era, honoured: subscription.honoured, notHonoured: subscription.notHonoured })}\n`,
    );
  } else {
    line(ctx, `${timestamp()} watching ${describeFilter(subscription.honoured)}`);
    if (Object.keys(subscription.notHonoured).length > 0)
      line(ctx, style.dim(`  not honoured: ${describeFilter(subscription.notHonoured)}`));
    if (io.stderr.isTTY) io.stderr.write(`${styleFor(io.stderr, io.env).dim('(Ctrl-C to stop)')}\n`);
  }
  const closed = await subscription.closed;
  if (ctx.options.json)
    io.stdout.write(
      `${eventJson({ type: 'closed', reason: closed.reason, reopens: closed.reopens, ...(closed.error !== undefined && { error: closed.error }) })}\n`,
    );
  // `closed`: our signal aborted (Ctrl-C); anything else ended the watch without being asked.
  if (closed.reason === 'closed') return EXIT_OK;
  // A server that died: its exit and stderr tail, as for any other command.
  const why = `the subscription ended: ${closed.reason}${closed.error ? `\n  ${describeError(closed.error)}` : ''}`;
  if (!ctx.options.json) io.stderr.write(`mcp-live: ${why}\n`);
  return EXIT_ERROR;
}
