/**
 * `mcp-live --config <file>`: every server of a configuration file behind one `McpHost`.
 * `inspect` shows one table of every server (with a progress line while they connect), `list`
 * shows the catalog under exposed names, and `call`, `read`, `get-prompt` and `complete` route
 * to the server each name or URI belongs to, or to the one `--server` names. `run` runs a slash
 * command, `complete -i` completes a typed line, `skills` lists and reads the servers' skills.
 */
import { type DebugSink } from '../index.js';
import {
  HostRoutingError,
  McpHost,
  isHostConfigError,
  isHostRoutingError,
  type HostConfig,
  type HostServerStatus,
  type HostTool,
  type CreateTransport,
} from '../host.js';
import { StdioTransport } from '../node.js';
import { loadHostConfig, nodeTransport } from '../hostNode.js';
import type { Command, GlobalOptions, ListKind, ServerSpec } from './args.js';
import { diagnoseConnection } from './diagnose.js';
import { terminalElicitation } from './elicit.js';
import { EXIT_ERROR, EXIT_OK, EXIT_USAGE, describeError, errorJson, exitCodeFor } from './errors.js';
import { ProgressLine, type CliIo } from './io.js';
import { describeContent, describePrompt, describeTool, styleFor, type Style } from './render.js';
import { completeLine } from './completeLine.js';
import { runSkillsCommand } from './skillsCommands.js';
import { shorten } from '../util/text.js';

interface HostContext {
  host: McpHost;
  /** Each server's command line or URL, as the config file gives it. */
  targets: ReadonlyMap<string, string>;
  io: CliIo;
  options: GlobalOptions;
  style: Style;
  /** `--server`: the server read, call, get-prompt and complete go to (call and get-prompt by original name). */
  server: string | undefined;
}

const line = (ctx: HostContext, text = ''): void => void ctx.io.stdout.write(`${text}\n`);
const printJson = (ctx: HostContext, value: unknown): void =>
  void ctx.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** Runs one command on every server of the config file `spec.path`; resolves with the exit code. Never rejects. */
export async function runHostCommand(
  command: Command,
  spec: Extract<ServerSpec, { kind: 'config' }>,
  options: GlobalOptions,
  io: CliIo,
  settings: { clientName: string; clientVersion: string; debug: DebugSink | undefined },
): Promise<number> {
  const interactive = io.stdin?.isTTY === true;
  const env = io.env ?? process.env;
  const fail = (error: unknown, code: number): number => {
    if (options.json) io.stdout.write(`${JSON.stringify({ error: errorJson(error) }, null, 2)}\n`);
    else io.stderr.write(`mcp-live: ${code === 130 ? 'interrupted: ' : ''}${describeError(error, { interactive })}\n`);
    return code;
  };
  let host: McpHost;
  let config: HostConfig;
  try {
    config = await loadHostConfig(spec.path, { env });
    host = McpHost.fromConfig(config, {
      clientInfo: { name: settings.clientName, version: settings.clientVersion },
      createTransport: verboseTransport(options, io),
      client: {
        debug: settings.debug ?? false,
        ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
        ...(interactive &&
          io.stdin !== undefined && { handlers: { elicitation: { form: terminalElicitation(io.stdin, io.stderr) } } }),
      },
      onError: (error, server) =>
        void io.stderr.write(
          `${styleFor(io.stderr, env).dim(`mcp-live: warning${server === undefined ? '' : ` (${server})`}: ${error.message}`)}\n`,
        ),
    });
  } catch (error) {
    return fail(error, isHostConfigError(error) ? EXIT_USAGE : EXIT_ERROR);
  }
  const targets = new Map(
    Object.entries(config.servers).map(([name, entry]) => [
      name,
      entry.type === 'stdio'
        ? [entry.command, ...(entry.args ?? [])].join(' ')
        : entry.type === 'custom'
          ? ''
          : entry.url,
    ]),
  );
  const ctx: HostContext = {
    host,
    targets,
    io: { ...io, env },
    options,
    style: styleFor(io.stdout, env),
    server: spec.server,
  };
  try {
    await connectWithProgress(ctx);
    return await run(ctx, command);
  } catch (error) {
    const code = fail(withCliHint(error), exitCodeFor(error, io.signal));
    // A tool name the catalog does not have: say which names it does have.
    if (command.name === 'call' && !options.json && isHostRoutingError(error) && error.data.reason === 'unknown-tool')
      io.stderr.write(`${namesHint(host.tools())}\n`);
    return code;
  } finally {
    await host.close();
  }
}

/** The Node transports; with --verbose a stdio server's stderr is copied to ours, each line prefixed by its name. */
function verboseTransport(options: GlobalOptions, io: CliIo): CreateTransport {
  if (!options.verbose) return nodeTransport;
  return (location, context) => {
    if (location.type !== 'stdio' || context.authProvider !== undefined) return nodeTransport(location, context);
    return new StdioTransport({
      command: location.command,
      args: [...(location.args ?? [])],
      ...(location.env !== undefined && { env: { ...location.env } }),
      ...(location.cwd !== undefined && { cwd: location.cwd }),
      stderr: (chunk) => void io.stderr.write(String(chunk).replace(/^(?=.)/gm, `[${context.server}] `)),
    });
  };
}

/** Connects every server; on a terminal, one progress line says how many have settled. */
async function connectWithProgress(ctx: HostContext): Promise<void> {
  const { host, io } = ctx;
  const progress = new ProgressLine(io.stderr);
  const total = host.servers.filter((s) => s.state === 'new').length;
  const show = (): void => {
    const settled = host.servers.filter((s) => s.state !== 'new' && s.state !== 'connecting');
    const waiting = host.servers.filter((s) => s.state === 'connecting').map((s) => s.name);
    progress.update(
      `connecting: ${settled.length - (host.servers.length - total)} of ${total} settled${waiting.length > 0 ? `; waiting for ${waiting.join(', ')}` : ''}`,
    );
  };
  const off = host.on((event) => {
    if (event.type === 'state') show();
  });
  try {
    show();
    await host.connect({ signal: io.signal });
  } finally {
    off();
    progress.clear();
  }
}

async function run(ctx: HostContext, command: Command): Promise<number> {
  const { host, io } = ctx;
  switch (command.name) {
    case 'inspect':
      return inspect(ctx);
    case 'list':
      return list(ctx, command.kind);
    case 'call': {
      const tool = ctx.server === undefined ? command.tool : { server: ctx.server, name: command.tool };
      const result = await host.callTool(tool, command.args, { signal: io.signal });
      if (ctx.options.json) printJson(ctx, result);
      else {
        for (const block of result.content) line(ctx, describeContent(block));
        if (result.structuredContent !== undefined)
          line(ctx, `${ctx.style.dim('structured:')} ${JSON.stringify(result.structuredContent)}`);
      }
      if (result.isError !== true) return EXIT_OK;
      io.stderr.write(`mcp-live: the tool ${JSON.stringify(command.tool)} reported an error (isError: true)\n`);
      return EXIT_ERROR;
    }
    case 'read': {
      const result = await host.readResource(command.uri, { signal: io.signal, server: ctx.server });
      if (ctx.options.json) printJson(ctx, result);
      else
        for (const item of result.contents)
          line(ctx, 'text' in item ? item.text : `${item.mimeType ?? 'binary data'} (--json shows the base64)`);
      return EXIT_OK;
    }
    case 'get-prompt': {
      const prompt = ctx.server === undefined ? command.prompt : { server: ctx.server, name: command.prompt };
      const result = await host.getPrompt(prompt, command.args, { signal: io.signal });
      if (ctx.options.json) printJson(ctx, result);
      else for (const message of result.messages) line(ctx, `${message.role}: ${describeContent(message.content)}`);
      return EXIT_OK;
    }
    case 'complete': {
      const context = Object.keys(command.context).length > 0 ? { arguments: command.context } : undefined;
      const result = await host.complete(command.ref, { name: command.argument, value: command.value }, context, {
        signal: io.signal,
        server: ctx.server,
      });
      if (ctx.options.json) printJson(ctx, result);
      else for (const value of result.completion.values) line(ctx, value);
      return EXIT_OK;
    }
    case 'run':
      return runSlash(ctx, command.line);
    case 'complete-line':
      return completeLine(host, io);
    case 'skills':
      return runSkillsCommand(ctx, command);
    case 'devtools':
      return devtools(ctx, command.port);
    case 'watch':
    case 'task':
    case 'events':
      // args.ts refuses watch, task and events with --config.
      throw new Error(`${command.name} works on one server`);
  }
}

/**
 * `devtools`: the devtools page over this host (mcp-live/devtools, loaded for this command only)
 * on 127.0.0.1, its URL (with the token: the page is the CLI user's) on stdout, served until
 * Ctrl-C; then closed, exit code 0.
 */
async function devtools(ctx: HostContext, port: number): Promise<number> {
  const { io } = ctx;
  const signal = io.signal ?? new AbortController().signal;
  const { serveDevtools } = await import('../devtools.js');
  const served = await serveDevtools(ctx.host, { port, signal });
  try {
    if (ctx.options.json) printJson(ctx, { url: served.url, port: served.port });
    else line(ctx, `devtools: ${served.url}`);
    if (io.stderr.isTTY)
      io.stderr.write(`${styleFor(io.stderr, io.env).dim('(Ctrl-C to stop)')}
`);
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await served.close();
  }
  return EXIT_OK;
}

/** `run '<line>'`: the slash command's prompt, its messages printed as get-prompt prints them. */
async function runSlash(ctx: HostContext, text: string): Promise<number> {
  const run = await ctx.host.runSlashCommand(text, { signal: ctx.io.signal });
  if (ctx.options.json)
    printJson(ctx, {
      command: run.command.command,
      server: run.command.server,
      prompt: run.command.name,
      arguments: run.arguments,
      result: run.result,
    });
  else for (const message of run.result.messages) line(ctx, `${message.role}: ${describeContent(message.content)}`);
  return EXIT_OK;
}

/**
 * The library's ambiguous-resource error says "pass { server }", an option of `McpHost`; on the
 * command line that choice is `--server`. Same code and data, so `--json` output is unchanged
 * but for the message.
 */
function withCliHint(error: unknown): unknown {
  if (!isHostRoutingError(error) || error.data.reason !== 'ambiguous-resource') return error;
  const servers = (error.data.servers ?? []).map((s) => JSON.stringify(s)).join(' and ');
  return new HostRoutingError(
    `${error.data.uri ?? 'the URI'} could be served by ${servers}: choose one with --server <name>`,
    error.data,
    error.cause,
  );
}

function namesHint(tools: readonly HostTool[]): string {
  const names = tools.map((t) => t.exposedName);
  return `mcp-live: the tools are ${names.length === 0 ? '(none)' : names.slice(0, 20).join(', ')}${names.length > 20 ? `, … (${names.length} in all; mcp-live list tools --config …)` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// inspect: one table

interface Row {
  status: HostServerStatus;
  counts: Record<'tools' | 'prompts' | 'resources' | 'resourceTemplates', number> | undefined;
}

function rows(host: McpHost): Row[] {
  return host.servers.map((status) => {
    if (status.state !== 'open') return { status, counts: undefined };
    const count = (items: readonly { server: string }[]): number =>
      items.filter((i) => i.server === status.name).length;
    return {
      status,
      counts: {
        tools: count(host.tools()),
        prompts: count(host.prompts()),
        resources: count(host.resources()),
        resourceTemplates: count(host.resourceTemplates()),
      },
    };
  });
}

function inspect(ctx: HostContext): number {
  const { host, style } = ctx;
  const table = rows(host);
  if (ctx.options.json) {
    printJson(ctx, {
      servers: table.map(({ status, counts }) => ({
        name: status.name,
        state: status.state,
        type: status.type ?? null,
        era: status.era ?? null,
        protocolVersion: status.protocolVersion ?? null,
        serverInfo: status.serverInfo ?? null,
        counts: counts ?? null,
        lastError: status.lastError === undefined ? null : errorJson(status.lastError),
      })),
      collisions: { tools: host.catalog.toolCollisions, prompts: host.catalog.promptCollisions },
    });
    return inspectExitCode(table);
  }
  const header = ['SERVER', 'STATE', 'TYPE', 'VERSION', 'TOOLS', 'PROMPTS', 'RESOURCES', 'TEMPLATES', 'LAST ERROR'];
  const cells = table.map(({ status, counts }) => [
    status.name,
    status.state,
    status.type ?? '-',
    status.protocolVersion === undefined ? '-' : `${status.protocolVersion}${status.era === 'legacy' ? '*' : ''}`,
    counts === undefined ? '-' : String(counts.tools),
    counts === undefined ? '-' : String(counts.prompts),
    counts === undefined ? '-' : String(counts.resources),
    counts === undefined ? '-' : String(counts.resourceTemplates),
    status.lastError === undefined ? '' : firstLine(status.lastError),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const format = (values: string[]): string =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  line(ctx, style.bold(format(header)));
  for (const values of cells) line(ctx, format(values));
  if (table.some((r) => r.status.era === 'legacy'))
    line(ctx, style.dim('* a 2025-11-25-era server (initialize handshake)'));
  const collisions = host.catalog.toolCollisions;
  if (collisions.length > 0) {
    line(ctx, style.bold('Tool name collisions (each tool renamed, none dropped)'));
    for (const c of collisions)
      line(
        ctx,
        `  ${c.exposedName}: ${c.items.map((item, i) => `${item.server}/${item.name}${c.exposedNames[i] ? ` → ${c.exposedNames[i]}` : ''}`).join(', ')}`,
      );
  }
  for (const { status } of table) {
    const error = status.lastError;
    if (error === undefined || status.state === 'open' || status.state === 'disabled') continue;
    // A server that cannot be reached gets the one line the single-server commands give it.
    const target = ctx.targets.get(status.name);
    const diagnosis = target === undefined ? undefined : diagnoseConnection(error, target);
    if (diagnosis !== undefined && !ctx.options.debug)
      ctx.io.stderr.write(
        `mcp-live: ${status.name}: ${diagnosis.summary} ${styleFor(ctx.io.stderr, ctx.io.env).dim('(--debug for details)')}\n`,
      );
    else ctx.io.stderr.write(`mcp-live: ${status.name}: ${describeError(error, { brief: !ctx.options.debug })}\n`);
  }
  return inspectExitCode(table);
}

/**
 * 0 when every enabled server is open (a file of disabled servers only, or none, included); 1
 * when any enabled server failed, so that a script can tell. The table is printed either way.
 */
function inspectExitCode(table: readonly Row[]): number {
  return table.every((r) => r.status.state === 'open' || r.status.state === 'disabled') ? EXIT_OK : EXIT_ERROR;
}

function firstLine(error: Error): string {
  const text = error.message.split('\n')[0] ?? '';
  return shorten(text, 80, '...');
}

// ---------------------------------------------------------------------------------------------
// list

function list(ctx: HostContext, kind: ListKind): number {
  const { host, style } = ctx;
  if (ctx.options.json) {
    const out =
      kind === 'tools'
        ? { tools: host.tools().map((t) => ({ exposedName: t.exposedName, server: t.server, tool: t.tool })) }
        : kind === 'prompts'
          ? { prompts: host.prompts().map((p) => ({ exposedName: p.exposedName, server: p.server, prompt: p.prompt })) }
          : kind === 'resources'
            ? { resources: host.resources() }
            : { resourceTemplates: host.resourceTemplates() };
    printJson(ctx, out);
    return host.servers.some((s) => s.state === 'failed') ? EXIT_ERROR : EXIT_OK;
  }
  const tag = (server: string): string => style.dim(`[${server}]`);
  switch (kind) {
    case 'tools':
      for (const t of host.tools())
        line(ctx, `${describeTool({ ...t.tool, name: t.exposedName }, style)} ${tag(t.server)}`);
      break;
    case 'prompts':
      for (const p of host.prompts())
        line(ctx, `${describePrompt({ ...p.prompt, name: p.exposedName }, style)} ${tag(p.server)}`);
      break;
    case 'resources':
      for (const r of host.resources()) line(ctx, `${r.resource.uri}  ${r.resource.name} ${tag(r.server)}`);
      break;
    case 'templates':
      for (const t of host.resourceTemplates())
        line(ctx, `${t.resourceTemplate.uriTemplate}  ${t.resourceTemplate.name} ${tag(t.server)}`);
      break;
  }
  const failed = host.servers.filter((s) => s.state === 'failed');
  if (failed.length > 0)
    ctx.io.stderr.write(
      `${styleFor(ctx.io.stderr, ctx.io.env).dim(`mcp-live: not listed: ${failed.map((s) => `${s.name} (${s.lastError ? firstLine(s.lastError) : 'failed'})`).join(', ')}`)}\n`,
    );
  // As inspect: a script can tell that the list is missing a server's part.
  return failed.length > 0 ? EXIT_ERROR : EXIT_OK;
}
